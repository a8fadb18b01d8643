"""A nested work tree's top is opened by descriptor from the repository's top, like
every other directory: a process that swaps `sub/` (a folder holding its own `.git`)
for a link out, between the moment its tree is found and the moment it is opened,
gets nothing read from outside and nothing written there.

A racer process swaps the folder for a link to a directory beside the repository and
back, as fast as it can, while this process reads and writes through `fs.access`
without naming a root (the tree is found from the path, the nested one first).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from conftest import git_init, write

CP = ".claude_checkpoint.yaml"
SECRET = "TOKEN-outside-do-not-leak"
ROUNDS = 3000

RACER = """
import os, sys, time
sub, target, stop = sys.argv[1:4]
end = time.monotonic() + 120
swaps = 0
while not (swaps % 64 == 0 and os.path.exists(stop)) and time.monotonic() < end:
    try:
        os.rename(sub, sub + ".hold")
        os.symlink(target, sub)
    except OSError:
        pass
    try:
        if os.path.islink(sub):
            os.unlink(sub)
        os.rename(sub + ".hold", sub)
    except OSError:
        pass
    swaps += 1
print(swaps)
"""


def test_a_swapped_nested_top_gives_nothing_from_outside() -> None:
    from asimov_hooks.fs import access

    base = tempfile.mkdtemp(prefix="asimov-nested-race-")
    try:
        repo = git_init(os.path.join(base, "repo"))
        sub = git_init(os.path.join(repo, "sub"))  # a nested work tree: its own .git
        write(sub, CP, "milestone: m\nstatus: in_progress\n")
        outside = os.path.join(base, "outside")
        write(outside, CP, f"milestone: {SECRET}\n")
        os.makedirs(os.path.join(outside, ".git"))  # a tree too, should the walk ask
        before = sorted(os.listdir(outside))
        stop = os.path.join(base, "stop")
        racer = subprocess.Popen(
            [sys.executable, "-c", RACER, sub, outside, stop], stdout=subprocess.PIPE, text=True
        )
        got: list[str] = []
        try:
            path = os.path.join(sub, CP)
            for i in range(ROUNDS):
                with contextlib.suppress(access.FileProblem, OSError):
                    if SECRET.encode() in access.read_bytes(path, 1 << 16):
                        got.append(f"read_bytes {i}")
                with contextlib.suppress(access.FileProblem, OSError):
                    if SECRET.encode() in access.read_head(path, 1 << 16)[0]:
                        got.append(f"read_head {i}")
                if i % 10 == 0:
                    with contextlib.suppress(access.FileProblem, OSError):
                        access.atomic_write(path, b"milestone: m\nstatus: done\n")
        finally:
            with open(stop, "w", encoding="utf-8"):
                pass
            out, _ = racer.communicate(timeout=150)
        assert int(out.strip() or 0) > 0, "the racer never swapped anything"
        assert not got, ("read from outside", len(got), got[:5])
        with open(os.path.join(outside, CP), encoding="utf-8") as fh:
            assert SECRET in fh.read(), "written outside"
        assert sorted(os.listdir(outside)) == before, "something appeared outside"
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("when", ["tree-found", "tree-resolved"])
def test_the_swap_at_the_worst_moment(tmp_path, monkeypatch, when: str) -> None:
    """The racer's best moments, made certain: `sub/` becomes a link out right after
    its tree was found (before its top is opened), or while the tree is being found
    (after the check for links on the way, before the nested top is resolved)."""
    from asimov_hooks.fs import access, trees, walk

    repo = git_init(tmp_path / "repo")
    sub = git_init(os.path.join(repo, "sub"))
    write(sub, CP, "milestone: m\nstatus: in_progress\n")
    outside = str(tmp_path / "outside")
    write(outside, CP, f"milestone: {SECRET}\n")
    swapped: list[bool] = []

    def swap() -> None:
        if not swapped:
            swapped.append(True)
            os.rename(sub, sub + ".hold")
            os.symlink(outside, sub)

    if when == "tree-found":
        found = walk.tree_of

        def tree_of(directory: str):
            top = found(directory)
            swap()
            return top

        monkeypatch.setattr(walk, "tree_of", tree_of)
    else:
        asked = trees._asked

        def _asked(question: str, path: str):
            if question == "real":
                swap()
            return asked(question, path)

        monkeypatch.setattr(trees, "_asked", _asked)
    with pytest.raises(access.FileProblem):
        access.read_bytes(os.path.join(sub, CP), 1 << 16)
    assert swapped
    os.unlink(sub)
    os.rename(sub + ".hold", sub)
    swapped.clear()
    with contextlib.suppress(access.FileProblem):
        access.atomic_write(os.path.join(sub, CP), b"milestone: m\nstatus: done\n")
    assert swapped
    with open(os.path.join(outside, CP), encoding="utf-8") as fh:
        assert SECRET in fh.read(), "written outside"
