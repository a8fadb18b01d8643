"""A command line's words, as `shlex.split` gives them, in time linear in the line.

`shlex` grows each word a character at a time on an attribute, which CPython cannot
extend in place: a word of n characters costs n² (a 500 KB patch passed to
`apply_patch` as one argument took seconds, and so did a long hook command in an
agent's settings). This reads the same POSIX subset
`shlex.split` does, and nothing more: blanks (space, tab, CR, LF) part words; `'...'`
is literal; in `"..."` a backslash escapes only `"` and `\\`; elsewhere it escapes any
character; `#` is an ordinary character. It raises ValueError where `shlex.split` does.
"""

from __future__ import annotations

import re

# one piece of a word, or the blanks between words; a quote left open or a trailing
# backslash matches none of these and is the error
_PIECE = re.compile(
    r"""(?P<blank>[ \t\r\n]+)"""
    r"""|(?P<bare>[^ \t\r\n'"\\]+)"""
    r"""|'(?P<single>[^']*)'"""
    r"""|"(?P<double>[^"\\]*(?:\\[\s\S][^"\\]*)*)\""""
    r"""|\\(?P<escaped>[\s\S])""",
)
_DOUBLE_ESCAPE = re.compile(r'\\([\\"])')
# an open double quote whose last character is an escape still waiting for its character
_OPEN_ESCAPE = re.compile(r'"[^"\\]*(?:\\[\s\S][^"\\]*)*\\\Z')


def split(command: str) -> list[str]:
    """The words of `command`; ValueError for a quote left open or a trailing backslash."""
    words: list[str] = []
    parts: list[str] = []
    started = False  # a quoted empty string is a word: `''` gives ""
    pos, end = 0, len(command)
    while pos < end:
        found = _PIECE.match(command, pos)
        if found is None:
            if command[pos] == "\\" or _OPEN_ESCAPE.match(command, pos):
                raise ValueError("No escaped character")
            raise ValueError("No closing quotation")
        kind = found.lastgroup
        pos = found.end()
        if kind == "blank":
            if started:
                words.append("".join(parts))
                parts, started = [], False
            continue
        started = True
        text = found.group(kind)  # type: ignore[arg-type]
        parts.append(_DOUBLE_ESCAPE.sub(r"\1", text) if kind == "double" else text)
    if started:
        words.append("".join(parts))
    return words
