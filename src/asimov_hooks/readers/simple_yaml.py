"""The plainest YAML, read with string methods alone: the common shape of a checkpoint
(block mappings of single-line scalars and block lists of them), read without loading
any YAML library. A one-file hook run spends more time importing a YAML parser than
reading a 30-line checkpoint, so this reader takes the common case and hands anything
else over (None) to the libyaml readers (`stream_yaml`, `fast_yaml`), whose reading is
the reference: a tab, a control character, a flow collection, a block scalar, an
anchor, a tag, a quoted scalar with an escape or over several lines, a plain scalar
over several lines, a key that is not a plain word, a duplicate key, a scalar that is
not a string, a boolean, a null or a decimal integer, a document marker, a line it
cannot place.

Scalars are typed as YAML 1.2 types them (as ruamel.yaml reads them): `true`/`false`
in their three spellings are booleans, `yes`, `on` and `no` stay strings.
Positions are not kept while reading: when a finding needs one, `simple_locator` works
them out from the same lines, where libyaml's node marks put them.
`tests/test_simple_yaml.py` holds the reading and the positions to the libyaml readers'.
"""

from __future__ import annotations

from .plain_marks import read_locator

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any


class _HandOver(Exception):
    """Not the plain shape this reader takes: the libyaml readers read the text."""


