"""Schemas (with line and column), OC checkpoint warnings, drift, code-intel sessions,
look-alike files and directory search. Real files, real git repositories."""

from __future__ import annotations

import datetime
import json
import os
import re

import pytest
from conftest import (
    GOOD_CHECKPOINT,
    GOOD_WARMUP,
    commit_all,
    git,
    git_init,
    oc_checkpoint,
    write,
)

pytestmark = pytest.mark.usefixtures("in_tmp")

OC = ".checkpoints/oc-app-architect.checkpoint.json"


STATUS = re.compile(r"^(\S.*?): (?:valid|warning \(|error \(|skipped \()")


def checked(run) -> list[str]:
    """The paths of the per-file status lines, sorted."""
    return sorted(m.group(1) for m in map(STATUS.match, run.out.splitlines()) if m)


def only(run, rule: str) -> list[str]:
    """Findings of one rule as `line:col: level rule message` (path removed)."""
    hits = []
    for line in run.out.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4 and parts[1].isdigit() and parts[2].isdigit():
            rest = parts[3].strip()
            if rest.split(" ", 2)[1:2] == [rule]:
                hits.append(f"{parts[1]}:{parts[2]}: {rest}")
    return hits


# ------------------------------------------------------------------ checkpoint schema
def test_good_checkpoint(tmp_path, cli) -> None:
    path = write(tmp_path, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    run = cli("-v", path)
    assert run.code == 0 and f"{path}: valid" in run.out


def test_checkpoint_schema_positions(tmp_path, cli) -> None:
    text = (
        "timestamp: 2026-11-20T10:30:00Z\n"  # unquoted: still fine
        "tool_calls: -3\n"
        "status: finished\n"
        "completed:\n"
        "  - a\n"
        "  - 5\n"
        "  - c\n"
        "  - d\n"
        "  - e\n"
        "  - f\n"
        "next_steps: [a, b, c, d, e, f]\n"
        "stray_key: true\n"
        "notes:\n"
        "  nested: ok\n"
    )
    path = write(tmp_path, ".claude_checkpoint.yaml", text)
    run = cli(path)
    assert run.code == 1
    assert only(run, "schema") == [
        "1:1: error schema missing required property 'milestone'",
        "2:13: error schema tool_calls: -3 is less than the minimum of 0",
        "3:9: error schema status: 'finished' is not one of: planned, in_progress, blocked, done",
        "4:1: error schema completed: has 6 items, more than 5",
        "6:5: error schema completed[1]: 5 is not of type string (got integer)",
        "11:1: error schema next_steps: has 6 items, more than 5",
    ]
    assert "12:1: warning unknown-key unknown key 'stray_key'" in run.out


def test_checkpoint_types(tmp_path, cli) -> None:
    path = write(
        tmp_path,
        ".claude_checkpoint.yaml",
        "milestone: ''\ntool_calls: many\ncompleted: done\nnext_steps:\n  - {a: 1}\n",
    )
    assert only(cli(path), "schema") == [
        "1:12: error schema milestone: '' is shorter than 1 characters",
        "2:13: error schema tool_calls: 'many' is not of type integer (got string)",
        "3:12: error schema completed: 'done' is not of type array (got string)",
        "5:5: error schema next_steps[0]: {'a': 1} is not of type string (got object)",
    ]


def test_checkpoint_in_asimov_dir(tmp_path, cli) -> None:
    path = write(tmp_path, ".asimov/checkpoint.yaml", "status: done\n")
    run = cli(path)
    assert run.code == 1 and "missing required property 'milestone'" in run.out


def test_checkpoint_in_flow_style_and_json_like(tmp_path, cli) -> None:
    path = write(tmp_path, ".claude_checkpoint.yaml", '{"milestone": "m", "status": "nope"}\n')
    assert only(cli(path), "schema") == [
        "1:30: error schema status: 'nope' is not one of: planned, in_progress, blocked, done"
    ]


# ------------------------------------------------------------------ warmup / others
@pytest.mark.parametrize(
    "identity",
    ["identity:\n  project: demo\n", "identity:\n  name: demo\n  type: rust\n"],
)
def test_warmup_identity_shapes(tmp_path, cli, identity: str) -> None:
    path = write(tmp_path, "warmup.yaml", identity + "files: {}\n")
    run = cli("-v", path)
    assert run.code == 0 and f"{path}: valid" in run.out, run


def test_warmup_errors(tmp_path, cli) -> None:
    # shapes the protocol's own warmup files use: no project name, no identity at all,
    # a one-line session step
    path = write(tmp_path, "warmup.yaml", "identity:\n  tagline: t\nsession:\n  start: go\n")
    assert cli(path).code == 0
    write(tmp_path, "warmup.yaml", "mission: {problem: p}\n")
    assert cli(path).code == 0
    # a section of a type the protocol never used is still an error
    write(tmp_path, "warmup.yaml", "identity: my-project\nmission: [p]\n")
    run = cli(path)
    assert run.code == 1
    assert only(run, "schema") == [
        "1:11: error schema identity: 'my-project' is not of type object (got string)",
        "2:1: error schema mission: ['p'] is not of type object (got array)",
    ]


def test_warmup_in_asimov_dir(tmp_path, cli) -> None:
    path = write(tmp_path, ".asimov/warmup.yaml", GOOD_WARMUP)
    assert cli(path).code == 0


ETHICS = """\
core_principles:
  status: REQUIRED
  do_no_harm:
    financial: {enabled: true}
human_veto:
  command: "human vetoes this session"
"""


def test_ethics(tmp_path, cli) -> None:
    path = write(tmp_path, "ethics.yaml", ETHICS)
    assert cli(path).code == 0
    no_veto = ETHICS.split("human_veto")[0]
    write(tmp_path, "ethics.yaml", no_veto)
    run = cli(path)
    assert run.code == 1
    assert "1:1: error schema missing required property 'human_veto'" in only(run, "schema")
    write(tmp_path, "ethics.yaml", "human_veto: stop now\nred_flags: {}\n")
    run = cli(path)
    assert run.code == 1
    assert "1:1: error schema missing required property 'core_principles'" in only(run, "schema")
    write(tmp_path, "ethics.yaml", "core_principles: {status: x}\nhuman_veto: stop\n")
    assert "core_principles: missing required property 'do_no_harm'" in cli(path).out


def test_three_laws_asimov_yaml(tmp_path, cli) -> None:
    good = "first_law:\n  do_no_harm:\n    privacy: {enabled: true}\nsecond_law:\n  human_veto:\n    commands: [stop]\n"
    path = write(tmp_path, ".asimov/asimov.yaml", good)
    assert cli(path).code == 0, cli(path)
    write(tmp_path, ".asimov/asimov.yaml", "first_law:\n  do_no_harm: {}\nsecond_law: {}\n")
    assert cli(path).code == 1


def test_sprint_shapes(tmp_path, cli) -> None:
    path = write(tmp_path, "sprint.yaml", "sprint:\n  current: Add X\n  status: in_progress\n")
    assert cli(path).code == 0
    write(tmp_path, "sprint.yaml", "rules:\n  max_hours: 4\n  must_ship: true\nphases: {}\n")
    assert cli(path).code == 0
    write(tmp_path, "sprint.yaml", "rules:\n  max_hours: 9\n  must_ship: yes\n")
    run = cli(path)
    assert run.code == 1
    assert "2:14: error schema rules.max_hours: 9 is more than the maximum of 8" in only(
        run, "schema"
    )
    write(tmp_path, "sprint.yaml", "phases: {}\nprevious: {}\n")
    assert cli(path).code == 0  # neither sprint: nor rules:, as in the protocol's early files
    write(tmp_path, "sprint.yaml", "sprint:\n  current: Add X\n  status: completed\n")
    run = cli(path)
    assert run.code == 0 and only(run, "unknown-status") == [
        "3:11: warning unknown-status sprint.status: 'completed' is not one of the documented "
        "statuses (planned, in_progress, blocked, done)"
    ]


def test_roadmap(tmp_path, cli) -> None:
    good = (
        "current:\n  version: '1.0.0'\n  status: in_progress\n  summary: First\n"
        "next:\n  - {version: '1.1', summary: Next}\nbacklog: [idea]\n"
    )
    path = write(tmp_path, "roadmap.yaml", good)
    assert cli(path).code == 0
    write(tmp_path, "roadmap.yaml", good.replace("in_progress", "shipping"))
    run = cli(path)
    assert run.code == 0 and only(run, "schema") == []
    assert only(run, "unknown-status") == [
        "3:11: warning unknown-status current.status: 'shipping' is not one of the documented "
        "statuses (planned, in_progress, blocked, released, done)"
    ]
    write(tmp_path, "roadmap.yaml", "current:\n  version: '1'\n  status: done\nbacklog: []\n")
    assert cli(path).code == 0  # no summary: the protocol's later roadmaps omit it
    write(tmp_path, "roadmap.yaml", "current: [1.0]\n")
    assert only(cli(path), "schema") == [
        "1:1: error schema current: [1.0] is not any of the allowed shapes"
    ]


def test_asimov_project(tmp_path, cli) -> None:
    path = write(tmp_path, ".asimov/project.yaml", "identity:\n  name: p\n  type: python\n")
    assert cli(path).code == 0
    write(tmp_path, ".asimov/project.yaml", "identity:\n  name: p\nquality: {test: pytest}\n")
    assert cli(path).code == 0
    write(tmp_path, ".asimov/project.yaml", "identity: p\nquality: [pytest]\n")
    run = cli(path)
    assert run.code == 1 and "identity: 'p' is not of type object (got string)" in run.out
    write(tmp_path, ".asimov/project.yaml", "identity: {name: p, type: python}\n" + "# c\n" * 60)
    run = cli(path)
    assert run.code == 0 and "warning max-lines-soft 61 lines, over the soft limit of 50" in run.out


# ------------------------------------------------------------------ OC checkpoints
def test_oc_good_1_0_and_1_1(tmp_path, cli) -> None:
    path = write(tmp_path, OC, oc_checkpoint())
    run = cli(path)
    assert run.code == 0 and f"{path}: valid" in run.out, run
    v11 = oc_checkpoint(
        protocol_version="1.1",
        cost={"total_usd": 1.5, "budget_usd": 10, "by_phase": {"build": 1.5}},
        eval_scores=[{"rubric": "r1", "score": 8.2, "max": 10, "at": "2026-03-31T15:30:00Z"}],
        telemetry_handle={"enabled": True, "id": "abc", "since": "2026-03-31T15:30:00.000Z"},
        pm_refs=[{"provider": "linear", "id": "PLAT-1", "role": "source"}],
        recently_done=["x", {"at": "2026-03-31T15:30:00Z", "action": "y"}],
    )
    write(tmp_path, OC, v11)
    run = cli(path)
    assert run.code == 0 and f"{path}: valid" in run.out, run


def test_oc_schema_errors_point_at_json_nodes(tmp_path, cli) -> None:
    doc = oc_checkpoint(
        protocol_version="2.0",
        status="done",
        progress_table=[
            {"id": "a", "label": "A", "status": "not_started"},
            {"id": "b", "label": "B", "status": "finished"},
        ],
        pm_refs=[{"provider": "linear", "role": "owner"}],
        next_actions=["ok", {"done_when": "make test"}, 3],
    )
    path = write(tmp_path, OC, doc)
    with open(path) as fh:
        lines = fh.read().splitlines()

    def at(needle: str, occurrence: int = 0) -> str:
        hits = [(i, line.index(needle)) for i, line in enumerate(lines) if needle in line]
        i, col = hits[occurrence]
        return f"{i + 1}:{col + 1}"

    run = cli(path)
    assert run.code == 1
    schema = only(run, "schema")
    v, st, row, role = at('"2.0"'), at('"done"'), at('"finished"'), at('"owner"')
    assert f"{v}: error schema protocol_version: '2.0' is not one of: 1.0, 1.1" in schema
    assert (
        f"{st}: error schema status: 'done' is not one of: in_progress, blocked, complete, failed"
        in schema
    )
    assert (
        f"{row}: error schema progress_table[1].status: 'finished' is not one of: "
        "not_started, in_progress, blocked, complete, failed" in schema
    )
    assert any("pm_refs[0]: missing required property 'id'" in s for s in schema)
    assert (
        f"{role}: error schema pm_refs[0].role: 'owner' is not one of: source, child, "
        "deploy, incident, linked" in schema
    )
    assert any("next_actions[1]: missing required property 'text'" in s for s in schema)
    assert any("next_actions[2]: 3 is not any of the allowed shapes" in s for s in schema)


def test_oc_next_actions_required_while_in_progress(tmp_path, cli) -> None:
    path = write(tmp_path, OC, oc_checkpoint(next_actions=None))
    run = cli(path)
    assert run.code == 1
    assert "1:1: error schema missing required property 'next_actions'" in only(run, "schema")
    write(tmp_path, OC, oc_checkpoint(next_actions=[]))
    assert cli(path).code == 0  # the seed requires the key, not a first item
    for status in ("blocked", "complete", "failed"):
        write(tmp_path, OC, oc_checkpoint(next_actions=None, status=status))
        assert cli(path).code == 0, status


def test_oc_required_header_fields(tmp_path, cli) -> None:
    for key in ("skill", "project_dir", "created_at", "phase", "progress_summary"):
        write(tmp_path, OC, oc_checkpoint(**{key: None}))
        run = cli(os.path.join(tmp_path, OC))
        assert run.code == 1 and f"missing required property '{key}'" in run.out
    write(tmp_path, OC, oc_checkpoint(updated_at="2026-03-31 15:30"))
    assert "updated_at: '2026-03-31 15:30' does not match" in cli(OC).out


def test_oc_warnings(tmp_path, cli) -> None:
    path = write(
        tmp_path,
        OC,
        oc_checkpoint(
            progress_summary="s" * 1201,
            context_primer={"key_decisions": [f"d{i}" for i in range(21)]},
            progress_table=None,
        ),
    )
    run = cli(path)
    assert run.code == 0, run
    assert (
        "warning max-length progress_summary is 1,201 characters, over the guideline of 1,200"
        in run.out
    )
    assert (
        "warning max-items context_primer.key_decisions has 21 items, over the guideline of 20"
        in run.out
    )
    assert "1:1: warning recommended-field no progress_table while status is in_progress" in only(
        run, "recommended-field"
    )
    assert cli("--strict", path).code == 1
    # at the limits: no warnings
    write(
        tmp_path,
        OC,
        oc_checkpoint(
            progress_summary="s" * 1200,
            context_primer={"key_decisions": [f"d{i}" for i in range(20)]},
        ),
    )
    assert f"{path}: valid" in cli(path).out
    write(tmp_path, OC, oc_checkpoint(progress_table=None, status="blocked"))
    assert f"{path}: valid" in cli(path).out


def test_oc_file_over_32k(tmp_path, cli) -> None:
    path = write(tmp_path, OC, oc_checkpoint(skill_state={"log": ["x" * 100] * 330}))
    assert os.path.getsize(path) > 32768
    run = cli(path)
    assert run.code == 0
    assert "over the 32,768-byte guideline" in run.out
    assert "rotate closed-session telemetry" in run.out


def test_oc_history_is_an_archive(tmp_path, cli) -> None:
    archived = write(
        tmp_path, ".checkpoints/history/oc-app-architect.2026-10-31.json", {"merged_prs": [1, 2]}
    )
    old = write(
        tmp_path,
        ".checkpoints/history/sub/oc-app-architect.20261031T1200.checkpoint.json",
        {"status": "not-a-status", "protocol_version": "0.1"},
    )
    run = cli("-v", archived, old)
    assert run.code == 0, run
    assert f"{archived}: valid" in run.out and f"{old}: valid" in run.out
    for name, text in (("list", "[1, 2]"), ("text", '"x"'), ("null", "null"), ("n", "3")):
        path = write(tmp_path, f".checkpoints/history/{name}.json", text + "\n")
        run = cli("-v", path)
        assert run.code == 0 and f"{path}: valid" in run.out, run  # archives: any JSON
    write(tmp_path, ".checkpoints/history/broken.json", '{"a": 1,}\n')
    run = cli("-v", os.path.join(tmp_path, ".checkpoints/history/broken.json"))
    # Python 3.13's JSON reader points at the trailing comma (1:8), older ones after it
    said = "\n".join(only(run, "syntax"))
    assert run.code == 1 and re.search(r"1:[89]: error syntax invalid JSON", said), said


# ------------------------------------------------------------------ drift
def test_generated_files_exist(tmp_path, cli) -> None:
    write(tmp_path, "spec.md", "spec\n")
    path = write(
        tmp_path,
        OC,
        oc_checkpoint(context_primer={"generated_files": ["spec.md", "docs/gone.md"]}),
    )
    run = cli(path)
    assert run.code == 0
    hits = only(run, "generated-files-exist")
    assert len(hits) == 1 and "generated file 'docs/gone.md' does not exist" in hits[0]
    with open(path) as fh:
        line = next(i for i, s in enumerate(fh.read().splitlines()) if "docs/gone.md" in s)
    assert hits[0].startswith(f"{line + 1}:")
    write(tmp_path, "docs/gone.md", "back\n")
    assert f"{path}: valid" in cli(path).out


def test_stale_checkpoint(tmp_path, cli) -> None:
    old = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=10)
    stamp = old.strftime("%Y-%m-%dT%H:%M:%SZ")
    path = write(tmp_path, OC, oc_checkpoint(created_at=stamp, updated_at=stamp))
    run = cli(path)
    assert run.code == 0
    assert (
        "warning stale-checkpoint in_progress but last updated 10 days ago (stale after 7)"
        in run.out
    )
    write(tmp_path, OC, oc_checkpoint(created_at=stamp, updated_at=stamp, status="blocked"))
    assert "stale-checkpoint" not in cli(path).out
    recent = (old + datetime.timedelta(days=4)).strftime("%Y-%m-%dT%H:%M:%SZ")
    write(tmp_path, OC, oc_checkpoint(created_at=stamp, updated_at=recent))
    assert "stale-checkpoint" not in cli(path).out
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  oc-checkpoint:\n    rules:\n      stale-checkpoint: {days: 3}\n",
    )
    assert "(stale after 3)" in cli(path).out


