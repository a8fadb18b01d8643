"""`simple_yaml.simple_data`'s reading of its commonest lines, with one regular
expression over the whole text instead of string methods line by line: for a run of
many files (where `re` is loaded already), about three times faster.

Every line must be blank, a comment, `key:`, `key: value` or `- value`, where a key is
an ASCII word, a value is a double-quoted scalar without escapes or a plain scalar
without `:` or `#`, and nothing follows the value but spaces. A text with any other line
is read by `simple_yaml` line by line (None here). No line taken here holds a control
character, so an ASCII text taken here holds none of the characters `simple_yaml`
refuses. What is read here is what
`simple_yaml` reads (`tests/test_simple_yaml.py` compares the two on every text it
generates).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any

# (indent, "- ", key, "quoted", plain) per line; blank and comment lines give none of
# the last four; one match per line, or the text is not taken here
_LINE = (
    r"^( *)(?:"
    r"(?:(- +)|([A-Za-z_][A-Za-z0-9_]*):(?= |$) *)"
    r'(?:("[^"\\\x00-\x1f\x7f]*+")|([A-Za-z0-9_][^:#\x00-\x1f\x7f]*+))?+'
    r" *+|(?:#[^\x00-\x1f\x7f]*+)?+)$"
)
_COMPILED: list[Any] = []
_MAX_DEPTH = 100
_KEY_MAX = 1024  # simple_yaml.KEY_MAX


class _HandOver(Exception):
    pass


def lines_data(text: str, typed: Any, refused: Any, not_keys: Any) -> tuple[bool, Any] | None:
    """(True, data) or (False, None) as `simple_data` answers for `text`, or None when
    a line is not one of the shapes read here. `typed` is `simple_yaml._typed`, which
    raises `refused` for a scalar it leaves to the others; `not_keys` the words that
    are not string keys (`true`, `null`, ...)."""
    if not _COMPILED:
        import re

        _COMPILED.append(re.compile(_LINE, re.M).findall)
    found = _COMPILED[0](text)
    if len(found) != text.count("\n") + 1:
        return None  # a line of another shape
    try:
        rows = _rows(found, typed, not_keys)
    except refused:
        return False, None
    if rows is None or isinstance(rows, tuple):
        return rows
    if not rows or rows[0][1] is None:  # nothing, or a list at the top (the archive)
        return False, None
    try:
        data, end = _mapping(rows, 0, rows[0][0], 1)
    except _HandOver:
        return False, None
    if end != len(rows):
        return False, None
    return True, data


def _rows(found: list[tuple[str, ...]], typed: Any, not_keys: Any) -> Any:
    """(indent, key or None for an item, value, whether the line holds a value) of each
    line that holds more than a comment; None or (False, None): `lines_data`'s answer."""
    rows: list[tuple[int, Any, Any, bool]] = []
    for indent, dash, key, quoted, plain in found:
        if dash:
            if quoted:
                value: Any = quoted[1:-1]
            elif plain:
                value = plain.rstrip(" ")
                if plain[0] in _TYPED_FIRST:
                    value = typed(value)
            else:
                return None  # an item without a value on its line
            rows.append((len(indent), None, value, True))
        elif key:
            if len(key) > _KEY_MAX:
                return False, None  # longer than YAML allows: the round trip refuses it
            if key in not_keys:
                return False, None  # `true:`, `null:`: keys that are not strings
            if quoted:
                rows.append((len(indent), key, quoted[1:-1], True))
            elif plain:
                value = plain.rstrip(" ")
                if plain[0] in _TYPED_FIRST:
                    value = typed(value)
                rows.append((len(indent), key, value, True))
            else:
                rows.append((len(indent), key, None, False))
    return rows


# the first characters of a plain scalar `_typed` may read as something else than a string
_TYPED_FIRST = frozenset("tTfFnN~+0123456789")


def _mapping(rows: list[tuple[int, Any, Any, bool]], at: int, indent: int, depth: int) -> Any:
    """`simple_yaml._mapping` over the rows read here."""
    if indent != rows[at][0] or depth > _MAX_DEPTH:
        raise _HandOver
    out: dict[str, Any] = {}
    count = len(rows)
    while at < count and rows[at][0] == indent:
        _, key, value, has_value = rows[at]
        if key is None or key in out:
            raise _HandOver  # an item among keys, a duplicate key
        at += 1
        if has_value:
            out[key] = value
            if at < count and rows[at][0] > indent:
                raise _HandOver
            continue
        if at == count or rows[at][0] < indent:
            out[key] = None
        elif rows[at][1] is None:  # an item at this indent or deeper
            out[key], at = _sequence(rows, at, rows[at][0], indent)
        elif rows[at][0] > indent:
            out[key], at = _mapping(rows, at, rows[at][0], depth + 1)
        else:
            out[key] = None
    if at < count and rows[at][0] > indent:
        raise _HandOver
    return out, at


def _sequence(
    rows: list[tuple[int, Any, Any, bool]], at: int, indent: int, parent: int
) -> tuple[list[Any], int]:
    """`simple_yaml._sequence` over the rows read here."""
    out = []
    count = len(rows)
    while at < count:
        row_indent, key, value, _ = rows[at]
        if row_indent != indent or key is not None:
            break
        out.append(value)
        at += 1
        if at < count and rows[at][0] > indent:
            raise _HandOver
    if at < count:
        nxt = rows[at][0]
        if nxt > parent and not (nxt == indent and indent == parent):
            raise _HandOver
        if nxt == indent and indent == parent and rows[at][1] is None:
            raise _HandOver
    return out, at
