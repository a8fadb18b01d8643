"""Which end of a history list (`completed`) holds the newest items.

A cap that keeps the `last` items assumes the list grows at its end. ADR-007's own
example lists the newest first ("Task 8: Most recent", "Task 7", "Task 6"), and agents
write both orders, so under `order: auto` (the default) the items say which it is:

1. timestamps or dates in the items (`2025-11-29`, `2025-11-29T10:30:00Z`), newest where
   they grow;
2. else task numbers (`Task 8`, `step 3`, `#12`), newest where they grow;
3. else ADR-007's words "most recent" / "latest" / "newest" on the first or last item;
4. else the cap's own `keep`.

`order: newest-first` or `oldest-first` in the `trim` section says it outright.
A cap that keeps the `first` items (`next_steps`: the next task first) is a queue, not a
history, and is left as configured.
"""

from __future__ import annotations

from itertools import pairwise

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any

NEWEST_FIRST, OLDEST_FIRST, AUTO = "newest-first", "oldest-first", "auto"
ORDERS = (NEWEST_FIRST, OLDEST_FIRST, AUTO)

_DATE = r"\b(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?)"
# (the blanks around an optional `#` read one way only: `\s*#?\s*` would try every split
# of a long run of blanks)
_TASK = r"(?i)(?:\b(?:task|step|item|phase|milestone|round)\s*(?:#\s*)?|#)(\d+)\b"
_NEWEST = r"(?i)\b(?:most recent|latest|newest)\b"


def _trend(values: list[object]) -> str | None:
    """newest-first / oldest-first when the known values only fall / only rise."""
    known = [v for v in values if v is not None]
    if len(known) < 2:
        return None
    pairs = list(pairwise(known))
    if all(a > b for a, b in pairs):  # type: ignore[operator]
        return NEWEST_FIRST
    if all(a < b for a, b in pairs):  # type: ignore[operator]
        return OLDEST_FIRST
    return None


# what every date holds, found at once by its leading `-` (the date pattern, which
# begins with `\b`, is tried at every character of a text: forty times as long)
_DATE_PART = r"-\d\d-"
_COMPILED: list[Any] = []


def _patterns() -> Any:
    """The patterns' `search` (the three, then `_DATE_PART`), compiled once (a batch
    asks for every long list)."""
    if not _COMPILED:
        import re

        _COMPILED.extend(re.compile(p).search for p in (_DATE, _TASK, _NEWEST, _DATE_PART))
    return _COMPILED


def detect(items: list[str]) -> str | None:
    """The order the items show, or None when they show none."""
    if len(items) < 2:
        return None
    date, task, newest, date_part = _patterns()
    texts = [item if isinstance(item, str) else "" for item in items]
    # one search of all the items first: a list with no date (no `-00-` in any item) or
    # no task number in any item needs no search of each. NUL joins them: no pattern
    # matches it or across it, and to `\b` it is the edge of a text, so every item's
    # match is found in the whole (a NUL inside an item can only add one, never lose one)
    joined = "\0".join(texts)
    if date_part(joined):  # a date may be there: each item's own search says
        dates: list[object] = [
            found.group(1).replace(" ", "T") if (found := date(text)) else None for text in texts
        ]
        order = _trend(dates)
        if order:
            return order
    if task(joined):
        tasks: list[object] = [
            int(found.group(1)) if (found := task(text)) else None for text in texts
        ]
        order = _trend(tasks)
        if order:
            return order
    first, last = bool(newest(texts[0])), bool(newest(texts[-1]))
    if first != last:
        return NEWEST_FIRST if first else OLDEST_FIRST
    return None


def keep_for(keep: str, order: str, items: list[str]) -> str:
    """The end of a capped list to keep: `keep` as configured, or, for a history list
    (keep `last`), the end its order makes the newest."""
    if keep != "last":
        return keep
    if order == AUTO:
        order = detect(items) or OLDEST_FIRST
    return "first" if order == NEWEST_FIRST else "last"
