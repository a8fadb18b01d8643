"""Trim archive entries read without a YAML parser, when they have the trimmer's shape.

An archive at its byte cap holds tens of thousands of entries, and even libyaml's
event stream costs seconds for them (one Python object per event). The entries the
trimmer writes are regular: block mappings of plain keys, lists of scalars, one scalar
per line, and most lines repeat from entry to entry (`source:`, `reason:`, `removed:`).
`reader` reads exactly that shape, and nothing else, one step per line: a line is
matched by a regular expression that never backtracks (once per distinct line, up to
`_KNOWN_LINES`; its parts are remembered), then placed by its indentation:

- every line is indented by spaces and is either `key:`, `key: scalar` or `- scalar`;
- a key is a short plain word (letters, digits, `_`, `.`, `-`); a mapping's keys differ;
- a scalar fits on its line: a plain scalar that cannot start or end anything else
  (no indicator first, no `: ` or ` #` inside, no trailing space), a single-quoted one,
  a double-quoted one without escapes, `{}` or `[]`;
- a `key:` line opens the more indented lines after it, or is null when none follow;
- no tabs, comments, blank lines, anchors, aliases, tags, flow collections, block
  scalars, multi-line scalars, control characters or other line breaks.

Plain scalars are resolved as the event-stream reader resolves them (`stream_yaml`'s
YAML 1.2 table), so the data is the data libyaml's path gives. Anything else, an entry
written by hand included, is not recognised (`None`) and the caller reads it with the
YAML readers as before, with their guards and their error messages.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable
    from typing import Any

# characters libyaml reads as printable, minus tab, line breaks of any kind and the BOM
_CTRL = r"\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff"
# spaces other than the ASCII one: never inside a plain scalar here
_SPACES = r"\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
_RUN = rf"[^{_CTRL}{_SPACES} :]*"  # plain characters up to a colon or a space
# a plain scalar: no indicator first; a colon only before a plain character, spaces
# only before one that is not `#`, so no `: `, ` #` or space at the end. Written so
# that every character has one way to match (linear, also when a line is refused).
_PLAIN = (
    rf"[^{_CTRL}{_SPACES} \-?:,\[\]{{}}#&*!|>'\"%@`]{_RUN}"
    rf"(?:(?::(?=[^{_CTRL}{_SPACES} ])| +(?=[^{_CTRL}{_SPACES} #])){_RUN})*"
)
_QUOTED = rf"'[^{_CTRL}']*(?:''[^{_CTRL}']*)*'|\"[^{_CTRL}\"\\]*\""
_SCALAR = rf"(?:{_PLAIN}|{_QUOTED}|\{{\}}|\[\])"
_KEY = r"[A-Za-z_][A-Za-z0-9_.-]{0,127}"
# one line: its indentation, then an item's scalar, or a key and maybe its scalar
_LINE = re.compile(rf"( +)(?:- ({_SCALAR})|({_KEY}):(?: ({_SCALAR}))?)")
_KNOWN_LINES = 1 << 16  # lines whose parts one reader remembers (entries repeat most)

# what follows the dot of a YAML 1.2 float that starts with one (`.5`, `.inf`, `.nan`)
_FLOAT_AFTER_DOT = frozenset("0123456789_iInN")
_NO = object()  # not recognised
_MAX_LEVELS = 16  # nesting recognised (far under the readers' depth guard)
# an archive's header: blank or comment lines, then its first item
_HEADER = re.compile(rf"(?: *(?:#[^{_CTRL}]*)?\n)*(?=-)")


def archive_data(text: str) -> tuple[bool, Any]:
    """(True, the list) when `text` is a trim archive whose header is only comments and
    whose every item is of the shape `reader` reads; else (False, None): the YAML
    readers read it whole, as before (the same data, their errors and positions)."""
    header = _HEADER.match(text)
    if header is None:
        return False, None
    from .fast_yaml import no_gc

    bodies = text[header.end() + 1 :].split("\n-")  # every `-` line starts an item
    if bodies[-1].endswith("\n"):
        bodies[-1] = bodies[-1][:-1]
    read = reader()
    with no_gc():  # every object built is kept
        data = [read(body) for body in bodies]
    if any(entry is None for entry in data):
        return False, None
    return True, data


def reader() -> Callable[[str], Any]:
    """`read(body)`: the data of a top-level list item whose text after its dash is
    `body` (without the line break that ends it), or None when it is not of the shape
    this module reads. One reader shares resolved scalars between the items it reads,
    as one parse of them together would."""
    from .stream_yaml import _TYPED_FIRST, _scalars

    scalar = _scalars()
    typed = _TYPED_FIRST
    match = _LINE.fullmatch
    known: dict[str, tuple[str, ...]] = {}

    def parts(line: str) -> tuple[str, ...] | None:
        """(indentation, item, key, key's scalar) of a line, "" for what it lacks."""
        found = match(line)
        if found is None:
            return None
        got = found.groups("")
        if len(known) < _KNOWN_LINES:
            known[line] = got
        return got

    def value(text: str) -> Any:
        first = text[0]
        if first == "'":
            return text[1:-1].replace("''", "'")
        if first == '"':
            return text[1:-1]
        if first == "{":
            return {}
        if first == "[":
            return []
        if first == "." and text[1:2] not in _FLOAT_AFTER_DOT:
            return text  # `.claude_checkpoint.yaml`: no YAML 1.2 type starts so
        return scalar(text)

    special = frozenset([*typed, "'", '"', "{", "["])  # scalars that are not as written

    def read(body: str) -> Any:
        if body[:1] != " ":
            return None  # `-x:` is no item; `-` alone, then lines: not this shape
        try:  # the dash is the indentation of the item's content
            node = _build((" " + body).split("\n"), known.get, parts, value, special, typed, scalar)
        except Exception:  # a scalar the stream reader hands over (`<<`, `=`)
            return None
        return None if node is _NO else node

    return read


def _build(
    lines: list[str],
    known: Callable[[str], Any],
    parts: Callable[[str], Any],
    value: Callable[[str], Any],
    special: Any,
    typed: Any,
    scalar: Callable[[str], Any],
) -> Any:
    """The node the lines hold, or _NO when their indentation is not block YAML's
    for a mapping or list (or a mapping repeats a key)."""
    root: Any = None
    into: Any = None  # the open collection
    indent = -1  # its indentation
    is_list = False
    pending: Any = _NO  # the key of the open mapping whose value may open below it
    stack: list[tuple[Any, int, bool]] = []  # the collections around `into`
    for line in lines:
        got = known(line) or parts(line)
        if got is None:
            return _NO  # a line not of this shape
        spaces, item, key, text = got
        width = len(spaces)
        if width != indent:
            if width > indent:
                if root is None:
                    into = root = [] if key == "" else {}
                elif pending is _NO:
                    return _NO  # a line more indented than a scalar's: a continuation
                else:
                    child: Any = [] if key == "" else {}
                    into[pending] = child
                    stack.append((into, indent, is_list))
                    if len(stack) > _MAX_LEVELS:
                        return _NO
                    into = child
                is_list, indent = key == "", width
            else:
                while stack and indent > width:
                    into, indent, is_list = stack.pop()
                if indent != width:
                    return _NO
        pending = _NO  # (`key:` then `- item` at the key's indentation: refused below)
        if is_list:
            if key != "":
                return _NO
            into.append(value(item) if item[0] in special else item)
            continue
        if key == "":
            return _NO
        if key[0] in typed:
            key = scalar(key)  # `true:`, `null:`: keys resolve as values do
        if key in into:
            return _NO
        if text:
            into[key] = value(text) if text[0] in special else text
        else:
            into[key] = None
            pending = key
    return _NO if root is None else root
