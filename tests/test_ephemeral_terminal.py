"""Under pre-commit the `asimov-ephemeral` hook is not `verbose`: pre-commit hides a
passing hook's output, so a report worth reading also goes to the terminal the commit
runs in, and a clean run says nothing there (a real pseudo-terminal, from `script`)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess

import pytest
from conftest import GOOD_CHECKPOINT, SCRIPTS, git_init, script_env, write

pytestmark = pytest.mark.skipif(shutil.which("script") is None, reason="no script(1)")


def on_a_terminal(repo: str) -> tuple[str, str]:
    """(what reached the terminal, what went to stdout) for the hook under pre-commit."""
    hook = shlex.quote(os.path.join(SCRIPTS, "asimov-hooks"))
    done = subprocess.run(
        ["script", "-qec", f"{hook} ephemeral > captured.txt", os.devnull],
        cwd=repo,
        capture_output=True,
        text=True,
        env=script_env(PRE_COMMIT="1"),
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with open(os.path.join(repo, "captured.txt"), encoding="utf-8") as fh:
        return done.stdout, fh.read()


def test_a_problem_reaches_the_terminal_and_a_clean_run_does_not(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitignore", ".claude_checkpoint.yaml\ncaptured.txt\n")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    terminal, captured = on_a_terminal(repo)
    assert "schema" not in terminal and ".claude_checkpoint.yaml" not in terminal
    write(repo, ".claude_checkpoint.yaml", "milestone: m\nstatus: finished\n")
    terminal, captured = on_a_terminal(repo)
    assert "error schema status: 'finished'" in terminal
    assert "error schema status: 'finished'" in captured  # pre-commit keeps its copy