def test_stale_checkpoint_fractional_seconds(tmp_path, cli) -> None:
    old = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=30)
    stamp = old.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    path = write(tmp_path, OC, oc_checkpoint(created_at=stamp, updated_at=stamp))
    assert "stale-checkpoint in_progress but last updated 30 days ago" in cli(path).out


def test_next_action_merged(tmp_path, cli) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "README.md", "x\n")
    commit_all(repo, "Initial commit")
    commit_all(repo, "Merge pull request #12 from someone/feature")
    commit_all(repo, "Fix the parser (#13)")
    commit_all(repo, "Mention #14 in passing, not a merge")
    path = write(
        repo,
        OC,
        oc_checkpoint(
            next_actions=[
                "Review PR #12 and address comments",
                {"text": "Wait for #13 to land", "done_when": "true"},
                "Open a PR for #14",
                "Write docs",
            ]
        ),
    )
    run = cli(path)
    assert run.code == 0
    hits = only(run, "next-action-merged")
    assert len(hits) == 2, run.out
    assert "points at #12, which git log shows as merged already" in hits[0]
    assert "points at #13, which git log shows as merged already" in hits[1]


def test_checkpoints_tracked(tmp_path, cli) -> None:
    repo = git_init(tmp_path / "repo")
    path = write(repo, OC, oc_checkpoint())
    assert f"{path}: valid" in cli(path).out
    write(repo, ".gitignore", ".checkpoints/\n")
    run = cli(path)
    assert run.code == 1
    assert "error checkpoints-tracked is git-ignored: .checkpoints/ must be tracked" in run.out
    assert "remove .checkpoints/ from .gitignore" in run.out


