"""`asimov-hooks install` / `uninstall` in real repositories (and an isolated HOME)."""

from __future__ import annotations

import os
import sys

import pytest
from conftest import commit_all, git, git_init, run_module, write

from asimov_hooks.gitutil import BLOCK_END, BLOCK_START, command_paths, driver_command

LINES = [
    ".claude_checkpoint.yaml merge=asimov-checkpoint",
    ".asimov/checkpoint.yaml merge=asimov-checkpoint",
    ".checkpoints/*.checkpoint.json merge=asimov-checkpoint",
    ".claude_checkpoint.archive.yaml merge=asimov-checkpoint",
    ".claude_checkpoint.archive.*.yaml merge=asimov-checkpoint",
    ".asimov/checkpoint.archive.yaml merge=asimov-checkpoint",
    ".asimov/checkpoint.archive.*.yaml merge=asimov-checkpoint",
]


pytestmark = pytest.mark.usefixtures("isolated_home")


def config(repo, *scope: str) -> dict[str, str]:
    done = git(repo, "config", *scope, "--get-regexp", r"^merge\.asimov-checkpoint\.", check=False)
    return dict(line.split(" ", 1) for line in done.stdout.splitlines())


def read(path) -> str:
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def test_install_sets_config_and_attributes_idempotently(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    first = run_module(repo, "install")
    assert first.returncode == 0, first.stderr
    assert "set merge.asimov-checkpoint.driver" in first.stdout
    values = config(repo, "--local")
    assert values["merge.asimov-checkpoint.recursive"] == "binary"
    assert values["merge.asimov-checkpoint.name"]
    python, main = command_paths(values["merge.asimov-checkpoint.driver"])
    assert os.path.samefile(python, sys.executable)
    assert os.path.isfile(main)
    attributes = read(os.path.join(repo, ".gitattributes"))
    assert attributes == "\n".join([BLOCK_START, *LINES, BLOCK_END]) + "\n"
    second = run_module(repo, "install")
    assert second.returncode == 0
    assert second.stdout.strip() == "merge driver already installed; nothing to do"
    assert read(os.path.join(repo, ".gitattributes")) == attributes
    check = git(repo, "check-attr", "merge", "--", ".checkpoints/x.checkpoint.json").stdout
    assert check.strip().endswith("merge: asimov-checkpoint")


def test_existing_lines_are_kept_and_not_repeated(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    own = "# ours\r\n*.png binary\r\n.claude_checkpoint.yaml merge=asimov-checkpoint\r\n"
    write(repo, ".gitattributes", own)
    assert run_module(repo, "install", "--quiet").returncode == 0
    text = read(os.path.join(repo, ".gitattributes"))
    assert text.startswith(own)
    assert text.count(".claude_checkpoint.yaml merge=asimov-checkpoint") == 1
    assert "\n" not in text.replace("\r\n", "")  # the file's CRLF style is kept
    assert run_module(repo, "uninstall", "--quiet").returncode == 0
    assert read(os.path.join(repo, ".gitattributes")) == own
    assert config(repo) == {}


def test_uninstall_removes_exactly_what_install_added(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitattributes", "*.png binary\n")
    git(repo, "config", "--local", "merge.other.driver", "true")
    before_config = read(os.path.join(repo, ".git", "config"))
    assert run_module(repo, "install").returncode == 0
    done = run_module(repo, "uninstall")
    assert done.returncode == 0, done.stderr
    assert "removed merge.asimov-checkpoint.driver" in done.stdout
    assert read(os.path.join(repo, ".gitattributes")) == "*.png binary\n"
    assert read(os.path.join(repo, ".git", "config")) == before_config
    again = run_module(repo, "uninstall")
    assert again.stdout.strip() == "merge driver not installed; nothing to do"


def test_uninstall_keeps_user_keys_in_the_section(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    assert run_module(repo, "install", "-q").returncode == 0
    git(repo, "config", "--local", "merge.asimov-checkpoint.note", "mine")
    assert run_module(repo, "uninstall", "-q").returncode == 0
    assert config(repo, "--local") == {"merge.asimov-checkpoint.note": "mine"}


def test_attributes_local_and_none(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    assert run_module(repo, "install", "--attributes", "local", "-q").returncode == 0
    assert not os.path.exists(os.path.join(repo, ".gitattributes"))
    info = read(os.path.join(repo, ".git", "info", "attributes"))
    assert all(line in info for line in LINES)
    assert run_module(repo, "uninstall", "-q").returncode == 0
    assert not os.path.exists(os.path.join(repo, ".git", "info", "attributes"))  # only ours
    other = git_init(tmp_path / "other")
    assert run_module(other, "install", "--attributes", "none", "-q").returncode == 0
    assert not os.path.exists(os.path.join(other, ".gitattributes"))
    assert "merge.asimov-checkpoint.driver" in config(other)


def test_global_install_and_uninstall(tmp_path, isolated_home) -> None:
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    done = run_module(outside, "install", "--global")
    assert done.returncode == 0, done.stderr
    values = config(outside, "--global")
    assert values["merge.asimov-checkpoint.recursive"] == "binary"
    attributes = isolated_home / ".config" / "git" / "attributes"
    assert all(line in read(attributes) for line in LINES)
    repo = git_init(tmp_path / "repo")
    check = git(repo, "check-attr", "merge", "--", ".claude_checkpoint.yaml").stdout
    assert check.strip().endswith("merge: asimov-checkpoint")
    assert run_module(outside, "uninstall", "--global").returncode == 0
    assert config(outside, "--global") == {}
    assert not os.path.exists(attributes)  # it held only our block


def test_outside_a_repository_is_a_one_line_error(tmp_path) -> None:
    done = run_module(tmp_path, "install")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not inside a git work tree" in done.stderr
    assert "Traceback" not in done.stderr


def test_reinstall_from_another_environment_updates_the_command(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    stale = driver_command(python="/old/env/bin/python", package_dir="/old/env/pkg")
    git(repo, "config", "--local", "merge.asimov-checkpoint.driver", stale)
    done = run_module(repo, "install", "-q", "--attributes", "none")
    assert done.returncode == 0 and done.stdout == ""
    assert config(repo)["merge.asimov-checkpoint.driver"] == driver_command()


def test_paths_with_spaces_and_quotes_are_quoted(tmp_path) -> None:
    command = driver_command(python="/a b/it's/python", package_dir="/p q/pkg")
    assert command_paths(command) == ("/a b/it's/python", "/p q/pkg/merge/driver.py")


def test_works_in_a_worktree(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    commit_all(repo, "init")
    git(repo, "worktree", "add", "-q", os.fspath(tmp_path / "wt"))
    done = run_module(tmp_path / "wt", "install", "--attributes", "local", "-q")
    assert done.returncode == 0, done.stderr
    check = git(tmp_path / "wt", "check-attr", "merge", "--", ".claude_checkpoint.yaml").stdout
    assert check.strip().endswith("merge: asimov-checkpoint")


def test_attributes_file_without_final_newline(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitattributes", "*.png binary")
    assert run_module(repo, "install", "-q").returncode == 0
    text = read(os.path.join(repo, ".gitattributes"))
    assert text.startswith("*.png binary\n\n" + BLOCK_START + "\n")
    assert run_module(repo, "uninstall", "-q").returncode == 0
    assert read(os.path.join(repo, ".gitattributes")) == "*.png binary\n"
