"""A little more than the plainest shape, read with string methods: what `simple_yaml`
reads, plus list items that are mappings (`- name: x` and keys under it) and one-line
flow lists of words and double-quoted strings (`args: ["-v", "4"]`), the shape of
many files that share a checkpoint's name (a Kubernetes manifest, a CI file). Data
only: a position, when a finding asks for one, comes from libyaml's node marks then
(`loaders._positions_later`). Anything else is handed over (False, None) as before.
`tests/test_simple_yaml.py` holds the data to the libyaml readers'.
"""

from __future__ import annotations

from .plain_marks import _marked_rows, _position
from .simple_yaml import (
    _HandOver,
    _key,
    _list_first,
    _refused,
    _rows,
    _scalar,
    _typed,
    whole_mapping,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any

_MAX_DEPTH = 100
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def more_data(text: str) -> tuple[bool, Any]:
    """(True, the data) when `text` is in the shape this reader takes, as the libyaml
    readers read it; else (False, None)."""
    if _list_first(text) or _refused(text):
        return False, None
    return whole_mapping(_rows, _mapping, text)


def _mapping(rows: list[tuple[int, str]], at: int, indent: int, depth: int) -> tuple[Any, int]:
    """`simple_yaml._mapping`, with `_value` for a value on the key's line."""
    if indent != rows[at][0] or depth > _MAX_DEPTH:
        raise _HandOver
    out: dict[str, Any] = {}
    while at < len(rows) and rows[at][0] == indent:
        key, rest = _key(rows[at][1])
        if key in out:
            raise _HandOver
        at += 1
        if rest:
            out[key] = _value(rest)
            if at < len(rows) and rows[at][0] > indent:
                raise _HandOver
            continue
        if at == len(rows) or rows[at][0] < indent:
            out[key] = None
        elif rows[at][1][:2] == "- " and rows[at][0] >= indent:
            out[key], at = _sequence(rows, at, rows[at][0], indent, depth + 1)
        elif rows[at][0] > indent:
            out[key], at = _mapping(rows, at, rows[at][0], depth + 1)
        else:
            out[key] = None
    if at < len(rows) and rows[at][0] > indent:
        raise _HandOver
    return out, at


def _sequence(
    rows: list[tuple[int, str]], at: int, indent: int, parent: int, depth: int
) -> tuple[list[Any], int]:
    """`simple_yaml._sequence`, where an item may also be a mapping: `- key: value`,
    its other keys lined up under the first."""
    if depth > _MAX_DEPTH:
        raise _HandOver
    out = []
    count = len(rows)
    while at < count:
        row_indent, content = rows[at]
        if row_indent != indent or not content.startswith("- "):
            break
        item = content[2:].lstrip(" ")
        if not item or item[0] == "#":
            raise _HandOver
        if item[0] in _WORD and (": " in item or item.endswith(":")):
            column = indent + len(content) - len(item)
            rows[at] = (column, item)  # the item's first key, where its mapping starts
            value, at = _mapping(rows, at, column, depth + 1)
            out.append(value)
            if at < count and rows[at][0] > indent:
                raise _HandOver
            continue
        out.append(_value(item, in_list=True))
        at += 1
        if at < count and rows[at][0] > indent:
            raise _HandOver
    if at < count:
        nxt = rows[at][0]
        if nxt > parent and not (nxt == indent and indent == parent):
            raise _HandOver
        if nxt == indent and indent == parent and rows[at][1][:2] == "- ":
            raise _HandOver
    return out, at


def _value(rest: str, in_list: bool = False) -> Any:
    """A scalar (`simple_yaml._scalar`), or a one-line flow list of words and
    double-quoted strings without escapes."""
    if rest[0] != "[":
        return _scalar(rest, in_list)
    close = rest.find("]")
    if close < 0 or "[" in rest[1:close] or "{" in rest[1:close]:
        raise _HandOver
    tail = rest[close + 1 :]
    if tail and not (tail[0] == " " and tail.lstrip(" ")[:1] == "#"):
        raise _HandOver
    inner = rest[1:close].strip(" ")
    if not inner:
        return []
    out: list[Any] = []
    for part in inner.split(","):
        item = part.strip(" ")
        if len(item) >= 2 and item[0] == '"' and item[-1] == '"':
            text = item[1:-1]
            if '"' in text or "\\" in text:
                raise _HandOver
            out.append(text)
        elif item and all(ch in _WORD for ch in item):
            out.append(_typed(item))
        else:
            raise _HandOver  # an empty item, a quote with a comma, a symbol
    return out


# ---------------------------------------------------------------- positions
# marked nodes as `plain_marks` builds them ([mark, "scalar"], [mark, "map", {key: (key
# mark, node)}], [mark, "seq", [nodes]]), where libyaml's node marks put them


def more_locator(text: str) -> Any:
    """A `Document.locate` for a text `more_data` has read, worked out from its lines on
    the first call (`plain_marks._position` walks the marked nodes)."""
    found: list[Any] = []

    def locate(path: Any, on_key: bool = False) -> tuple[int, int]:
        if not found:
            rows = _marked_rows(text.split("\n"))
            found.append(_marked_mapping(rows, 0, rows[0][0])[0])
        return _position(found[0], path, on_key)

    return locate


def _marked_mapping(rows: list[tuple[int, str, int]], at: int, indent: int) -> tuple[list, int]:
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
            value = _marked_value((line, indent + colon + 1 + len(after) - len(rest)), rest)
        elif at < len(rows) and rows[at][1][:2] == "- " and rows[at][0] >= indent:
            value, at = _marked_sequence(rows, at, rows[at][0])
        elif at < len(rows) and rows[at][0] > indent:
            value, at = _marked_mapping(rows, at, rows[at][0])
        else:  # an empty value: libyaml marks it just after the `:`
            value = [(line, indent + colon + 1), "scalar"]
        pairs[content[:colon]] = (key_mark, value)
    return [start, "map", pairs], at


def _marked_sequence(rows: list[tuple[int, str, int]], at: int, indent: int) -> tuple[list, int]:
    items = []
    start = (rows[at][2], indent)
    while at < len(rows) and rows[at][0] == indent and rows[at][1][:2] == "- ":
        content, line = rows[at][1], rows[at][2]
        item = content[2:].lstrip(" ")
        column = indent + len(content) - len(item)
        if item[0] in _WORD and (": " in item or item.endswith(":")):
            rows[at] = (column, item, line)
            node, at = _marked_mapping(rows, at, column)
            items.append(node)
            continue
        items.append(_marked_value((line, column), item))
        at += 1
    return [start, "seq", items], at


def _marked_value(mark: tuple[int, int], rest: str) -> list:
    """A scalar's node, or a flow list's with its items' marks."""
    if rest[0] != "[":
        return [mark, "scalar"]
    items = []
    offset = 1
    inner = rest[1 : rest.find("]")]
    if inner.strip(" "):
        for part in inner.split(","):
            items.append(
                [(mark[0], mark[1] + offset + len(part) - len(part.lstrip(" "))), "scalar"]
            )
            offset += len(part) + 1
    return [mark, "seq", items]