def test_path_rules_ask_git_once_for_many_files_in_two_repositories(tmp_path, cli) -> None:
    first, second = git_init(tmp_path / "one"), git_init(tmp_path / "two")
    write(first, ".gitignore", ".checkpoints/ignored-*\n")
    write(second, ".gitignore", "sub/.checkpoints/\n")
    kept = [
        write(
            first, f".checkpoints/oc-kept-{i}.checkpoint.json", oc_checkpoint(skill=f"oc-kept-{i}")
        )
        for i in range(3)
    ]
    lost = [
        write(
            first, f".checkpoints/ignored-{i}.checkpoint.json", oc_checkpoint(skill=f"ignored-{i}")
        )
        for i in range(2)
    ]
    nested = write(second, "sub/.checkpoints/oc-x.checkpoint.json", oc_checkpoint(skill="oc-x"))
    top = write(second, ".checkpoints/oc-y.checkpoint.json", oc_checkpoint(skill="oc-y"))
    run = cli(*kept, *lost, nested, top)
    flagged = {line.split(":")[0] for line in run.out.splitlines() if "checkpoints-tracked" in line}
    assert flagged == {*lost, nested}
    assert run.code == 1
    write(first, ".gitignore", "")  # the next run asks again
    run = cli(*lost)
    assert run.code == 0 and "checkpoints-tracked" not in run.out


