"""Walking a path inside a work tree with directory descriptors.

`fs.access` never opens a repository file by its full name: a name is resolved by the
kernel each time it is used, so a path that was checked and then opened (or renamed) can
be a different file by then, if another process swaps one of its directories for a
symbolic link in between. Instead `walk` opens the work tree's top once and then each
directory below it with `openat(O_NOFOLLOW | O_DIRECTORY)`, one component at a time; the
caller opens, creates, renames or removes the last component relative to the descriptor
of the directory that holds it. A component that is a symbolic link is followed by this
code, not by the kernel: its target is read (`readlinkat`) and walked in turn, and only
while it stays inside the top (at most `MAX_HOPS` links per path). `.git` (in any case:
`.GIT` is the same directory on a case-insensitive file system) is never entered.

Which work tree holds a path is answered by `fs.trees.tree_of` (re-exported here).
"""

from __future__ import annotations

import errno
import os

from .dirfd import DIRS, Kept, KeptDirs
from .trees import absolute, plain_folder
from .trees import inside as _inside
from .trees import is_git_name as is_git_name
from .trees import remembered_trees as remembered_trees  # where they were first
from .trees import tree_of as tree_of

MAX_HOPS = 40  # as the kernel's own bound on links in one path
_DIR_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_TOP_FLAGS = _DIR_FLAGS & ~getattr(os, "O_NOFOLLOW", 0)  # the outermost top: the user's path
_NOT_FOLLOWED = {errno.ELOOP, errno.ENOTDIR, getattr(errno, "EMLINK", errno.ELOOP)}


class Outside(Exception):
    """The path (or a link on it) leads out of the top, or into `.git`."""

    def __init__(self, why: str, hops: int = 0) -> None:
        super().__init__(why)
        self.why = why  # "outside", "git", "hops"
        self.hops = hops  # links followed before it


def git_dirs(root: str) -> list[str]:
    dirs = [os.path.join(root, ".git")]
    dotgit = dirs[0]
    if os.path.isfile(dotgit):  # a linked worktree or submodule: `gitdir: …`
        try:
            with open(dotgit, "rb") as fh:
                first = fh.read(4096).split(b"\n", 1)[0].decode("utf-8", "replace").strip()
        except OSError:
            first = ""
        if first.startswith("gitdir:"):
            linked = os.path.realpath(os.path.join(root, first[len("gitdir:") :].strip()))
            dirs.append(linked)
            try:  # a linked worktree shares the main repository's objects and config
                with open(os.path.join(linked, "commondir"), "rb") as fh:
                    common = fh.read(4096).decode("utf-8", "replace").strip()
                dirs.append(os.path.realpath(os.path.join(linked, common)))
            except OSError:
                pass
    return dirs


def open_top(top: str) -> int:
    """A descriptor of the work tree's top `top` (a real path). A top nested in another
    work tree (a folder of the checkout holding its own `.git`) is opened from the
    outermost tree's top one `openat(O_NOFOLLOW)` at a time, as any folder of the
    checkout is: the checkout can swap it for a link between the moment its tree was
    found and this open. Only the outermost top, above which nothing is the checkout's,
    is opened by its name. Outside when a folder on the way is no longer a directory."""
    from .trees import _asked

    outer, here = None, os.path.dirname(top)
    while True:
        if _asked("git", here):
            outer = here
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    if outer is None:
        return os.open(top, _TOP_FLAGS)
    fd = os.open(outer, _TOP_FLAGS)
    try:
        for part in top[len(outer) :].split(os.sep):
            if not part:
                continue
            try:
                down = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in _NOT_FOLLOWED:
                    raise Outside("outside", 1) from None
                raise
            os.close(fd)
            fd = down
    except BaseException:
        os.close(fd)
        raise
    return fd


def relative_parts(path: str, top: str) -> list[str] | None:
    """`path`'s components below `top` (a real path): from the path as written when it
    is written below the top, else from the nearest directory on it that is the top
    (a link above the tree is the user's own); None when no part of it is the top."""
    full = absolute(path)
    if _inside(full, top):
        rest = full[len(top) :]
        return [p for p in rest.split(os.sep) if p]
    tail: list[str] = []
    here = full
    while True:
        if os.path.realpath(here) == top:
            return list(reversed(tail))
        parent = os.path.dirname(here)
        if parent == here:
            return None
        tail.append(os.path.basename(here))
        here = parent


