"""The post-checkout / post-merge hook registers the driver in a clone, through the real
pre-commit framework (a `repo: local` hook with the entry the manifest uses, so no
network is needed to build an environment)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import commit_all, git, git_init, run_script, write

PRE_COMMIT = shutil.which("pre-commit", path=os.path.dirname(sys.executable))

CONFIG = """\
repos:
  - repo: local
    hooks:
      - id: asimov-merge-driver
        name: asimov merge driver (register in this clone)
        entry: {python} -m asimov_hooks install --quiet --attributes none --unless-uninstalled
        language: system
        stages: [post-checkout, post-merge]
        always_run: true
        pass_filenames: false
"""


pytestmark = pytest.mark.usefixtures("isolated_home")


@pytest.fixture(autouse=True)
def _pre_commit_home(isolated_home, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRE_COMMIT_HOME", str(isolated_home / ".cache" / "pre-commit"))


def install_checkout_hooks(repo: str) -> None:
    """`pre-commit install` for the hook types the manifest's merge-driver hook uses."""
    done = subprocess.run(
        [PRE_COMMIT, "install", "--hook-type", "post-checkout", "--hook-type", "post-merge"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")
def test_checkout_and_merge_hooks_register_the_driver(tmp_path) -> None:
    origin = git_init(tmp_path / "origin")
    write(origin, ".pre-commit-config.yaml", CONFIG.format(python=sys.executable))
    write(origin, ".gitattributes", ".claude_checkpoint.yaml merge=asimov-checkpoint\n")
    write(origin, ".claude_checkpoint.yaml", 'milestone: "x"\n')
    commit_all(origin, "init")
    git(origin, "branch", "other")

    clone = os.fspath(tmp_path / "clone")
    git(tmp_path, "clone", "-q", origin, clone)
    git(clone, "config", "--unset-all", "core.hooksPath", check=False)
    install_checkout_hooks(clone)
    key = "merge.asimov-checkpoint.driver"
    assert git(clone, "config", "--local", "--get", key, check=False).stdout == ""

    checkout = git(clone, "checkout", "-q", "other")
    assert "asimov merge driver" in checkout.stdout + checkout.stderr
    assert "asimov_hooks.merge.driver" in git(clone, "config", "--local", "--get", key).stdout
    assert git(clone, "status", "--porcelain").stdout == ""  # nothing written to the tree

    write(clone, ".claude_checkpoint.yaml", 'milestone: "y"\n')
    commit_all(clone, "other: edit")
    git(clone, "checkout", "-q", "main")
    git(clone, "config", "--local", "--remove-section", "merge.asimov-checkpoint")
    merged = git(clone, "merge", "-q", "--no-edit", "other")
    assert merged.returncode == 0
    assert "asimov_hooks.merge.driver" in git(clone, "config", "--local", "--get", key).stdout


@pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")
def test_post_checkout_hook_does_not_undo_an_uninstall(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    git(repo, "config", "--unset-all", "core.hooksPath")
    write(repo, ".pre-commit-config.yaml", CONFIG.format(python=sys.executable))
    commit_all(repo, "init")
    git(repo, "branch", "other")
    install_checkout_hooks(repo)
    key = "merge.asimov-checkpoint.driver"
    git(repo, "checkout", "-q", "other")
    assert git(repo, "config", "--get", key, check=False).stdout  # registered by the hook
    done = run_script("asimov-hooks", "uninstall", cwd=repo)
    assert "will not register the driver again" in done.stdout
    git(repo, "checkout", "-q", "main")
    assert git(repo, "config", "--get", key, check=False).stdout == ""  # stays uninstalled
    # installed again by hand: back, and the uninstall is remembered no more
    assert run_script("asimov-hooks", "install", "-q", cwd=repo).returncode == 0
    git(repo, "config", "--remove-section", "merge.asimov-checkpoint")
    git(repo, "checkout", "-q", "other")
    assert git(repo, "config", "--get", key, check=False).stdout
