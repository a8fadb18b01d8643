"""The format-free merge: policy patterns, timestamps, unions and keyed lists."""

from __future__ import annotations

import datetime

import pytest
from merge_support import YAML_PATH, merge, parse

from asimov_hooks.merge.core import (
    MISSING,
    Conflict,
    Item,
    Policies,
    canon,
    merge_trees,
    parse_timestamp,
    resolve,
    same,
    show_path,
)

POLICIES = Policies(
    {
        "stamp": "latest",
        "born": "earliest",
        "count": "max",
        "low": "min",
        "log": "union",
        "rows": {"policy": "by-key", "key": "id"},
        "rows[].status": "conflict",
        "state.**.prs": "union",
        "state.*": "max",
    }
)


def run(b, o, t):
    tree, conflicts = merge_trees(b, o, t, POLICIES)
    return tree, [show_path(c.path) for c in conflicts]


@pytest.mark.parametrize(
    ("path", "policy"),
    [
        (("stamp",), "latest"),
        (("rows",), "by-key"),
        (("rows", Item("id=a"), "status"), "conflict"),
        (("rows", Item("id=a"), "label"), "conflict"),  # the default
        (("state", "prs"), "union"),
        (("state", "deep", "er", "prs"), "union"),
        (("state", "n"), "max"),
        (("state", "deep", "n"), "conflict"),
        (("other",), "conflict"),
    ],
)
def test_patterns(path, policy) -> None:
    assert POLICIES.for_path(path)["policy"] == policy


def test_most_specific_pattern_wins_whatever_the_order() -> None:
    a = Policies({"**": "max", "a.*": "union", "a.b": "latest"})
    b = Policies({"a.b": "latest", "a.*": "union", "**": "max"})
    for p in (a, b):
        assert p.for_path(("a", "b"))["policy"] == "latest"
        assert p.for_path(("a", "c"))["policy"] == "union"
        assert p.for_path(("z",))["policy"] == "max"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "2026-01-02T03:04:05Z",
            datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
        ),
        (
            "2026-01-02T03:04:05.5+02:00",
            datetime.datetime(2026, 1, 2, 1, 4, 5, 500000, tzinfo=datetime.timezone.utc),
        ),
        ("2026-01-02 03:04", datetime.datetime(2026, 1, 2, 3, 4)),
        ("2026-01-02", datetime.datetime(2026, 1, 2)),
        ("2026-02-30T00:00:00Z", None),
        ("yesterday", None),
        (42, None),
    ],
)
def test_timestamps(text, expected) -> None:
    assert parse_timestamp(text) == expected


