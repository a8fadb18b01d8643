"""`fs.access.locked` under a process that swaps directories for links: it never waits
for its own lock (two names of one directory), never keeps a lock when taking them
fails, and looks the directories up a bounded number of times however often they
change. Each check that could hang runs in a child process with a generous deadline."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import textwrap

import pytest

from asimov_hooks.fs import locks
from asimov_hooks.fs.access import locked

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


def free(directory: str) -> bool:
    """Whether another open of `directory` can take its lock now."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def test_two_names_of_one_directory_are_locked_once(tmp_path) -> None:
    """A link swapped in between looking a directory up and opening it gives two names
    for one directory: the run locked it twice and waited for itself forever."""
    (tmp_path / "a").mkdir()
    (tmp_path / "link").symlink_to("a")
    script = textwrap.dedent(
        f"""
        import os, sys
        sys.path.insert(0, {SRC!r})
        from asimov_hooks.fs import locks
        locks._resolved = os.path.abspath  # as if resolved before the swap
        with locks.locked({str(tmp_path / "a" / "f")!r}, {str(tmp_path / "link" / "g")!r}) as held:
            print(len(held.dirs), len(held.fds))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "1"]  # two names, one lock
    assert free(str(tmp_path / "a"))


def test_a_failure_while_locking_leaves_nothing_locked(tmp_path, monkeypatch) -> None:
    (tmp_path / "a").mkdir()
    calls = [0]
    real = locks.locked._dirs

    def dirs(self):
        calls[0] += 1
        if calls[0] == 2:  # after the directories were opened and locked
            raise OSError("swapped while being resolved")
        return real(self)

    monkeypatch.setattr(locks.locked, "_dirs", dirs)
    held = locked(str(tmp_path / "a" / "f"))
    with pytest.raises(OSError), held:
        pass
    assert held.fds == []
    assert free(str(tmp_path / "a"))


def test_directories_that_keep_changing_are_looked_up_a_bounded_number_of_times(
    tmp_path, monkeypatch
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    calls = [0]

    def dirs(self):
        calls[0] += 1
        return [str(tmp_path / ("a" if calls[0] % 2 else "b"))]

    monkeypatch.setattr(locks.locked, "_dirs", dirs)
    with locked(str(tmp_path / "a" / "f")) as held:
        assert len(held.fds) == 1
        assert not free(held.dirs[0])
    assert calls[0] == locks.locked.ROUNDS + 1  # the first look and one per round
    assert free(str(tmp_path / "a")) and free(str(tmp_path / "b"))


def test_a_path_resolved_while_a_link_is_swapped_back_does_not_raise(monkeypatch) -> None:
    def swapped(path: str) -> str:
        raise FileNotFoundError(2, "No such file or directory", path)

    monkeypatch.setattr(locks.os.path, "realpath", swapped)
    assert locks._resolved("/x/y/z") == "/x/y/z"
