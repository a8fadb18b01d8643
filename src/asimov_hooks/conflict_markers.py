"""Git conflict markers, which hosted merge buttons can leave in checkpoint files.

In Markdown (the instruction files) a line of `=======` alone is also a heading's
underline, so there the separator never counts by itself: the opening and closing
markers, which every conflict has, are what is found. (pre-commit-hooks'
check-merge-conflict counts the separator too, and so runs only during a merge.)
"""

from __future__ import annotations

# git writes markers of `conflict-marker-size` characters (7 by default, more in a
# recursive merge or when the attribute says so): seven or more of one character
_CONFLICT = r"^(?:<{7,}(?: |\r?$)|={7,}\r?$|>{7,}(?: |\r?$)|\|{7,}(?: |\r?$))"
_CONFLICT_MARKDOWN = r"^(?:<{7,}(?: |\r?$)|>{7,}(?: |\r?$)|\|{7,}(?: |\r?$))"
SMALL_SIZES = range(3, 7)


def _marker(line: str, char: str) -> int:
    """Size of a `char` marker that opens `line` (0 if it is none), as git writes it:
    the run of `char` alone, or followed by a space and a label."""
    size = len(line) - len(line.lstrip(char))
    rest = line[size:]
    if char == "=":
        return size if rest == "" else 0
    return size if rest == "" or rest.startswith(" ") else 0


def _small_block(text: str) -> int | None:
    """1-based line of a conflict block whose markers are 3 to 6 characters long.

    A smaller `conflict-marker-size` is accepted only as a whole block: an opening, a
    separator and a closing marker of one size, in that order; a lone `<<<` line is too
    common in prose and YAML scalars to be a conflict by itself. One pass, linear.
    """
    opened: dict[int, int] = {}  # size -> line of its opening marker
    separated: dict[int, int] = {}
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        if not line or line[0] not in "<=>":
            continue
        char = line[0]
        size = _marker(line, char)
        if size not in SMALL_SIZES:
            continue
        if char == "<":
            opened.setdefault(size, number)
        elif char == "=" and size in opened:
            separated[size] = opened[size]
        elif char == ">" and size in separated:
            return separated[size]
    return None


def find_conflict_marker(text: str, markdown: bool = False) -> int | None:
    """1-based line of the first git conflict marker, if any; `markdown`: a lone
    `=======` line is a heading underline, not a marker."""
    found = []
    if "<<<<<<<" in text or ">>>>>>>" in text:
        import re  # only for text that may hold a marker: `re` costs hook start-up

        match = re.search(_CONFLICT_MARKDOWN if markdown else _CONFLICT, text, re.M)
        if match is not None:
            found.append(text.count("\n", 0, match.start()) + 1)
    if "\n<<<" in text or text.startswith("<<<"):
        small = _small_block(text)
        if small is not None:
            found.append(small)
    return min(found) if found else None
