"""A FIFO where git reads its per-directory files (`.gitignore`, `.gitattributes`, in
the top or in any directory below it) would make every git call that opens it wait for
ever. Each command that runs git refuses first, in one line naming the file, exit 2:
no hang, no internal error, no traceback. git's own commands (`git merge`) are git's
business; the driver they start is never reached."""

from __future__ import annotations

import os

import pytest
from conftest import commit_all, git_init, run_script, write

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"
COMMANDS = [
    ("asimov-hooks", "trim", "."),
    ("asimov-validate", "."),
    ("asimov-validate", "--fix", "."),
    ("asimov-check-size", "."),
    ("asimov-hooks", "doctor"),
    ("asimov-hooks", "init", "--repo", "local"),
    ("asimov-hooks", "ephemeral"),
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> str:
    top = git_init(tmp_path_factory.mktemp("fifo") / "repo")
    write(top, CP, "milestone: m\nstatus: in_progress\ncompleted:\n  - a\n")
    write(top, "sub/notes.md", "notes\n")
    commit_all(top, "base")
    return top


@pytest.mark.parametrize("place", [".gitattributes", ".gitignore", "sub/.gitignore"])
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_fifo_where_git_reads_is_refused_in_one_line(repo: str, place: str, command) -> None:
    fifo = os.path.join(repo, place)
    os.mkfifo(fifo)
    try:
        run = run_script(*command, cwd=repo)
    finally:
        os.unlink(fifo)
    said = run.stdout + run.stderr
    if command[1] == "init" and place != ".gitignore":
        # init opens neither file there and asks git for the index alone: it completes
        assert run.returncode == 0, said
        return
    assert run.returncode == 2, said
    assert "Traceback" not in said and "internal error" not in said, said
    refusal = [line for line in run.stderr.splitlines() if place in line]
    # git's refusal, or (init reads .gitignore itself) the reader's
    assert refusal and (
        "is a FIFO: git would wait on it for ever" in refusal[0]
        or "not a regular file" in refusal[0]
    ), said


def test_listing_the_index_alone_looks_at_no_directory(repo: str) -> None:
    # `git ls-files` without --others/--ignored opens no .gitignore: a one-file hook must
    # not walk the whole work tree before it (nor be refused for a FIFO it never meets)
    from asimov_hooks.gitutil import GitError, git

    fifo = os.path.join(repo, "sub", ".gitignore")
    os.mkfifo(fifo)
    try:
        listed = git("ls-files", "-z", "--cached", "--", CP, cwd=repo).stdout
        assert listed == CP + "\0"
        with pytest.raises(GitError, match="is a FIFO"):
            git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=repo)
    finally:
        os.unlink(fifo)
