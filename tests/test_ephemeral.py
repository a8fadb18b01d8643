"""Ephemeral (git-ignored) checkpoints: found by directory searches, trimmed and checked
by the `asimov-ephemeral` hook on every commit without failing it.

Every public Asimov repository git-ignores `.claude_checkpoint.yaml`; before kinds
could be marked ephemeral, `asimov-validate .` in such a repository checked 0 files.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from conftest import (
    GOOD_CHECKPOINT,
    SCRIPTS,
    git,
    git_init,
    run_script,
    try_repo,
    write,
)

from asimov_hooks.config.config import default_data

BLOATED = (
    "milestone: Ship it\nstatus: in_progress\ncompleted:\n"
    + "".join(f"  - task {i}\n" for i in range(1, 13))
    + "next_steps:\n  - review\n"
)
BROKEN = "milestone: [unclosed\n"


@pytest.fixture
def repo(tmp_path) -> str:
    path = git_init(tmp_path / "repo")
    write(
        path,
        ".gitignore",
        ".claude_checkpoint.yaml\n*.archive.yaml\n.code-intel/\nignored-dir/\nwarmup.yaml\n",
    )
    return path


def test_kinds_marked_ephemeral() -> None:
    kinds = default_data()["kinds"]
    assert {k for k, spec in kinds.items() if spec.get("ephemeral")} == {
        "asimov-checkpoint",
        "code-intel-session",
    }


def test_validate_dir_checks_ignored_checkpoints_only(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, "sub/.asimov/checkpoint.yaml", BROKEN)  # not ignored: found as before
    write(repo, "ignored-dir/.claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, ".code-intel/sessions/s1.json", {"session_id": "s1"})
    write(
        repo, "warmup.yaml", "identity: {project: x}\n" + "x: 1\n" * 600
    )  # ignored, not ephemeral
    proc = run_script("asimov-validate", ".", "--format", "json", cwd=repo)
    report = json.loads(proc.stdout)
    checked = sorted(f["path"] for f in report["files"])
    assert checked == [
        ".claude_checkpoint.yaml",
        ".code-intel/sessions/s1.json",
        "ignored-dir/.claude_checkpoint.yaml",
        "sub/.asimov/checkpoint.yaml",
    ], proc.stdout
    assert proc.returncode == 1  # the broken one and the incomplete session file


def test_validate_subdirectory_and_excluded(repo) -> None:
    write(repo, "ignored-dir/.claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    proc = run_script("asimov-validate", "-v", "ignored-dir", cwd=repo)
    assert "ignored-dir/.claude_checkpoint.yaml: valid" in proc.stdout
    assert "1 file checked" in proc.stdout, proc.stdout
    write(repo, ".asimov-hooks.yaml", "exclude: [ignored-dir]\n")
    proc = run_script("asimov-validate", "-v", ".", cwd=repo)
    assert "ignored-dir" not in proc.stdout and "1 file checked" in proc.stdout


def test_ephemeral_hook_trims_and_fails_once_as_fixers_do(repo) -> None:
    path = write(repo, ".claude_checkpoint.yaml", BLOATED)
    proc = run_script("asimov-hooks", "ephemeral", cwd=repo)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # it changed a file
    assert "1 file(s) git does not track" in proc.stdout
    assert "completed: removed 7 of 12 items" in proc.stdout
    assert "trimmed 1 file(s) git does not track" in proc.stdout and "commit again" in proc.stdout
    with open(path, encoding="utf-8") as fh:
        assert "task 1\n" not in fh.read()
    assert os.path.isfile(os.path.join(repo, ".claude_checkpoint.archive.yaml"))
    again = run_script("asimov-hooks", "ephemeral", cwd=repo)
    assert again.returncode == 0 and "Fixing" not in again.stdout


def test_ephemeral_hook_errors_fail_only_with_strict(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", BROKEN)
    proc = run_script("asimov-hooks", "ephemeral", cwd=repo)
    assert proc.returncode == 0 and "error syntax" in proc.stdout, proc.stdout
    strict = run_script("asimov-hooks", "ephemeral", "--strict", cwd=repo)
    assert strict.returncode == 1 and "error syntax" in strict.stdout


def test_ephemeral_hook_no_trim_and_untracked(repo) -> None:
    write(repo, "pkg/.asimov/checkpoint.yaml", BLOATED)  # untracked, not ignored
    proc = run_script("asimov-hooks", "ephemeral", "--no-trim", cwd=repo)
    assert proc.returncode == 0
    assert "pkg/.asimov/checkpoint.yaml" in proc.stdout and "Fixing" not in proc.stdout
    git(repo, "add", "pkg/.asimov/checkpoint.yaml")  # tracked: the staged-file hooks' job
    proc = run_script("asimov-hooks", "ephemeral", cwd=repo)
    assert "no git-ignored or untracked ephemeral files" in proc.stdout


def test_ephemeral_hook_usage(repo, tmp_path) -> None:
    proc = run_script("asimov-hooks", "ephemeral", "--bogus", cwd=repo)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    helped = run_script("asimov-hooks", "ephemeral", "--help", cwd=repo)
    assert helped.returncode == 0 and "--strict" in helped.stdout
    plain = tmp_path / "plain"
    plain.mkdir()
    outside = run_script("asimov-hooks", "ephemeral", cwd=plain)
    assert outside.returncode == 0 and "no git-ignored" in outside.stdout


@pytest.mark.slow
def test_ephemeral_hook_through_pre_commit(head_clone, pre_commit_store, repo, tmp_path) -> None:
    write(repo, ".claude_checkpoint.yaml", BLOATED)
    write(repo, "README.md", "hello\n")
    git(repo, "add", "README.md", ".gitignore")
    # no terminal here (as in an agent's shell or an IDE), no --verbose: the trim fails
    # the hook once, so pre-commit shows what it changed
    tried = try_repo(head_clone, "asimov-ephemeral", cwd=repo, store=pre_commit_store)
    output = tried.stdout + tried.stderr
    assert tried.returncode == 1, output
    assert "Failed" in output and "completed: removed 7 of 12 items" in output, output
    assert "commit again" in output
    with open(os.path.join(repo, ".claude_checkpoint.yaml"), encoding="utf-8") as fh:
        assert "task 1\n" not in fh.read()
    again = try_repo(head_clone, "asimov-ephemeral", cwd=repo, store=pre_commit_store)
    assert again.returncode == 0 and "Passed" in again.stdout, again.stdout + again.stderr
    write(repo, ".claude_checkpoint.yaml", BROKEN)
    tried = try_repo(head_clone, "asimov-ephemeral", "--verbose", cwd=repo, store=pre_commit_store)
    output = tried.stdout + tried.stderr
    assert tried.returncode == 0 and "error syntax" in output, output  # not part of the commit


def test_plain_git_hook_trims_the_ignored_checkpoint(repo) -> None:
    """hooks/pre-commit (no pre-commit framework) runs the ephemeral check too."""
    import shutil
    import stat

    from conftest import GIT_ENV, ROOT

    target = os.path.join(repo, ".git", "hooks", "pre-commit")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "hooks", "pre-commit"), target)
    os.chmod(target, os.stat(target).st_mode | stat.S_IXUSR)
    path = write(repo, ".claude_checkpoint.yaml", BLOATED)
    write(repo, "README.md", "x\n")
    git(repo, "add", "README.md", ".gitignore")
    env = {**os.environ, **GIT_ENV, "PATH": SCRIPTS + os.pathsep + os.environ.get("PATH", "")}
    env.pop("ASIMOV_HOOKS_CONFIG", None)
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "x"], cwd=repo, capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "completed: removed 7 of 12 items" in proc.stdout + proc.stderr
    with open(path, encoding="utf-8") as fh:
        assert "task 1\n" not in fh.read()
    write(repo, ".claude_checkpoint.yaml", BROKEN)  # never fails a commit it is not part of
    write(repo, "README.md", "y\n")
    git(repo, "add", "README.md")
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "y"], cwd=repo, capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0 and "error syntax" in proc.stdout + proc.stderr
