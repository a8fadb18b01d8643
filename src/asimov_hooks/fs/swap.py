"""Replacing a file only if it still holds what was read: for a writer that does not
take our lock (an editor, another tool) editing the same file as a read-modify-write of
ours (`atomic_write(expect=...)`).

Checking the file and then renaming over it leaves a window in between, in which the
other writer's change is replaced and lost. On Linux the rename itself is the check:
`renameat2(RENAME_EXCHANGE)` swaps our new file and the current one in one step, so
the file taken out is exactly the one that was there when ours went in. If it is not
the file we looked at (its inode, size and modification time), it is swapped straight
back and ours removed: nothing is written and the caller reports the change (or reads
again). A file that must not exist yet is created
with `RENAME_NOREPLACE`, which fails if one appeared. Where renameat2 is missing (other
systems, old kernels, file systems without it) the file is compared right before a
plain rename, as before.

What is left: a program that reads the file in the microseconds between the exchange
and the swap back reads ours (and, if it then saves, saves on top of it); a writer that
changes the file in place through a descriptor it opened before the exchange, and
writes after our look at the old file, writes into the file we take out.
"""

from __future__ import annotations

import errno
import os

RENAME_NOREPLACE = 1
RENAME_EXCHANGE = 2
# renameat2's system call number where the C library has no wrapper (glibc < 2.28)
_SYSCALLS = {
    "x86_64": 316,
    "aarch64": 276,
    "riscv64": 276,
    "i386": 353,
    "i686": 353,
    "armv7l": 382,
    "ppc64le": 357,
    "s390x": 347,
}
_UNSUPPORTED = {errno.ENOSYS, errno.EINVAL, getattr(errno, "EOPNOTSUPP", errno.EINVAL)}
_CALL: list = []  # [the call] once looked up; [None] where there is none


def _renameat2():
    if not _CALL:
        _CALL.append(_find_renameat2())
    return _CALL[0]


def _find_renameat2():
    import sys

    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        import platform

        libc = ctypes.CDLL(None, use_errno=True)
        wrapper = getattr(libc, "renameat2", None)
        if wrapper is not None:
            wrapper.argtypes = [
                ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint
            ]  # fmt: skip
            wrapper.restype = ctypes.c_int
            call = wrapper
        else:
            number = _SYSCALLS.get(platform.machine())
            if number is None:
                return None
            syscall = libc.syscall
            syscall.restype = ctypes.c_long

            def call(src_fd: int, src: bytes, dst_fd: int, dst: bytes, flags: int) -> int:
                return syscall(
                    ctypes.c_long(number), ctypes.c_int(src_fd), ctypes.c_char_p(src),
                    ctypes.c_int(dst_fd), ctypes.c_char_p(dst), ctypes.c_uint(flags),
                )  # fmt: skip
    except (OSError, AttributeError, ImportError):
        return None

    def rename2(dir_fd: int, src: str, dst: str, flags: int) -> bool:
        if call(dir_fd, os.fsencode(src), dir_fd, os.fsencode(dst), flags) == 0:
            return True
        err = ctypes.get_errno()
        if err in _UNSUPPORTED:
            return False
        raise OSError(err, os.strerror(err), dst)

    return rename2


def rename2(dir_fd: int, src: str, dst: str, flags: int) -> bool:
    """`renameat2(dir_fd, src, dir_fd, dst, flags)`: True when done, False where the
    call or the flag is not supported here; OSError for any other failure."""
    call = _renameat2()
    return False if call is None else call(dir_fd, src, dst, flags)


def replace_expecting(dir_fd: int, tmp: str, name: str, expect: bytes | None) -> bool:
    """Put the file `tmp` in `name`'s place (both in `dir_fd`) only if `name` holds
    `expect` (None: nothing there) at that moment. True when done; False when it did
    not hold it: then `tmp` is removed and `name` is as the other writer left it.

    The file is looked at first (most changes are seen there, and nothing is swapped);
    then exchanged, and the file taken out compared with the one looked at by one
    `stat` (inode, size, modification time) before it is swapped back: what another
    program reads in between is ours for those microseconds only."""
    try:
        there, seen = _look(dir_fd, name)
        if there != expect:
            _drop(dir_fd, tmp)
            return False
        if expect is None:
            if rename2(dir_fd, tmp, name, RENAME_NOREPLACE):
                return True
            swapped = False
        else:
            swapped = rename2(dir_fd, tmp, name, RENAME_EXCHANGE)
        if not swapped:  # no renameat2 here: the look above was the check
            os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            return True
    except (FileExistsError, FileNotFoundError):  # one appeared, or the file went
        _drop(dir_fd, tmp)
        return False
    except BaseException:
        _drop(dir_fd, tmp)
        raise
    # exchanged: `tmp` now holds the file that was there, never to be removed unchecked
    try:
        st = os.stat(tmp, dir_fd=dir_fd, follow_symlinks=False)
        taken = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        taken = None
    if taken is not None and taken == seen:
        os.unlink(tmp, dir_fd=dir_fd)
        return True
    # theirs back in its place; should that fail, theirs stays beside it, never removed
    if not rename2(dir_fd, tmp, name, RENAME_EXCHANGE):
        raise OSError(errno.EAGAIN, "the file changed and could not be put back", name)
    os.unlink(tmp, dir_fd=dir_fd)
    return False


_NOT_A_FILE = object()  # something other than a regular file: never what was read


def _look(dir_fd: int, name: str) -> tuple[object, object]:
    """(the bytes at `name` now or None when nothing is there, (device, inode, size,
    modification time) of the file they were read from), the name not followed."""
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(name, flags | getattr(os, "O_CLOEXEC", 0), dir_fd=dir_fd)
    except FileNotFoundError:
        return None, None
    except OSError:  # a link (ELOOP), a FIFO without a writer: not the file we read
        return _NOT_A_FILE, None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return _NOT_A_FILE, None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    finally:
        os.close(fd)


def _drop(dir_fd: int, tmp: str) -> None:
    try:  # noqa: SIM105 (contextlib would cost every hook its import)
        os.unlink(tmp, dir_fd=dir_fd)
    except OSError:
        pass
