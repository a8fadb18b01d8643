"""hooks/pre-commit, the plain git hook, in real repositories."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys

import pytest
from conftest import GIT_ENV, GOOD_CHECKPOINT, ROOT, SCRIPTS, git, git_init, write

HOOK = os.path.join(ROOT, "hooks", "pre-commit")
BAD = "milestone: m\nstatus: finished\n"


def commit(repo, *args: str, path: str | None = None, **env: str) -> subprocess.CompletedProcess:
    base = {**os.environ, **GIT_ENV}
    base.pop("ASIMOV_HOOKS_CONFIG", None)
    base["PATH"] = path if path is not None else SCRIPTS + os.pathsep + base.get("PATH", "")
    base.update(env)
    return subprocess.run(
        ["git", "commit", "-q", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env=base,
        timeout=120,
    )


@pytest.fixture(params=["copied", "hooksPath"])
def repo(tmp_path, request):
    repo = git_init(tmp_path / "repo")
    if request.param == "copied":
        target = os.path.join(repo, ".git", "hooks", "pre-commit")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(HOOK, target)
        os.chmod(target, os.stat(target).st_mode | stat.S_IXUSR)
    else:
        os.makedirs(os.path.join(repo, "hooks"))
        shutil.copy(HOOK, os.path.join(repo, "hooks", "pre-commit"))
        git(repo, "config", "core.hooksPath", "hooks")
    write(repo, "README.md", "demo\n")
    git(repo, "add", "README.md")
    assert commit(repo, "-m", "init").returncode == 0
    return repo


def test_bad_checkpoint_is_refused(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", BAD)
    git(repo, "add", ".claude_checkpoint.yaml")
    proc = commit(repo, "-m", "bad")
    assert proc.returncode != 0
    output = proc.stdout + proc.stderr
    assert ".claude_checkpoint.yaml:2:9: error schema status: 'finished' is not one of" in output
    assert "Traceback" not in output
    assert git(repo, "rev-list", "--count", "HEAD").stdout.strip() == "1"


def test_good_checkpoint_is_committed(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, "docs/CLAUDE.md", "# short\n")
    git(repo, "add", "-A")
    proc = commit(repo, "-m", "good")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert git(repo, "rev-list", "--count", "HEAD").stdout.strip() == "2"


def test_warnings_do_not_block(repo) -> None:
    write(repo, "CLAUDE.md", "line\n" * 12)
    git(repo, "add", "CLAUDE.md")
    assert commit(repo, "-m", "long-ish").returncode == 0


def test_oversized_claude_md_in_a_dir_with_spaces(repo) -> None:
    write(repo, "my docs/CLAUDE.md", "line\n" * 16)
    git(repo, "add", "-A")
    proc = commit(repo, "-m", "too long")
    assert proc.returncode != 0
    assert "my docs/CLAUDE.md:16:1: error max-lines-hard" in proc.stdout + proc.stderr


def test_unrelated_commit_needs_no_validator(repo) -> None:
    write(repo, "src/main.py", "print('hi')\n")
    git(repo, "add", "-A")
    proc = commit(repo, "-m", "code", path="/usr/bin:/bin")
    assert proc.returncode == 0, proc.stderr


def test_deleting_a_protocol_file_is_fine(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    git(repo, "add", "-A")
    assert commit(repo, "-m", "add").returncode == 0
    git(repo, "rm", "-q", ".claude_checkpoint.yaml")
    assert commit(repo, "-m", "remove", path="/usr/bin:/bin").returncode == 0


def test_missing_validator_is_explained(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    git(repo, "add", "-A")
    proc = commit(repo, "-m", "x", path="/usr/bin:/bin")
    assert proc.returncode != 0
    assert "'asimov-validate' not found" in proc.stderr


def test_asimov_validate_override(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", BAD)
    git(repo, "add", "-A")
    proc = commit(
        repo,
        "-m",
        "x",
        path="/usr/bin:/bin",
        ASIMOV_VALIDATE=f"{sys.executable} -m asimov_hooks validate",
    )
    assert proc.returncode != 0
    assert "error schema status" in proc.stdout + proc.stderr


def test_session_file_must_not_be_committed(repo) -> None:
    write(
        repo,
        ".code-intel/sessions/s1.json",
        '{"session_id": "s1", "checkpoint_version": 1, "checkpoint_at": "2026-01-31T12:34:56"}\n',
    )
    git(repo, "add", "-f", ".code-intel/sessions/s1.json")
    proc = commit(repo, "-m", "oops")
    assert proc.returncode != 0
    assert "must-be-ignored" in proc.stdout + proc.stderr


def test_no_verify_still_works(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", BAD)
    git(repo, "add", "-A")
    assert commit(repo, "--no-verify", "-m", "forced").returncode == 0


def test_a_path_that_starts_with_a_dash_is_a_path_not_an_option(repo) -> None:
    write(repo, "-x/.claude_checkpoint.yaml", BAD)
    write(repo, "--strict/CLAUDE.md", "# fine\n")
    git(repo, "add", "-A")
    proc = commit(repo, "-m", "dash")
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "-x/.claude_checkpoint.yaml:2:9: error schema status" in output
    assert "No such option" not in output and "Usage:" not in output
