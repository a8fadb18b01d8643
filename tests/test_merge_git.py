"""The merge driver under real git: merge, rebase, cherry-pick, criss-cross histories,
add/add, autocrlf, a missing or disabled driver, and what the conflict check then sees.

Nothing is mocked: each test builds a repository with `git init`, registers the driver
with `python -m asimov_hooks install` and lets git call it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest
from conftest import commit_all, git, git_init, run_module, write
from merge_support import ASIMOV_BASE, JSON_PATH, YAML_PATH, dump, oc, parse

from asimov_hooks.gitutil import driver_command

pytestmark = pytest.mark.usefixtures("isolated_home")


def validate(cwd, *args: str) -> subprocess.CompletedProcess:
    return run_module(cwd, "validate", *args)


def edit(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def ts(value: str) -> tuple[str, str]:
    return ('timestamp: "2026-01-01T10:00:00Z"', f'timestamp: "{value}"')


def restamp(text: str, value: str) -> str:
    return re.sub(r'timestamp: "[^"]*"', f'timestamp: "{value}"', text)


def append(item: str) -> tuple[str, str]:
    return ('  - "Task 2"\n', f'  - "Task 2"\n  - "{item}"\n')


OURS_EDITS = (ts("2026-01-02T00:00:00Z"), ("tool_calls: 10", "tool_calls: 30"), append("Main"))
THEIRS_EDITS = (ts("2026-01-03T00:00:00Z"), ("tool_calls: 10", "tool_calls: 20"), append("Feat"))
MERGED = edit(
    ASIMOV_BASE,
    ts("2026-01-03T00:00:00Z"),
    ("tool_calls: 10", "tool_calls: 30"),
    ('  - "Task 2"\n', '  - "Task 2"\n  - "Feat"\n  - "Main"\n'),
)


def make_repo(tmp_path, install: bool = True, name: str = "repo"):
    repo = git_init(tmp_path / name)
    if install:
        done = run_module(repo, "install", "--quiet")
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""
    write(repo, YAML_PATH, ASIMOV_BASE)
    commit_all(repo, "base")
    return repo


def branch_edit(repo, branch: str, path: str, content: str, new: bool = True) -> None:
    git(repo, "checkout", "-q", *(["-b"] if new else []), branch)
    write(repo, path, content)
    commit_all(repo, f"{branch}: edit")


def diverge(repo, path: str = YAML_PATH, ours: str | None = None, theirs: str | None = None):
    branch_edit(repo, "feature", path, theirs or edit(ASIMOV_BASE, *THEIRS_EDITS))
    branch_edit(repo, "main", path, ours or edit(ASIMOV_BASE, *OURS_EDITS), new=False)


def read(repo, rel: str = YAML_PATH) -> str:
    with open(os.path.join(repo, rel), encoding="utf-8", newline="") as fh:
        return fh.read()


def test_merge_resolves_telemetry(tmp_path) -> None:
    repo = make_repo(tmp_path)
    diverge(repo)
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert read(repo) == MERGED
    assert git(repo, "status", "--porcelain").stdout == ""


def test_rebase_swaps_sides_and_gets_the_same_answer(tmp_path) -> None:
    repo = make_repo(tmp_path)
    diverge(repo)
    git(repo, "checkout", "-q", "feature")
    done = git(repo, "rebase", "main", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert parse(read(repo), YAML_PATH) == parse(MERGED, YAML_PATH)


def test_cherry_pick(tmp_path) -> None:
    repo = make_repo(tmp_path)
    diverge(repo)
    done = git(repo, "cherry-pick", "feature", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert parse(read(repo), YAML_PATH) == parse(MERGED, YAML_PATH)


def test_criss_cross_history(tmp_path) -> None:
    """Two merge bases: git merges them into a virtual base (recursive=binary)."""
    repo = make_repo(tmp_path)
    a1 = edit(ASIMOV_BASE, ts("2026-01-02T00:00:00Z"), append("A1"))
    b1 = edit(ASIMOV_BASE, ts("2026-01-02T06:00:00Z"), append("B1"))
    branch_edit(repo, "a", YAML_PATH, a1)
    git(repo, "checkout", "-q", "main")
    branch_edit(repo, "b", YAML_PATH, b1)
    git(repo, "branch", "b-tip", "b")
    git(repo, "branch", "a-tip", "a")
    git(repo, "checkout", "-q", "a")
    assert git(repo, "merge", "--no-edit", "b-tip", check=False).returncode == 0
    git(repo, "checkout", "-q", "b")
    assert git(repo, "merge", "--no-edit", "a-tip", check=False).returncode == 0
    # one more step on each side, then merge again: two merge bases
    write(repo, YAML_PATH, restamp(read(repo), "2026-01-04T00:00:00Z"))
    commit_all(repo, "b2")
    git(repo, "checkout", "-q", "a")
    write(repo, YAML_PATH, edit(read(repo), ("tool_calls: 10", "tool_calls: 99"), append("A2")))
    commit_all(repo, "a2")
    bases = git(repo, "merge-base", "--all", "a", "b").stdout.split()
    assert len(bases) == 2
    done = git(repo, "merge", "--no-edit", "b", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    merged = parse(read(repo), YAML_PATH)
    assert merged["timestamp"] == "2026-01-04T00:00:00Z"
    assert merged["tool_calls"] == 99
    assert set(merged["completed"]) == {"Task 1", "Task 2", "A1", "B1", "A2"}


def test_semantic_conflict_then_the_conflict_check_fails(tmp_path) -> None:
    repo = make_repo(tmp_path)
    diverge(
        repo,
        ours=edit(ASIMOV_BASE, *OURS_EDITS, ("status: in_progress", "status: blocked")),
        theirs=edit(ASIMOV_BASE, *THEIRS_EDITS, ("status: in_progress", "status: done")),
    )
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 1
    assert "CONFLICT in .claude_checkpoint.yaml" in done.stderr
    assert "status: changed on both sides" in done.stderr
    text = read(repo)
    assert text == edit(
        MERGED,
        (
            "status: in_progress\n",
            "<<<<<<< ours\nstatus: blocked\n=======\nstatus: done\n>>>>>>> theirs\n",
        ),
    )
    check = validate(repo, "--select", "conflict-markers,syntax,duplicate-key", YAML_PATH)
    assert check.returncode == 1, check.stdout + check.stderr
    assert "conflict" in check.stdout


def test_driver_not_installed_is_a_line_conflict(tmp_path) -> None:
    repo = make_repo(tmp_path, install=False)
    diverge(repo)
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 1
    assert "<<<<<<<" in read(repo)
    check = validate(repo, "--select", "conflict-markers,syntax,duplicate-key", YAML_PATH)
    assert check.returncode == 1


def test_attributes_without_config_fall_back_to_gits_merge(tmp_path) -> None:
    repo = make_repo(tmp_path)
    git(repo, "config", "--local", "--remove-section", "merge.asimov-checkpoint")
    diverge(repo)
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 1 and "<<<<<<<" in read(repo)


def test_environment_variable_disables_the_driver(tmp_path, monkeypatch) -> None:
    repo = make_repo(tmp_path)
    diverge(repo)
    monkeypatch.setenv("ASIMOV_HOOKS_MERGE_DRIVER", "0")
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 1
    assert "<<<<<<< ours" in read(repo)  # git merge-file's markers, our labels


def test_deleted_environment_still_leaves_markers(tmp_path) -> None:
    """The guard in the driver command: no interpreter -> line merge, never a bare 127."""
    repo = make_repo(tmp_path)
    dead = driver_command(python=str(tmp_path / "gone" / "python"))
    git(repo, "config", "--local", "merge.asimov-checkpoint.driver", dead)
    diverge(repo)
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 1
    assert "merge driver not found" in done.stderr
    assert "<<<<<<< ours" in read(repo)


def test_autocrlf(tmp_path) -> None:
    repo = make_repo(tmp_path)
    git(repo, "config", "core.autocrlf", "true")
    git(repo, "rm", "-q", "--cached", "-r", ".")
    git(repo, "reset", "-q", "--hard")
    crlf = read(repo)
    assert "\r\n" in crlf
    diverge(
        repo,
        ours=edit(ASIMOV_BASE, *OURS_EDITS).replace("\n", "\r\n"),
        theirs=edit(ASIMOV_BASE, *THEIRS_EDITS).replace("\n", "\r\n"),
    )
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert read(repo) == MERGED.replace("\n", "\r\n")
    assert git(repo, "show", f"HEAD:{YAML_PATH}").stdout == MERGED  # LF in the repository
    assert git(repo, "status", "--porcelain").stdout == ""


def test_oc_checkpoint_merge(tmp_path) -> None:
    repo = make_repo(tmp_path)
    write(repo, JSON_PATH, dump(oc()))
    commit_all(repo, "oc")
    ours = oc(
        updated_at="2026-04-01T00:00:00Z",
        skill_state={"current_sprint": 2, "merged_prs": [101, 102]},
    )
    theirs = oc(
        updated_at="2026-04-02T00:00:00Z",
        skill_state={"current_sprint": 2, "merged_prs": [101, 103]},
    )
    diverge(repo, JSON_PATH, dump(ours), dump(theirs))
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    merged = json.loads(read(repo, JSON_PATH))
    assert merged["updated_at"] == "2026-04-02T00:00:00Z"
    assert merged["skill_state"]["merged_prs"] == [101, 102, 103]
    assert validate(repo, JSON_PATH, "--select", "conflict-markers,syntax").returncode == 0


def test_add_add_merges_without_a_base(tmp_path) -> None:
    repo = make_repo(tmp_path)
    ours = oc(
        updated_at="2026-04-01T00:00:00Z",
        context_primer={"key_decisions": ["K", "O"], "generated_files": []},
    )
    theirs = oc(
        updated_at="2026-04-02T00:00:00Z",
        context_primer={"key_decisions": ["K", "T"], "generated_files": []},
    )
    diverge(repo, JSON_PATH, dump(ours), dump(theirs))
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    merged = json.loads(read(repo, JSON_PATH))
    assert merged["context_primer"]["key_decisions"] == ["K", "O", "T"]


def test_unparseable_side_falls_back_to_a_line_merge(tmp_path) -> None:
    repo = make_repo(tmp_path)
    diverge(repo, theirs=edit(ASIMOV_BASE, ("tool_calls: 10", "tool_calls: [10")))
    done = git(repo, "merge", "--no-edit", "feature", check=False)
    assert done.returncode == 1
    assert "theirs does not parse" in done.stderr and "line merge" in done.stderr