class Walk:
    """The directory holding a path's last component, opened by descriptor from the top.

    `dir_fd` is the directory, `name` the last component (never a link when `follow`),
    `parts` the real components from the top down to it, and `missing` whether a
    directory on the way does not exist (then `dir_fd` is None). Use as a context
    manager: the descriptor is closed on exit."""

    def __init__(
        self,
        top: str,
        parts: list[str],
        *,
        follow: bool = True,
        create: bool = False,
        git_ok: bool = False,
    ) -> None:
        self.top = top
        self.dir_fd: int | None = None
        self.name = ""
        self.parts: list[str] = []
        self.missing = False
        self.hops = 0  # links followed
        self.blocked = False  # missing because a file stands where a directory goes
        self._dirs: KeptDirs | None = None  # the run's kept descriptors, when dir_fd is one
        self._walk(list(parts), follow, create, git_ok)

    @property
    def real(self) -> str:
        return (
            os.path.join(self.top, *self.parts, self.name)
            if self.name
            else os.path.join(self.top, *self.parts)
        )

    def _walk(self, pending: list[str], follow: bool, create: bool, git_ok: bool) -> None:
        dirs = DIRS[-1] if DIRS and not create else None
        names: list[str] = []
        stack = self._kept(dirs, pending, names, git_ok) if dirs is not None else []
        if not stack:
            try:
                stack = [open_top(self.top)]
            except FileNotFoundError:  # a top the caller chose that is not there yet
                if not create:
                    self.missing, self.parts = True, [p for p in pending if p not in ("", ".")]
                    self.name = self.parts.pop() if self.parts else ""
                    return
                os.makedirs(self.top, exist_ok=True)
                stack = [open_top(self.top)]
        kept = dirs.kept if dirs is not None else ()

        def close(fd: int) -> None:
            if fd not in kept:  # a kept descriptor is the run's, closed when it ends
                os.close(fd)

        hops = 0
        pending.reverse()  # a stack: the next component last
        try:
            while pending:
                part = pending.pop()
                if part in ("", "."):
                    continue
                if part == "..":
                    if not names:
                        raise Outside("outside", hops)
                    names.pop()
                    if len(stack) > len(names) + 1:
                        close(stack.pop())
                    continue
                if not git_ok and is_git_name(part):
                    raise Outside("git")
                last = not pending
                if len(stack) <= len(names):  # below a directory that does not exist
                    if last:
                        self.name = part
                        break
                    names.append(part)
                    continue
                fd = -2 if last else self._open_dir(stack[-1], part, create)
                target = None
                if fd == -2 and (follow or not last):
                    target = self._link(stack[-1], part)
                    if target is None and not last:  # a link swapped back meanwhile?
                        fd = self._open_dir(stack[-1], part, create)
                        target = self._link(stack[-1], part) if fd == -2 else None
                    if target is None and fd == -2 and not last:  # a file, not a directory
                        if create:
                            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), part)
                        fd, self.blocked = -1, True
                if target is not None:
                    hops = self.hops = hops + 1
                    if hops > MAX_HOPS:
                        raise Outside("hops")
                    if os.path.isabs(target):
                        if not _inside(target, self.top):
                            raise Outside("outside", hops)
                        while len(stack) > 1:
                            close(stack.pop())
                        names.clear()
                        target = target[len(self.top) :]
                    pending.extend(reversed(target.split(os.sep)))
                    continue
                if last:
                    self.name = part
                    break
                if fd == -1:
                    self.missing = True
                else:
                    stack.append(fd)
                names.append(part)
            self.parts = names
            if self.missing:
                for fd in stack:
                    close(fd)
                stack.clear()
            elif dirs is not None:  # every directory on the way kept for the run's next walks
                spare = set(stack)
                for depth, fd in enumerate(stack):
                    if fd in kept:  # opened by an earlier walk: kept already
                        continue
                    key = (self.top, tuple(names[:depth]), git_ok)
                    if not dirs.keep(key, fd, spare) and fd != stack[-1]:
                        close(fd)
                self.dir_fd = stack.pop()
                if self.dir_fd in dirs.kept:
                    dirs.busy[self.dir_fd] = dirs.busy.get(self.dir_fd, 0) + 1
                    self._dirs = dirs
                stack.clear()
            else:
                while len(stack) > 1:
                    close(stack.pop(0))
                self.dir_fd = stack.pop()
        except BaseException:
            for fd in stack:
                close(fd)
            raise

    def _kept(
        self, dirs: KeptDirs, pending: list[str], names: list[str], git_ok: bool
    ) -> list[int]:
        """The descriptors the run keeps for the top and the longest run of plain
        directory names `pending` starts with (taken off `pending`, put in `names`);
        empty when the top is not kept."""
        top = dirs.get((self.top, (), git_ok))
        if top is None:
            return []
        stack = [top]
        for part in pending[:-1]:  # the last component is never opened as a directory
            if part in ("", ".", "..") or (not git_ok and is_git_name(part)):
                break
            fd = dirs.get((self.top, (*names, part), git_ok))
            if fd is None:
                break
            names.append(part)
            stack.append(fd)
        del pending[: len(names)]
        return stack

    @staticmethod
    def _link(dir_fd: int, name: str) -> str | None:
        """The target of `name` when it is a symbolic link, else None."""
        try:
            return os.readlink(name, dir_fd=dir_fd)
        except OSError:  # not a link (EINVAL), missing, or not readable
            return None

    @staticmethod
    def _open_dir(dir_fd: int, name: str, create: bool) -> int:
        """A descriptor of the directory `name`; -1 when it does not exist (and is not
        to be created), -2 when it is not a directory as it stands (a link: followed by
        the caller, or a file)."""
        for attempt in (0, 1):
            try:
                return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
            except FileNotFoundError:
                if not create or attempt:
                    return -1
            except OSError as exc:
                if exc.errno in _NOT_FOLLOWED:
                    return -2
                raise
            try:  # noqa: SIM105 (contextlib would cost every hook its import)
                os.mkdir(name, 0o777, dir_fd=dir_fd)
            except FileExistsError:  # made by another writer meanwhile
                pass
        return -1

    def __enter__(self) -> Walk:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.dir_fd is not None:
            if self._dirs is not None:  # the run's: closed when the run ends
                self._dirs.busy[self.dir_fd] -= 1
            else:
                os.close(self.dir_fd)
            self.dir_fd = None


