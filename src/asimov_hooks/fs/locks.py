"""Advisory locks for a read-modify-write of repository files (`fs.access.locked`)."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Iterable


class locked:
    """Exclusive advisory locks (`flock`) for a read-modify-write of `paths`.

    The lock is taken on the directory that holds each target, in one sorted order so
    two runs never deadlock: a directory rather than a lock file leaves nothing behind
    in the work tree, and the atomic rename does not change which object is locked.
    A directory not created yet is stood for by its nearest existing parent; should it
    appear while we wait, the locks are taken again, so two writers of one new file
    always meet on the same directory. Re-read the file under the lock, then write.
    Where the file system has no locks the run goes on unlocked.
    """

    def __init__(self, *paths: str | Iterable[str]) -> None:
        self.paths: list[str] = []
        for item in paths:
            self.paths.extend([item] if isinstance(item, str) else item)
        self.dirs = self._dirs()
        self.fds: list[int] = []

    def _dirs(self) -> list[str]:
        dirs = set()
        for path in self.paths:
            directory = os.path.dirname(os.path.realpath(path))
            while directory and not os.path.isdir(directory):  # not created yet
                parent = os.path.dirname(directory)
                if parent == directory:
                    break
                directory = parent
            dirs.add(directory)
        return sorted(dirs)

    def __enter__(self) -> locked:
        import contextlib

        try:
            import fcntl
        except ImportError:  # Windows: no flock
            return self
        while True:
            for directory in self.dirs:
                try:
                    fd = os.open(directory, os.O_RDONLY)
                except OSError:
                    continue
                self.fds.append(fd)
                with contextlib.suppress(OSError):  # no locks on this file system
                    fcntl.flock(fd, fcntl.LOCK_EX)
            now = self._dirs()
            if now == self.dirs:
                return self
            self.__exit__()  # a directory appeared while we waited: lock it instead
            self.dirs = now

    def __exit__(self, *exc: object) -> None:
        for fd in reversed(self.fds):
            os.close(fd)  # closing the descriptor releases its lock
        self.fds.clear()