def test_drift_outside_git_is_quiet(tmp_path, cli) -> None:
    path = write(tmp_path, OC, oc_checkpoint(next_actions=["Review #12"]))
    assert f"{path}: valid" in cli(path).out


# ------------------------------------------------------------------ code-intel sessions
SESSION = ".code-intel/sessions/sess-42.json"


def session(**changes: object) -> dict:
    doc = {"session_id": "sess-42", "checkpoint_version": 1, "checkpoint_at": "2026-01-31T12:34:56"}
    doc.update(changes)
    return {k: v for k, v in doc.items() if v is not None}


def test_code_intel_session_shape(tmp_path, cli) -> None:
    path = write(tmp_path, SESSION, session(phase="READY"))
    assert f"{path}: valid" in cli("-v", path).out  # outside git: nothing to say about ignoring
    write(tmp_path, SESSION, session(session_id="sess-41"))
    run = cli("-v", path)
    assert run.code == 1
    assert only(run, "session-id-matches-name") == [
        "2:17: error session-id-matches-name session_id 'sess-41' does not match the file name 'sess-42'"
    ]
    # a partial checkpoint: code-intel restores it with defaults, so a warning, not an error
    write(tmp_path, SESSION, session(checkpoint_at=None, checkpoint_version=None))
    run = cli("-v", path)
    assert run.code == 0 and "missing required property" not in run.out
    assert only(run, "recommended-field") == [
        "1:1: warning recommended-field no checkpoint_version",
        "1:1: warning recommended-field no checkpoint_at",
    ]
    assert cli("-v", "--strict", path).code == 1


