"""The shortcuts the rules take in a batch give the answers the long way gives: the
list-order detection's one search of all the items, the schema evaluator's type-only
nodes, and what validate works out once per rule set and reuses for the next file."""

from __future__ import annotations

import re

import jsonschema
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from asimov_hooks.minischema import Evaluator
from asimov_hooks.trim import order
from asimov_hooks.trim.order import _trend, detect


def detect_item_by_item(items: list) -> str | None:
    """`detect` as it was: every item searched for a date, then for a task number."""
    if len(items) < 2:
        return None
    date, task, newest = (re.compile(p).search for p in (order._DATE, order._TASK, order._NEWEST))
    texts = [item if isinstance(item, str) else "" for item in items]
    dates = [m.group(1).replace(" ", "T") if (m := date(t)) else None for t in texts]
    found = _trend(dates)
    if found:
        return found
    found = _trend([int(m.group(1)) if (m := task(t)) else None for t in texts])
    if found:
        return found
    first, last = bool(newest(texts[0])), bool(newest(texts[-1]))
    if first != last:
        return order.NEWEST_FIRST if first else order.OLDEST_FIRST
    return None


PIECES = st.sampled_from(
    ["2025-11-2", "9", "1", "-0", "T", " ", "10:30", ":00", "task", "Step", "#", "\x00",
     "\n", "x", "_", "most recent", "Latest", "é", "Task 3", "2025-01-05"]
)  # fmt: skip
ITEM = st.one_of(st.lists(PIECES, max_size=8).map("".join), st.integers(), st.none())


@given(st.lists(ITEM, max_size=7))
def test_one_search_of_all_items_finds_what_each_items_search_finds(items: list) -> None:
    assert detect(items) == detect_item_by_item(items)


def test_a_nul_between_items_never_joins_two_items_into_one_match() -> None:
    # "task" ending one item and "7" starting the next are no task number
    assert detect(["do the task", "7 is done", "task 9"]) is None
    assert detect(["2025-01-0", "2 and more", "x"]) is None
    assert detect(["a\x002025-01-02", "2025-01-03"]) == order.OLDEST_FIRST


INTEGERS = {"type": "integer"}
ITEMS = {"type": "array", "items": {"type": "string"}}
OBJECT = {
    "type": "object",
    "properties": {"n": INTEGERS, "s": {"type": "string"}, "l": ITEMS, "any": {"type": ["string", "array"]}},
}  # fmt: skip


def verdicts(schema: dict, value: object) -> tuple[list, list]:
    ours = sorted((e.path, e.keyword) for e in Evaluator(schema).errors(value))
    ref = sorted(
        (tuple(e.absolute_path), e.validator)
        for e in jsonschema.Draft202012Validator(schema).iter_errors(value)
    )
    return ours, ref


def test_a_type_only_node_looks_past_the_exact_type() -> None:
    # bool is an int to Python, not an integer to JSON Schema; subclasses of list, dict
    # and str (a round-trip reading) are still checked by their JSON type
    for value in (True, 3, 3.0, "3", None):
        ours, ref = verdicts(INTEGERS, value)
        assert ours == ref, value
    seq = CommentedSeq(["a", 1, True])
    assert [e.path for e in Evaluator(ITEMS).errors(seq)] == [(1,), (2,)]
    mapping = CommentedMap(n=True, s=1, l=CommentedSeq(["x", False]), any={"k": 1})
    found = sorted(e.path for e in Evaluator(OBJECT).errors(mapping))
    assert found == [("any",), ("l", 1), ("n",), ("s",)]
    assert Evaluator(OBJECT).errors({"n": 1, "s": "x", "l": ["a"], "any": ["b"]}) == []


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
        lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from("nsl"), kids, max_size=3),
        max_leaves=8,
    )
)  # fmt: skip
def test_type_only_shortcuts_agree_with_jsonschema(value: object) -> None:
    for schema in (INTEGERS, ITEMS, OBJECT, {**OBJECT, "additionalProperties": False}):
        ours, ref = verdicts(schema, value)
        assert ours == ref
