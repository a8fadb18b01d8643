"""The `asimov-trim` hook under pre-commit itself, the way its users run it.

`pre-commit try-repo` builds the hook's own virtualenv from this repository (working
tree included) and runs it on a staged checkpoint: the hook must modify the file,
make pre-commit report the hook as failed with "files were modified by this hook",
and pass on the next run. It needs network access to PyPI for that virtualenv, so it
is slow (tens of seconds) and is skipped when pre-commit or git is missing or when
ASIMOV_HOOKS_OFFLINE is set.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
PRE_COMMIT = shutil.which("pre-commit", path=os.pathsep.join(
    [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))

pytestmark = pytest.mark.skipif(
    PRE_COMMIT is None or shutil.which("git") is None or bool(os.environ.get("ASIMOV_HOOKS_OFFLINE")),
    reason="needs pre-commit, git and network access to PyPI",
)


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def try_repo(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PRE_COMMIT), "try-repo", str(ROOT), "asimov-trim", "--files", ".claude_checkpoint.yaml",
         "--color", "never", "--verbose"],
        cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=900,
    )


def test_try_repo_fixes_the_checkpoint_and_fails_then_passes(tmp_path: Path) -> None:
    manifest = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "id: asimov-trim" in manifest and "entry: asimov-hooks trim" in manifest
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    git(project, "config", "user.email", "t@example.invalid")
    git(project, "config", "user.name", "t")
    checkpoint = project / ".claude_checkpoint.yaml"
    checkpoint.write_text(
        "# session state\nmilestone: Ship the trimmer\nstatus: in_progress\ncompleted:\n"
        + "".join(f"  - task {i}\n" for i in range(1, 9))
        + "next_steps:\n  - review\n"
    )
    git(project, "add", ".claude_checkpoint.yaml")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    env.pop("ASIMOV_HOOKS_CONFIG", None)

    first = try_repo(project, env)
    output = first.stdout + first.stderr
    assert first.returncode == 1, output
    assert "Failed" in output and "files were modified by this hook" in output, output
    assert "Fixing .claude_checkpoint.yaml" in output, output
    assert "completed: removed 3 of 8 items, kept the last 5" in output, output
    data = YAML(typ="safe").load(checkpoint.read_text())
    assert data["completed"] == [f"task {i}" for i in range(4, 9)]
    archive = YAML(typ="safe").load((project / ".claude_checkpoint.archive.yaml").read_text())
    assert archive[0]["removed"] == {"completed": ["task 1", "task 2", "task 3"]}

    git(project, "add", ".claude_checkpoint.yaml")
    second = try_repo(project, env)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Passed" in second.stdout
