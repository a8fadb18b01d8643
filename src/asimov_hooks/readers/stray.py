"""The commonest broken checkpoints, told without a YAML parser: a `key:` line indented
deeper than the line before it, where that line ends with a quoted value (a stray
indent, a pasted line). The round-trip reader
(ruamel.yaml's pure-Python parser, whose words are the reference for every syntax
error) says of a stray line

    expected <block end>, but found '<block mapping start>' (while parsing a block
    mapping | while parsing a block collection)

at the stray key, and reads no further; so it does of a `key:` line indented less than
the block above it but more than the mapping the reader goes back to. Everything before the stray line must be the
plain shape `simple_yaml` reads (so the parser meets nothing else first); the line
before it must end with a quoted scalar (a plain one would run on into the stray line);
the stray line must start with a word and a colon. Anything else: None, and the
parser reads the text as before: a quote left open among them, where what the reader
says depends on how far its scanner looks ahead after the quote closes (the focused
re-read below gives its words). `tests/test_stray_yaml.py` compares every answer
with the round-trip reader's on generated broken texts.
"""

from __future__ import annotations

from .problem import YAMLProblem
from .simple_yaml import _ASCII_REFUSED, _MAX_DEPTH, _HandOver, _key, _scalar

_FOUND = "invalid YAML: expected <block end>, but found '<block mapping start>'"
_IN_MAPPING = f"{_FOUND} (while parsing a block mapping)"
_IN_SEQUENCE = f"{_FOUND} (while parsing a block collection)"
_KEY_MAX = 1000  # a simple key is one line of at most 1,024 characters


class _Stray(Exception):
    def __init__(self, problem: YAMLProblem) -> None:
        self.problem = problem


def stray_problem(text: str) -> YAMLProblem | None:
    """The round-trip reader's problem with `text` when it is a stray `key:` line after
    a quoted value (see above); None when the text is not that case."""
    rows = _rows(text)
    if rows is None:
        return None
    try:
        _mapping(rows, 0, rows[0][0], 1, [])
    except _Stray as stray:
        return stray.problem
    except _HandOver:
        return None
    return None


def focused(text: str) -> str | None:
    """`text` with its first top-level entries blanked (their lines left empty), where
    the round-trip reader meets the same problem, at the same line and column, sooner;
    None when there is nothing to blank. Only entries of the plain shape before the one
    the plain reader cannot read are blanked, and the entry before that one is kept:
    from the top-level key that opens it, the reader is where it was in the whole
    text (at the top-level mapping's next key, nothing pending), and it reads the
    same tokens from there. A text of one document only (no document marker): its
    problem, when composing it fails, comes before any value is built. `tests/test_stray_yaml.py` holds every answer to the whole
    text's reading."""
    rows = _rows(text)
    if rows is None or rows[0][0] != 0:
        return None
    entries: list[int] = []  # the line of each top-level key met
    _walk(rows, entries)
    if len(entries) < 3:
        return None
    keep = entries[-2]
    lines = text.split("\n")
    return "\n" * keep + "\n".join(lines[keep:])


def _walk(rows: list[tuple[int, str, int]], entries: list[int]) -> None:
    """Read the rows as far as the plain shape goes."""
    try:
        _mapping(rows, 0, 0, 1, entries)
    except (_Stray, _HandOver):
        return None


def _rows(text: str) -> list[tuple[int, str, int]] | None:
    """(indent, content, line number) of every line that holds more than a comment; None
    when the text is not for this module (a document marker: one document only)."""
    if not text.isascii() or any(ch in text for ch in _ASCII_REFUSED):
        return None  # the reader refuses some characters before it parses anything
    rows = []
    for number, line in enumerate(text.split("\n")):
        content = line.lstrip(" ")
        if not content or content[0] == "#":
            continue
        if line.startswith(("---", "...")) and (len(line) == 3 or line[3] in " #"):
            return None  # document markers
        rows.append((len(line) - len(content), content.rstrip(" "), number))
    if not rows or rows[0][1][:1] == "-":
        return None
    return rows


def _check(rows: list[tuple[int, str, int]], at: int, value: str | None, message: str) -> None:
    """Raise `_Stray` when rows[at] is a stray `key:` line after a line ending with the
    quoted `value` (or `value` None: a line less indented than the block that ends
    there, more than the mapping the reader goes back to); else `_HandOver` (the text
    is not read here)."""
    if value is not None and value[:1] not in ("'", '"'):
        raise _HandOver  # a plain scalar runs on into a deeper line
    indent, content, number = rows[at]
    colon = content.find(":")
    key = content[:colon]
    if (
        colon <= 0
        or colon > _KEY_MAX
        or not key.isidentifier()
        or content[colon + 1 : colon + 2] not in ("", " ")
    ):
        raise _HandOver
    raise _Stray(YAMLProblem("syntax", message, number + 1, indent + 1))


def _mapping(
    rows: list[tuple[int, str, int]], at: int, indent: int, depth: int, entries: list[int]
) -> int:
    """`simple_yaml._mapping`, raising `_Stray` where it meets a stray line; the line of
    each top-level key goes to `entries`."""
    if indent != rows[at][0] or depth > _MAX_DEPTH:
        raise _HandOver
    keys: set[str] = set()
    while at < len(rows) and rows[at][0] == indent:
        content = rows[at][1]
        if depth == 1:
            entries.append(rows[at][2])
        key, rest = _key(content)
        if key in keys:
            raise _HandOver
        keys.add(key)
        at += 1
        if rest:
            _scalar(rest)
            if at < len(rows) and rows[at][0] > indent:
                _check(rows, at, rest, _IN_MAPPING)
            continue
        if at == len(rows) or rows[at][0] < indent:
            pass
        elif rows[at][1][:2] == "- " and rows[at][0] >= indent:
            at = _sequence(rows, at, rows[at][0], indent)
        elif rows[at][0] > indent:
            at = _mapping(rows, at, rows[at][0], depth + 1, entries)
    if at < len(rows) and rows[at][0] > indent:
        # between this mapping's indentation and the one of the mapping that ended
        _check(rows, at, None, _IN_MAPPING)
    return at


def _sequence(rows: list[tuple[int, str, int]], at: int, indent: int, parent: int) -> int:
    """`simple_yaml._sequence`, raising `_Stray` where it meets a stray line."""
    count = len(rows)
    while at < count:
        row_indent, content = rows[at][0], rows[at][1]
        if row_indent != indent or not content.startswith("- "):
            break
        item = content[2:].lstrip(" ")
        if not item or item[0] == "#":
            raise _HandOver
        _scalar(item, in_list=True)
        at += 1
        if at < count and rows[at][0] > indent:
            # an indentless list (at its key's indent) ends there, and the mapping
            # meets the stray line
            _check(rows, at, item, _IN_SEQUENCE if indent > parent else _IN_MAPPING)
    if at < count:
        nxt = rows[at][0]
        if nxt > parent and not (nxt == indent and indent == parent):
            if nxt < indent:  # between the list's indentation and its key's
                _check(rows, at, None, _IN_MAPPING)
            raise _HandOver
        if nxt == indent and indent == parent and rows[at][1][:2] == "- ":
            raise _HandOver
    return at
