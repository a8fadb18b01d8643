"""Git conflict markers, which hosted merge buttons can leave in checkpoint files."""

from __future__ import annotations

import re

_CONFLICT = re.compile(r"^(?:<{7}(?: |$)|={7}$|>{7}(?: |$)|\|{7}(?: |$))", re.M)


def find_conflict_marker(text: str) -> int | None:
    """1-based line of the first git conflict marker, if any."""
    if "<<<<<<<" not in text and ">>>>>>>" not in text:
        return None
    match = _CONFLICT.search(text)
    return None if match is None else text.count("\n", 0, match.start()) + 1
