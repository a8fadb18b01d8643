"""The round-trip reader's first error for the broken shape a stray quote makes, told
without a YAML library (whose import is most of a batch's cost when one file holds it):
a quoted value in the plain subset that closes, on its line or a later one, with a
plain scalar after the closing quote (`k: "it"s done"`, or a `"` left open until the
next line's first quote). Its scanner reads the quoted scalar over lines and the plain
scalar after it, then one token more: the error is the one at `:` in that scalar, or
the parser's at the scalar, when the line after it starts an entry of the plain subset.
Anything else gives None: the text is handed over to the library.
"""

from __future__ import annotations

from .guards import _quote_end
from .plain_rows import HandOver, refused, rows
from .problem import YAMLProblem

_PLAIN_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_(/")


def quote_problem(text: str, line: int) -> YAMLProblem | None:
    """The problem of `text`, whose plain reading stopped at `line` on
    `plain_rows.AfterQuote`."""
    if not text.isascii() or refused(text):
        return None
    lines = text.split("\n")
    try:
        found = rows(lines[: line + 1])
    except HandOver:
        return None
    if not found or found[-1][3] != line or found[-1][2][:1] not in ('"', "'"):
        return None
    at, close = _closing(lines, line, found[-1][4])
    if at < 0:
        return None
    tail = lines[at]
    start = close + 1
    while tail[start : start + 1] == " ":
        start += 1
    if tail[start : start + 1] not in _PLAIN_FIRST:  # (past the end: "")
        return None
    comment = tail.find(" #", start)
    end = comment if comment >= 0 else len(tail)
    colon = tail.find(": ", start, end)
    if colon < 0 and tail[:end].endswith(":"):
        colon = end - 1
    if colon >= 0:  # a value indicator the plain scalar ends at
        if at == line:
            return None  # the quoted scalar may still be a key there
        return YAMLProblem(
            "syntax", "invalid YAML: mapping values are not allowed here", at + 1, colon + 1
        )
    stack = _blocks(found, start)
    if not stack or not _entry_next(lines, at + 1, stack[-1][0]):
        return None
    within = "a block collection" if stack[-1][1] == "seq" else "a block mapping"
    message = f"invalid YAML: expected <block end>, but found '<scalar>' (while parsing {within})"
    return YAMLProblem("syntax", message, at + 1, start + 1)


def _closing(lines: list[str], line: int, column: int) -> tuple[int, int]:
    """(line, column) of the quote that closes the scalar opened at `column`; (-1, -1)
    when it is not closed, holds an escape or meets a document marker."""
    quote = lines[line][column]
    pos = column + 1
    for at in range(line, len(lines)):
        text = lines[at]
        if at > line and text[:3] in ("---", "...") and text[3:4] in ("", " "):
            return -1, -1
        end = _quote_end(text, pos, quote)  # just past the closing quote
        if quote == '"' and "\\" in text[pos : end if end >= 0 else len(text)]:
            return -1, -1
        if end >= 0:
            return at, end - 1
        pos = 0
    return -1, -1


def _blocks(found: list, column: int) -> list[tuple[int, str]]:
    """The block collections open at the last row, (indent, "map" | "seq" | "iseq"), less
    those the scanner closes at `column`."""
    stack: list[tuple[int, str]] = []
    for indent, key, *_ in found:
        while stack and stack[-1][0] > indent:
            stack.pop()
        if key is not None:
            if stack and stack[-1] == (indent, "iseq"):
                stack.pop()
            if not stack or stack[-1][0] < indent:
                stack.append((indent, "map"))
        elif not stack or stack[-1][0] < indent:
            stack.append((indent, "seq"))
        elif stack[-1] == (indent, "map"):
            stack.append((indent, "iseq"))
    while stack and stack[-1][0] > column:
        stack.pop()
    if stack and stack[-1][1] == "iseq":
        stack.pop()  # the sequence ends: its mapping meets the scalar
    return stack


def _entry_next(lines: list[str], at: int, indent: int) -> bool:
    """Whether the first line from `at` that is not blank is the end, or an entry of
    the plain subset no deeper than `indent` (the scanner's one token more)."""
    while at < len(lines) and not lines[at].strip(" "):
        at += 1
    if at == len(lines):
        return True
    try:
        found = rows([lines[at]])
    except HandOver:
        return False
    return bool(found) and found[0][0] <= indent