def test_code_intel_definitions_cache_keys(tmp_path, cli) -> None:
    good = '["parse", "src/app.py", null, false]'
    cache = {
        good: ["src/app.py:12"],
        "parse|src/app.py|None|False": [],  # the pipe-delimited form the JSON array replaced
        '["parse", "src/app.py"]': [],
        '["parse", "src/app.py", 3, "no"]': [],
    }
    path = write(tmp_path, SESSION, session(definitions_cache=cache))
    run = cli("-v", path)
    assert run.code == 0  # warnings
    found = only(run, "definitions-cache-keys")
    assert len(found) == 3 and not any(f"key {good!r}" in line for line in found), found
    assert "'parse|src/app.py|None|False' is not a JSON array string" in found[0]
    assert "is a JSON array of 2 items, not 4" in found[1]
    assert "does not hold [string, string, string or null, boolean]" in found[2]
    write(tmp_path, SESSION, session(definitions_cache={good: []}))
    assert f"{path}: valid" in cli("-v", path).out


def test_code_intel_session_must_be_ignored(tmp_path, cli) -> None:
    repo = git_init(tmp_path / "repo")
    path = write(repo, SESSION, session())
    run = cli("-v", path)
    assert run.code == 1
    assert "1:1: error must-be-ignored is not git-ignored (or is tracked)" in "\n".join(
        only(run, "must-be-ignored")
    )
    assert "add `.code-intel/sessions/` to .gitignore" in run.out
    write(repo, ".gitignore", ".code-intel/sessions/\n")
    assert f"{path}: valid" in cli("-v", path).out
    git(repo, "add", "-f", SESSION)  # tracked although ignored: still wrong
    assert cli("-v", path).code == 1


