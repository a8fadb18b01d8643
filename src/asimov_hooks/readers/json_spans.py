"""Where each value of a JSON text sits: one scanner for every reader.

The merge driver renders merged files from these spans (keeping each side's own
formatting) and the JSON loader points a duplicate key out with them.
"""

from __future__ import annotations

import re
from json.decoder import scanstring


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
