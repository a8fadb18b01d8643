"""The path a `generated_files` entry names, without the notes written after it: read
from the entry's end, each character a bounded number of times."""

from __future__ import annotations

import os

# a note after the path: `src/app.ts (Round 5 — new)`, `docs/api.md — rewritten`: a
# blank, then a parenthesised annotation that ends the entry, or a dash and a blank
# followed by the rest of its last line
_DASHES = ("—", "–", "--", "-")


def entry_path(entry: str, root: str) -> str:
    """The path of a generated_files entry: the entry itself when it names a file, else
    the entry without its trailing notes (parenthesised annotations, a ` — note`).

    The entry is read from its end, each character a bounded number of times: a value
    of thousands of notes, dashes or blanks costs its length, not its square."""
    if os.path.exists(os.path.join(root, entry)):
        return entry
    end = len(entry)
    dash_line, dash_at = -1, -1  # the last line looked at, and its first note dash there
    while True:
        stop = end
        while stop and entry[stop - 1].isspace():
            stop -= 1
        if not stop:
            return entry[:end]
        cut = -1
        if entry[stop - 1] == ")":
            opened = entry.rfind("(", 0, stop - 1)
            if opened > 0 and entry[opened - 1].isspace() and ")" not in entry[opened : stop - 1]:
                cut = opened
        line = entry.rfind("\n", 0, stop) + 1
        if line != dash_line or (dash_at >= 0 and not _blank_after(entry, dash_at, end)):
            dash_line, dash_at = line, _first_dash(entry, line, stop, end)
        if 0 <= dash_at < stop and (cut < 0 or dash_at < cut):
            cut = dash_at
        if cut < 0:
            return entry[:end]
        while cut and entry[cut - 1].isspace():
            cut -= 1
        if not cut:
            return entry[:end]
        end = cut


def _blank_after(text: str, at: int, end: int) -> bool:
    after = at + next(len(d) for d in _DASHES if text.startswith(d, at))
    return after < end and text[after].isspace()


def _first_dash(text: str, line: int, stop: int, end: int) -> int:
    """The first dash of a note that ends the text (a blank before it, one after it, then
    the rest of one line): at the end of the line before the last (`-` and its line
    break), else on the last line, text[line:stop]; -1 when there is none."""
    for dash in _DASHES:  # the line break after it is its blank
        at = line - 1 - len(dash)
        if at > 0 and text.startswith(dash, at) and text[at - 1].isspace():
            return at
    for at in range(max(line, 1), stop):
        if not text[at - 1].isspace():
            continue
        for dash in _DASHES:
            after = at + len(dash)
            if text.startswith(dash, at) and after < end and text[after].isspace():
                return at
    return -1