def test_forbid_sessions_hook_selection(tmp_path, cli) -> None:
    repo = git_init(tmp_path / "repo")
    path = write(repo, SESSION, session(session_id="other"))
    run = cli("--select", "must-be-ignored", path)
    assert run.code == 1
    assert "must-be-ignored" in run.out and "session-id-matches-name" not in run.out


# ------------------------------------------------------------------ look-alike files
def test_kubernetes_warmup_is_skipped(tmp_path, cli) -> None:
    path = write(
        tmp_path,
        "deploy/warmup.yaml",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: warmup\nspec:\n  template: {}\n"
        + "# pad\n" * 600,
    )
    run = cli(path)
    assert run.code == 0, run
    assert (
        f"{path}: skipped (not an Asimov Protocol warmup file: looks like a Kubernetes manifest"
        in run.out
    )
    assert "max-lines" not in run.out
    assert cli("--strict", path).code == 0


@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("warmup.yaml", "services:\n  web: {image: nginx}\n", "Compose file"),
        ("sprint.yaml", "velocity: 3\nteam: [a, b]\n", "top-level keys are team, velocity"),
        ("roadmap.yaml", "---\na: 1\n---\nb: 2\n", "a stream of 2 YAML documents"),
        (
            "ethics.yaml",
            "title: Our ethics policy\nowner: legal\n",
            "top-level keys are owner, title",
        ),
    ],
)
def test_look_alikes_are_skipped(tmp_path, cli, name: str, text: str, why: str) -> None:
    path = write(tmp_path, name, text)
    run = cli(path)
    assert run.code == 0, run
    assert f"{path}: skipped (" in run.out and why in run.out


