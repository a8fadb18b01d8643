"""Hypothesis properties of the merge over generated checkpoints (1,000 cases each).

Each side is written in one of several layouts (quoting, indentation, one-line rows),
so the merge is exercised across formatting as well as data. For every generated
(base, ours, theirs):
- merge(x, x, x) = x, merge(b, o, b) = o and merge(b, b, t) = t, also when the
  unchanged side is the same data written in another style (so no byte shortcut);
- swapping ours and theirs gives the same status and, when clean, the same data;
- nothing either side added to an append-only list or a keyed list is missing from
  a clean result;
- every output parses: a clean result as a whole, a conflict as each alternative.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from merge_support import JSON_PATH, YAML_PATH, merge, parse, take

CASES = settings(
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=False,
)

WORDS = st.text(alphabet="abcxyz #:'\"-é", min_size=1, max_size=12).map(str.strip).filter(bool)
TASKS = st.sampled_from([f"Task {n}" for n in range(12)] + ["Fix: the #1 bug", "it's done"])
STAMPS = st.datetimes(
    min_value=__import__("datetime").datetime(2025, 1, 1),
    max_value=__import__("datetime").datetime(2027, 1, 1),
).map(lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ"))


def unique(items: list) -> list:
    out: list = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


# ---------------------------------------------------------------- Asimov checkpoints
@st.composite
def asimov_doc(draw: st.DrawFn) -> dict:
    doc = {
        "timestamp": draw(STAMPS),
        "tool_calls": draw(st.integers(0, 500)),
        "milestone": draw(WORDS),
        "status": draw(st.sampled_from(["planned", "in_progress", "blocked", "done"])),
        "completed": unique(draw(st.lists(TASKS, max_size=4))),
        "in_progress": draw(WORDS),
        "next_steps": unique(draw(st.lists(TASKS, max_size=3))),
        "on_confusion": "cat warmup.yaml",
    }
    if draw(st.booleans()):
        doc["notes"] = draw(WORDS)
    return doc


@st.composite
def asimov_side(draw: st.DrawFn, base: dict) -> dict:
    doc = json.loads(json.dumps(base))
    ops = draw(
        st.sets(
            st.sampled_from(
                ["stamp", "count", "append", "drop", "status", "milestone", "next", "notes"]
            )
        )
    )
    if "stamp" in ops:
        doc["timestamp"] = draw(STAMPS)
    if "count" in ops:
        doc["tool_calls"] = draw(st.integers(0, 500))
    if "drop" in ops and doc["completed"]:
        doc["completed"].pop(draw(st.integers(0, len(doc["completed"]) - 1)))
    if "append" in ops:
        doc["completed"] = unique(doc["completed"] + draw(st.lists(TASKS, max_size=2)))
    if "status" in ops:
        doc["status"] = draw(st.sampled_from(["planned", "in_progress", "blocked", "done"]))
    if "milestone" in ops:
        doc["milestone"] = draw(WORDS)
    if "next" in ops:
        doc["next_steps"] = unique(draw(st.lists(TASKS, max_size=3)))
    if "notes" in ops:
        if "notes" in doc and draw(st.booleans()):
            del doc["notes"]
        else:
            doc["notes"] = draw(WORDS)
    return doc


def yaml_text(doc: dict, style: int = 0) -> str:
    """Two writing styles for the same data: double quotes, 2-space lists, comments;
    or single quotes, lists at column 0, no comments."""

    def scalar(v: object) -> str:
        if not isinstance(v, str):
            return json.dumps(v)
        return json.dumps(v, ensure_ascii=False) if style == 0 else "'" + v.replace("'", "''") + "'"

    lines = ["# checkpoint"] if style == 0 else []
    for key, value in doc.items():
        if isinstance(value, list):
            if not value:
                lines.append(f"{key}: []")
                continue
            lines.append(f"{key}:")
            lines += [("  - " if style == 0 else "- ") + scalar(v) for v in value]
        else:
            lines.append(f"{key}: {scalar(value)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- OC checkpoints
IDS = st.sampled_from(["plan", "s1", "s2", "s3", "s4", "deploy"])
ROW_STATUS = st.sampled_from(["not_started", "in_progress", "blocked", "complete", "failed"])


@st.composite
def oc_doc(draw: st.DrawFn) -> dict:
    rows = [
        {"id": i, "label": i.upper(), "status": draw(ROW_STATUS)}
        for i in unique(draw(st.lists(IDS, max_size=4)))
    ]
    return {
        "protocol_version": "1.0",
        "skill": "oc-app-architect",
        "project": "gtrack",
        "project_dir": "/p",
        "created_at": draw(STAMPS),
        "updated_at": draw(STAMPS),
        "phase": draw(WORDS),
        "step": draw(WORDS),
        "status": "in_progress",
        "progress_summary": draw(WORDS),
        "progress_table": rows,
        "context_primer": {
            "key_decisions": unique(draw(st.lists(TASKS, max_size=3))),
            "generated_files": unique(
                draw(st.lists(st.sampled_from(["a.ts", "b.md", "c.py"]), max_size=2))
            ),
        },
        "next_actions": ["go"],
        "pm_refs": [{"provider": "linear", "id": "P-1"}],
        "skill_state": {
            "sprint": draw(st.integers(0, 5)),
            "merged_prs": unique(draw(st.lists(st.integers(1, 9), max_size=3))),
        },
    }


@st.composite
def oc_side(draw: st.DrawFn, base: dict) -> dict:
    doc = json.loads(json.dumps(base))
    ops = draw(
        st.sets(
            st.sampled_from(
                [
                    "updated",
                    "created",
                    "row",
                    "add_row",
                    "drop_row",
                    "decide",
                    "files",
                    "prs",
                    "pm",
                    "phase",
                    "sprint",
                ]
            )
        )
    )
    if "updated" in ops:
        doc["updated_at"] = draw(STAMPS)
    if "created" in ops:
        doc["created_at"] = draw(STAMPS)
    rows = doc["progress_table"]
    if "row" in ops and rows:
        rows[draw(st.integers(0, len(rows) - 1))]["status"] = draw(ROW_STATUS)
    if "drop_row" in ops and rows:
        rows.pop(draw(st.integers(0, len(rows) - 1)))
    if "add_row" in ops:
        new = draw(IDS)
        if all(r["id"] != new for r in rows):
            rows.insert(
                draw(st.integers(0, len(rows))),
                {"id": new, "label": new.upper(), "status": draw(ROW_STATUS)},
            )
    primer = doc["context_primer"]
    if "decide" in ops:
        primer["key_decisions"] = unique(
            primer["key_decisions"] + draw(st.lists(TASKS, max_size=2))
        )
    if "files" in ops:
        primer["generated_files"] = unique(
            primer["generated_files"][1:]
            + draw(st.lists(st.sampled_from(["d.ts", "e.md"]), max_size=2))
        )
    if "prs" in ops:
        doc["skill_state"]["merged_prs"] = unique(
            doc["skill_state"]["merged_prs"] + draw(st.lists(st.integers(1, 30), max_size=2))
        )
    if "pm" in ops:
        doc["pm_refs"].append({"provider": "jira", "id": f"J-{draw(st.integers(1, 5))}"})
        doc["pm_refs"] = unique(doc["pm_refs"])
    if "phase" in ops:
        doc["phase"] = draw(WORDS)
    if "sprint" in ops:
        doc["skill_state"]["sprint"] = draw(st.integers(0, 5))
    return doc


def json_text(doc: dict, style: int = 0) -> str:
    """Three layouts: 2-space indent; 4-space indent with ASCII escapes; 2-space indent
    with one-line progress rows (as hand-written checkpoints have them)."""
    if style == 2:
        rows = [json.dumps(r, ensure_ascii=False) for r in doc["progress_table"]]
        text = json.dumps({**doc, "progress_table": ["@ROWS@"]}, indent=2, ensure_ascii=False)
        inner = ",\n    ".join("{ " + r[1:-1] + " }" for r in rows)
        return text.replace('[\n    "@ROWS@"\n  ]', f"[\n    {inner}\n  ]" if rows else "[]") + "\n"
    return json.dumps(doc, indent=2 if style == 0 else 4, ensure_ascii=style != 0) + "\n"


# ---------------------------------------------------------------- the properties
def added(base: list, side: list) -> list:
    return [x for x in side if x not in base]


def union_fields(doc: dict, path: str) -> dict[str, list]:
    if path == YAML_PATH:
        return {"completed": doc.get("completed", [])}
    return {
        "key_decisions": doc["context_primer"]["key_decisions"],
        "generated_files": doc["context_primer"]["generated_files"],
        "merged_prs": doc["skill_state"]["merged_prs"],
        "pm_refs": doc["pm_refs"],
        "row ids": [r["id"] for r in doc["progress_table"]],
    }


def check(
    base: dict, ours: dict, theirs: dict, render, path: str, styles: tuple = (0, 0, 0)
) -> None:
    b, o, t = render(base, styles[0]), render(ours, styles[1]), render(theirs, styles[2])
    b_other = render(base, 1 if styles[0] != 1 else 0)

    # identities, with and without a byte-for-byte shortcut
    assert merge(b, b, b, path).data == b.encode()
    for result in (merge(b, o, b, path), merge(b, o, b_other, path)):
        assert result.status == 0 and parse(result.data, path) == ours, result
    for result in (merge(b, b, t, path), merge(b_other, b, t, path)):
        assert result.status == 0 and parse(result.data, path) == theirs, result

    # symmetry
    forward, backward = merge(b, o, t, path), merge(b, t, o, path)
    assert forward.how != "line-merge", forward.reason
    assert (forward.status, forward.how) == (backward.status, backward.how)
    if forward.status == 0:
        merged = parse(forward.data, path)
        assert merged == parse(backward.data, path)
        # nothing added on either side is lost: it is in the result, or among what the
        # union cut past the list's trim window (the oldest by the order rule, which
        # reads `#1` in an item as a task number), which the driver keeps for the archive
        fb, fo, ft, fm = (union_fields(x, path) for x in (base, ours, theirs, merged))
        for name in fm:
            for item in added(fb[name], fo[name]) + added(fb[name], ft[name]):
                assert item in fm[name] or item in forward.cut.get(name, []), (name, item)
    else:
        assert sorted(forward.conflicts) == sorted(backward.conflicts)
        for side in ("ours", "theirs"):
            parse(take(forward.data, side), path)  # each alternative parses


@pytest.mark.slow
@CASES
@given(st.data())
def test_asimov_checkpoint_properties(data: st.DataObject) -> None:
    base = data.draw(asimov_doc())
    ours, theirs = data.draw(asimov_side(base)), data.draw(asimov_side(base))
    styles = tuple(data.draw(st.sampled_from([0, 0, 1])) for _ in range(3))
    check(base, ours, theirs, yaml_text, YAML_PATH, styles)


@pytest.mark.slow
@CASES
@given(st.data())
def test_oc_checkpoint_properties(data: st.DataObject) -> None:
    base = data.draw(oc_doc())
    ours, theirs = data.draw(oc_side(base)), data.draw(oc_side(base))
    styles = tuple(data.draw(st.sampled_from([0, 0, 1, 2])) for _ in range(3))
    check(base, ours, theirs, json_text, JSON_PATH, styles)
