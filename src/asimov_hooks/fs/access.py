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

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Iterable

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
    """The real path of the work tree holding `path` (the nearest directory upwards
    with a `.git`), or None outside one. Looks from the lexical parent: a link that
    leaves the tree does not change which tree the path belongs to."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.lexists(os.path.join(directory, ".git")):
            return os.path.realpath(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _git_dirs(root: str) -> list[str]:
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


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def confine(
    path: str, root: str | None = None, *, what: str = "path", git_internal: bool = False
) -> str:
    """The real path of `path`, refused (UnsafePath) when it resolves outside `root`
    or into the git directory. `root` defaults to the work tree holding `path`; outside
    any work tree there is nothing to hold it to and the path is returned resolved.
    `what` names the path in the message ("archive", "settings file").

    `git_internal`: a file of ours that lives in the git directory (the agent's state,
    an install record), at a path git itself gave: it must resolve inside a git directory
    of the work tree instead."""
    real = os.path.realpath(path)
    top = os.path.realpath(root) if root is not None else work_tree_of(path)
    if git_internal:
        if top is None or any(_inside(real, os.path.realpath(d)) for d in _git_dirs(top)):
            return real
        raise UnsafePath(f"{what} {show(path)} is not inside the repository's git directory")
    if top is None:
        return real
    if not _inside(real, top):
        shown = "a symbolic link" if real != os.path.abspath(path) else "a path"
        raise UnsafePath(
            f"{what} {show(path)} is {shown} that leads outside the repository "
            f"({show(real)}); refused"
        )
    for git_dir in _git_dirs(top):
        if _inside(real, os.path.realpath(git_dir)):
            raise UnsafePath(
                f"{what} {show(path)} leads into the repository's git directory; refused"
            )
    return real


def confine_setting(value: str, root: str, *, what: str) -> str:
    """A path taken from a (committed, so untrusted) config value: relative to `root`,
    and held to it by `confine`. Absolute paths and `..` that leave the tree are refused."""
    joined = os.path.join(root, os.path.expanduser(value)) if not os.path.isabs(value) else value
    return confine(joined, root, what=what)


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
    if confined:
        confine(path, root, git_internal=git_internal)
    cap = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if os.path.islink(path):
            raise FileProblem("io-error", "broken symbolic link") from None
        raise FileProblem("io-error", "no such file") from None
    except IsADirectoryError:
        raise FileProblem("io-error", "is a directory, expected a file") from None
    except OSError as exc:
        raise FileProblem("io-error", f"cannot read: {exc.strerror}") from None
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
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:
                raise FileProblem(
                    "max-bytes-hard", f"more than {cap:,} bytes (grew while read); not parsed"
                )
        return b"".join(chunks)
    except OSError as exc:
        raise FileProblem("io-error", f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)


def read_head(path: str, max_bytes: int, *, root: str | None = None) -> tuple[bytes, bool]:
    """The first `max_bytes` bytes of a regular file, and whether there is more: for
    showing the start of a file that may be of any size (what `read_bytes` refuses).
    Confined, non-blocking and regular files only, as `read_bytes`."""
    confine(path, root)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileProblem("io-error", "no such file") from None
    except IsADirectoryError:
        raise FileProblem("io-error", "is a directory, expected a file") from None
    except OSError as exc:
        raise FileProblem("io-error", f"cannot read: {exc.strerror}") from None
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
) -> str:
    """Replace the file's content in one rename; returns the real path written.

    The path is confined first, so a symlink can only lead to a file inside the work
    tree (that file is written, never the link's outside target). Only a regular file
    (or nothing) is replaced: a device node or a FIFO stays as it is. The temporary
    file lives beside the real target, takes its permission bits (or `mode`, or the
    umask's default for a new file) before it becomes visible, and goes on failure.
    """
    import tempfile

    target = confine(path, root, what="target", git_internal=git_internal)
    directory = os.path.dirname(target) or "."
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UnsafePath(f"{show(path)} is not a regular file; not replaced")
    if st is not None and mode is None:
        mode = stat.S_IMODE(st.st_mode)
    from .stale import TEMP_SUFFIX, clean_stale_temps

    name = os.path.basename(target)
    clean_stale_temps(directory, name)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.{os.getpid()}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        import contextlib  # the error path only: start-up stays small

        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return target


def make_dirs(path: str, root: str | None = None, *, git_internal: bool = False) -> str:
    """`os.makedirs` for a directory inside the work tree (or, `git_internal`, inside its
    git directory); an existing component that is a link out of it is refused before
    anything is created."""
    real = confine(path, root, what="directory", git_internal=git_internal)
    os.makedirs(real, exist_ok=True)
    return real


def remove(path: str, root: str | None = None, *, git_internal: bool = False) -> None:
    """Remove a file of the work tree (never through a link out of it: a link inside
    is itself removed, not what it points at)."""
    base = root if root is not None else work_tree_of(path)
    where = os.path.dirname(os.path.abspath(path))
    confine(where, base, what="directory", git_internal=git_internal)
    if not os.path.islink(path):
        confine(path, base, what="file", git_internal=git_internal)
    os.remove(path)


def remove_dir(path: str, root: str | None = None) -> None:
    """Remove an empty directory of the work tree (OSError when it is not empty)."""
    os.rmdir(confine(path, root, what="directory"))


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


# ---------------------------------------------------------------- showing what we touch
_CONTROL = {i: f"\\x{i:02x}" for i in [*range(0x20), 0x7F]}
_CONTROL.update({0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x1B: "\\x1b"})
for _c in range(0x80, 0xA0):  # C1 controls (CSI and friends)
    _CONTROL[_c] = f"\\x{_c:02x}"
_CONTROL[0x2028] = "\\u2028"
_CONTROL[0x2029] = "\\u2029"


# what a CI runner reads as a command at the start of a line: GitHub's `::error ...::`,
# `::stop-commands::`, and its older `##[command]` form
_COMMAND_STARTS = ("::", "##[")


def show(text: str, *, line_start: bool = True) -> str:
    """`text` (a path or a value from the repository) with control characters made
    visible, so it cannot end a line, forge a CI annotation or drive a terminal. Text
    that begins (after blanks) like a workflow command (`::`, `##[`) has its first
    character escaped too (`\\x3a:error::`), unless `line_start=False` (a part never
    printed at the start of a line: a workflow command's value)."""
    if not text.isprintable():
        text = text.translate(_CONTROL)
    head = text.lstrip()
    if line_start and head.startswith(_COMMAND_STARTS):
        at = len(text) - len(head)
        text = f"{text[:at]}\\x{ord(head[0]):02x}{head[1:]}"
    return text


def github_escape(text: str, *, property_value: bool = False) -> str:
    """A value for a GitHub Actions workflow command: the data part escapes `%`, CR and
    LF; a property (`file=`, `title=`) also `:` and `,`."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text
