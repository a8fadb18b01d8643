"""Where each part of a checkpoint sits in its text, so the trimmer can cut by ranges.

The trimmer never re-emits YAML. Re-dumping a round-trip tree is where ruamel.yaml
loses or moves comments, so instead the original text is parsed only to learn where
things are (node start/end marks), whole line ranges (or, inside a flow list, character
ranges) are deleted, and the result is parsed again and compared with the data we
expect. Every byte outside a deleted range therefore survives as it was.

Which lines belong to what (docs/trim.md explains this to users):

- A list item owns its dash line through its last content line, plus the blank and
  comment lines between the previous item and it: a comment describes what follows it.
- A list's header (lines between `key:` and the first item) and its trailer (comments
  indented deeper than the top-level keys after the last item) belong to the list and
  stay as long as the key stays.
- A top-level field owns its key line through its value and trailer, plus the blank
  lines and column-0 comments between the previous field and it.
- The document header (before the first key) and trailer (after the last field's own
  lines) are never removed.

The parse itself and the helpers that read its results are in `parsing` (re-exported
here); this module locates the parts.
"""

from __future__ import annotations

import bisect
import re

from .parsing import (
    Refused,
    _node_kind,
    comments_in,
    iter_scalars,
    parse,
    same,
    shape_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing and dataclasses cost every commit ~10 ms
    from typing import Any

__all__ = [
    "Field",
    "Item",
    "Layout",
    "Lines",
    "Refused",
    "analyze",
    "comments_in",
    "iter_scalars",
    "last_line",
    "parse",
    "same",
    "shape_name",
]

# Characters that YAML (or ruamel.yaml) may treat as line breaks while we count only
# "\n": with them the two views of "line N" would disagree.
_ODD_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")
_BLOCK_HEADER = re.compile(r"(?:[!&][^\s]*[ \t]+)*[|>]([0-9+-]*)")


class Lines:
    """Line starts of a text, splitting on "\\n" only, as git and sizes.count_lines do."""

    __slots__ = ("count", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        if len(starts) > 1 and starts[-1] == len(text):
            starts.pop()  # a final newline does not open another line
        self.starts = starts
        self.count = len(starts) if text else 0

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def start(self, line: int) -> int:
        return self.starts[line] if line < self.count else len(self.text)

    def get(self, line: int) -> str:
        """The line without its terminator."""
        return self.text[self.start(line) : self.start(line + 1)].rstrip("\r\n")

    def is_blank(self, line: int) -> bool:
        return not self.get(line).strip()

    def is_comment(self, line: int) -> bool:
        return self.get(line).lstrip().startswith("#")

    def indent(self, line: int) -> int:
        text = self.get(line)
        return len(text) - len(text.lstrip(" \t"))


class Item:
    """One string in a top-level list."""

    __slots__ = ("first", "last", "node", "value")

    def __init__(self, value: Any, node: Any, first: int, last: int) -> None:
        self.value, self.node = value, node
        self.first = first  # block: dash line (the lines between the previous item and it too)
        self.last = last  # block: last content line


class Field:
    """One top-level key with its value."""

    __slots__ = (
        "items",
        "key",
        "key_line",
        "key_node",
        "last",
        "lead",
        "node",
        "style",
        "trail",
        "value",
    )

    def __init__(
        self, key: Any, value: Any, key_node: Any, node: Any, key_line: int, last: int
    ) -> None:
        self.key, self.value, self.key_node, self.node = key, value, key_node, node
        self.key_line = key_line
        self.last = last  # last line of the value's content
        self.lead = -1  # first line it owns above the key (== key_line if none)
        self.trail = -1  # last line it owns below the value (== last if none)
        self.style = "other"  # "block-seq", "flow-seq" or "other"
        self.items: list[Item] = []

    @property
    def line_count(self) -> int:
        return self.trail - self.lead + 1


class Layout:
    """A parsed checkpoint: its data and where every top-level part sits."""

    def __init__(self, text: str, data: Any, root: Any) -> None:
        self.text = text
        self.lines = Lines(text)
        self.data = data
        self.root = root
        self.fields: dict[Any, Field] = {}
        self.root_col = 0


def _block_keeps_trailing(text: str, node: Any) -> bool:
    """A `|+` / `>+` block scalar: its trailing blank lines are content."""
    match = _BLOCK_HEADER.match(text, node.start_mark.index)
    return bool(match) and "+" in match.group(1)


def last_line(layout: Layout, node: Any, floor: int) -> int:
    """Last line holding `node`'s content (never before `floor`).

    End marks of block collections and block scalars point at the next token, past
    trailing comments and blank lines, so collections recurse into their last child
    and block scalars step back over blank lines unless those are content (`|+`).
    """
    lines = layout.lines
    start, end = node.start_mark.index, node.end_mark.index
    kind = _node_kind(node)
    if kind == "ScalarNode":
        if end <= start:
            return floor
        line = lines.line_of(end - 1)
        if node.style in ("|", ">"):
            first = lines.line_of(start)
            if not _block_keeps_trailing(layout.text, node):
                while line > first and lines.is_blank(line):
                    line -= 1
        return max(floor, line)
    if node.flow_style:
        return max(floor, lines.line_of(end - 1))
    if kind == "SequenceNode":
        if not node.value:
            return max(floor, lines.line_of(end - 1))
        child = node.value[-1]
        return last_line(layout, child, max(floor, lines.line_of(child.start_mark.index)))
    if kind == "MappingNode":
        if not node.value:
            return max(floor, lines.line_of(end - 1))
        key, value = node.value[-1]
        key_last = last_line(layout, key, max(floor, lines.line_of(key.start_mark.index)))
        return last_line(layout, value, key_last)
    return max(floor, lines.line_of(max(start, end - 1)))


# ------------------------------------------------------------------ analysis
def analyze(
    text: str,
    list_fields: frozenset[str] | set[str],
    max_nodes: int = 100_000,
    limits: dict[str, int] | None = None,
) -> Layout:
    """Parse `text` and locate every top-level field and the items of `list_fields`.

    Raises Refused for anything the range-cutting approach cannot handle safely.
    """
    odd = _ODD_BREAKS.search(text)
    if odd:
        line = text.count("\n", 0, odd.start()) + 1
        raise Refused("contains a line break other than LF or CRLF (lone CR, NEL, LS or PS)", line)
    root, data = parse(text, max_nodes, limits)
    layout = Layout(text, data, root)
    if root is None:
        return layout
    if _node_kind(root) != "MappingNode" or not isinstance(data, dict):
        raise Refused(f"the document is {shape_name(data)}, not a mapping of checkpoint fields")
    if root.flow_style:
        raise Refused("the top-level mapping is in flow style ({...}); only block style is trimmed")
    lines = layout.lines
    pairs = root.value
    if not pairs:
        return layout
    keys = list(data.keys())
    if len(keys) != len(pairs):
        raise Refused("the top-level keys do not match the parsed mapping; cannot trim safely")
    layout.root_col = pairs[0][0].start_mark.column
    previous_last = -1
    fields: list[Field] = []
    for key, (key_node, value_node) in zip(keys, pairs, strict=True):
        if _node_kind(key_node) != "ScalarNode":
            raise Refused("uses a complex key; cannot trim safely", key_node.start_mark.line + 1)
        key_line = lines.line_of(key_node.start_mark.index)
        if key_line <= previous_last or lines.get(key_line).lstrip().startswith("?"):
            raise Refused(
                f"key {key!r} is not on a line of its own (explicit `?` key or a value sharing "
                "its line); cannot trim safely",
                key_line + 1,
            )
        key_end = lines.line_of(max(key_node.start_mark.index, key_node.end_mark.index - 1))
        if value_node.start_mark.index < key_node.end_mark.index:
            raise Refused(
                f"{key} is an alias (*name) of another node; cannot trim safely", key_line + 1
            )
        value_last = last_line(layout, value_node, key_end)
        item = Field(key, data[key], key_node, value_node, key_line, value_last)
        item.lead, item.trail = key_line, value_last
        if key in list_fields and _node_kind(value_node) == "SequenceNode":
            _locate_items(layout, item, key_end)
            if item.items and item.items[-1].last > value_last:  # ends with `- *name`
                value_last = item.last = item.trail = item.items[-1].last
        fields.append(item)
        previous_last = value_last
    _assign_between(layout, fields)
    layout.fields = {f.key: f for f in fields}
    return layout


def _locate_items(layout: Layout, fld: Field, key_end: int) -> None:
    lines = layout.lines
    text = layout.text
    seq = fld.node
    values = fld.value
    fld.style = "flow-seq" if seq.flow_style else "block-seq"
    previous_end = seq.start_mark.index
    after = key_end  # block: last line owned so far
    for index, (node, value) in enumerate(zip(seq.value, values, strict=True)):
        # an alias (`- *name`) is the anchored node again, marks and all: it stands on
        # its dash line, which a block list cuts by; a flow list cuts by the node marks
        alias = node.start_mark.index < previous_end
        if alias and seq.flow_style:
            raise Refused(
                f"{fld.key}[{index}] is an alias (*name) in a [...] list; cannot trim safely",
                node.start_mark.line + 1,
            )
        if not alias:
            previous_end = node.end_mark.index
        if seq.flow_style:
            fld.items.append(Item(value, node, -1, -1))
            continue
        if index == 0 and text.startswith("-", seq.start_mark.index):
            dash = lines.line_of(seq.start_mark.index)
        else:
            dash = after + 1
            while dash < lines.count and (lines.is_blank(dash) or lines.is_comment(dash)):
                dash += 1
        if (
            dash >= lines.count
            or not lines.get(dash).lstrip().startswith("-")
            or (not alias and dash > lines.line_of(node.start_mark.index))
            or (alias and not lines.get(dash).lstrip()[1:].lstrip().startswith("*"))
        ):
            raise Refused(
                f"cannot find the dash of {fld.key}[{index}]; cannot trim safely", dash + 1
            )
        if alias:  # `- *name` is one token on the dash line
            fld.items.append(Item(value, node, dash, dash))
            after = dash
            previous_end = max(previous_end, lines.start(dash + 1))
            continue
        last = last_line(layout, node, max(dash, lines.line_of(node.start_mark.index)))
        fld.items.append(Item(value, node, dash, last))
        after = last


def _assign_between(layout: Layout, fields: list[Field]) -> None:
    """Split the lines between fields: indented comments trail the field above, the rest leads the next."""
    lines = layout.lines
    for index, fld in enumerate(fields):
        stop = fields[index + 1].key_line if index + 1 < len(fields) else lines.count
        trail = fld.last
        line = fld.last + 1
        while line < stop:
            if lines.is_blank(line):
                line += 1
                continue
            if lines.is_comment(line) and lines.indent(line) > layout.root_col:
                trail = line
                line += 1
                continue
            break
        fld.trail = trail
        if index + 1 < len(fields):
            nxt = fields[index + 1]
            for between in range(trail + 1, stop):
                if not (lines.is_blank(between) or lines.is_comment(between)):
                    raise Refused(
                        f"unexpected content between {fld.key} and {nxt.key}; cannot trim safely",
                        between + 1,
                    )
            nxt.lead = trail + 1
