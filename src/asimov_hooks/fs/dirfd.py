"""Work done relative to a directory descriptor: the descriptors one run keeps open
(`KeptDirs`, so that a folder many files share is opened once), and reading and
replacing a file by its name in a directory already opened (`read_at`, `write_at`).
The walk that opens the directories is `fs.walk`.
"""

from __future__ import annotations

import os

MAX_KEPT_DIRS = 64  # directory descriptors one run keeps open at once
# a kept directory: the top of its work tree, the real names below it, whether the walk
# that opened it may enter `.git`
Kept = tuple[str, tuple[str, ...], bool]


class KeptDirs:
    """Directory descriptors a run's walks opened, by (top, real names below it, whether
    the walk may enter `.git`), most recently used last; `busy` counts the walks whose
    `dir_fd` a descriptor is (never closed under them)."""

    def __init__(self) -> None:
        self.fds: dict[Kept, int] = {}
        self.kept: set[int] = set()
        self.busy: dict[int, int] = {}
        # a folder as written (cwd, name) -> the keys from its tree's top down to it
        # (`fs.trees.plain_folder`), None when it is not plainly below a top
        self.folders: dict[tuple[str, str], tuple[Kept, ...] | None] = {}

    def get(self, key: Kept) -> int | None:
        fd = self.fds.pop(key, None)
        if fd is not None:
            self.fds[key] = fd  # most recently used last
        return fd

    def keep(self, key: Kept, fd: int, spare: set[int]) -> bool:
        """Keep `fd` as `key`'s descriptor; False when it is not kept (the caller closes
        it). The least recently used descriptor no walk is using gives way."""
        if key in self.fds:
            return self.fds[key] == fd
        if len(self.fds) >= MAX_KEPT_DIRS:
            for old, old_fd in self.fds.items():
                if old_fd not in spare and not self.busy.get(old_fd):
                    del self.fds[old]
                    self.kept.discard(old_fd)
                    os.close(old_fd)
                    break
            else:
                return False
        self.fds[key] = fd
        self.kept.add(fd)
        return True

    def close(self) -> None:
        for fd in self.fds.values():
            os.close(fd)
        self.fds.clear()
        self.kept.clear()


# one KeptDirs per `fs.walk.remembered_trees()` block, innermost last
DIRS: list[KeptDirs] = []


_READ = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def read_at(dir_fd: int, name: str) -> bytes | None:
    """The bytes at `name` in `dir_fd` now (None: nothing there), the name unfollowed."""
    try:
        fd = os.open(name, _READ, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def write_at(
    dir_fd: int, name: str, data: bytes, mode: int | None, expect: object = ...
) -> str | None:
    """Replace `name` in the directory `dir_fd` by a temporary file made there (O_EXCL,
    unfollowed) and renamed relative to the same descriptor. Returns None when written,
    "not-regular" when something other than a regular file is there (left alone), or
    "changed" when `expect` (bytes, or None for no file) is given and the file no longer
    holds it as the new one goes in (`fs.swap`). The temporary file takes the target's
    permission bits (or `mode`, or the umask's default) before it becomes visible."""
    import stat

    from .stale import clean_stale_temps, temp_name

    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        return "not-regular"
    if st is not None and mode is None:
        mode = stat.S_IMODE(st.st_mode)
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    clean_stale_temps(dir_fd, name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    while True:
        tmp = temp_name(name)
        try:
            fd = os.open(tmp, flags | getattr(os, "O_CLOEXEC", 0), 0o600, dir_fd=dir_fd)
            break
        except FileExistsError:
            continue
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
        if expect is ...:
            os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:  # noqa: SIM105 (contextlib would cost every hook its import)
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        raise
    if expect is not ...:  # only if the file still holds it as ours goes in (fs.swap)
        from .swap import replace_expecting

        if not replace_expecting(dir_fd, tmp, name, expect):  # type: ignore[arg-type]
            return "changed"
    return None
