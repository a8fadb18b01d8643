"""Advisory locks for a read-modify-write of repository files (`fs.access.locked`)."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Iterable
    from typing import Any


class locked:
    """Exclusive advisory locks (`flock`) for a read-modify-write of `paths`.

    The lock is taken on the directory that holds each target, in one sorted order so
    two runs never deadlock: a directory rather than a lock file leaves nothing behind
    in the work tree, and the atomic rename does not change which object is locked.
    A directory not created yet is stood for by its nearest existing parent; should it
    appear while we wait, the locks are taken again, so two writers of one new file
    always meet on the same directory. Re-read the file under the lock, then write.
    Where the file system has no locks the run goes on unlocked.

    A process that keeps swapping a directory on the way for a link (and back) cannot
    hold a run here: the directories are looked up again at most `ROUNDS` times, then
    the last ones locked are kept (the write itself is walked by descriptor and never
    leaves the tree). Nothing locked is left held when taking the locks fails.
    """

    ROUNDS = 8

    def __init__(self, *paths: str | Iterable[str]) -> None:
        self.paths: list[str] = []
        for item in paths:
            self.paths.extend([item] if isinstance(item, str) else item)
        self.dirs = self._dirs()
        self.fds: list[int] = []

    def _dirs(self) -> list[str]:
        dirs = set()
        for path in self.paths:
            directory = os.path.dirname(_resolved(path))
            while directory and not os.path.isdir(directory):  # not created yet
                parent = os.path.dirname(directory)
                if parent == directory:
                    break
                directory = parent
            dirs.add(directory)
        return sorted(dirs)

    def __enter__(self) -> locked:

        try:
            import fcntl
        except ImportError:  # Windows: no flock
            return self
        try:
            for _ in range(self.ROUNDS):
                self._lock(fcntl)
                now = self._dirs()
                if now == self.dirs:
                    break
                self.__exit__()  # a directory appeared while we waited: lock it instead
                self.dirs = now
            else:  # still changing: lock the last ones looked up, and go on
                self._lock(fcntl)
        except BaseException:
            self.__exit__()  # a lock left held would block this process's next run
            raise
        return self

    def _lock(self, fcntl: Any) -> None:
        """Lock each directory once, in the order of their inodes: two names of one
        directory (a link swapped in meanwhile) would otherwise make this process wait
        for itself, and two runs always take shared directories in the same order."""
        opened: dict[tuple[int, int], int] = {}
        for directory in self.dirs:
            try:
                fd = os.open(directory, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            except OSError:
                continue
            try:
                st = os.fstat(fd)
            except OSError:
                os.close(fd)
                continue
            if (st.st_dev, st.st_ino) in opened:
                os.close(fd)
            else:
                opened[(st.st_dev, st.st_ino)] = fd
        self.fds.extend(opened[key] for key in sorted(opened))
        for fd in self.fds:
            try:  # noqa: SIM105 (contextlib would cost every hook its import)
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:  # no locks on this file system
                pass

    def __exit__(self, *exc: object) -> None:
        for fd in reversed(self.fds):
            os.close(fd)  # closing the descriptor releases its lock
        self.fds.clear()


def _resolved(path: str) -> str:
    """`os.path.realpath(path)`, which raises when a link on the path is swapped for a
    directory while it is being read: then the path as written."""
    for _ in range(3):
        try:
            return os.path.realpath(path)
        except OSError:
            continue
    return os.path.abspath(path)
