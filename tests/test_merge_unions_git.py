"""Unions under real git with the driver installed: `git merge`, `git rebase` and
`git cherry-pick` of a `completed` window the union passes (the newest kept, the rest
waiting for the trim archive, the merged file valid), of `recently_done` (newest first
by `at`) and of `pm_refs` (every entry kept, as the OC Checkpoint Protocol says)."""

from __future__ import annotations

import json
import os

import pytest
from conftest import commit_all, git, git_init, run_module, run_script, write
from oc_data import serialise

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"
OC = ".checkpoints/oc-app-architect.checkpoint.json"
HOWS = ("merge", "rebase", "cherry-pick")


def asimov(items: list[str], stamp: str) -> str:
    listed = "".join(f'  - "{item}"\n' for item in items)
    return (
        f'timestamp: "{stamp}"\nmilestone: "Ship the parser"\nstatus: in_progress\n'
        f'completed:\n{listed}in_progress: "Review"\nnext_steps:\n  - "Release"\n'
    )


def repo_with(tmp_path, path: str, base: str, main: str, feature: str) -> str:
    """A repository with the driver installed, `base` committed, then `feature` and
    `main` (checked out) each changing `path` once."""
    repo = git_init(tmp_path / "repo")
    done = run_module(repo, "install", "--quiet")
    assert done.returncode == 0, done.stderr
    write(repo, path, base)
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, path, feature)
    commit_all(repo, "feature: work")
    git(repo, "checkout", "-q", "main")
    write(repo, path, main)
    commit_all(repo, "main: work")
    return repo


def integrate(repo: str, how: str):
    """Bring the feature's change together with main's, as `how` does; returns git's
    answer. Rebase replays the feature onto main (ours and theirs swap)."""
    if how == "merge":
        return git(repo, "merge", "--no-edit", "feature", check=False)
    if how == "cherry-pick":
        return git(repo, "cherry-pick", "feature", check=False)
    git(repo, "checkout", "-q", "feature")
    return git(repo, "rebase", "main", check=False)


def read_json(repo: str, rel: str):
    with open(os.path.join(repo, rel), encoding="utf-8") as fh:
        return json.load(fh)


def read_yaml(repo: str, rel: str):
    from ruamel.yaml import YAML

    with open(os.path.join(repo, rel), encoding="utf-8") as fh:
        return YAML(typ="safe").load(fh)


@pytest.mark.parametrize("how", HOWS)
def test_a_union_past_the_window_keeps_the_newest_and_loses_nothing(tmp_path, how):
    base = ["t1", "t2", "t3"]
    repo = repo_with(
        tmp_path,
        CP,
        asimov(base, "2026-01-01T10:00:00Z"),
        asimov([*base, "m1", "m2"], "2026-01-02T10:00:00Z"),
        asimov([*base, "f1"], "2026-01-03T10:00:00Z"),
    )
    done = integrate(repo, how)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the union passed the list caps" in done.stderr
    assert git(repo, "status", "--porcelain").stdout == ""  # nothing written beside git
    merged = read_yaml(repo, CP)
    assert merged["completed"] == ["t2", "t3", "f1", "m1", "m2"]  # the newest 5
    assert merged["timestamp"] == "2026-01-03T10:00:00Z"
    valid = run_script("asimov-validate", "--strict", CP, cwd=repo)
    assert valid.returncode == 0, valid.stdout
    trimmed = run_script("asimov-hooks", "trim", CP, cwd=repo)
    assert trimmed.returncode == 1  # the archive was written: stage it
    assert "archived 1 item the merge driver cut" in trimmed.stdout, trimmed.stdout
    (entry,) = read_yaml(repo, ARCHIVE)
    assert entry["removed"] == {"completed": ["t1"]}
    assert entry["source"] == CP and entry["reason"].startswith("merge: ")
    again = run_script("asimov-hooks", "trim", CP, cwd=repo)
    assert again.returncode == 0 and len(read_yaml(repo, ARCHIVE)) == 1  # archived once
    assert run_script("asimov-validate", CP, ARCHIVE, cwd=repo).returncode == 0


def test_another_schema_error_after_a_union_stays_a_conflict(tmp_path):
    """Only a trim window is the merge's to apply: where the repository switched the
    cap off, the same union breaks the schema's 5-item maximum and is a real conflict."""
    base = ["t1", "t2", "t3"]
    repo = git_init(tmp_path / "repo")
    assert run_module(repo, "install", "--quiet").returncode == 0
    write(repo, ".asimov-hooks.yaml", "trim:\n  caps:\n    completed: null\n  window: {}\n")
    write(repo, CP, asimov(base, "2026-01-01T10:00:00Z"))
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, CP, asimov([*base, "f1"], "2026-01-03T10:00:00Z"))
    commit_all(repo, "feature: work")
    git(repo, "checkout", "-q", "main")
    write(repo, CP, asimov([*base, "m1", "m2"], "2026-01-02T10:00:00Z"))
    commit_all(repo, "main: work")
    done = integrate(repo, "merge")
    assert done.returncode != 0
    assert "CONFLICT" in done.stdout + done.stderr
    assert "completed: the merged value fails the schema" in done.stderr


