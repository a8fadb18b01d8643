"""Edit a JSON document by splicing its text, so every byte we do not change stays.

Agent settings files are written by hand and committed; an install that re-serialises
the whole document reflows the user's layout and turns numbers such as `1e400` into
`Infinity`. Here the text is parsed once for its data (NaN and Infinity literals are
refused: they are not JSON) and once for where each value sits (readers.json_spans);
an edit replaces, appends or removes one value's text and re-parses.

Appending and removing are exact inverses: a new item goes after the last one as
`<separator the last item already has> <item>`, in the container's own style (one line
or one item per line, the file's indentation, `:` spacing and line ends), and removing
the last item cuts exactly that back out. An emptied container becomes `{}` / `[]`.
"""

from __future__ import annotations

import json
import re

from ...readers.json_spans import Node, spans

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

Path = tuple  # a pointer into the document: keys and indexes from the root


class JsonEditError(ValueError):
    """The text cannot be edited safely; the message says why (no path: the caller adds it)."""


def _no_constant(name: str) -> Any:
    raise JsonEditError(f"{name} is not a JSON value; write a number or a string instead")


def parse(text: str) -> Any:
    """The data of `text`, refusing NaN / Infinity literals and duplicate keys (the
    agents read only the last of two, and an edit of the other would be lost)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise JsonEditError(f'duplicate key "{key}"; keep one of them')
            out[key] = value
        return out

    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=pairs)
    except JsonEditError:
        raise
    except ValueError as exc:
        raise JsonEditError(f"invalid JSON: {exc}") from None
    except RecursionError:
        raise JsonEditError("invalid JSON: nested too deeply") from None


class Document:
    """A JSON text being edited; `data` and `root` always describe the current `text`."""

    def __init__(self, text: str, *, comments: bool = False) -> None:
        self.bom = "\ufeff" if text.startswith("\ufeff") else ""
        self.text = text[len(self.bom) :]
        self.comments = comments
        self._reparse()
        self.newline = "\r\n" if "\r\n" in self.text else "\n"
        self.unit, self.colon, self.comma = _style(self.view, self.root, self.text)

    def _reparse(self) -> None:
        if not self.text.strip():
            self.text = "{}\n" if not self.text else "{}" + self.text
        # `view`: the text with comments blanked to spaces (same offsets), for files the
        # agent reads as JSON with comments; edits are spliced into `text` itself
        self.view = blank_comments(self.text) if self.comments else self.text
        self.data = parse(self.view)
        self.root = spans(self.view)

    def __str__(self) -> str:
        return self.bom + self.text

    # ---------------------------------------------------------------- lookup
    def node(self, path: Path) -> Node | None:
        node: Node | None = self.root
        for step in path:
            if node is None:
                return None
            if isinstance(step, int):
                node = node.items[step] if node.kind == "a" and step < len(node.items) else None
            else:
                member = node.members.get(step) if node.kind == "o" else None
                node = member[2] if member else None
        return node

    def value(self, path: Path) -> Any:
        data = self.data
        for step in path:
            data = data[step]
        return data

    # ---------------------------------------------------------------- edits
    def _splice(self, start: int, end: int, new: str) -> None:
        self.text = self.text[:start] + new + self.text[end:]
        self._reparse()

    def replace(self, path: Path, value: Any) -> None:
        """Replace one value (in the style of the line it starts on)."""
        node = self._need(path)
        self._splice(node.start, node.end, self._render(value, self._line_indent(node.start)))

    def append(self, path: Path, value: Any, key: str | None = None) -> None:
        """Add `value` at the end of the array at `path` (or member `key` of the object)."""
        node = self._need(path)
        if (node.kind == "o") != (key is not None):
            raise JsonEditError("append: a key goes with an object, no key with an array")
        children = _children(node)
        if children:
            last_start, last_end = children[-1]
            after = children[-2][1] if len(children) >= 2 else node.start + 1
            between = self.view[after:last_start]
            plain = self.text[after:last_start] == between  # no comment in it
            if "\n" in between:  # one item a line: the last item's own indentation
                at = between.rfind("\n")
                sep = "," + ("\r\n" if between[at - 1 : at] == "\r" else "\n") + between[at + 1 :]
            elif len(children) >= 2 and plain and between.strip() == ",":
                sep = between  # the container's own spacing
            else:
                sep = "," + self.comma.split(",", 1)[1]
            base = sep[sep.rfind("\n") + 1 :] if "\n" in sep else None
            new = sep + self._item(key, value, base)
            self._splice(last_end, last_end, new)
            return
        # a comment in the empty container stays, before the new item
        interior = self.text[node.start + 1 : node.end - 1]
        kept = (
            interior.rstrip(" \t\r\n")
            if interior != self.view[node.start + 1 : node.end - 1]
            else ""
        )
        if self.unit is None:  # a one-line document stays one line
            inner = (kept + " " if kept else "") + self._item(key, value, None)
        else:
            outer = self._line_indent(node.start)
            inner = kept + self.newline + outer + self.unit
            inner += self._item(key, value, outer + self.unit) + self.newline + outer
        self._splice(node.start + 1, node.end - 1, inner)

    def delete(self, path: Path) -> None:
        """Remove the member or item at `path` (with its separator)."""
        parent = self._need(path[:-1])
        children = _children(parent)
        index = list(parent.members).index(path[-1]) if parent.kind == "o" else path[-1]
        start, end = children[index]
        if len(children) == 1:
            self._splice(parent.start + 1, parent.end - 1, "")
        elif index == len(children) - 1:
            self._splice(children[-2][1], end, "")
        else:
            self._splice(start, children[index + 1][0], "")

    def set_text(self, path: Path, text: str) -> None:
        """Put back a value's recorded text exactly (an emptied container's own spacing)."""
        node = self._need(path)
        self._splice(node.start, node.end, text)

    def text_of(self, path: Path) -> str:
        node = self._need(path)
        return self.text[node.start : node.end]

    # ---------------------------------------------------------------- rendering
    def _need(self, path: Path) -> Node:
        node = self.node(path)
        if node is None:
            raise JsonEditError(f"no value at {list(path)}")
        return node

    def _line_indent(self, pos: int) -> str:
        line = self.text[self.text.rfind("\n", 0, pos) + 1 : pos]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def _item(self, key: str | None, value: Any, base: str | None) -> str:
        rendered = self._render(value, base)
        if key is None:
            return rendered
        return json.dumps(key, ensure_ascii=False) + self.colon + rendered

    def _render(self, value: Any, base: str | None) -> str:
        if base is None or self.unit is None:
            return json.dumps(value, ensure_ascii=False, separators=(self.comma, self.colon))
        out = json.dumps(value, ensure_ascii=False, indent=self.unit, separators=(",", self.colon))
        return out.replace("\n", self.newline + base)


_SPECIAL = re.compile(r'[/"]')
_STRING_STOP = re.compile(r'["\\]')


def blank_comments(text: str) -> str:
    """`text` with `//` and `/* */` comments outside strings turned into spaces (line
    ends kept), so every offset still points at the same character.

    One pass, each character looked at a bounded number of times (a committed settings
    file can be large and hostile): a string or `/*` that never ends means no later
    one can end either, so neither is looked for again."""
    if "/" not in text:
        return text
    out: list[str] = []
    done = pos = 0
    strings = blocks = True
    while True:
        if strings:
            hit = _SPECIAL.search(text, pos)
            j = hit.start() if hit else -1
        else:
            j = text.find("/", pos)
        if j < 0:
            break
        if text[j] == '"':
            end = _string_end(text, j + 1)
            if end < 0:  # unterminated: every later quote sits inside it
                strings, pos = False, j + 1
            else:
                pos = end
            continue
        after = text[j + 1 : j + 2]
        if after == "/":
            end = text.find("\n", j)
            end = len(text) if end < 0 else end
        elif after == "*" and blocks:
            end = text.find("*/", j + 2)
            if end < 0:  # no `*/` after this one: none after a later `/*` either
                blocks, pos = False, j + 1
                continue
            end += 2
        else:
            pos = j + 1
            continue
        out.append(text[done:j])
        out.append(re.sub(r"[^\r\n]", " ", text[j:end]))
        done = pos = end
    out.append(text[done:])
    return "".join(out)


def _string_end(text: str, pos: int) -> int:
    """Just after the quote that closes the JSON string opened before `pos`; -1 if none."""
    while True:
        stop = _STRING_STOP.search(text, pos)
        if stop is None:
            return -1
        if text[stop.start()] == '"':
            return stop.start() + 1
        pos = stop.start() + 2
        if pos > len(text):
            return -1


def _children(node: Node) -> list[tuple[int, int]]:
    """(start, end) of each member (key to value) or item, in order."""
    if node.kind == "o":
        return [(key_start, child.end) for key_start, _, child in node.members.values()]
    return [(child.start, child.end) for child in node.items]


def _style(text: str, root: Node, original: str) -> tuple[str | None, str, str]:
    """(indent unit or None for a one-line document, key separator, inline item separator);
    `text` has its comments blanked, `original` not: a separator around a comment is
    no example to follow."""
    colon, comma = None, None
    unit: str | None = None
    stack = [root]
    while stack and (colon is None or comma is None or unit is None):
        node = stack.pop()
        children = _children(node)
        if node.kind == "o" and node.members and colon is None:
            _, key_end, child = next(iter(node.members.values()))
            colon = original[key_end : child.start]
        if len(children) >= 2 and comma is None:
            between = text[children[0][1] : children[1][0]]
            if "\n" not in between and between == original[children[0][1] : children[1][0]]:
                comma = between
        if children and unit is None:
            lead = text[node.start + 1 : children[0][0]]
            if "\n" in lead:
                own = lead[lead.rfind("\n") + 1 :]
                line = text[text.rfind("\n", 0, node.start) + 1 : node.start]
                outer = line[: len(line) - len(line.lstrip(" \t"))]
                if own.startswith(outer) and len(own) > len(outer):
                    unit = own[len(outer) :]
        nested = node.items if node.kind == "a" else [m[2] for m in node.members.values()]
        stack.extend(child for child in reversed(nested) if child.kind in "oa")
    multiline = "\n" in text.strip() or not _children(root)  # `{}` grows one item a line
    if unit is None and multiline:
        unit = "  "
    colon = colon if colon is not None and colon.strip() == ":" else ": "
    if comma is None or comma.strip() != ",":
        comma = ", " if colon.endswith(" ") else ","
    return (unit if multiline else None), colon, comma
