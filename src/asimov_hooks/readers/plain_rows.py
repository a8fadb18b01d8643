"""The rows `plain_yaml` builds its tree from, one per line that holds more than a
comment: `(indent, key, value, line, column)`, where `indent` is the column of the
row's key or item dash, `key` None for an item, `value` what follows the `:` or `- `
(spaces and a lone comment cut; "" for none), and `line`, `column` (0-based) where
libyaml's node mark puts that value. `- key: value` gives two rows on one line: the
item, then its first key. `rows` (string methods) and `batch_rows` (one regular
expression; None for a line of another shape) make the same rows, neither reading a
line more than linearly; a line that is neither a key nor an item raises `HandOver`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any

Row = tuple  # (indent, key | None, value, line, column)


class HandOver(Exception):
    """Not the plain subset: the library reads the text (`line`: where reading stopped)."""

    def __init__(self, line: int = 0) -> None:
        self.line = line


class AfterQuote(HandOver):
    """A quoted value left open on its line, or with more than a comment after it
    (`quote_tail` may tell the library's words for it)."""


# what no text read here may hold: tabs, C0 and C1 controls, DEL, a byte-order mark, NEL
# and the Unicode line and paragraph separators, the two non-characters, CR
_REFUSED = frozenset(
    [chr(c) for c in range(0x20) if c != 0x0A]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\ufeff", "\u2028", "\u2029", "\ufffe", "\uffff"]
)
_ASCII_REFUSED = tuple(ch for ch in _REFUSED if ch.isascii())
# a key's first character that may make it a number, a null, a marker or an indicator
_KEY_FIRST_REFUSED = frozenset("-.0123456789+~")
# keys that are not strings (YAML 1.2 booleans and nulls)
NOT_KEYS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"})
# a simple key is at most 1,024 characters to every library: a longer one is refused
# there, with the library's words (a little under, so a key near the limit is theirs too)
KEY_MAX = 1000
_WORD_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def refused(text: str) -> bool:
    """Whether `text` holds a character no row may hold."""
    if text.isascii():
        return any(ch in text for ch in _ASCII_REFUSED)
    return any(ch in _REFUSED for ch in set(text))


def _key(key: str, line: int) -> str:
    """`key` when it is a plain word a library reads as that string; else HandOver."""
    if (
        not key
        or len(key) > KEY_MAX
        or key[0] in _KEY_FIRST_REFUSED
        or key in NOT_KEYS
        or not (
            key.isidentifier()
            or key.replace("-", "_").replace(".", "_").replace("/", "_").isidentifier()
        )
    ):
        raise HandOver(line)
    return key


def rows(lines: list[str]) -> list[Row]:
    """The rows of `lines` (a text split at its line breaks), with string methods; a
    line met before is not read again (an archive repeats most of its lines)."""
    out: list[Row] = []
    append = out.append
    known: dict[str, tuple] = {}
    for number, line in enumerate(lines):
        parts = known.get(line)
        if parts is None:
            parts = known[line] = _parts(line, number)
        for indent, key, value, column in parts:
            append((indent, key, value, number, column))
    return out


def _parts(line: str, number: int) -> tuple:
    """(indent, key, value, column) of each row on `line` (none, one, or an item and its
    first key); HandOver when it is no row of the subset."""
    content = line.lstrip(" ")
    if not content or content[0] == "#":
        return ()
    indent = len(line) - len(content)
    content = content.rstrip(" ")
    item = None
    if content[0] == "-" and content[1:2] in (" ", ""):  # an item
        rest = content[1:].lstrip(" ")
        column = indent + len(content) - len(rest)
        if rest[:1] == "#":
            return ((indent, None, "", column),)
        if not (rest[:1] in _WORD_FIRST and (": " in rest or rest[-1] == ":")):
            return ((indent, None, rest, column),)
        item = (indent, None, "", column)  # `- key: value`
        indent, content = column, rest
    colon = content.find(": ")
    if colon < 0:
        if content[-1] != ":":
            raise HandOver(number)  # a scalar where a key belongs, a marker
        colon = len(content) - 1
    key = _key(content[:colon], number)
    value = content[colon + 1 :].lstrip(" ")
    if value[:1] == "#" or not value:
        row = (indent, key, "", indent + colon + 1)
    else:
        row = (indent, key, value, indent + len(content) - len(value))
    return (row,) if item is None else (item, row)


# per line: indentation, a key and its colon (maybe after an item's dash) or an item's
# dash, then a value (quoted without escapes, or plain without `:` or `#`); or a comment;
# or nothing. Each character can be matched one way only (Python 3.10's `re` has no
# possessive quantifiers), so no line is read more than linearly.
_CTRL = r"\x00-\x1f\x7f"
_VALUE = (
    rf"(\"[^\"\\{_CTRL}]*\"|'[^'{_CTRL}]*'"
    rf"|[A-Za-z0-9_./](?:[^:# {_CTRL}]| +(?=[^ :#{_CTRL}]))*)"
)
_LINE = (
    rf"^( *)(?:(- +)?([A-Za-z_][A-Za-z0-9_]*):(?:( +){_VALUE} *| *)"
    rf"|(-)(?:( +){_VALUE} *| *)|#[^{_CTRL}]*|)$"
)
_COMPILED: list[Any] = []


def batch_rows(text: str) -> list[Row] | None:
    """`rows` of an ASCII text whose every line has the commonest shapes, from one
    regular expression; None when a line does not (`rows` reads it then)."""
    if not _COMPILED:
        import re

        _COMPILED.append(re.compile(_LINE, re.M).findall)
    found = _COMPILED[0](text)
    if len(found) != text.count("\n") + 1:
        return None
    out: list[Row] = []
    append = out.append
    for number, (spaces, dash, key, gap, value, item, item_gap, item_value) in enumerate(found):
        if key:
            if key in NOT_KEYS or len(key) > KEY_MAX:
                raise HandOver(number)
            indent = len(spaces)
            if dash:  # `- key: value`: the item, then its first key
                append((indent, None, "", number, indent + len(dash)))
                indent += len(dash)
            if value:
                append((indent, key, value, number, indent + len(key) + 1 + len(gap)))
            else:
                append((indent, key, "", number, indent + len(key) + 1))
        elif item:
            indent = len(spaces)
            append((indent, None, item_value, number, indent + 1 + len(item_gap)))
    return out


class no_gc:  # a statement: `with no_gc():`
    """The cyclic garbage collector paused while a large tree is built: its objects
    are all alive, and the collector's passes over them made a parse of a few
    megabytes several times slower (they grow with every object already built)."""

    def __enter__(self) -> None:
        import gc

        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was:
            import gc

            gc.enable()