def test_equality_keeps_types_apart() -> None:
    assert not same(1, 1.0) and not same(1, True) and not same("1", 1)
    assert same({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
    assert same({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert len(sorted([canon("x"), canon(["x"]), canon(1), canon({"a": None})])) == 4
    assert not same(MISSING, None)


def test_scalar_policies_are_symmetric() -> None:
    b = {"stamp": "2026-01-01T00:00:00Z", "born": "2026-01-01T00:00:00Z", "count": 5, "low": 5}
    o = {"stamp": "2026-01-03T00:00:00Z", "born": "2025-12-01T00:00:00Z", "count": 9, "low": 4}
    t = {"stamp": "2026-01-02T00:00:00Z", "born": "2025-12-02T00:00:00Z", "count": 7, "low": 1}
    for x, y in ((o, t), (t, o)):
        tree, conflicts = run(b, x, y)
        assert conflicts == []
        assert tree == {"stamp": o["stamp"], "born": o["born"], "count": 9, "low": 1}


def test_equal_instants_written_differently() -> None:
    b = {"stamp": "2026-01-01T00:00:00Z"}
    o, t = {"stamp": "2026-01-02T02:00:00+02:00"}, {"stamp": "2026-01-02T00:00:00Z"}
    assert run(b, o, t)[0] == run(b, t, o)[0]


def test_number_policy_refuses_non_numbers() -> None:
    assert run({"count": 1}, {"count": "2"}, {"count": 3})[1] == ["count"]
    assert run({"count": 1}, {"count": True}, {"count": 3})[1] == ["count"]


def test_union_keeps_base_order_and_removals() -> None:
    b = {"log": ["a", "b", "c", "d"]}
    o = {"log": ["a", "c", "d", "x"]}  # removed b
    t = {"log": ["d", "a", "b", "c", "y", "x"]}  # moved d, added y and x
    for x, y in ((o, t), (t, o)):
        tree, conflicts = run(b, x, y)
        assert conflicts == [] and tree["log"] == ["a", "c", "d", "x", "y"]


def test_union_without_base_and_duplicates() -> None:
    tree, _ = run(MISSING, {"log": ["a", "b", "b"]}, {"log": ["b", "c"]})
    assert tree["log"] == ["a", "b", "c"]


def test_union_needs_lists() -> None:
    assert run({"log": []}, {"log": "x"}, {"log": ["y"]})[1] == ["log"]


ROWS = [{"id": "a", "status": "done"}, {"id": "b", "status": "todo"}]


def test_keyed_rows_merge_one_by_one() -> None:
    o = {"rows": [{"id": "a", "status": "done", "note": "o"}, ROWS[1]]}
    t = {"rows": [ROWS[0], {"id": "b", "status": "doing"}, {"id": "c", "status": "todo"}]}
    tree, conflicts = run({"rows": ROWS}, o, t)
    assert conflicts == []
    assert tree["rows"] == [
        {"id": "a", "status": "done", "note": "o"},
        {"id": "b", "status": "doing"},
        {"id": "c", "status": "todo"},
    ]


def test_keyed_rows_conflict_on_a_row_field() -> None:
    o = {"rows": [ROWS[0], {"id": "b", "status": "doing"}]}
    t = {"rows": [ROWS[0], {"id": "b", "status": "blocked"}]}
    tree, conflicts = run({"rows": ROWS}, o, t)
    assert conflicts == ["rows[id=b].status"]
    assert resolve(tree, "ours") == o and resolve(tree, "theirs") == t


def test_keyed_rows_deleted_and_changed() -> None:
    o = {"rows": [ROWS[0]]}
    t = {"rows": [ROWS[0], {"id": "b", "status": "doing"}]}
    tree, conflicts = run({"rows": ROWS}, o, t)
    assert conflicts == ["rows[id=b]"]
    assert resolve(tree, "ours") == o and resolve(tree, "theirs") == t


def test_keyed_rows_reordered_differently_conflict_as_a_whole() -> None:
    rows = [*ROWS, {"id": "c"}]
    o = {"rows": [rows[1], rows[0], rows[2]]}
    t = {"rows": [rows[0], rows[2], rows[1]]}
    tree, conflicts = run({"rows": rows}, o, t)
    assert conflicts == ["rows"] and isinstance(tree["rows"], Conflict)


def test_keyed_rows_reordered_on_one_side() -> None:
    o = {"rows": [ROWS[1], ROWS[0]]}
    t = {"rows": [*ROWS, {"id": "c"}]}
    # ours' order wins; theirs' new row follows the row it follows on theirs
    assert run({"rows": ROWS}, o, t)[0]["rows"] == [ROWS[1], {"id": "c"}, ROWS[0]]


def test_keyed_rows_without_ids_conflict() -> None:
    o, t = {"rows": [{"x": 1}]}, {"rows": [{"x": 2}]}
    assert run({"rows": []}, o, t)[1] == ["rows"]
    dup = {"rows": [{"id": "a"}, {"id": "a"}]}
    assert run({"rows": []}, dup, {"rows": [{"id": "b"}]})[1] == ["rows"]


def test_new_rows_from_both_sides_after_their_anchor() -> None:
    o = {"rows": [ROWS[0], {"id": "a2"}, ROWS[1]]}
    t = {"rows": [ROWS[0], {"id": "a1"}, ROWS[1], {"id": "z"}]}
    for x, y in ((o, t), (t, o)):
        ids = [r["id"] for r in run({"rows": ROWS}, x, y)[0]["rows"]]
        assert ids == ["a", "a1", "a2", "b", "z"]


def test_nested_mappings_merge_key_by_key() -> None:
    b = {"state": {"n": 1, "prs": [1]}}
    o = {"state": {"n": 3, "prs": [1, 2]}}
    t = {"state": {"n": 2, "prs": [1, 3], "new": True}}
    tree, conflicts = run(b, o, t)
    assert conflicts == [] and tree == {"state": {"n": 3, "prs": [1, 2, 3], "new": True}}


def test_key_order_follows_ours_then_theirs() -> None:
    o = {"a": 1, "b": 1, "c": 1}
    t = {"a": 1, "x": 2, "b": 1, "c": 1, "y": 3}
    assert list(run({"a": 1, "b": 1, "c": 1}, o, t)[0]) == ["a", "x", "b", "c", "y"]


def test_yaml_timestamps_unquoted() -> None:
    base = 'timestamp: 2026-01-01T10:00:00Z\nmilestone: "m"\n'
    ours = 'timestamp: 2026-01-02T10:00:00Z\nmilestone: "m"\n'
    theirs = 'timestamp: 2026-01-03T10:00:00+01:00\nmilestone: "m"\nstatus: done\n'
    outcome = merge(base, ours, theirs, YAML_PATH)
    assert outcome.status == 0
    assert (
        outcome.data.decode()
        == 'timestamp: 2026-01-03T10:00:00+01:00\nmilestone: "m"\nstatus: done\n'
    )
    assert parse(outcome.data, YAML_PATH)["status"] == "done"
