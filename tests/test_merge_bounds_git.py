"""The merge keeps its kind's hard limits, under real git with the driver installed.
Each side may be within them while their union is not: the merged file is measured as
validate measures it. A checkpoint past its hard line limit is trimmed by the trimmer's
own rules (what they remove waits for the archive, as the union's cuts do) or left as a
conflict; an archive past its byte cap is a conflict (nothing in it may be dropped).
Never a clean merge that validate then rejects."""

from __future__ import annotations

import os

import pytest
from conftest import commit_all, git, git_init, run_module, run_script, write
from merge_support import merge

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"
BASE = 'timestamp: "2026-01-01T10:00:00Z"\nmilestone: "Ship the parser"\nstatus: in_progress\n'


def listed(name: str, items: list[str]) -> str:
    return f"{name}:\n" + "".join(f'  - "{item}"\n' for item in items)


def repo_with(tmp_path, path: str, base: str, main: str, feature: str, config: str = "") -> str:
    repo = git_init(tmp_path / "repo")
    done = run_module(repo, "install", "--quiet")
    assert done.returncode == 0, done.stderr
    if config:
        write(repo, ".asimov-hooks.yaml", config)
    write(repo, path, base)
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, path, feature)
    commit_all(repo, "feature: work")
    git(repo, "checkout", "-q", "main")
    write(repo, path, main)
    commit_all(repo, "main: work")
    return repo


def read(repo: str, rel: str) -> str:
    with open(os.path.join(repo, rel), encoding="utf-8") as fh:
        return fh.read()


def test_two_checkpoints_that_add_keys_merge_into_a_conflict_not_43_lines(tmp_path):
    ours = BASE + "".join(f'main_{i}: "value {i}"\n' for i in range(20))
    theirs = BASE + "".join(f'feature_{i}: "value {i}"\n' for i in range(20))
    assert ours.count("\n") == 23 == theirs.count("\n")
    repo = repo_with(tmp_path, CP, BASE, ours, theirs, "rules: {unknown-key: off}\n")
    assert run_script("asimov-validate", CP, cwd=repo).returncode == 0  # main's: valid
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    said = done.stdout + done.stderr
    assert done.returncode != 0, said  # a conflict: git stops, nothing committed
    assert "43 lines, over the hard limit of 30 (max-lines-hard)" in said, said
    assert "CONFLICT" in said and git(repo, "rev-parse", "-q", "--verify", "MERGE_HEAD")
    text = read(repo, CP)
    assert "<<<<<<<" in text  # git's line merge: both sides' keys kept for the person


def test_a_union_past_the_hard_limit_is_trimmed_by_the_trim_rules(tmp_path):
    ours = BASE + listed("notes", [f"note {i}" for i in range(19)])
    theirs = BASE + listed("context", [f"context {i}" for i in range(19)])
    repo = repo_with(tmp_path, CP, BASE, ours, theirs)
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "43 lines, over the hard limit of 30" in said and "trimmed" in said, said
    assert git(repo, "status", "--porcelain").stdout == ""  # the merge commit holds it all
    merged = read(repo, CP)
    assert merged == BASE  # the optional fields the trimmer drops, dropped
    assert run_script("asimov-validate", "--strict", CP, cwd=repo).returncode == 0
    trimmed = run_script("asimov-hooks", "trim", CP, cwd=repo)
    assert trimmed.returncode == 1, trimmed.stdout + trimmed.stderr  # archive written
    assert "archived 38 items the merge driver cut" in trimmed.stdout, trimmed.stdout
    archive = read(repo, ARCHIVE)
    for i in range(19):  # nothing lost
        assert f"note {i}" in archive and f"context {i}" in archive
    assert run_script("asimov-validate", CP, ARCHIVE, cwd=repo).returncode == 0


def test_a_union_that_the_trim_rules_cannot_shorten_is_a_conflict(tmp_path):
    """No optional fields in the repository's trim config: nothing the trimmer may drop."""
    ours = BASE + listed("notes", [f"note {i}" for i in range(19)])
    theirs = BASE + listed("context", [f"context {i}" for i in range(19)])
    config = "trim:\n  optional: []\n"
    repo = repo_with(tmp_path, CP, BASE, ours, theirs, config)
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert "43 lines, over the hard limit of 30" in said, said
    assert "<<<<<<<" in read(repo, CP)


def archive_entry(i: int, size: int) -> str:
    return (
        f"- trimmed_at: '2026-01-01T10:00:{i % 60:02d}Z'\n  source: .claude_checkpoint.yaml\n"
        f"  reason: list caps\n  removed:\n    completed:\n      - {'x' * size} {i}\n"
    )


HEADER = "# asimov-hooks trim archive\n"


def test_two_archives_under_the_cap_that_merge_past_it_are_a_conflict(tmp_path):
    base = HEADER + "".join(archive_entry(i, 100) for i in range(5))
    ours = base + "".join(archive_entry(100 + i, 100) for i in range(10))
    theirs = base + "".join(archive_entry(200 + i, 100) for i in range(10))
    config = "kinds:\n  asimov-checkpoint-archive:\n    rules:\n      max-bytes-hard: {max: 4096}\n"
    assert len(ours) < 4096 and len(theirs) < 4096 < len(ours) + len(theirs) - len(base)
    repo = repo_with(tmp_path, ARCHIVE, base, ours, theirs, config)
    assert run_script("asimov-validate", ARCHIVE, cwd=repo).returncode == 0
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert "over the 4,096-byte hard limit (max-bytes-hard)" in said, said
    text = read(repo, ARCHIVE)
    assert "<<<<<<<" in text and "x 209" in text and "x 109" in text  # both sides kept


def test_the_default_archive_cap_holds_for_a_merge_too():
    base = HEADER + archive_entry(0, 100)
    big = 4_300_000  # each side under 8 MiB, their union over it
    ours = base + archive_entry(1, big)
    theirs = base + archive_entry(2, big)
    outcome = merge(base, ours, theirs, ARCHIVE)
    assert outcome.status == 1 and outcome.how == "line-merge", outcome
    assert "over the 8,388,608-byte hard limit" in outcome.reason
    small = merge(base, base + archive_entry(1, 10), base + archive_entry(2, 10), ARCHIVE)
    assert small.status == 0 and small.how == "clean"
