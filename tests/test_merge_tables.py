"""Tables of (base, ours, theirs) -> (result, exit status) for both checkpoint formats.

Each case runs in process through `merge_bytes`, the same function the driver uses,
and again with ours and theirs swapped: a rebase swaps them and the answer must not
change.
"""

from __future__ import annotations

import json

import pytest
from merge_support import (
    ASIMOV_BASE,
    JSON_PATH,
    YAML_PATH,
    dump,
    hunks,
    merge,
    oc,
    parse,
    take,
)


def edit(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


TS_BASE = ('"2026-01-01T10:00:00Z"', '"2026-01-01T10:00:00Z"')


def ts(value: str) -> tuple[str, str]:
    return ('timestamp: "2026-01-01T10:00:00Z"', f"timestamp: {value}")


# (id, ours edits, theirs edits, expected changes to the base data, or None for a conflict,
#  conflicting paths)
YAML_CASES = [
    (
        "latest timestamp",
        [ts('"2026-01-02T09:00:00Z"')],
        [ts('"2026-01-03T08:00:00Z"')],
        {"timestamp": "2026-01-03T08:00:00Z"},
        [],
    ),
    (
        "timestamps with offsets compare as instants",
        [ts('"2026-01-02T09:00:00+02:00"')],
        [ts('"2026-01-02T08:30:00Z"')],
        {"timestamp": "2026-01-02T08:30:00Z"},
        [],
    ),
    (
        "unparseable timestamp conflicts",
        [ts('"yesterday"')],
        [ts('"2026-01-03T08:00:00Z"')],
        None,
        ["timestamp"],
    ),
    (
        "naive against aware conflicts",
        [ts('"2026-01-02T09:00:00"')],
        [ts('"2026-01-03T08:00:00Z"')],
        None,
        ["timestamp"],
    ),
    (
        "counter takes the maximum",
        [("tool_calls: 10", "tool_calls: 30")],
        [("tool_calls: 10", "tool_calls: 12")],
        {"tool_calls": 30},
        [],
    ),
    (
        "a reset counter still takes the maximum",
        [("tool_calls: 10", "tool_calls: 2")],
        [("tool_calls: 10", "tool_calls: 12")],
        {"tool_calls": 12},
        [],
    ),
    (
        "completed: both append",
        [('  - "Task 2"\n', '  - "Task 2"\n  - "Task O"\n')],
        [('  - "Task 2"\n', '  - "Task 2"\n  - "Task T"\n')],
        {"completed": ["Task 1", "Task 2", "Task O", "Task T"]},
        [],
    ),
    (
        "completed: a removal and an addition",
        [('  - "Task 1"\n', "")],
        [('  - "Task 2"\n', '  - "Task 2"\n  - "Task T"\n')],
        {"completed": ["Task 2", "Task T"]},
        [],
    ),
    (
        "completed: the same item added on both sides appears once",
        [('  - "Task 2"\n', '  - "Task 2"\n  - "Same"\n'), ts('"2026-01-02T00:00:00Z"')],
        [('  - "Task 2"\n', '  - "Task 2"\n  - "Same"\n'), ts('"2026-01-03T00:00:00Z"')],
        {"completed": ["Task 1", "Task 2", "Same"], "timestamp": "2026-01-03T00:00:00Z"},
        [],
    ),
    (
        "status changed on both sides conflicts",
        [("status: in_progress", "status: blocked")],
        [("status: in_progress", "status: done")],
        None,
        ["status"],
    ),
    (
        "the same change on both sides is clean",
        [("status: in_progress", "status: done"), ts('"2026-01-02T00:00:00Z"')],
        [("status: in_progress", "status: done")],
        {"status": "done", "timestamp": "2026-01-02T00:00:00Z"},
        [],
    ),
    (
        "one side changes a semantic field",
        [('milestone: "Add feature X"', 'milestone: "Ship it"'), ts('"2026-01-02T00:00:00Z"')],
        [ts('"2026-01-03T00:00:00Z"'), ("tool_calls: 10", "tool_calls: 11")],
        {"milestone": "Ship it", "timestamp": "2026-01-03T00:00:00Z", "tool_calls": 11},
        [],
    ),
    (
        "next_steps is semantic",
        [('  - "Task 4"', '  - "Task 5"')],
        [('  - "Task 4"', '  - "Task 6"')],
        None,
        ["next_steps"],
    ),
    (
        "delete against modify conflicts",
        [('in_progress: "Task 3"   # current\n', "")],
        [('"Task 3"', '"Task 3b"')],
        None,
        ["in_progress"],
    ),
    (
        "a deletion on one side is taken",
        [('in_progress: "Task 3"   # current\n', ""), ts('"2026-01-02T00:00:00Z"')],
        [ts('"2026-01-03T00:00:00Z"')],
        {"in_progress": None, "timestamp": "2026-01-03T00:00:00Z"},
        [],
    ),
    (
        "unknown key added with different values conflicts",
        [("on_confusion:", "notes: one\non_confusion:")],
        [("on_confusion:", "notes: two\non_confusion:")],
        None,
        ["notes"],
    ),
    (
        "unknown key added on one side is taken",
        [("on_confusion:", "notes: one\non_confusion:"), ts('"2026-01-02T00:00:00Z"')],
        [ts('"2026-01-03T00:00:00Z"')],
        {"notes": "one", "timestamp": "2026-01-03T00:00:00Z"},
        [],
    ),
    (
        "two conflicts and merged telemetry",
        [
            ("status: in_progress", "status: blocked"),
            ('milestone: "Add feature X"', "milestone: A"),
            ("tool_calls: 10", "tool_calls: 40"),
        ],
        [
            ("status: in_progress", "status: done"),
            ('milestone: "Add feature X"', "milestone: B"),
            ("tool_calls: 10", "tool_calls: 20"),
        ],
        None,
        ["milestone", "status"],
    ),
]


def _expected(base: dict, changes: dict) -> dict:
    out = dict(base)
    for key, value in changes.items():
        if value is None:
            out.pop(key)
        else:
            out[key] = value
    return out


@pytest.mark.parametrize(
    ("ours_edits", "theirs_edits", "changes", "paths"),
    [c[1:] for c in YAML_CASES],
    ids=[c[0] for c in YAML_CASES],
)
@pytest.mark.parametrize("swap", [False, True], ids=["as-is", "swapped"])
def test_yaml_table(ours_edits, theirs_edits, changes, paths, swap) -> None:
    ours, theirs = edit(ASIMOV_BASE, *ours_edits), edit(ASIMOV_BASE, *theirs_edits)
    if swap:
        ours, theirs = theirs, ours
    outcome = merge(ASIMOV_BASE, ours, theirs, YAML_PATH)
    base = parse(ASIMOV_BASE, YAML_PATH)
    if changes is not None:
        assert (outcome.status, outcome.how) == (0, "clean"), outcome
        assert parse(outcome.data, YAML_PATH) == _expected(base, changes)
        return
    assert (outcome.status, outcome.how) == (1, "conflict"), outcome
    assert sorted(c.split(":")[0] for c in outcome.conflicts) == paths
    side_o, side_t = ("theirs", "ours") if swap else ("ours", "theirs")
    # each alternative is a whole, valid file: the merged rest plus one side's choice
    resolved_o = parse(take(outcome.data, side_o), YAML_PATH)
    resolved_t = parse(take(outcome.data, side_t), YAML_PATH)
    for key in paths:
        assert resolved_o.get(key) == parse(edit(ASIMOV_BASE, *ours_edits), YAML_PATH).get(key)
        assert resolved_t.get(key) == parse(edit(ASIMOV_BASE, *theirs_edits), YAML_PATH).get(key)
    # markers wrap only the conflicting fields
    for o, t in hunks(outcome.data):
        assert len(o.splitlines()) <= 2 and len(t.splitlines()) <= 2, (o, t)


def test_yaml_comments_order_and_quoting_survive() -> None:
    ours = edit(
        ASIMOV_BASE,
        ts('"2026-01-02T00:00:00Z"'),
        ('  - "Task 2"\n', '  - "Task 2"\n  - "Task O"\n'),
    )
    theirs = edit(
        ASIMOV_BASE,
        ts('"2026-01-03T00:00:00Z"'),
        ("tool_calls: 10", "tool_calls: 11"),
        ('  - "Task 2"\n', '  - "Task 2"\n  - "Task T"\n'),
    )
    outcome = merge(ASIMOV_BASE, ours, theirs, YAML_PATH)
    assert outcome.status == 0
    assert outcome.data.decode() == edit(
        ASIMOV_BASE,
        ts('"2026-01-03T00:00:00Z"'),
        ("tool_calls: 10", "tool_calls: 11"),
        ('  - "Task 2"\n', '  - "Task 2"\n  - "Task O"\n  - "Task T"\n'),
    )


def test_yaml_conflict_markers_wrap_only_status() -> None:
    ours = edit(
        ASIMOV_BASE, ("status: in_progress", "status: blocked"), ts('"2026-01-02T00:00:00Z"')
    )
    theirs = edit(
        ASIMOV_BASE, ("status: in_progress", "status: done"), ts('"2026-01-03T00:00:00Z"')
    )
    outcome = merge(ASIMOV_BASE, ours, theirs, YAML_PATH)
    assert outcome.status == 1
    assert outcome.data.decode() == edit(
        ASIMOV_BASE,
        ts('"2026-01-03T00:00:00Z"'),
        (
            "status: in_progress\n",
            "<<<<<<< ours\nstatus: blocked\n=======\nstatus: done\n>>>>>>> theirs\n",
        ),
    )


def test_marker_size_follows_git() -> None:
    ours = edit(ASIMOV_BASE, ("status: in_progress", "status: blocked"))
    theirs = edit(ASIMOV_BASE, ("status: in_progress", "status: done"))
    text = merge(ASIMOV_BASE, ours, theirs, YAML_PATH, marker_size=11).data.decode()
    assert (
        "<" * 11 + " ours\n" in text and "=" * 11 + "\n" in text and ">" * 11 + " theirs\n" in text
    )


def test_yaml_union_past_the_window_keeps_the_newest_and_cuts_the_rest() -> None:
    """4 + 1 + 1 > 5: the merge applies the 5-item cap as `asimov-hooks trim` would
    (the newest, last, items kept), hands the cut items over for the archive, and the
    merged file validates; it is never a conflict."""
    full = edit(ASIMOV_BASE, ('  - "Task 2"\n', '  - "Task 2"\n  - "Task 2b"\n  - "Task 2c"\n'))
    ours = edit(full, ('  - "Task 2c"\n', '  - "Task 2c"\n  - "Task O"\n'))
    theirs = edit(full, ('  - "Task 2c"\n', '  - "Task 2c"\n  - "Task T"\n'))
    for a, b in ((ours, theirs), (theirs, ours)):  # a rebase swaps the sides: same answer
        outcome = merge(full, a, b, YAML_PATH)
        assert outcome.status == 0, outcome
        completed = parse(outcome.data, YAML_PATH)["completed"]
        assert completed == ["Task 2", "Task 2b", "Task 2c", "Task O", "Task T"]
        assert outcome.cut == {"completed": ["Task 1"]}
    same = merge(full, ours, edit(full, ("tool_calls: 10", "tool_calls: 11")), YAML_PATH)
    assert same.status == 0 and same.cut == {}  # within the cap: nothing cut


def test_yaml_line_endings_and_bom_survive() -> None:
    crlf = ASIMOV_BASE.replace("\n", "\r\n")
    ours = "\ufeff" + edit(crlf, ts('"2026-01-02T00:00:00Z"'))
    theirs = edit(crlf, ("tool_calls: 10", "tool_calls: 12"))
    outcome = merge("\ufeff" + crlf, ours, theirs, YAML_PATH)
    assert outcome.status == 0
    text = outcome.data.decode("utf-8")
    assert text.startswith("\ufeff") and text.count("\r\n") == text.count("\n")
    assert parse(outcome.data, YAML_PATH)["tool_calls"] == 12


# ---------------------------------------------------------------- OC checkpoints (JSON)
def table(rows: list[dict], **changes: dict) -> list[dict]:
    out = [dict(r) for r in rows]
    for row in out:
        row.update(changes.get(row["id"], {}))
    return out


ROWS = oc()["progress_table"]
OC_PM = [{"provider": "linear", "id": "PLAT-1", "role": "source"}]
OC_BLOCKERS = [{"id": "b1", "description": "rate limiting", "needs": "user_decision"}]

JSON_CASES = [
    (
        "updated_at latest, created_at earliest",
        oc(updated_at="2026-04-01T00:00:00Z", created_at="2026-03-30T00:00:00Z"),
        oc(updated_at="2026-04-02T00:00:00Z", created_at="2026-03-29T00:00:00Z"),
        {"updated_at": "2026-04-02T00:00:00Z", "created_at": "2026-03-29T00:00:00Z"},
        [],
    ),
    (
        "progress rows merge item by item",
        oc(progress_table=table(ROWS, **{"sprint-2": {"status": "complete"}})),
        oc(progress_table=table(ROWS, planning={"label": "Plan"})),
        {
            "progress_table": table(
                ROWS, planning={"label": "Plan"}, **{"sprint-2": {"status": "complete"}}
            )
        },
        [],
    ),
    (
        "a row added on each side",
        oc(progress_table=[*ROWS, {"id": "sprint-3", "label": "S3", "status": "not_started"}]),
        oc(progress_table=[*ROWS, {"id": "deploy", "label": "Deploy", "status": "not_started"}]),
        {
            "progress_table": [
                *ROWS,
                {"id": "deploy", "label": "Deploy", "status": "not_started"},
                {"id": "sprint-3", "label": "S3", "status": "not_started"},
            ]
        },
        [],
    ),
    (
        "a row's status changed on both sides conflicts",
        oc(progress_table=table(ROWS, **{"sprint-2": {"status": "complete"}})),
        oc(progress_table=table(ROWS, **{"sprint-2": {"status": "blocked"}})),
        None,
        ["progress_table[id=sprint-2].status"],
    ),
    (
        "key decisions and generated files are unions",
        oc(
            context_primer={
                "key_decisions": ["Stack: Hono", "D-O"],
                "generated_files": ["spec.md", "a.ts"],
            }
        ),
        oc(context_primer={"key_decisions": ["Stack: Hono", "D-T"], "generated_files": ["b.ts"]}),
        {
            "context_primer": {
                "key_decisions": ["Stack: Hono", "D-O", "D-T"],
                "generated_files": ["a.ts", "b.ts"],
            }
        },
        [],
    ),
    (
        "pm_refs union of objects",
        oc(pm_refs=[*OC_PM, {"provider": "linear", "id": "PLAT-2", "role": "child"}]),
        oc(pm_refs=[*OC_PM, {"provider": "jira", "id": "J-9", "role": "linked"}]),
        {
            "pm_refs": [
                *OC_PM,
                {"provider": "jira", "id": "J-9", "role": "linked"},
                {"provider": "linear", "id": "PLAT-2", "role": "child"},
            ]
        },
        [],
    ),
    (
        "merged PR telemetry in skill_state is a union",
        oc(skill_state={"current_sprint": 2, "merged_prs": [101, 102]}),
        oc(skill_state={"current_sprint": 2, "merged_prs": [101, 103]}),
        {"skill_state": {"current_sprint": 2, "merged_prs": [101, 102, 103]}},
        [],
    ),
    (
        "other skill_state fields are semantic",
        oc(skill_state={"current_sprint": 3, "merged_prs": [101]}),
        oc(skill_state={"current_sprint": 4, "merged_prs": [101]}),
        None,
        ["skill_state.current_sprint"],
    ),
    (
        "a resolved blocker and a new one",
        oc(blockers=[]),
        oc(blockers=[*OC_BLOCKERS, {"id": "b2", "description": "quota"}]),
        {"blockers": [{"id": "b2", "description": "quota"}]},
        [],
    ),
    (
        "a blocker resolved on one side and edited on the other conflicts",
        oc(blockers=[]),
        oc(blockers=[{**OC_BLOCKERS[0], "needs": "code_fix"}]),
        None,
        ["blockers[id=b1]"],
    ),
    ("phase is semantic", oc(phase="deploy"), oc(phase="review"), None, ["phase"]),
    (
        "next_actions is semantic",
        oc(next_actions=["A"]),
        oc(next_actions=["B"]),
        None,
        ["next_actions"],
    ),
    (
        "protocol_version is semantic",
        oc(protocol_version="1.1"),
        oc(protocol_version="1.0", project="x"),
        {"protocol_version": "1.1", "project": "x"},
        [],
    ),
]

del ROWS


@pytest.mark.parametrize(
    ("ours", "theirs", "changes", "paths"),
    [c[1:] for c in JSON_CASES],
    ids=[c[0] for c in JSON_CASES],
)
@pytest.mark.parametrize("swap", [False, True], ids=["as-is", "swapped"])
def test_json_table(ours, theirs, changes, paths, swap) -> None:
    base = oc()
    if swap:
        ours, theirs = theirs, ours
    outcome = merge(dump(base), dump(ours), dump(theirs), JSON_PATH)
    if changes is not None:
        assert (outcome.status, outcome.how) == (0, "clean"), outcome
        assert json.loads(outcome.data) == {**base, **changes}
        return
    assert (outcome.status, outcome.how) == (1, "conflict"), outcome
    assert sorted(c.split(": ")[0] for c in outcome.conflicts) == paths
    first, second = ("theirs", "ours") if swap else ("ours", "theirs")
    assert json.loads(take(outcome.data, first)) is not None
    assert json.loads(take(outcome.data, second)) is not None


def test_json_layout_survives() -> None:
    """Indentation, key order, one-line rows and a missing final newline are kept."""
    base_text = (
        '{\n    "protocol_version": "1.0",\n    "skill": "s",\n    "project": "p",\n'
        '    "project_dir": "/p",\n    "created_at": "2026-03-31T14:00:00Z",\n'
        '    "updated_at": "2026-03-31T15:30:00Z",\n    "phase": "x",\n    "step": "y",\n'
        '    "status": "complete",\n    "progress_summary": "ok",\n'
        '    "progress_table": [\n        { "id": "a", "label": "A", "status": "complete" }\n'
        "    ],\n"
        '    "context_primer": {"key_decisions": ["k1"]}\n}'
    )
    ours = base_text.replace("15:30:00Z", "16:00:00Z").replace('["k1"]', '["k1", "k2"]')
    theirs = base_text.replace(
        '{ "id": "a", "label": "A", "status": "complete" }',
        '{ "id": "a", "label": "A", "status": "complete" },\n'
        '        { "id": "b", "label": "B", "status": "complete" }',
    )
    outcome = merge(base_text, ours, theirs, JSON_PATH.replace("oc-app-architect", "s"))
    assert outcome.status == 0, outcome
    assert outcome.data.decode() == ours.replace(
        '{ "id": "a", "label": "A", "status": "complete" }',
        '{ "id": "a", "label": "A", "status": "complete" },\n'
        '        { "id": "b", "label": "B", "status": "complete" }',
    )


def test_json_new_row_takes_the_layout_of_its_siblings() -> None:
    base_text = (
        '{\n  "protocol_version": "1.0", "skill": "s", "project": "p", "project_dir": "/p",\n'
        '  "created_at": "2026-03-31T14:00:00Z", "updated_at": "2026-03-31T15:30:00Z",\n'
        '  "phase": "x", "step": "y", "status": "complete", "progress_summary": "ok",\n'
        '  "progress_table": [\n    { "id": "a", "label": "A", "status": "complete" }\n  ]\n}\n'
    )
    ours = base_text.replace("15:30:00Z", "16:00:00Z")
    theirs_doc = json.loads(base_text)
    theirs_doc["progress_table"].append({"id": "b", "label": "B", "status": "complete"})
    theirs_doc["updated_at"] = "2026-03-31T17:00:00Z"
    outcome = merge(base_text, ours, json.dumps(theirs_doc, indent=4), JSON_PATH)
    assert outcome.status == 0, outcome
    text = outcome.data.decode()
    assert '    { "id": "b", "label": "B", "status": "complete" }\n' in text
    assert '"updated_at": "2026-03-31T17:00:00Z"' in text
    assert text.startswith('{\n  "protocol_version": "1.0", "skill": "s",')


def test_json_conflict_alternatives_are_valid_json() -> None:
    """Deleting the last member changes the comma on the line before: the hunk has it."""
    base = oc()
    ours, theirs = oc(skill_state=None), oc(skill_state={"current_sprint": 3, "merged_prs": [101]})
    outcome = merge(dump(base), dump(ours), dump(theirs), JSON_PATH)
    assert outcome.status == 1
    assert json.loads(take(outcome.data, "ours")) == ours
    assert json.loads(take(outcome.data, "theirs")) == theirs


def test_json_no_base_merges_two_ways() -> None:
    ours = oc(
        updated_at="2026-04-01T00:00:00Z",
        context_primer={"key_decisions": ["K", "O"], "generated_files": []},
    )
    theirs = oc(
        updated_at="2026-04-02T00:00:00Z",
        context_primer={"key_decisions": ["K", "T"], "generated_files": []},
    )
    for base in (None, b"", b"{ not json", b"<<<<<<< a\n=======\n>>>>>>> b\n"):
        outcome = merge(base, dump(ours), dump(theirs), JSON_PATH)
        assert outcome.status == 0, (base, outcome)
        merged = json.loads(outcome.data)
        assert merged["updated_at"] == "2026-04-02T00:00:00Z"
        assert merged["context_primer"]["key_decisions"] == ["K", "O", "T"]


@pytest.mark.parametrize(
    ("ours", "reason"),
    [
        ('{"a": 1,}', "ours does not parse"),
        ('{"a": 1, "a": 2}', "duplicate key"),
        ("[1, 2]", "not a JSON object"),
        ('<<<<<<< HEAD\n{"a": 1}\n=======\n{"a": 2}\n>>>>>>> x\n', "conflict markers"),
        ("", "ours is empty"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_unusable_side_goes_to_the_line_merge(ours, reason) -> None:
    outcome = merge(dump(oc()), ours, dump(oc(phase="z")), JSON_PATH)
    assert (outcome.status, outcome.how, outcome.data) == (1, "line-merge", None)
    assert reason in outcome.reason


def test_yaml_unusable_side_goes_to_the_line_merge() -> None:
    for bad in ("a: [1\n", "- a list\n", "a: 1\n---\nb: 2\n", "a: 1\na: 2\n"):
        outcome = merge(ASIMOV_BASE, ASIMOV_BASE.replace("10", "11"), bad, YAML_PATH)
        assert outcome.how == "line-merge" and outcome.status == 1, bad


def test_trivial_merges_take_a_side_byte_for_byte() -> None:
    ours = edit(ASIMOV_BASE, ("status: in_progress", "status:   done  "))
    assert merge(ASIMOV_BASE, ours, ASIMOV_BASE, YAML_PATH).data == ours.encode()
    assert merge(ASIMOV_BASE, ASIMOV_BASE, ours, YAML_PATH).data == ours.encode()
    assert merge(ASIMOV_BASE, ours, ours, YAML_PATH).data == ours.encode()


COMMENTED = """\
# head
timestamp: "2026-01-01T10:00:00Z"
tool_calls: 1
milestone: m
status: in_progress

# window
completed:
  - a
  - b
  # trimmed

in_progress: x  # eol
next_steps:
- n1
on_confusion: "cat warmup.yaml"
"""


def test_yaml_comments_follow_the_list_end_and_survive_a_deleted_key() -> None:
    """Both sides append to one list (no line merge): the merge is written into ours'
    document, and the comment after the list stays after the list."""
    ours = edit(COMMENTED, ("status: in_progress\n", ""), ("  - b\n", "  - b\n  - c\n"))
    theirs = edit(
        COMMENTED, ("  - b\n", ""), ("  - a\n", "  - a\n  - d\n"), ('10:00:00Z"', '12:00:00Z"')
    )
    outcome = merge(COMMENTED, ours, theirs, YAML_PATH)
    assert outcome.status == 0, outcome
    assert outcome.data.decode() == edit(
        COMMENTED,
        ('10:00:00Z"', '12:00:00Z"'),
        ("status: in_progress\n", ""),
        ("  - a\n  - b\n", "  - a\n  - c\n  - d\n"),
    )
