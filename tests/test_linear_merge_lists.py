"""The merge driver merges long lists in time linear in their length: a checkpoint list
of many equal items (`key_decisions`), and a `by-key` list (`progress_table`) that
both sides append to, one row each or many rows each. Measured as
tests/test_linear_time.py measures: the cost at 4n against the cost at n, never a time.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from merge_support import JSON_PATH, merge, oc
from test_linear_time import assert_linear


def _equal_items(n: int) -> tuple[dict, dict, dict]:
    """n equal decisions; each side appends its own (a clean merge that matches every
    merged item to its source text among n equal candidates)."""

    def side(*extra: str) -> dict:
        return oc(context_primer={"key_decisions": ["x"] * n + list(extra)})

    return side(), side("a"), side("b")


def _rows(prefix: str, count: int) -> list[dict]:
    """Rows as short as a row can be: the more rows a side holds within the driver's
    size limit, the more the square of their number shows against reading them."""
    return [{"id": f"{prefix}{i:05d}"} for i in range(count)]


def _one_row_each(n: int) -> tuple[dict, dict, dict]:
    """n rows in base; each side appends one row of its own."""
    base = _rows("r", n)
    return (
        oc(progress_table=base),
        oc(progress_table=[*base, *_rows("o", 1)]),
        oc(progress_table=[*base, *_rows("t", 1)]),
    )


def _many_rows_each(n: int) -> tuple[dict, dict, dict]:
    """Both sides append n rows, each its own."""
    base = _rows("r", 3)
    return (
        oc(progress_table=base),
        oc(progress_table=[*base, *_rows("o", n)]),
        oc(progress_table=[*base, *_rows("t", n)]),
    )


def _merge(sides: Callable[[int], tuple[dict, dict, dict]], compact: bool = False):
    def case(n: int) -> Callable[[], object]:
        layout: dict = {"separators": (",", ":")} if compact else {"indent": 2}
        base, ours, theirs = (json.dumps(doc, **layout) + "\n" for doc in sides(n))

        def run() -> None:
            outcome = merge(base, ours, theirs, JSON_PATH)
            assert outcome.how == "clean", outcome.reason

        return run

    return case


# name -> (build(n) -> the call to time, a starting n at which a square shows)
CASES: dict[str, tuple[Callable[[int], Callable[[], object]], int]] = {
    "equal items, each side appends one": (_merge(_equal_items), 1000),
    "by-key: each side appends one row": (_merge(_one_row_each, compact=True), 4000),
    "by-key: both sides append many rows": (_merge(_many_rows_each, compact=True), 2000),
}


@pytest.mark.parametrize("name", list(CASES))
def test_list_merge_is_linear(name: str) -> None:
    case, n = CASES[name]
    assert_linear(case, n)
