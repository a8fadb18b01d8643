"""Where each value of a JSON text sits: one scanner for the merge driver's renderer
(each side keeps its formatting), the agent settings editor and the JSON loader's
positions (a duplicate key, a file's many findings).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from json.decoder import scanstring

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable
    from typing import Any


class Node:
    """Where one value sits in the text; members/items for containers."""

    __slots__ = ("end", "items", "kind", "members", "start")

    def __init__(self, kind: str, start: int) -> None:
        self.kind, self.start, self.end = kind, start, start
        self.members: dict[str, tuple[int, int, Node]] = {}  # key -> (key start, key end, node)
        self.items: list[Node] = []


WS = re.compile(r"[ \t\r\n]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def spans(text: str, repeats: dict[str, int] | None = None) -> Node:
    """The span tree of valid JSON `text` (the caller has parsed it first).

    `repeats`, when given, receives the offset of each key's first repeat inside one
    object, in document order (a tree keeps only one of them: the last).
    """

    def ws(pos: int) -> int:
        return WS.match(text, pos).end()  # type: ignore[union-attr]

    def parse(pos: int) -> Node:
        ch = text[pos]
        if ch == "{":
            node = Node("o", pos)
            pos = ws(pos + 1)
            while text[pos] != "}":
                key_start = pos
                key, pos = scanstring(text, pos + 1)
                key_end = pos
                if repeats is not None and key in node.members:
                    repeats.setdefault(key, key_start)
                pos = ws(ws(pos) + 1)
                child = parse(pos)
                node.members[key] = (key_start, key_end, child)
                pos = ws(child.end)
                if text[pos] == ",":
                    pos = ws(pos + 1)
            node.end = pos + 1
            return node
        if ch == "[":
            node = Node("a", pos)
            pos = ws(pos + 1)
            while text[pos] != "]":
                child = parse(pos)
                node.items.append(child)
                pos = ws(child.end)
                if text[pos] == ",":
                    pos = ws(pos + 1)
            node.end = pos + 1
            return node
        node = Node("s", pos)
        if ch == '"':
            node.end = scanstring(text, pos + 1)[1]
        else:
            node.end = _SCALAR.match(text, pos).end()  # type: ignore[union-attr]
        return node

    return parse(ws(0))


_FIND_FIRST = 8  # findings placed by walking their own path before the text is mapped


def locator(text: str, find: Callable[[str, Any, bool], tuple[int, int]]) -> Any:
    """A `Document.locate` for valid JSON `text`: its first calls walk along their path
    alone (`find`: most files have a few findings); from the next one the span tree and
    the line starts are worked out once, so thousands of findings cost a few passes
    over the text, not one each. Both give the same place."""
    state: list[Any] = [0]

    def locate(path: Any, on_key: bool = False) -> tuple[int, int]:
        if type(state[0]) is int:
            if state[0] < _FIND_FIRST:
                state[0] += 1
                return find(text, path, on_key)
            state[0] = None
        if state[0] is None:
            bom = 1 if text.startswith("\ufeff") else 0
            try:
                root = spans(text[bom:])
            except (IndexError, ValueError, AttributeError, RecursionError):
                return find(text, path, on_key)
            starts = [0]
            at = text.find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = text.find("\n", at + 1)
            state[0] = (root, bom, starts)
        root, bom, starts = state[0]
        node, offset = root, root.start
        for depth, part in enumerate(path):
            if node.kind == "o" and isinstance(part, str) and part in node.members:
                key_start, _, node = node.members[part]
                if on_key and depth == len(path) - 1:
                    offset = key_start
                    break
            elif node.kind == "a" and isinstance(part, int) and 0 <= part < len(node.items):
                node = node.items[part]
            else:
                break
            offset = node.start
        offset += bom
        line = bisect_right(starts, offset) - 1
        return line + 1, offset - starts[line] + 1

    return locate