def test_protocol_file_with_a_stray_key_is_not_skipped(tmp_path, cli) -> None:
    path = write(tmp_path, ".claude_checkpoint.yaml", "milestone: m\napiVersion: v1\nkind: x\n")
    run = cli(path)
    assert run.code == 0 and "warning unknown-key unknown key 'apiVersion'" in run.out
    assert f"{path}: skipped" not in run.out


# ------------------------------------------------------------------ directories
def test_directory_walk_outside_git(tmp_path, cli) -> None:
    write(tmp_path, "proj/CLAUDE.md", "ok\n")
    write(tmp_path, "proj/a/b/.claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(tmp_path, "proj/ignored/CLAUDE.md", "ok\n")
    write(tmp_path, "proj/.gitignore", "ignored/\n")  # not a repository: no effect
    write(tmp_path, "proj/notes.md", "not ours\n")
    write(tmp_path, "proj/.git-not/warmup.yaml", GOOD_WARMUP)
    run = cli("-v", "proj")
    assert run.code == 0
    assert checked(run) == sorted(
        [
            os.path.join("proj", "CLAUDE.md"),
            os.path.join("proj", "a", "b", ".claude_checkpoint.yaml"),
            os.path.join("proj", "ignored", "CLAUDE.md"),
            os.path.join("proj", ".git-not", "warmup.yaml"),
        ]
    )


def test_directory_walk_honours_gitignore(tmp_path, cli, monkeypatch) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitignore", "build/\n*.local/\n")
    write(repo, "CLAUDE.md", "ok\n")
    write(repo, "docs/CLAUDE.md", "line\n" * 16)
    write(repo, "build/CLAUDE.md", "line\n" * 16)
    write(repo, "x.local/CLAUDE.md", "line\n" * 16)
    write(repo, "tracked/CLAUDE.md", "ok\n")
    commit_all(repo, "init")
    write(repo, "untracked/CLAUDE.md", "ok\n")
    monkeypatch.chdir(repo)
    run = cli("-v", ".")
    assert run.code == 1
    assert checked(run) == sorted(
        ["CLAUDE.md", "docs/CLAUDE.md", "tracked/CLAUDE.md", "untracked/CLAUDE.md"]
    ), run.out
    assert "build/" not in run.out and "x.local" not in run.out
    # a subdirectory searches only below itself; an absolute path gives absolute names
    run = cli("-v", os.path.join(repo, "docs"))
    assert run.out.splitlines()[0] == f"{os.path.join(repo, 'docs', 'CLAUDE.md')}: error (1 error)"
    assert "1 file checked" in run.out
    monkeypatch.chdir(os.path.join(repo, "docs"))
    run = cli("-v", ".")
    assert run.out.splitlines()[0] == "CLAUDE.md: error (1 error)", run.out
    # an ignored file named explicitly is still checked
    monkeypatch.chdir(repo)
    assert cli("-v", "build/CLAUDE.md").code == 1


def test_directory_and_file_given_together(tmp_path, cli) -> None:
    write(tmp_path, "p/CLAUDE.md", "ok\n")
    run = cli("-v", "p", "p/CLAUDE.md", "p")
    assert "1 file checked" in run.out or "2 files checked" in run.out
    assert run.code == 0


def test_examples_directory(cli, monkeypatch) -> None:
    """The shipped examples: good files pass, bad files fail, the look-alike is skipped."""
    from conftest import ROOT

    monkeypatch.chdir(ROOT)
    good = [
        "examples/asimov-root/good",
        "examples/asimov-dir/good",
        "examples/oc-checkpoints/good",
        "examples/asimov-root/not-protocol",
    ]
    present = [p for p in good if os.path.isdir(p)]
    if present:
        run = cli("--ignore", "stale-checkpoint", *present)
        assert run.code == 0, run.out
    if os.path.isdir("examples/asimov-root/bad"):
        assert cli("examples/asimov-root/bad").code == 1


def test_json_round_trip_of_good_example() -> None:
    doc = oc_checkpoint()
    assert json.loads(json.dumps(doc)) == doc


@pytest.mark.parametrize("content", ["", '{"session_id": ', b"\x00\x01binary"])
def test_unreadable_session_file_still_must_be_ignored(tmp_path, cli, content) -> None:
    """The forbid-sessions hook fails for any committed session file, whatever it holds."""
    repo = git_init(tmp_path / "repo")
    path = write(repo, SESSION, content)
    run = cli("--select", "must-be-ignored", path)
    assert run.code == 1, run
    assert "error must-be-ignored is not git-ignored" in run.out
    write(repo, ".gitignore", ".code-intel/sessions/\n")
    run = cli("--select", "must-be-ignored", path)
    assert "must-be-ignored" not in run.out


def test_ignored_checkpoints_reported_even_when_unparsable(tmp_path, cli) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitignore", ".checkpoints/\n")
    path = write(repo, OC, '{"status": ')
    run = cli(path)
    assert run.code == 1
    assert "error checkpoints-tracked is git-ignored" in run.out
    assert "error syntax invalid JSON" in run.out
