"""JSON side of the merge driver: a renderer that splices the merged data into ours' text.

Checkpoint writers use different layouts (JSON.stringify with 2 spaces, hand-written
one-line progress rows, 4-space Python dumps). Rather than re-dump the whole file,
every subtree whose data did not change is copied byte for byte from ours (or, for a
one-line subtree that only theirs has, from theirs); only changed containers are
re-assembled, using the indentation, separators and one-line/multi-line layout that
ours already uses at that place.
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import pairwise

from ..readers.json_spans import Node, spans
from .core import MISSING, Item, ItemFinder, canon, same

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable
    from typing import Any

    KeyedFn = Callable[[tuple], "str | None"]


class ParseError(Exception):
    """A side is not a JSON object (or has duplicate keys)."""


def load(body: str, max_depth: int = 100, max_aliases: int = 0, max_nodes: int = 0) -> Any:
    """The document (an object), or ParseError. Read through the door validate reads
    by (readers.json_loader.parse): a merge never accepts, nor writes, what validate
    refuses (NaN, Infinity, `1e999`, a lone surrogate, a repeated key, deep nesting).
    JSON has no aliases."""
    from ..readers.json_loader import parse
    from ..readers.problem import YAMLProblem

    try:
        data = parse(body, {"max-depth": max_depth})
    except YAMLProblem as problem:
        where = f" (line {problem.line})" if problem.placed else ""
        raise ParseError(problem.message + where) from None
    if not isinstance(data, dict):
        raise ParseError("the document is not a JSON object")
    return data


# ---------------------------------------------------------------- rendering
class _Source:
    """One side's text and data, walked in parallel with the merged tree."""

    __slots__ = ("index", "node", "text", "value")

    def __init__(self, text: str, node: Node, value: Any, index: int | None = None) -> None:
        self.text, self.node, self.value, self.index = text, node, value, index

    def span(self) -> str:
        return self.text[self.node.start : self.node.end]

    def line_indent(self, offset: int) -> str:
        start = self.text.rfind("\n", 0, offset) + 1
        line = self.text[start:offset]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def member(self, key: str) -> _Source | None:
        if self.node.kind != "o" or key not in self.node.members:
            return None
        return _Source(self.text, self.node.members[key][2], self.value[key])


@lru_cache(maxsize=8)
def _spans(text: str) -> Node:
    """Span trees are never modified, so a text parsed twice (two conflict renders) is
    parsed once."""
    return spans(text)


