"""The `asimov-trim` hook under pre-commit itself, the way its users meet it.

The hook environment is built from a clean clone of HEAD (the real
`.pre-commit-hooks.yaml`, nobody's uncommitted work) with network access to PyPI, so
this is a slow test. It checks what a pre-commit user expects from a fixer:
`pre-commit try-repo` reports the hook as failed with "files were modified by this
hook" and shows what was removed; a real `git commit` through the installed hook is
stopped, the checkpoint is trimmed in the work tree and the removed items are in the
archive; after `git add` the commit goes through.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from conftest import SCRIPTS, git, git_init, script_env, try_repo, write
from ruamel.yaml import YAML

pytestmark = pytest.mark.slow

CHECKPOINT = (
    "# session state\nmilestone: Ship the trimmer\nstatus: in_progress\ncompleted:\n"
    + "".join(f"  - task {i}\n" for i in range(1, 9))
    + "next_steps:\n  - review\n"
)


def load(path: str) -> object:
    with open(path, encoding="utf-8") as fh:
        return YAML(typ="safe").load(fh)


def test_trim_hook_fixes_and_stops_the_commit(head_clone, pre_commit_store, tmp_path) -> None:
    with open(os.path.join(head_clone, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        manifest = fh.read()
    assert "id: asimov-trim" in manifest and "entry: asimov-hooks trim" in manifest
    env = script_env(PRE_COMMIT_HOME=pre_commit_store, PIP_DISABLE_PIP_VERSION_CHECK="1")
    pre_commit = os.path.join(SCRIPTS, "pre-commit")

    # 1. try-repo: the hook modifies the file and pre-commit fails it
    repo = git_init(tmp_path / "try")
    write(repo, ".claude_checkpoint.yaml", CHECKPOINT)
    git(repo, "add", "-A")
    tried = try_repo(
        head_clone,
        "asimov-trim",
        "--files",
        ".claude_checkpoint.yaml",
        cwd=repo,
        store=pre_commit_store,
    )
    output = tried.stdout + tried.stderr
    assert tried.returncode == 1, output
    assert "Failed" in output and "files were modified by this hook" in output, output
    assert "Fixing .claude_checkpoint.yaml" in output, output
    assert "completed: removed 3 of 8 items, kept the last 5 (cap)" in output, output
    assert load(os.path.join(repo, ".claude_checkpoint.yaml"))["completed"] == [
        f"task {i}" for i in range(4, 9)
    ]

    # 2. a real commit through the installed hook (same environment, reused)
    sha = git(head_clone, "rev-parse", "HEAD").stdout.strip()
    repo = git_init(tmp_path / "commit")
    write(
        repo,
        ".pre-commit-config.yaml",
        f"repos:\n  - repo: {head_clone}\n    rev: {sha}\n    hooks:\n      - id: asimov-trim\n",
    )
    write(repo, ".claude_checkpoint.yaml", CHECKPOINT)
    git(repo, "add", "-A")
    git(repo, "config", "--unset", "core.hooksPath")  # pre-commit will not install with it set
    subprocess.run([pre_commit, "install"], cwd=repo, env=env, check=True, capture_output=True)

    def commit() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "commit", "-qm", "checkpoint"],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    first = commit()
    assert first.returncode != 0, first.stdout + first.stderr
    assert "files were modified by this hook" in first.stdout + first.stderr
    assert git(repo, "rev-list", "--all", check=False).stdout == ""  # nothing committed
    archive = load(os.path.join(repo, ".claude_checkpoint.archive.yaml"))
    assert archive[0]["removed"] == {"completed": ["task 1", "task 2", "task 3"]}
    git(repo, "add", ".claude_checkpoint.yaml")
    second = commit()
    assert second.returncode == 0, second.stdout + second.stderr
    committed = git(repo, "show", "HEAD:.claude_checkpoint.yaml").stdout
    assert "task 3" not in committed and "task 8" in committed
