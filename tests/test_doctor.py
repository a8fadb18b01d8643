"""`asimov-hooks doctor` against real repositories in each broken state."""

from __future__ import annotations

import os

import pytest
from conftest import git, git_init, run_module, write

from asimov_hooks.gitutil import driver_command

pytestmark = pytest.mark.usefixtures("isolated_home")


@pytest.fixture
def repo(tmp_path):
    path = git_init(tmp_path / "repo")
    write(path, ".claude_checkpoint.yaml", 'milestone: "x"\n')
    write(path, ".checkpoints/oc-git-ops.checkpoint.json", "{}\n")
    return path


def test_healthy(repo) -> None:
    assert run_module(repo, "install", "-q").returncode == 0
    done = run_module(repo, "doctor")
    assert done.returncode == 0, done.stdout
    assert "ok   .claude_checkpoint.yaml: merge=asimov-checkpoint" in done.stdout
    assert "ok   .checkpoints/oc-git-ops.checkpoint.json: merge=asimov-checkpoint" in done.stdout
    assert "merged a test checkpoint correctly" in done.stdout


def test_nothing_installed(repo) -> None:
    done = run_module(repo, "doctor")
    assert done.returncode == 1
    assert "merge.asimov-checkpoint.driver is not set" in done.stdout
    assert "run `asimov-hooks install`" in done.stdout
    assert "no merge attribute" in done.stdout


def test_stale_environment(repo, tmp_path) -> None:
    assert run_module(repo, "install", "-q").returncode == 0
    gone = driver_command(python=str(tmp_path / "old-env" / "bin" / "python"))
    git(repo, "config", "--local", "merge.asimov-checkpoint.driver", gone)
    done = run_module(repo, "doctor")
    assert done.returncode == 1
    assert "its interpreter no longer exists" in done.stdout
    assert "the command does not merge checkpoints" in done.stdout


def test_custom_command_that_does_not_resolve(repo) -> None:
    assert run_module(repo, "install", "-q").returncode == 0
    git(
        repo,
        "config",
        "--local",
        "merge.asimov-checkpoint.driver",
        "no-such-asimov-hooks merge-driver %O %A %B %L %P",
    )
    done = run_module(repo, "doctor")
    assert done.returncode == 1
    assert "exit 127" in done.stdout


def test_other_merge_attribute_wins(repo) -> None:
    assert run_module(repo, "install", "-q").returncode == 0
    with open(os.path.join(repo, ".gitattributes"), "a", encoding="utf-8") as fh:
        fh.write(".claude_checkpoint.yaml merge=union\n")
    done = run_module(repo, "doctor")
    assert done.returncode == 1
    assert ".claude_checkpoint.yaml: merge=union" in done.stdout


def test_nested_checkpoints_get_the_right_pattern(repo) -> None:
    assert run_module(repo, "install", "-q").returncode == 0
    write(repo, "svc/.checkpoints/oc-x.checkpoint.json", "{}\n")
    done = run_module(repo, "doctor")
    assert done.returncode == 1
    assert "`svc/.checkpoints/*.checkpoint.json merge=asimov-checkpoint`" in done.stdout


def test_disabled_by_environment_and_not_recursive(repo) -> None:
    assert run_module(repo, "install", "-q").returncode == 0
    git(repo, "config", "--local", "--unset", "merge.asimov-checkpoint.recursive")
    done = run_module(repo, "doctor", ASIMOV_HOOKS_MERGE_DRIVER="0")
    assert done.returncode == 1, done.stdout  # not active here: issue 13
    assert "ASIMOV_HOOKS_MERGE_DRIVER disables the driver" in done.stdout
    assert "recursive is not 'binary'" in done.stdout


def test_no_checkpoints_yet_checks_the_patterns(tmp_path) -> None:
    path = git_init(tmp_path / "empty")
    assert run_module(path, "install", "-q").returncode == 0
    done = run_module(path, "doctor")
    assert done.returncode == 0, done.stdout
    assert ".checkpoints/example.checkpoint.json: merge=asimov-checkpoint" in done.stdout


def test_hook_advice_when_the_config_asks_for_it(repo) -> None:
    assert run_module(repo, "install", "-q").returncode == 0
    write(
        repo,
        ".pre-commit-config.yaml",
        "repos:\n- repo: x\n  hooks:\n  - id: asimov-merge-driver\n",
    )
    done = run_module(repo, "doctor")
    assert "pre-commit install --hook-type post-checkout --hook-type post-merge" in done.stdout


def test_outside_a_repository(tmp_path) -> None:
    done = run_module(tmp_path, "doctor")
    assert done.returncode == 2
    assert done.stderr.strip() == "asimov-hooks doctor: not inside a git work tree"


def test_strict_policies_still_count_as_running(repo) -> None:
    assert run_module(repo, "install", "-q").returncode == 0
    write(
        repo,
        ".asimov-hooks.yaml",
        "merge:\n  kinds:\n    asimov-checkpoint:\n      fields:\n        tool_calls: conflict\n",
    )
    done = run_module(repo, "doctor")
    assert done.returncode == 0, done.stdout
    assert "merge policies make the test merge" in done.stdout
