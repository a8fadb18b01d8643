"""The hooks under the real pre-commit framework (`pre-commit try-repo`).

pre-commit builds the hook environment from a clean clone of HEAD (pip, network to
PyPI). try-repo would make a fresh temporary store on every call; conftest's try_repo
gives it the run's store instead, so the environment is built once per test run.
"""

from __future__ import annotations

import pytest
from conftest import (
    GOOD_CHECKPOINT,
    git,
    git_init,
    oc_checkpoint,
    try_repo,
    write,
)

pytestmark = pytest.mark.slow


@pytest.fixture
def repo(tmp_path) -> str:
    repo = git_init(tmp_path / "user-repo")
    write(repo, "good/.claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, "good/CLAUDE.md", "# short\n")
    write(repo, "good/.checkpoints/oc-app.checkpoint.json", oc_checkpoint(skill="oc-app"))
    write(repo, "bad/.claude_checkpoint.yaml", "milestone: m\nstatus: finished\n")
    write(repo, "bad/CLAUDE.md", "line\n" * 16)
    write(repo, "bad/warmup.yaml", "identity: {project: p}\n" + "# c\n" * 501)
    write(repo, "k8s/warmup.yaml", "apiVersion: v1\nkind: ConfigMap\n" + "# c\n" * 600)
    write(repo, "README.md", "not ours\n")
    git(repo, "add", "-A")
    return repo


def test_try_repo_validate(head_clone, pre_commit_store, repo, tmp_path) -> None:
    good = [
        "good/.claude_checkpoint.yaml",
        "good/CLAUDE.md",
        "good/.checkpoints/oc-app.checkpoint.json",
        "k8s/warmup.yaml",  # only shares the name: skipped, not failed
        "README.md",  # not ours: filtered out by the hook's files pattern
    ]
    proc = try_repo(
        head_clone, "asimov-validate", "--files", *good, cwd=repo, store=pre_commit_store
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout

    proc = try_repo(
        head_clone,
        "asimov-validate",
        "--files",
        "bad/.claude_checkpoint.yaml",
        cwd=repo,
        store=pre_commit_store,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Failed" in proc.stdout
    assert (
        "bad/.claude_checkpoint.yaml:2:9: error schema status: 'finished' is not one of"
        in proc.stdout
    )


def test_try_repo_size(head_clone, pre_commit_store, repo, tmp_path) -> None:
    proc = try_repo(
        head_clone,
        "asimov-size",
        "--files",
        "good/CLAUDE.md",
        "good/.claude_checkpoint.yaml",
        "bad/.claude_checkpoint.yaml",  # a schema problem is not the size hook's business
        cwd=repo,
        store=pre_commit_store,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr

    proc = try_repo(
        head_clone,
        "asimov-size",
        "--files",
        "bad/CLAUDE.md",
        "bad/warmup.yaml",
        cwd=repo,
        store=pre_commit_store,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert (
        "bad/CLAUDE.md:16:1: error max-lines-hard 16 lines, over the hard limit of 15"
        in proc.stdout
    )
    assert "bad/warmup.yaml:501:1: error max-lines-hard" in proc.stdout