class Renderer:
    def __init__(
        self,
        ours_text: str,
        keyed: KeyedFn,
        theirs_text: str | None = None,
        ours_value: Any = MISSING,
        theirs_value: Any = MISSING,
    ) -> None:
        self.keyed = keyed
        if ours_value is MISSING:
            ours_value = json.loads(ours_text)
        self.ours = _Source(ours_text, _spans(ours_text), ours_value)
        self.theirs = None
        if theirs_text is not None:
            if theirs_value is MISSING:
                theirs_value = json.loads(theirs_text)
            self.theirs = _Source(theirs_text, _spans(theirs_text), theirs_value)
        root = self.ours.node
        first = next(iter(root.members.values()), None) if root.kind == "o" else None
        self.unit = self.ours.line_indent(first[0]) if first else "  "
        if not self.unit or "\n" not in ours_text[root.start : root.end]:
            self.unit = "  "
        self.ascii = ours_text.isascii() and "\\u" in ours_text

    def render(self, merged: Any) -> str:
        text, node = self.ours.text, self.ours.node
        theirs = [self.theirs] if self.theirs is not None else []
        body = self._value(merged, [self.ours, *theirs], (), "", False)
        return text[: node.start] + body + text[node.end :]

    # -------------------------------------------------------------- values
    def _value(
        self,
        value: Any,
        sources: list,
        path: tuple,
        indent: str,
        inline: bool,
        hint: _Source | None = None,
    ) -> str:
        for src in sources:
            if (
                src is not None
                and same(src.value, value)
                and (src is sources[0] or "\n" not in src.span())
            ):
                return src.span()
        home = sources[0] if sources else None
        if home is None and hint is not None:
            home = hint  # a new item laid out like its siblings
            sources = [None, *sources[1:]]
        if isinstance(value, dict):
            return self._object(value, home, sources, path, indent, inline)
        if isinstance(value, list):
            return self._array(value, home, sources, path, indent, inline)
        return json.dumps(value, ensure_ascii=self.ascii)

    def _layout(self, home: _Source | None, kind: str, indent: str, inline: bool) -> dict:
        """Separators for a container: ours' own where ours has one at this place.

        `between` maps a child (member key or item index) to the exact text ours has
        after it, reused whenever the next child is also ours' next child.
        """
        if home is not None and home.node.kind == kind:
            text, node = home.text, home.node
            span = home.span()
            if kind == "o":
                kids = [(k, m[0], m[2].end) for k, m in node.members.items()]
            else:
                kids = [(i, c.start, c.end) for i, c in enumerate(node.items)]
            multi = "\n" in span
            layout: dict[str, Any] = {"multi": multi, "colon": self._colon(home)}
            if kids:
                layout["lead"] = text[node.start + 1 : kids[0][1]]
                layout["trail"] = text[kids[-1][2] : node.end - 1]
                layout["between"] = {a[0]: text[a[2] : b[1]] for a, b in pairwise(kids)}
                layout["next"] = {a[0]: b[0] for a, b in pairwise(kids)}
            if multi:
                inner = home.line_indent(kids[0][1]) if kids else indent + self.unit
                layout.update(inner=inner, close=home.line_indent(node.end - 1))
                layout["sep"] = ",\n" + inner
            else:
                pad = " " if len(span) > 2 and span[1] == " " else ""
                seps = list(layout.get("between", {}).values())
                layout.update(pad=pad, sep=seps[0] if seps else ", ")
            return layout
        if inline:
            return {"multi": False, "pad": "", "sep": ", ", "colon": ": "}
        inner = indent + self.unit
        return {"multi": True, "inner": inner, "close": indent, "colon": ": ", "sep": ",\n" + inner}

    def _colon(self, home: _Source) -> str:
        node = home.node
        if node.kind == "o" and node.members:
            _, key_end, child = next(iter(node.members.values()))
            return home.text[key_end : child.start]
        return ": "

    def _wrap(self, parts: list[str], ids: list, layout: dict, open_: str, close: str) -> str:
        if not parts:
            return open_ + close
        if "lead" in layout:
            lead, trail = layout["lead"], layout["trail"]
        elif layout["multi"]:
            lead, trail = "\n" + layout["inner"], "\n" + layout["close"]
        else:
            lead = trail = layout["pad"]
        out = [open_, lead, parts[0]]
        nxt, between = layout.get("next", {}), layout.get("between", {})
        for i in range(1, len(parts)):
            prev = ids[i - 1]
            adjacent = prev is not None and ids[i] is not None and nxt.get(prev) == ids[i]
            out += [between[prev] if adjacent else layout["sep"], parts[i]]
        out += [trail, close]
        return "".join(out)

    def _object(
        self,
        value: dict,
        home: _Source | None,
        sources: list,
        path: tuple,
        indent: str,
        inline: bool,
    ) -> str:
        layout = self._layout(home, "o", indent, inline)
        child_indent = layout["inner"] if layout["multi"] else indent
        parts, ids = [], []
        for key, child in value.items():
            subs = [s.member(key) if s is not None else None for s in sources]
            own = home.member(key) if home is not None else None
            ids.append(key if own is not None else None)
            if own is not None:
                key_start, key_end, _ = home.node.members[key]  # type: ignore[union-attr]
                key_text = home.text[key_start:key_end]
            else:
                key_text = json.dumps(key, ensure_ascii=self.ascii)
            rendered = self._value(
                child,
                subs if own is not None else [None, *subs[1:]],
                (*path, key),
                child_indent,
                not layout["multi"],
            )
            parts.append(key_text + layout["colon"] + rendered)
        return self._wrap(parts, ids, layout, "{", "}")

    def _array(
        self,
        value: list,
        home: _Source | None,
        sources: list,
        path: tuple,
        indent: str,
        inline: bool,
    ) -> str:
        layout = self._layout(home, "a", indent, inline)
        child_indent = layout["inner"] if layout["multi"] else indent
        key = self.keyed((*path, Item("")))
        pools = [self._items(s) for s in sources]
        first = pools[0] if pools else []
        hints = {n.node.kind: n for n in reversed(first) if n.node.kind in "oa"}
        child_inline = not layout["multi"] or any("\n" not in h.span() for h in hints.values())
        used: set[int] = set()
        finders = [ItemFinder(pool, key, lambda src: src.value, used) for pool in pools]
        parts, ids = [], []
        for child in value:
            ident = canon(child)
            subs = [finder.find(child, ident)[0] for finder in finders]
            ids.append(subs[0].index if subs and subs[0] is not None else None)
            kind = "o" if isinstance(child, dict) else "a" if isinstance(child, list) else ""
            parts.append(
                self._value(
                    child, subs, (*path, Item("")), child_indent, child_inline, hints.get(kind)
                )
            )
        return self._wrap(parts, ids, layout, "[", "]")

    def _items(self, src: _Source | None) -> list[_Source]:
        if src is None or src.node.kind != "a":
            return []
        return [
            _Source(src.text, n, v, i)
            for i, (n, v) in enumerate(zip(src.node.items, src.value, strict=True))
        ]


def render(
    ours_body: str,
    merged: Any,
    keyed: KeyedFn,
    theirs_body: str | None = None,
    ours_value: Any = MISSING,
    theirs_value: Any = MISSING,
) -> str:
    """Text for `merged`: ours' bytes wherever the data did not change."""
    return Renderer(ours_body, keyed, theirs_body, ours_value, theirs_value).render(merged)