def plain(path: str, *, follow: bool = True) -> Walk:
    """The directory of a file outside any work tree, opened as it resolves (the path is
    the user's own), and the file's name in it."""
    full = os.path.realpath(path) if follow else os.path.abspath(path)
    directory = os.path.realpath(os.path.dirname(full))
    return Walk(directory, [os.path.basename(full)], follow=False, git_ok=True)


_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def open_kept(path: str) -> int | None:
    """Inside `remembered_trees()`: `path` opened for reading (non-blocking, the last
    component not followed) from its folder's descriptor, the folder reached from the
    run's kept descriptors by `openat(O_NOFOLLOW | O_DIRECTORY)` of each plain name not
    kept yet. That is what `Walk` does for a path with no link on it, without its general
    machinery, so a batch pays one directory open and one file open per file (a folder's
    descriptor is kept from its second file on, its parents' from the first). None when
    anything on the way is not plain (a link, `..`, `.git`, a missing or unreadable
    component, a path outside every work tree): the caller then takes the full walk,
    which follows what may be followed and says what is refused. Where the run starts
    from: `fs.trees.plain_folder`."""
    if not DIRS or os.sep != "/":
        return None
    folder, _, name = path.rpartition("/")
    if name in ("", ".", "..") or (name[:1] == "." and is_git_name(name)):
        return None
    try:
        cwd = "" if path[:1] == "/" else os.getcwd()  # asked each time: the cwd may change
    except OSError:
        return None
    dirs = DIRS[-1]
    keys = dirs.folders.get((cwd, folder), ())  # () for a folder not met yet
    seen = keys != ()  # a folder whose second file this is at least: kept
    if not seen:
        keys = plain_folder(dirs, cwd, folder)
    if not keys:
        return None
    fresh: list[tuple[Kept, int]] = []
    try:
        fd = dirs.get(keys[-1])
        if fd is None:  # the deepest directory on the way that is kept, else the top
            at = len(keys) - 1
            while at and fd is None:
                at -= 1
                fd = dirs.get(keys[at])
            if fd is None:
                fd = open_top(keys[0][0])
                fresh.append((keys[0], fd))
            for key in keys[at + 1 :]:
                fd = os.open(key[1][-1], _DIR_FLAGS, dir_fd=fd)
                fresh.append((key, fd))
        opened = os.open(name, _READ_FLAGS, dir_fd=fd)
    except (OSError, ValueError, Outside):  # the full walk says what it is
        for _, fd in fresh:
            os.close(fd)
        return None
    if fresh and not seen:  # one file per folder is the common batch: not kept yet
        os.close(fresh.pop()[1])
    spare = {fd for _, fd in fresh}
    for key, fd in fresh:  # kept for the run's next files, as `Walk` keeps them
        if not dirs.keep(key, fd, spare):
            os.close(fd)
    return opened
