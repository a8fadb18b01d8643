"""Append-only record files: the agent's own turn records (`agent.runtime.turnlog`),
beside its state database, never a file of the checkout.

A writer appends one record in one `write` (O_APPEND: records of writers running at
the same time never overlap) under a shared lock; the one reader that folds them into
the database takes the exclusive lock, reads every record and empties the file, so a
record is never appended between the read and the emptying, and none is read twice.
Only a regular file is appended to or read (O_NOFOLLOW: a link in the file's place is
refused, O_NONBLOCK: a FIFO never blocks), and a read is bounded.

Importing this module costs `os` and `stat` only: a checkpoint write appends here
(fcntl on first use).
"""

from __future__ import annotations

import os
import stat

MAX_BYTES = 4 * 1024 * 1024  # far more than the records of any one turn
_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def _lock(fd: int, exclusive: bool) -> None:
    try:
        import fcntl
    except ImportError:  # Windows: no flock
        return
    try:  # noqa: SIM105 (contextlib would cost every checkpoint write its import)
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
    except OSError:  # no locks on this file system
        pass


def _regular(fd: int, path: str) -> None:
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        raise OSError(f"{path} is not a regular file")


def append(path: str, record: bytes, mode: int = 0o600, rotate_at: int = 0) -> None:
    """Append `record` (one line, ending in a newline) to the file, created with its
    directory if missing (OSError when it cannot be). With `rotate_at`, a file that
    the record takes past that many bytes becomes `PATH.1` (replacing the one before),
    so the record keeps two generations at most and never grows without bound."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _FLAGS
    try:
        fd = os.open(path, flags, mode)
    except FileNotFoundError:  # the first record: the directory is made once
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, flags, mode)
    try:
        _regular(fd, path)
        _lock(fd, exclusive=False)
        view = memoryview(record)
        while view:  # a regular file takes it in one write; a short one goes on
            view = view[os.write(fd, view) :]
        if rotate_at and os.fstat(fd).st_size > rotate_at:
            _rotate(fd, path)
    finally:
        os.close(fd)  # closing releases the lock


def _rotate(fd: int, path: str) -> None:
    """`path` -> `path.1`, under the exclusive lock, unless another writer did it first."""
    _lock(fd, exclusive=True)
    try:
        current = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return
    mine = os.fstat(fd)
    if (current.st_dev, current.st_ino) == (mine.st_dev, mine.st_ino):
        os.replace(path, path + ".1")


def read(path: str) -> list[bytes]:
    """The complete records of the file and of its previous generation (`PATH.1`),
    oldest first, read under the shared lock and left in place; none for a missing
    file or one past MAX_BYTES."""
    records: list[bytes] = []
    for name in (path + ".1", path):
        try:
            fd = os.open(name, os.O_RDONLY | _FLAGS)
        except FileNotFoundError:
            continue
        try:
            _regular(fd, name)
            _lock(fd, exclusive=False)
            size = os.fstat(fd).st_size
            if size > MAX_BYTES:
                continue
            data = b""
            while len(data) < size:
                chunk = os.read(fd, size - len(data))
                if not chunk:
                    break
                data += chunk
        finally:
            os.close(fd)
        records += data.split(b"\n")[:-1]  # a record cut short has no newline: dropped
    return records


def clear(path: str) -> int:
    """Remove the file and its previous generation; how many records they held."""
    count = len(read(path))
    for name in (path + ".1", path):
        try:  # noqa: SIM105 (contextlib would cost every checkpoint write its import)
            os.unlink(name)
        except FileNotFoundError:
            pass
    return count


class drained:
    """`with drained(path) as records:` the file's complete records (lines without their
    newline; none when there is no file), read under the exclusive lock, which is held
    until the block ends; the file is emptied when the block ends without an exception.
    A file past MAX_BYTES yields nothing and is emptied (it is not ours to read)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.fd: int | None = None

    def __enter__(self) -> list[bytes]:
        try:
            self.fd = os.open(self.path, os.O_RDWR | _FLAGS)
        except FileNotFoundError:
            return []
        try:
            _regular(self.fd, self.path)
            _lock(self.fd, exclusive=True)
            size = os.fstat(self.fd).st_size
            if size > MAX_BYTES:
                return []
            chunks = []
            while size > 0:
                chunk = os.read(self.fd, size)
                if not chunk:
                    break
                chunks.append(chunk)
                size -= len(chunk)
        except BaseException:
            self._close()
            raise
        # a record cut short (a writer killed half-way) has no newline: it is dropped
        return b"".join(chunks).split(b"\n")[:-1]

    def __exit__(self, kind: object, *rest: object) -> None:
        try:
            if kind is None and self.fd is not None:
                os.ftruncate(self.fd, 0)
        finally:
            self._close()

    def _close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
