"""Positions in a text `simple_yaml` reads (the plain shape), where libyaml's node marks
put each key and value (`fast_yaml._node_position` reads them off composed nodes),
worked out from the text's lines when a finding first asks for one.

A finding about a top-level key (most of them: an unknown key, a list over its cap, a
value outside an enum) is placed from the key's own line, found by a search of the text:
in the plain shape a top-level key is a plain word at the start of its line, at the
first key's indentation, and appears once. A deeper path is placed from the marked
nodes of the whole text. `tests/test_simple_yaml.py` holds both to libyaml's marks.
"""

from __future__ import annotations

from bisect import bisect_right

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any


def read_locator(text: str) -> Any:
    """`simple_yaml.simple_locator` for a text `simple_data` has read already."""
    found: list[Any] = []

    def locate(path: Any, on_key: bool = False) -> tuple[int, int]:
        if len(path) < 2:
            mark = _top_mark(text, path, on_key)
            if mark is not None:
                return mark
        if not found:
            rows = _marked_rows(text.split("\n"))
            found.append(_marked_mapping(rows, 0, rows[0][0])[0])
        return _position(found[0], path, on_key)

    return locate


def _marked_rows(lines: list[str]) -> list[tuple[int, str, int]]:
    """`_rows` with each row's line number (0-based)."""
    rows = []
    for number, line in enumerate(lines):
        content = line.lstrip(" ")
        if content and content[0] != "#":
            rows.append((len(line) - len(content), content.rstrip(" "), number))
    return rows


def _marked_mapping(rows: list[tuple[int, str, int]], at: int, indent: int) -> tuple[list, int]:
    """The mapping `_mapping` reads at `rows[at]`, as marked nodes."""
    pairs: dict[str, tuple[tuple[int, int], list]] = {}
    start = (rows[at][2], indent)
    while at < len(rows) and rows[at][0] == indent:
        content, line = rows[at][1], rows[at][2]
        colon = content.find(": ")
        if colon < 0:
            colon = len(content) - 1
        after = content[colon + 1 :]
        rest = after.lstrip(" ")
        key_mark = (line, indent)
        at += 1
        if rest and rest[0] != "#":
            value = [(line, indent + colon + 1 + len(after) - len(rest)), "scalar"]
        elif at < len(rows) and rows[at][1][:2] == "- " and rows[at][0] >= indent:
            value, at = _marked_sequence(rows, at, rows[at][0])
        elif at < len(rows) and rows[at][0] > indent:
            value, at = _marked_mapping(rows, at, rows[at][0])
        else:  # an empty value: libyaml marks it just after the `:`
            value = [(line, indent + colon + 1), "scalar"]
        pairs[content[:colon]] = (key_mark, value)
    return [start, "map", pairs], at


def _marked_sequence(rows: list[tuple[int, str, int]], at: int, indent: int) -> tuple[list, int]:
    """The list `_sequence` reads at `rows[at]`, as marked nodes."""
    items = []
    start = (rows[at][2], indent)
    while at < len(rows) and rows[at][0] == indent and rows[at][1][:2] == "- ":
        after = rows[at][1][1:]
        items.append([(rows[at][2], indent + 1 + len(after) - len(after.lstrip(" "))), "scalar"])
        at += 1
    return [start, "seq", items], at


def _position(root: list, path: Any, on_key: bool) -> tuple[int, int]:
    """`fast_yaml._node_position` over the marked nodes."""
    node, mark = root, root[0]
    for i, part in enumerate(path):
        if node[1] == "seq" and isinstance(part, int) and 0 <= part < len(node[2]):
            node = node[2][part]
            mark = node[0]
            continue
        if node[1] != "map":
            break
        wanted = str(part).lower() if isinstance(part, bool) else str(part)
        pair = node[2].get(wanted)
        if pair is None:
            break
        key_mark, value = pair
        last = i == len(path) - 1
        mark = key_mark if (on_key and last) or value[1] != "scalar" else value[0]
        node = value
    return mark[0] + 1, mark[1] + 1


def _top_mark(text: str, path: Any, on_key: bool) -> tuple[int, int] | None:
    """`_position` of the document (`()`) or of a top-level key's path in a plain-shape
    text, from the key's line alone; None for a key that is no plain word (the marked
    nodes say: no such key)."""
    start, indent, keys, starts = _index(text)
    if not path:
        return start + 1, indent + 1
    part = path[0]
    key = str(part).lower() if isinstance(part, bool) else str(part)
    if not key.replace("-", "_").replace(".", "_").replace("/", "_").isidentifier():
        return None
    at = keys.get(key, -1)
    if at < 0:
        return start + 1, indent + 1  # no such key: the document's mark
    end = at + indent + len(key) + 1
    line = bisect_right(starts, at) - 1
    stop = text.find("\n", at)
    after = text[end : stop if stop >= 0 else len(text)].rstrip(" ")
    rest = after.lstrip(" ")
    colon = len(key)
    if on_key:
        return line + 1, indent + 1
    if rest and rest[0] != "#":
        return line + 1, indent + colon + 2 + len(after) - len(rest)
    nxt = _next_row(text, stop)
    if nxt is not None and ((nxt[1][:2] == "- " and nxt[0] >= indent) or nxt[0] > indent):
        return line + 1, indent + 1  # a list or a mapping: its key's mark
    return line + 1, indent + colon + 2  # an empty value, just after the `:`


# one text's index, kept while its findings are placed (one finding each, thousands of
# unknown keys): the first row, each top-level key's first `key:` line, the line starts
_INDEX: list[Any] = []


def _index(text: str) -> tuple[int, int, dict[str, int], list[int]]:
    """(line and indentation of the first row, where each key of that indentation first
    stands as `key:` followed by a blank, a line end or the text's end, where each line
    starts), worked out in one pass and kept for the next finding in the same text."""
    if _INDEX and _INDEX[0] is text:
        return _INDEX[1]
    start, indent = _first_row(text)
    pad = " " * indent
    keys: dict[str, int] = {}
    starts = [0]
    at = 0
    while True:
        stop = text.find("\n", at)
        end = len(text) if stop < 0 else stop
        if text.startswith(pad, at) and text[at + indent : at + indent + 1] not in (" ", ""):
            colon = text.find(":", at + indent, end)
            if colon >= 0 and (colon + 1 == len(text) or text[colon + 1] in " \n"):
                keys.setdefault(text[at + indent : colon], at)
        if stop < 0:
            break
        at = stop + 1
        starts.append(at)
    _INDEX[:] = [text, (start, indent, keys, starts)]
    return _INDEX[1]


def _first_row(text: str) -> tuple[int, int]:
    """(line, indentation) of the first line that holds more than a comment (a text
    the plain reader takes has one)."""
    at, line = 0, 0
    while at <= len(text):
        end = text.find("\n", at)
        raw = text[at : end if end >= 0 else len(text)]
        content = raw.lstrip(" ")
        if content and content[0] != "#":
            return line, len(raw) - len(content)
        if end < 0:
            break
        at, line = end + 1, line + 1
    return 0, 0


def _next_row(text: str, stop: int) -> tuple[int, str] | None:
    """(indentation, content) of the first line after the one ending at `stop` that
    holds more than a comment, or None."""
    while stop >= 0:
        at = stop + 1
        stop = text.find("\n", at)
        raw = text[at : stop if stop >= 0 else len(text)]
        content = raw.lstrip(" ")
        if content and content[0] != "#":
            return len(raw) - len(content), content.rstrip(" ")
    return None
