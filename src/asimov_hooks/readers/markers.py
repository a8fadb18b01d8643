"""Git conflict markers, which hosted merge buttons can leave in checkpoint files."""

from __future__ import annotations

# git writes markers of `conflict-marker-size` characters (7 by default, more in a
# recursive merge or when the attribute says so): seven or more of one character
_CONFLICT = r"^(?:<{7,}(?: |\r?$)|={7,}\r?$|>{7,}(?: |\r?$)|\|{7,}(?: |\r?$))"


def find_conflict_marker(text: str) -> int | None:
    """1-based line of the first git conflict marker, if any."""
    if "<<<<<<<" not in text and ">>>>>>>" not in text:
        return None
    import re  # only for text that may hold a marker: `re` costs hook start-up

    match = re.search(_CONFLICT, text, re.M)
    return None if match is None else text.count("\n", 0, match.start()) + 1
