"""Conflict markers in the Markdown instruction files (CLAUDE.md, AGENTS.md, ...): a
merge that left them is caught; a heading underlined with `=======` is not a marker."""

from __future__ import annotations

import pytest
from conftest import commit_all, git, git_init, run_script, write

BY_HAND = "resolve the conflict by hand"


def validate(cwd, *args: str):
    return run_script("asimov-validate", *args, cwd=cwd)


@pytest.mark.parametrize("name", ["CLAUDE.md", "AGENTS.md", ".github/copilot-instructions.md"])
def test_a_merge_that_left_markers_in_an_instruction_file_fails(tmp_path, name: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, name, "# Rules\n\nUse tabs.\n")
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, name, "# Rules\n\nUse spaces.\n")
    commit_all(repo, "spaces")
    git(repo, "checkout", "-q", "main")
    write(repo, name, "# Rules\n\nUse two spaces.\n")
    commit_all(repo, "two spaces")
    assert git(repo, "merge", "feature", check=False).returncode == 1
    commit_all(repo, "merged, markers and all")  # what a hurried merge commits
    run = validate(repo, "--select", "conflict-markers", name)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{name}:3:1: error conflict-markers unresolved merge conflict markers" in run.stdout
    assert BY_HAND in run.stdout  # the merge driver does not merge instruction files
    # and the whole check, as the asimov-validate hook runs it
    assert validate(repo, name).returncode == 1


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Title\n=======\n\nSome text.\n", None),  # a setext heading
        ("Title\r\n=======\r\n", None),
        ("Title\n=======\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> theirs\n", 3),
        ("text\n>>>>>>> theirs\n", 1 + 1),  # a closing marker left over
        ("<<<<<<<\na\n=======\nb\n>>>>>>>\n", 1),  # markers without labels
        ("<<<<<<< ours\na\n||||||| base\nc\n=======\nb\n>>>>>>> theirs\n", 1),  # diff3
        ("Use `<<<<<<<` markers\n  <<<<<<< indented is not one\n", None),
    ],
)
def test_markdown_markers(text: str, line: int | None) -> None:
    from asimov_hooks.conflict_markers import find_conflict_marker

    assert find_conflict_marker(text, markdown=True) == line


def test_a_setext_heading_passes(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, "AGENTS.md", "Project rules\n=============\n\nRun the tests.\n")
    write(tmp_path, "CLAUDE.md", "Rules\n=======\nRead warmup.yaml.\n")
    run = validate(tmp_path, "AGENTS.md", "CLAUDE.md")
    assert run.returncode == 0, run.stdout


@pytest.mark.parametrize(
    ("name", "text", "by_hand"),
    [
        (
            "warmup.yaml",
            "identity:\n<<<<<<< ours\n  project: a\n=======\n  project: b\n>>>>>>> theirs\n",
            True,
        ),
        (
            ".claude_checkpoint.yaml",
            "milestone: m\n<<<<<<< ours\nstatus: done\n=======\nstatus: blocked\n>>>>>>> theirs\n",
            False,
        ),
    ],
)
def test_the_suggestion_names_the_merge_driver_only_for_what_it_merges(
    tmp_path, name: str, text: str, by_hand: bool
) -> None:
    git_init(tmp_path)
    write(tmp_path, name, text)
    run = validate(tmp_path, name)
    assert run.returncode == 1
    assert "conflict-markers" in run.stdout
    assert (BY_HAND in run.stdout) is by_hand, run.stdout
    assert ("merge driver" in run.stdout) is not by_hand, run.stdout
