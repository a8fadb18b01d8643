"""The one way this package reads and writes a repository's files.

A checkout is untrusted, its symlinks and its committed config included: a cloned
repository must not make a hook read or write outside the work tree, or inside its
`.git/`, or block on a FIFO, or read a device without end. Every read and every write
of a repository file goes through here, so those refusals are made once:

- *where*: `confine` resolves a path and refuses one whose real path leaves the work
  tree or enters its git directory (`unsafe-path`);
- *what may be read*: `read_bytes` opens with O_NONBLOCK (a FIFO never blocks), insists
  on a regular file from the open descriptor, and bounds the size before and while reading;
- *how to write*: `atomic_write` confines the target, refuses to replace anything but a
  regular file, writes a temporary file beside the real target, keeps the permission
  bits, then renames (and removes what a killed earlier write left: `fs.stale`);
- *read-modify-write*: `locked` takes an exclusive advisory lock for the span from the
  read to the write, so concurrent writers never lose a reported change.

`tests/test_file_access_sites.py` fails if any other module opens, writes, renames or
removes a file itself (a short, reasoned list of the package's own files aside).

Importing this module costs `os` and `stat` only: it is on every hook's path.
"""

from __future__ import annotations

import errno
import os
import stat

from .locks import locked as locked  # the read-modify-write lock, as `access.locked`
from .shown import github_escape as github_escape  # the one escaping function (fs/shown)
from .shown import show as show

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from .walk import Walk

UNSAFE = "io-error"  # reported like any file that cannot be used; never suppressible
# A read with no cap of its own still stops here: no file we read is meant to be this big.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


