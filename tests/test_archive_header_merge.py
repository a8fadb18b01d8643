"""The merge driver reads an archive's header (the comments before its first item) line
by line: a header of comment lines ending in `\r` before a line that is not a comment
made a repeated pattern try every way of reading each `\r`, twice the work for each
line (forty lines: days). Run as a process with a deadline, so that a return of the
square (or worse) fails the test instead of stopping the suite."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import git_init, run_with_deadline

pytestmark = pytest.mark.usefixtures("isolated_home")
ARCHIVE = ".claude_checkpoint.archive.yaml"


def _driver(top: str, base: str, ours: str, theirs: str) -> subprocess.CompletedProcess:
    paths = []
    for name, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        path = os.path.join(top, f"{name}.yaml")
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        paths.append(path)
    return run_with_deadline(
        [sys.executable, "-m", "asimov_hooks.merge.driver", "--", *paths, "7", ARCHIVE],
        top,
        60,
        "the merge driver did not finish reading an archive's header",
    )


@pytest.mark.parametrize(
    "header",
    ["#\r\n" * 40 + "note: x\r\n", "# a\r\n" * 40 + "\r\n" + "x\r\n", " #\r\n" * 40],
    ids=["a key after comments", "a word after comments", "comments only"],
)
def test_an_archive_header_of_many_comment_lines_merges(tmp_path, header: str) -> None:
    top = git_init(tmp_path / "repo")
    base = header + "- source: a\r\n  reason: r\r\n"
    ours = base + "- source: b\r\n  reason: r\r\n"
    theirs = base + "- source: c\r\n  reason: r\r\n"
    done = _driver(top, base, ours, theirs)
    assert "Traceback" not in done.stderr, done.stderr
    with open(os.path.join(top, "ours.yaml"), encoding="utf-8", newline="") as fh:
        merged = fh.read()
    if done.returncode == 0:  # merged: both sides' items kept, ours first
        assert merged.index("source: b") < merged.index("source: c"), merged
    else:  # left to git's line merge: conflict markers, nothing lost
        assert "source: b" in merged and "source: c" in merged, merged