def oc_doc(done: list, refs: list, updated: str, **extra) -> str:
    doc = {
        "protocol_version": "1.0",
        "skill": "oc-app-architect",
        "project": "gtrack",
        "project_dir": "/home/claude/gtrack",
        "created_at": "2026-01-01T09:00:00.000Z",
        "updated_at": updated,
        "phase": "build-loop",
        "step": "sprint-2",
        "status": "in_progress",
        "progress_summary": "Sprint 1 passed.",
        "progress_table": [{"id": "sprint-2", "label": "Sprint 2", "status": "in_progress"}],
        "context_primer": {"key_decisions": ["Stack: Hono"], "generated_files": []},
        "next_actions": ["Run the evaluator"],
        "recently_done": done,
        "pm_refs": refs,
        "skill_state": {},
        **extra,
    }
    return serialise(doc).decode("utf-8")  # as the protocol's Node writer writes it


def done_at(action: str, at: str) -> dict:
    return {"action": action, "at": at}


@pytest.mark.parametrize("how", HOWS)
def test_recently_done_stays_newest_first(tmp_path, how):
    old = done_at("Write spec.md", "2026-01-01T10:00:00.000Z")
    main_done = done_at("Plan sprint 2", "2026-01-03T10:00:00.000Z")
    feature_done = done_at("Fix the rate limiter", "2026-01-02T10:00:00.000Z")
    repo = repo_with(
        tmp_path,
        OC,
        oc_doc([old], [], "2026-01-01T10:00:00.000Z"),
        oc_doc([main_done, old], [], "2026-01-03T10:00:00.000Z"),
        oc_doc([feature_done, old], [], "2026-01-02T10:00:00.000Z"),
    )
    done = integrate(repo, how)
    assert done.returncode == 0, done.stdout + done.stderr
    merged = read_json(repo, OC)
    assert merged["recently_done"] == [main_done, feature_done, old]
    assert merged["updated_at"] == "2026-01-03T10:00:00.000Z"
    assert run_script("asimov-validate", OC, cwd=repo).returncode == 0


@pytest.mark.parametrize("how", HOWS)
def test_pm_refs_keep_every_entry_each_session_appended(tmp_path, how):
    source = {"provider": "linear", "id": "PLAT-4471", "role": "source"}
    child = {
        "provider": "linear",
        "id": "PLAT-4472",
        "role": "child",
        "created_by_skill": "oc-app-architect",
    }
    repo = repo_with(
        tmp_path,
        OC,
        oc_doc([], [source], "2026-01-01T10:00:00.000Z"),
        # main's session links the child ticket, and touches the source ticket again
        oc_doc([], [source, child, source], "2026-01-02T10:00:00.000Z", step="sprint-2b"),
        # the feature's session links the same child ticket: its own audit entry
        oc_doc([], [source, child], "2026-01-03T10:00:00.000Z"),
    )
    done = integrate(repo, how)
    assert done.returncode == 0, done.stdout + done.stderr
    refs = read_json(repo, OC)["pm_refs"]
    assert refs.count(child) == 2 and refs.count(source) == 2 and len(refs) == 4
    assert refs[0] == source
    assert run_script("asimov-validate", OC, cwd=repo).returncode == 0


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("config", ["", "trim:\n  order: newest-first\n"])
def test_a_newest_first_union_past_the_window_keeps_the_newest(tmp_path, how, config):
    """ADR-007's own example lists the newest first; the union over the cap keeps that end
    (read from the dates each side shows, or from `trim.order`), as the trimmer does."""
    base = ["2026-01-03 c", "2026-01-02 b", "2026-01-01 a"]
    if config:  # no dates: only the config says which end is newest
        base = [item.split(" ")[1] for item in base]
    main_items = (["2026-01-05 m2", "2026-01-04 m1"] if not config else ["m2", "m1"]) + base
    feature_items = (["2026-01-06 f1"] if not config else ["f1"]) + base
    repo = git_init(tmp_path / "repo")
    assert run_module(repo, "install", "--quiet").returncode == 0
    if config:
        write(repo, ".asimov-hooks.yaml", config)
    write(repo, CP, asimov(base, "2026-01-01T10:00:00Z"))
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, CP, asimov(feature_items, "2026-01-03T10:00:00Z"))
    commit_all(repo, "feature: work")
    git(repo, "checkout", "-q", "main")
    write(repo, CP, asimov(main_items, "2026-01-02T10:00:00Z"))
    commit_all(repo, "main: work")
    done = integrate(repo, how)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the union passed the list caps" in done.stderr
    merged = read_yaml(repo, CP)["completed"]
    oldest = base[-1]
    assert len(merged) == 5 and oldest not in merged, merged  # the oldest cut, not the newest
    assert {main_items[0], main_items[1], feature_items[0]} <= set(merged)
    trimmed = run_script("asimov-hooks", "trim", CP, cwd=repo)
    assert "archived 1 item the merge driver cut" in trimmed.stdout, trimmed.stdout
    (entry,) = read_yaml(repo, ARCHIVE)
    assert entry["removed"] == {"completed": [oldest]}