# characters a plain scalar may not start with (YAML's indicators), or that this reader
# leaves to the others (a `.` or `-` that may start a number, but for a negative decimal
# integer, `<<` and `=`)
_NOT_PLAIN_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@`<=.")
# what no line read here may hold: tabs, C0 and C1 controls, DEL, a byte-order mark,
# NEL and the Unicode line and paragraph separators, the two non-characters, CR
_REFUSED = frozenset(
    [chr(c) for c in range(0x20) if c != 0x0A]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\ufeff", "\u2028", "\u2029", "\ufffe", "\uffff"]
)
_KEY_FIRST_REFUSED = frozenset("-.0123456789+~")
# the longest implicit key YAML allows: from its first character to its `:` at most
# 1,024 characters (libyaml, ruamel, PyYAML refuse a longer one)
KEY_MAX = 1024
_MAX_DEPTH = 100


def simple_data(text: str, batch: bool = False) -> tuple[bool, Any]:
    """(True, the data) when `text` is in the plain shape this reader takes, as the
    libyaml readers read it; else (False, None). In a `batch` (many files, `re` loaded
    anyway) the commonest lines are read with one regular expression (`simple_lines`)."""
    if batch and text.isascii():  # no line taken there holds a refused character
        from .simple_lines import lines_data

        read = lines_data(text, _typed, _HandOver, _NOT_KEYS)
        if read is not None:
            return read
    if _refused(text):
        return False, None
    if _list_first(text):  # a list at the top (the trim archive): not this shape
        return False, None
    return whole_mapping(_rows, _mapping, text)


def whole_mapping(rows_of: Any, mapping: Any, text: str) -> tuple[bool, Any]:
    """(True, data) when `mapping` reads all of the rows `rows_of` makes of the text's
    lines as one mapping, from the first row's indent; else (False, None): handed over,
    stopped short, or nothing there. `_rows`/`_mapping` here, or a reader's that takes a
    little more (`simple_more`)."""
    try:
        rows = rows_of(text.split("\n"))
        if not rows:
            return False, None
        data, end = mapping(rows, 0, rows[0][0], 1)
    except _HandOver:
        return False, None
    return (True, data) if end == len(rows) else (False, None)


def _refused(text: str) -> bool:
    """Whether `text` holds a character no line read here may hold."""
    if text.isascii():
        return any(ch in text for ch in _ASCII_REFUSED)
    return any(ch in _REFUSED for ch in set(text))


_ASCII_REFUSED = tuple(ch for ch in _REFUSED if ch.isascii())


def _list_first(text: str) -> bool:
    """Whether the first line that holds more than a comment starts a list item: told
    before the whole text is split into lines (an archive has hundreds of thousands)."""
    at = 0
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        content = text[at:end].lstrip(" ")
        if content and content[0] != "#":
            return content[0] == "-"
        at = end + 1
    return False


def _rows(lines: list[str]) -> list[tuple[int, str]]:
    """(indent, content) of every line that holds more than a comment."""
    rows = []
    for line in lines:
        content = line.lstrip(" ")
        if not content or content[0] == "#":
            continue
        if line.startswith(("---", "...")) and (len(line) == 3 or line[3] in " #"):
            raise _HandOver  # document markers
        rows.append((len(line) - len(content), content.rstrip(" ")))
    return rows


def _mapping(rows: list[tuple[int, str]], at: int, indent: int, depth: int) -> tuple[Any, int]:
    if indent != rows[at][0] or depth > _MAX_DEPTH:
        raise _HandOver
    out: dict[str, Any] = {}
    while at < len(rows) and rows[at][0] == indent:
        content = rows[at][1]
        key, rest = _key(content)
        if key in out:
            raise _HandOver  # a duplicate key: the round trip says where
        at += 1
        if rest:
            out[key] = _scalar(rest)
            if at < len(rows) and rows[at][0] > indent:
                raise _HandOver  # a plain scalar over several lines, or an error
            continue
        if at == len(rows) or rows[at][0] < indent:
            out[key] = None
        elif rows[at][1][:2] == "- " and rows[at][0] >= indent:
            out[key], at = _sequence(rows, at, rows[at][0], indent)
        elif rows[at][0] > indent:
            out[key], at = _mapping(rows, at, rows[at][0], depth + 1)
        else:
            out[key] = None  # the next key at this indent
    if at < len(rows) and rows[at][0] > indent:
        raise _HandOver
    return out, at


def _sequence(
    rows: list[tuple[int, str]], at: int, indent: int, parent: int
) -> tuple[list[Any], int]:
    out = []
    count = len(rows)
    while at < count:
        row_indent, content = rows[at]
        if row_indent != indent or not content.startswith("- "):
            break
        item = content[2:].lstrip(" ")
        if not item or item[0] == "#":
            raise _HandOver  # an item on the next lines
        out.append(_scalar(item, in_list=True))
        at += 1
        if at < count and rows[at][0] > indent:
            raise _HandOver
    if at < len(rows):
        nxt = rows[at][0]
        if nxt > parent and not (nxt == indent and indent == parent):
            raise _HandOver  # a line that belongs to neither the list nor a key above
        if nxt == indent and indent == parent and rows[at][1][:2] == "- ":
            raise _HandOver
    return out, at


def _key(content: str) -> tuple[str, str]:
    """(key, what follows it on the line) of a `key: value` line."""
    colon = content.find(": ")
    if colon < 0:
        if not content.endswith(":"):
            raise _HandOver
        colon = len(content) - 1
    key = content[:colon]
    if (
        not key
        or colon > KEY_MAX  # every YAML library refuses a longer key: the round trip says so
        or key[0] in _KEY_FIRST_REFUSED
        or not (
            key.isidentifier()
            or key.replace("-", "_").replace(".", "_").replace("/", "_").isidentifier()
        )
    ):
        raise _HandOver
    if _typed(key) is not key:
        raise _HandOver  # `true:`, `null:`: keys that are not strings
    rest = content[colon + 1 :].lstrip(" ")
    if rest[:1] == "#":
        rest = ""
    return key, rest


def _scalar(rest: str, in_list: bool = False) -> Any:
    """The value a line ends with (comment cut, trailing spaces already stripped)."""
    first = rest[0]
    if first == '"':
        end = rest.find('"', 1)
        if end < 0 or rest.find("\\", 1, end) >= 0:
            raise _HandOver  # over several lines, or escapes
        if end + 1 != len(rest):
            _after_quote(rest, end)
        return rest[1:end]
    if first == "'":
        pos = 1
        while True:
            end = rest.find("'", pos)
            if end < 0:
                raise _HandOver
            if rest[end + 1 : end + 2] == "'":
                pos = end + 2
                continue
            break
        _after_quote(rest, end)
        return rest[1:end].replace("''", "'")
    hash_at = rest.find(" #")
    value = rest if hash_at < 0 else rest[:hash_at].rstrip(" ")
    if first in _NOT_PLAIN_FIRST:
        if first == "-" and _negative(value):  # `-3`: a negative decimal integer
            return int(value)
        raise _HandOver
    if ": " in value or value.endswith(":") or (in_list and value[:2] == "- "):
        raise _HandOver  # a mapping in a list item, an error
    return _typed(value)


def _negative(value: str) -> bool:
    """`-` and decimal digits, no leading zero (`-0`, `-07` are left to the others)."""
    digits = value[1:]
    return digits[:1] in _NONZERO and digits.isdigit() and digits.isascii() and len(digits) <= 4000


_NONZERO = frozenset("123456789")


def _after_quote(rest: str, end: int) -> None:
    tail = rest[end + 1 :]
    if tail and not (tail[0] == " " and tail.lstrip(" ")[:1] == "#"):
        raise _HandOver


_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULLS = frozenset({"~", "null", "Null", "NULL"})
_NOT_KEYS = frozenset(_BOOLS) | _NULLS  # `_typed` reads them as other than strings


def _typed(value: str) -> Any:
    """A plain scalar's YAML 1.2 value: booleans, nulls and decimal integers; anything
    else that may not be a string is handed over (`stream_yaml._TYPED_FIRST`)."""
    first = value[0]
    if first in "tTfF":
        return _BOOLS.get(value, value)
    if first in "nN~":
        return None if value in _NULLS else value
    if first in "+0123456789":
        digits = value.lstrip("+")
        # past 4,300 digits int() refuses (Python's conversion limit): the full
        # readers report such a value as they report any value that does not convert
        if (
            digits.isdigit()
            and digits.isascii()
            and len(value) - len(digits) <= 1
            and len(digits) <= 4000
        ):
            return int(value)
        raise _HandOver
    return value


# ---------------------------------------------------------------- positions
# A node of the plain shape, with libyaml's start mark (0-based line, column):
# [mark, "scalar"], [mark, "map", {key: (key mark, node)}], [mark, "seq", [nodes]]


def simple_locator(text: str) -> Any:
    """A `Document.locate` for a text `simple_data` reads, from the same rows: where
    libyaml's node marks put each key and value (`fast_yaml._node_position` reads them
    off the composed nodes), worked out from the lines on the first call. None when the
    text is not in the plain shape."""
    read, _ = simple_data(text)
    return read_locator(text) if read else None
