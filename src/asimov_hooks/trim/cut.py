"""A trim plan as text edits: which line ranges of a checkpoint go (`plan_cut`), the
text that remains (`render`) and what the remaining text must parse to
(`expected_data`), from the layout of `trim/layout`."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs every commit
    from typing import Any


def lines_phrase(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


class Cut:
    """Text edits of one plan and what they remove."""

    __slots__ = (
        "chars",
        "dropped",
        "edits",
        "kept",
        "kept_nodes",
        "lines",
        "messages",
        "removed",
        "scalars",
    )

    def __init__(self) -> None:
        self.lines: list[tuple[int, int]] = []  # inclusive line ranges
        self.chars: list[tuple[int, int, str]] = []  # (start, end, replacement)
        self.removed: dict[str, Any] = {}
        self.kept: dict[str, list[Any]] = {}  # windowed lists after the cut
        self.kept_nodes: dict[str, list[Any]] = {}  # ... and their items' nodes
        self.dropped: list[str] = []
        self.scalars: list[tuple[int, int]] = []
        self.messages: list[str] = []
        self.edits: list[tuple[int, int, str]] = []  # set by render()


def plan_cut(layout: Any, windows: dict[str, tuple[str, int]], drop: list[str], why: str) -> Cut:
    """The edits that keep `windows` of the lists and remove the `drop` fields."""
    from .layout import iter_scalars

    cut = Cut()
    for key, fld in layout.fields.items():
        if key in drop:
            cut.lines.append((fld.lead, fld.trail))
            cut.removed[key] = fld.value
            cut.dropped.append(key)
            cut.scalars += iter_scalars(fld.key_node) + iter_scalars(fld.node)
            cut.messages.append(f"removed optional field {key} ({lines_phrase(fld.line_count)})")
            continue
        if key not in windows or not fld.items:
            continue
        keep, count = windows[key]
        items = fld.items
        total = len(items)
        if count >= total:
            continue
        if keep == "last":
            gone, kept = items[: total - count], items[total - count :]
        else:
            gone, kept = items[count:], items[:count]
        if fld.style == "block-seq":
            if count == 0:
                cut.lines.append((items[0].first, items[-1].last))
                cut.chars.append(_empty_marker(layout, fld))
            elif keep == "last":
                cut.lines.append((items[0].first, gone[-1].last))
            else:
                cut.lines.append((kept[-1].last + 1, items[-1].last))
        else:
            text = layout.text
            if count == 0:
                opening = text.index("[", fld.node.start_mark.index)
                cut.chars.append((opening + 1, fld.node.end_mark.index - 1, ""))
            elif keep == "last":
                cut.chars.append(
                    (items[0].node.start_mark.index, kept[0].node.start_mark.index, "")
                )
            else:
                cut.chars.append((kept[-1].node.end_mark.index, items[-1].node.end_mark.index, ""))
        cut.removed[key] = [item.value for item in gone]
        cut.kept[key] = [item.value for item in kept]
        cut.kept_nodes[key] = [item.node for item in kept]
        for item in gone:
            cut.scalars += iter_scalars(item.node)
        cut.messages.append(
            f"{key}: removed {len(gone)} of {total} items, kept the {keep} {count} ({why})"
        )
    return cut


def _empty_marker(layout: Any, fld: Any) -> tuple[int, int, str]:
    """Insert ` []` after `key:` (and any tag/anchor) so an emptied block list stays a list."""
    from .layout import Refused

    text, lines = layout.text, layout.lines
    line_end = lines.start(fld.key_line) + len(lines.get(fld.key_line))
    colon = text.find(":", fld.key_node.end_mark.index, line_end)
    if colon == -1:
        raise Refused(f"cannot empty {fld.key}: its `:` is not on the key line", fld.key_line + 1)
    rest = text[colon + 1 : line_end]
    props = 0
    for word in rest.split():
        if word[0] in "!&":
            props = rest.index(word, props) + len(word)
        else:
            break
    return (colon + 1 + props, colon + 1 + props, " []")


def render(layout: Any, cut: Cut, final_newline_as_before: bool = True) -> str:
    """The original text with the cut's ranges deleted (and its insertions made).

    When the last line goes and it had no newline, the new last line loses its
    newline too, unless `final_newline_as_before` is off: a `|` block scalar that
    becomes the last value would lose a character of its content.
    """
    from .layout import Refused

    text, lines = layout.text, layout.lines
    merged: list[list[int]] = []
    for first, last in sorted(cut.lines):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    edits = [(lines.start(a), lines.start(b + 1), "") for a, b in merged]
    if (
        final_newline_as_before
        and edits
        and edits[-1][1] == len(text)
        and not text.endswith("\n")
        and edits[-1][0] > 0
    ):
        start = edits[-1][0]
        edits[-1] = (start - (2 if text[start - 2 : start] == "\r\n" else 1), len(text), "")
    edits += cut.chars
    edits.sort()
    out: list[str] = []
    pos = 0
    for start, end, replacement in edits:
        if start < pos:
            raise Refused("internal: overlapping cuts; file left untouched")
        out += (text[pos:start], replacement)
        pos = end
    out.append(text[pos:])
    cut.edits = edits
    return "".join(out)


def removed_comments(layout: Any, cut: Cut) -> list[str]:
    from .layout import comments_in

    found: list[str] = []
    for start, end, _ in cut.edits:
        if end > start:
            found += comments_in(layout.text, start, end, cut.scalars)
    return found


def expected_data(layout: Any, cut: Cut) -> dict[Any, Any]:
    return {
        key: cut.kept.get(key, value)
        for key, value in layout.data.items()
        if key not in cut.dropped
    }


def cut_anchor(layout: Any, cut: Cut) -> tuple[str, int] | None:
    """(anchor name, its line) of an anchor the cut removes while a kept part still
    refers to it (`*name`), else None: such a cut would leave a dangling alias."""
    lines = layout.lines
    spans = [(lines.start(first), lines.start(last + 1)) for first, last in cut.lines]
    spans += [(start, end) for start, end, _ in cut.chars]

    def removed(node: Any) -> bool:
        index = node.start_mark.index
        return any(start <= index < end for start, end in spans)

    kept: list[Any] = []
    for key, fld in layout.fields.items():
        if key not in cut.dropped:
            kept += cut.kept_nodes.get(key, [fld.key_node, fld.node])
    seen: set[int] = set()
    while kept:
        node = kept.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if getattr(node, "anchor", None) and removed(node):
            return node.anchor, node.start_mark.line + 1
        if type(node).__name__ == "SequenceNode":
            kept.extend(node.value)
        elif type(node).__name__ == "MappingNode":
            for pair in node.value:
                kept.extend(pair)
    return None
