"""One answer to "where is the top of this work tree" (issue 11): gitutil.find_toplevel,
checked against what real git answers in the layouts a repository has, and the only
place in the package that asks git for it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import commit_all, git, git_init, write

from asimov_hooks import gitutil
from asimov_hooks.config.discovery import iter_files

SRC = Path(gitutil.__file__).parent


def git_says(cwd: str) -> str | None:
    done = git(cwd, "rev-parse", "--show-toplevel", check=False)
    return done.stdout.strip() if done.returncode == 0 else None


@pytest.fixture
def layouts(tmp_path) -> dict[str, str]:
    """Directories in a repository, a nested repository, a linked worktree, through a
    symbolic link, and outside any repository."""
    repo = git_init(tmp_path / "repo")
    write(repo, "deep/er/file.txt", "x\n")
    write(repo, "inner/.keep", "")
    commit_all(repo, "init")
    git_init(os.path.join(repo, "inner", "nested"))
    git(repo, "worktree", "add", "-q", str(tmp_path / "linked"))
    os.makedirs(tmp_path / "linked" / "sub")
    os.symlink(os.path.join(repo, "deep"), tmp_path / "link")
    os.makedirs(tmp_path / "plain" / "dir")
    return {
        "top": repo,
        "deep": os.path.join(repo, "deep", "er"),
        "nested": os.path.join(repo, "inner", "nested"),
        "linked": str(tmp_path / "linked" / "sub"),
        "symlink": str(tmp_path / "link"),
        "outside": str(tmp_path / "plain" / "dir"),
    }


def test_find_toplevel_answers_as_git(layouts) -> None:
    if git_says(layouts["outside"]) is not None:
        pytest.skip("the temporary directory is inside a git work tree")
    for name, directory in layouts.items():
        assert gitutil.find_toplevel(directory) == git_says(directory), name
        assert gitutil.toplevel(directory) == git_says(directory), name
    assert gitutil.find_toplevel(layouts["nested"]) == layouts["nested"]
    assert gitutil.find_toplevel(layouts["symlink"]) == layouts["top"]  # physical path


def test_redirected_git_is_asked_when_paths_go_to_git(layouts, monkeypatch) -> None:
    """With GIT_DIR alone git takes the directory it runs in as the top (as in a hook
    of a linked worktree); a walk up to .git cannot know that."""
    monkeypatch.setenv("GIT_DIR", os.path.join(layouts["top"], ".git"))
    deep = layouts["deep"]
    assert git_says(deep) == deep
    assert gitutil.find_toplevel(deep, for_git=True) == deep
    assert gitutil.find_toplevel(deep) == layouts["top"]


def test_directory_search_lists_files_of_the_work_tree(layouts, monkeypatch) -> None:
    """iter_files joins git's --full-name paths onto the top git reports."""
    from asimov_hooks.config.config import load_config

    top = layouts["top"]
    write(top, "deep/er/.claude_checkpoint.yaml", 'milestone: "m"\n')
    monkeypatch.chdir(os.path.join(top, "deep"))
    config = load_config(None)
    assert [path for path, _ in iter_files(["."], config)] == ["er/.claude_checkpoint.yaml"]


def test_no_other_module_asks_git_for_the_top() -> None:
    asking = re.compile(r"show-toplevel")
    others = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if path.name != "gitutil.py" and asking.search(path.read_text(encoding="utf-8"))
    ]
    assert others == []
    walking = re.compile(r"os\.path\.join\([^)]*\"\.git\"\)")
    walkers = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if walking.search(path.read_text(encoding="utf-8"))
    ]
    # fs.trees finds the top (gitutil.find_toplevel and fs.access ask it): along the path
    # as written, so a link out of the tree, to another repository, does not make that
    # repository the tree; fs.walk and gitfiles read a `.git` file (gitfiles to find the
    # files git opens for a command, such as info/exclude); find_config
    # (config/packs) stops its search for a config file at a .git
    assert sorted(walkers) == [
        "config/packs.py",
        "fs/trees.py",
        "fs/walk.py",
        "gitfiles.py",
    ]
