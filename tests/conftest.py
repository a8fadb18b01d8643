"""Shared fixtures and helpers for the asimov-hooks test suite.

Tests call the real entry points on real files in tmp_path; git repositories are
real (`git init`), nothing is mocked.
"""

from __future__ import annotations

import copy
import datetime
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.dirname(sys.executable)  # where this interpreter's console scripts live

GOOD_CHECKPOINT = """\
# Session checkpoint (ADR-007): current state only.
timestamp: "2026-11-20T10:30:00Z"
tool_calls: 45
milestone: "Add feature X"
status: in_progress
completed:
  - "Task 6: wire the parser"
  - "Task 7: add tests"
in_progress: "Task 9: benchmark the hot path"
next_steps:
  - "Task 10: release notes"
on_confusion: "cat warmup.yaml"
"""

GOOD_WARMUP = """\
identity:
  project: "demo-service"
  tagline: "A small service"
mission:
  problem: "Agents lose their place"
  solution: "Small files"
"""

GOOD_CLAUDE_MD = "# CLAUDE.md\n\nRead warmup.yaml first.\n"


def oc_checkpoint(**changes: object) -> dict:
    """A valid OC checkpoint (protocol 1.0, in_progress, recent) with `changes` applied.

    A value of None removes the key.
    """
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    doc: dict = {
        "protocol_version": "1.0",
        "skill": "oc-app-architect",
        "project": "gtrack",
        "project_dir": "/home/claude/gtrack",
        "created_at": (now - datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "updated_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "phase": "build-loop",
        "step": "sprint-2",
        "status": "in_progress",
        "progress_summary": "Sprint 1 passed. Sprint 2 is being built.",
        "progress_table": [
            {"id": "sprint-1", "label": "Sprint 1", "status": "complete"},
            {"id": "sprint-2", "label": "Sprint 2", "status": "in_progress"},
            {"id": "sprint-3", "label": "Sprint 3", "status": "not_started"},
        ],
        "context_primer": {"key_decisions": ["Stack: Hono"], "generated_files": []},
        "next_actions": ["Read the evaluator report", {"text": "Re-run", "done_when": "true"}],
    }
    doc = copy.deepcopy(doc)
    for key, value in changes.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def write(base: os.PathLike | str, rel: str, content: str | bytes | dict) -> str:
    """Write `content` to base/rel (dicts as indented JSON); returns the path."""
    path = os.path.join(os.fspath(base), rel)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if isinstance(content, dict):
        content = json.dumps(content, indent=2) + "\n"
    data = content.encode("utf-8") if isinstance(content, str) else content
    with open(path, "wb") as fh:
        fh.write(data)
    return path


GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd: os.PathLike | str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", *args],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        check=check,
        env={**os.environ, **GIT_ENV},
    )


def git_init(path: os.PathLike | str) -> str:
    path = os.fspath(path)
    os.makedirs(path, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "commit.gpgsign", "false")
    git(path, "config", "core.hooksPath", ".git/hooks")
    return path


def commit_all(repo: os.PathLike | str, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", message)


def script_env(**extra: str) -> dict[str, str]:
    """Environment for whole-process runs: our console scripts first on PATH."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("GITHUB_ACTIONS", "ASIMOV_HOOKS_CONFIG", "CLAUDE_PROJECT_DIR")
    }
    env.update(GIT_ENV)
    env["PATH"] = SCRIPTS + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def run_script(name: str, *args: str, cwd: os.PathLike | str, **extra: str):
    exe = shutil.which(name, path=SCRIPTS) or name
    return subprocess.run(
        [exe, *args],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        env=script_env(**extra),
        timeout=120,
    )


def try_repo(
    clone: str,
    hook: str,
    *args: str,
    cwd: os.PathLike | str,
    store: os.PathLike | str,
    color: str = "never",
) -> subprocess.CompletedProcess:
    """`pre-commit try-repo CLONE HOOK --color COLOR ARGS` in `cwd`, as a user runs it.

    `store` is the PRE_COMMIT_HOME: reusing one across calls in a test saves an
    environment build (network to PyPI)."""
    return subprocess.run(
        [os.path.join(SCRIPTS, "pre-commit"), "try-repo", clone, hook, "--color", color, *args],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        env=script_env(PRE_COMMIT_HOME=os.fspath(store), PIP_DISABLE_PIP_VERSION_CHECK="1"),
        timeout=600,
        check=False,
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: builds a wheel or pre-commit environment (network to PyPI), or runs "
        "hundreds of hypothesis examples; "
        "run by default, deselect with -m 'not slow'",
    )


@pytest.fixture
def isolated_home(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """No test may read or write the developer's global git or pre-commit state."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.delenv("ASIMOV_HOOKS_MERGE_DRIVER", raising=False)
    return home


def run_module(cwd: os.PathLike | str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`python -m asimov_hooks ARGS` as a whole process in `cwd`."""
    return subprocess.run(
        [sys.executable, "-m", "asimov_hooks", *args],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )


@pytest.fixture(scope="session")
def head_clone(tmp_path_factory) -> str:
    """A clean `git clone` of the project's HEAD: what a user installs, without
    anyone's uncommitted work in the shared tree."""
    clone = str(tmp_path_factory.mktemp("head") / "asimov-hooks")
    subprocess.run(
        ["git", "clone", "-q", "--no-hardlinks", ROOT, clone],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )
    return clone


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither the CI nor the developer's environment may change what a test sees."""
    for name in ("GITHUB_ACTIONS", "ASIMOV_HOOKS_CONFIG", "ASIMOV_HOOKS_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    # the suite's CLAUDE.md files are checked as in an Asimov repository (ADR-007's
    # limits) wherever they are written; tests/test_profiles.py unsets it
    monkeypatch.setenv("ASIMOV_HOOKS_PROFILE", "asimov")
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """Run from tmp_path, so config discovery starts there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


class Run:
    """The result of one in-process CLI call: exit code, stdout and stderr."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def cli(capsys):
    """cli(*argv) runs `asimov-validate argv` in process; never a traceback."""
    from asimov_hooks.cli import validate_main

    def run(*argv: str) -> Run:
        capsys.readouterr()
        code = validate_main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err and "Traceback" not in out
        assert "internal error" not in err, err
        return Run(code, out, err)

    return run


@pytest.fixture
def size_cli(capsys):
    """size_cli(*argv) runs `asimov-check-size argv` in process."""
    from asimov_hooks.cli.entrypoints import check_size_main as main

    def run(*argv: str) -> Run:
        capsys.readouterr()
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err and "Traceback" not in out
        return Run(code, out, err)

    return run


from unprivileged import unprivileged  # noqa: E402, F401  (fixture: runs as nobody under root)