class FileProblem(Exception):
    """A file cannot be used as input; carries the rule id that reports it."""

    def __init__(self, rule: str, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.line = line
        self.col = col


class UnsafePath(FileProblem):
    """A path the checkout may not make us touch (outside the work tree, inside .git/,
    not a regular file where one is written)."""

    def __init__(self, message: str) -> None:
        super().__init__(UNSAFE, message)


def work_tree_of(path: str) -> str | None:
    """The real path of the work tree holding `path`, or None outside one: the nearest
    directory upwards with a `.git`, looked for from the lexical parent, where a tree
    nested in another counts only when no link inside the outer one leads to it (a link
    to another repository is not a work tree: `fs.walk.tree_of`)."""
    from .walk import tree_of

    return tree_of(os.path.dirname(os.path.abspath(path)))


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _plain(path: str, *, follow: bool = True) -> Walk:
    """A file outside any work tree (nothing to hold it to): its directory by descriptor."""
    return (_WALK[0] if _WALK else _walk_module()).plain(path, follow=follow)


_WALK: list[Any] = []  # fs.walk, imported on the first walk (a hook that reads no file never)


def _walk_module() -> Any:
    from . import walk

    _WALK.append(walk)
    return walk


def _walk(
    path: str,
    root: str | None,
    *,
    what: str,
    git_internal: bool = False,
    follow: bool = True,
    create: bool = False,
) -> Walk | None:
    """`path` walked by descriptor from the top of its work tree (`fs.walk.Walk`), or,
    `git_internal`, from the git directory holding it; None outside any work tree.
    `create`: `path` is a directory, made (with its parents) where missing."""
    walk_module = _WALK[0] if _WALK else _walk_module()
    Outside, Walk, tree_of = walk_module.Outside, walk_module.Walk, walk_module.tree_of
    absolute = os.path.abspath(path)  # once: each use below would ask for the cwd again
    top = os.path.realpath(root) if root is not None else tree_of(os.path.dirname(absolute))
    if top is None:
        return None
    if git_internal:
        full = absolute
        if not follow:
            full = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
        real = os.path.realpath(full) if follow else full
        dirs = walk_module.git_dirs(top)
        bases = sorted((os.path.realpath(d) for d in dirs), key=len, reverse=True)
        for base in (b for b in bases if _inside(real, b)):
            try:
                below = real[len(base) :].split(os.sep) + (["."] if create else [])
                return Walk(base, below, follow=follow, create=create, git_ok=True)
            except Outside:
                break
        raise UnsafePath(f"{what} {show(path)} is not inside the repository's git directory")
    parts = walk_module.relative_parts(absolute, top)
    try:
        if parts is None:
            raise Outside("outside")
        walk = Walk(top, parts + (["."] if create else []), follow=follow, create=create)
    except Outside as exc:
        if exc.why == "git":
            reason = "leads into the repository's git directory"
        elif exc.why == "hops":
            reason = "goes through too many symbolic links"
        elif exc.hops:
            reason = "is a symbolic link that leads outside the repository"
        else:
            reason = "is a path that leads outside the repository"
        raise UnsafePath(f"{what} {show(path)} {reason}; refused") from None
    return walk


def confine(
    path: str, root: str | None = None, *, what: str = "path", git_internal: bool = False
) -> str:
    """The real path of `path`, refused (UnsafePath) when it leads outside `root` or into
    a `.git` directory (in any letter case). `root` defaults to the work tree holding
    `path`; outside any work tree there is nothing to hold it to and the path is returned
    resolved. `what` names the path in the message ("archive", "settings file"); the
    message never shows where an outside link leads.

    `git_internal`: a file of ours that lives in the git directory (the agent's state,
    an install record), at a path git itself gave: it must resolve inside a git directory
    of the work tree instead.

    A check only: what is then read or written goes through `read_bytes`/`atomic_write`,
    which walk the path again by descriptor (what was checked may have changed since)."""
    walk = _walk(path, root, what=what, git_internal=git_internal)
    if walk is None:
        return os.path.realpath(path)
    with walk:
        return walk.real


def confine_setting(value: str, root: str, *, what: str) -> str:
    """A path taken from a (committed, so untrusted) config value: relative to `root`,
    and held to it by `confine`. Absolute paths and `..` that leave the tree are refused."""
    joined = os.path.join(root, os.path.expanduser(value)) if not os.path.isabs(value) else value
    return confine(joined, root, what=what)


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def _open_read(path: str, root: str | None, confined: bool, git_internal: bool) -> int:
    """A descriptor of the file to read, opened (non-blocking) from the directory
    descriptor that the walk checked, the last component not followed."""
    kept = confined and root is None and not git_internal  # in a run: `fs.walk.open_kept`
    if kept and (fd := (_WALK[0] if _WALK else _walk_module()).open_kept(path)) is not None:
        return fd  # a plain path, opened from the run's kept descriptors
    walk = _walk(path, root, what="path", git_internal=git_internal) if confined else None
    try:
        if walk is None:
            return os.open(path, _READ_FLAGS | getattr(os, "O_CLOEXEC", 0))
        with walk:
            if walk.missing and walk.blocked:
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
            if walk.missing:
                raise FileNotFoundError
            if not walk.name:
                raise IsADirectoryError
            flags = _READ_FLAGS | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
            try:
                return os.open(walk.name, flags, dir_fd=walk.dir_fd)
            except OSError as exc:
                if exc.errno == getattr(errno, "ELOOP", -1):  # a link since the walk
                    raise FileProblem(
                        "io-error", "became a symbolic link while being read; not read"
                    ) from None
                if isinstance(exc, FileNotFoundError) and walk.hops:
                    raise FileProblem("io-error", "broken symbolic link") from None
                raise
    except FileNotFoundError:
        if os.path.islink(path) or (walk is not None and walk.hops):
            raise FileProblem("io-error", "broken symbolic link") from None
        raise FileProblem("io-error", "no such file") from None
    except IsADirectoryError:
        raise FileProblem("io-error", "is a directory, expected a file") from None
    except OSError as exc:
        raise FileProblem("io-error", f"cannot read: {exc.strerror}") from None


def read_bytes(
    path: str,
    max_bytes: int | None = None,
    *,
    root: str | None = None,
    confined: bool = True,
    bound: str = "limit",
    git_internal: bool = False,
) -> bytes:
    """The bytes of a regular file, at most `max_bytes` (FileProblem `max-bytes-hard`
    past it). Never blocks on a FIFO and never reads a device: the descriptor is opened
    non-blocking and checked to be a regular file before a byte is read. `bound` names
    what the cap is (a protocol's limit, or only a resource bound). `confined=False`
    only for a file that is not the checkout's (one git handed us, our own temp file);
    `git_internal` as for `confine`."""
    cap = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    fd = _open_read(path, root, confined, git_internal)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise FileProblem("io-error", "is a directory, expected a file")
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem("io-error", "not a regular file")
        if st.st_size > cap:
            raise FileProblem(
                "max-bytes-hard", f"{st.st_size:,} bytes, over the {cap:,}-byte {bound}; not parsed"
            )
        chunks, total, ask = [], 0, st.st_size + 1  # one read to its end, unless it grew
        while chunk := os.read(fd, want := min(ask, cap + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:
                raise FileProblem(
                    "max-bytes-hard", f"more than {cap:,} bytes (grew while read); not parsed"
                )
            if len(chunk) < want and total == st.st_size:  # its end, at the size it had
                break
            ask = 1 << 20
        return b"".join(chunks)
    except OSError as exc:
        raise FileProblem("io-error", f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)


def read_head(path: str, max_bytes: int, *, root: str | None = None) -> tuple[bytes, bool]:
    """The first `max_bytes` bytes of a regular file, and whether there is more: for
    showing the start of a file that may be of any size (what `read_bytes` refuses).
    Confined, non-blocking and regular files only, as `read_bytes`."""
    fd = _open_read(path, root, True, False)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileProblem("io-error", "not a regular file")
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        data = b"".join(chunks)
        return data[:max_bytes], len(data) > max_bytes
    except OSError as exc:
        raise FileProblem("io-error", f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)


def atomic_write(
    path: str,
    data: bytes,
    *,
    root: str | None = None,
    mode: int | None = None,
    git_internal: bool = False,
    expect: object = ...,
) -> str:
    """Replace the file's content in one rename; returns the real path written.

    `expect`: the content the file must still have (None: it must not exist) as the new
    one goes in, or `Changed` is raised and nothing is written: a read-modify-write
    under `locked` then reads again, so a writer that does not lock loses nothing. On
    Linux the check is part of the rename (`fs.swap`: renameat2's exchange, swapped
    back if the file taken out is not the one read); elsewhere it comes right before.

    The path is walked by descriptor from the top of the work tree, so a symlink can only
    lead to a file inside it (that file is written, never the link's outside target).
    Only a regular file (or nothing) is replaced: a device node or a FIFO stays as it
    is. The temporary file is created (O_EXCL) in the directory the walk opened, takes
    the target's permission bits (or `mode`, or the umask's default for a new file)
    before it becomes visible, and is renamed relative to that same descriptor; it goes
    on failure.
    """
    walk = _walk(path, root, what="target", git_internal=git_internal) or _plain(path)
    with walk:
        if walk.missing or walk.dir_fd is None:
            raise FileNotFoundError(errno.ENOENT, "no such directory", path)
        if not walk.name:
            raise UnsafePath(f"{show(path)} is not a regular file; not replaced")
        return _write_at(walk, path, data, mode, expect)


class Changed(FileProblem):
    """The file changed between the read and the write (`atomic_write(expect=...)`)."""

    def __init__(self, path: str) -> None:
        super().__init__(UNSAFE, f"{show(path)} changed while being edited; not written")


def _write_at(walk: Walk, path: str, data: bytes, mode: int | None, expect: object) -> str:
    from .dirfd import write_at

    try:
        refused = write_at(walk.dir_fd, walk.name, data, mode, expect)
    except OSError as exc:  # say which file, never our temporary name
        raise OSError(exc.errno, exc.strerror, path) from None
    if refused == "changed":
        raise Changed(path)
    if refused:
        raise UnsafePath(f"{show(path)} is not a regular file; not replaced")
    return walk.real


def make_dirs(path: str, root: str | None = None, *, git_internal: bool = False) -> str:
    """`os.makedirs` for a directory inside the work tree (or, `git_internal`, inside its
    git directory), one directory at a time from the top by descriptor; an existing
    component that is a link out of it is refused, never followed."""
    walk = _walk(path, root, what="directory", git_internal=git_internal, create=True)
    if walk is None:
        real = os.path.realpath(path)
        os.makedirs(real, exist_ok=True)
        return real
    with walk:
        return walk.real


def remove(path: str, root: str | None = None, *, git_internal: bool = False) -> None:
    """Remove a file of the work tree (never through a link out of it: a link inside
    is itself removed, not what it points at), relative to its directory's descriptor."""
    walk = _walk(path, root, what="file", git_internal=git_internal, follow=False)
    with walk or _plain(path, follow=False) as where:
        if where.missing or not where.name:
            raise FileNotFoundError(errno.ENOENT, "no such file", path)
        os.unlink(where.name, dir_fd=where.dir_fd)


def remove_dir(path: str, root: str | None = None) -> None:
    """Remove an empty directory of the work tree (OSError when it is not empty)."""
    walk = _walk(path, root, what="directory")
    with walk or _plain(path) as where:
        if where.missing or not where.name:
            raise FileNotFoundError(errno.ENOENT, "no such directory", path)
        os.rmdir(where.name, dir_fd=where.dir_fd)
