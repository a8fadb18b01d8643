"""Reading staged files defensively and writing files atomically.

Hooks see whatever a user stages: binaries, huge files, BOMs, CRLF, dangling links.
Every read goes through here so that each failure becomes one named problem instead
of a traceback, and every write is all-or-nothing.
"""

from __future__ import annotations

import os
import stat

BOM = b"\xef\xbb\xbf"


class FileProblem(Exception):
    """A file cannot be used as input; carries the rule id that reports it."""

    def __init__(self, rule: str, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.line = line
        self.col = col


class TextFile:
    __slots__ = ("bom", "newline", "path", "raw", "text")

    def __init__(self, path: str, raw: bytes, text: str, bom: bool, newline: str) -> None:
        self.path, self.raw, self.text, self.bom, self.newline = path, raw, text, bom, newline


def check_regular_file(path: str) -> os.stat_result:
    """Stat `path` (following links) and insist on a regular file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise FileProblem("io-error", "broken symbolic link") from None
        raise FileProblem("io-error", "no such file") from None
    except OSError as exc:
        raise FileProblem("io-error", f"cannot read: {exc.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise FileProblem("io-error", "is a directory, expected a file")
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem("io-error", "not a regular file")
    return st


def decode(path: str, raw: bytes) -> TextFile:
    """Decode UTF-8 (optional BOM); binary or other encodings are problems."""
    nul = raw.find(b"\x00")
    if nul != -1:
        line = raw.count(b"\n", 0, nul) + 1
        raise FileProblem("encoding", f"binary content (NUL byte at offset {nul})", line, 1)
    bom = raw.startswith(BOM)
    body = raw[len(BOM) :] if bom else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = body.count(b"\n", 0, exc.start) + 1
        col = exc.start - (body.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FileProblem(
            "encoding",
            f"not valid UTF-8 (byte 0x{body[exc.start]:02x} at line {line}, column {col})",
            line,
            col,
        ) from None
    if text.startswith("\ufeff"):  # parsers disagree on a second one; no tool writes it
        raise FileProblem("encoding", "a second byte-order mark (U+FEFF) after the first", 1, 1)
    newline = "\r\n" if "\r\n" in text else "\n"
    return TextFile(path, raw, text, bom, newline)


def read_text(path: str, max_bytes: int | None = None, bound: str = "limit") -> TextFile:
    """The file's text; over `max_bytes` it is not read. `bound` names what the cap is
    (a protocol's limit, or only a resource bound where the protocol sets none)."""
    st = check_regular_file(path)
    if max_bytes is not None and st.st_size > max_bytes:
        raise FileProblem(
            "max-bytes-hard",
            f"{st.st_size:,} bytes, over the {max_bytes:,}-byte {bound}; not parsed",
        )
    try:
        with open(path, "rb") as fh:
            raw = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise FileProblem("io-error", "file disappeared while being read") from None
    except OSError as exc:
        raise FileProblem("io-error", f"cannot read: {exc.strerror}") from None
    if max_bytes is not None and len(raw) > max_bytes:
        raise FileProblem(
            "max-bytes-hard", f"more than {max_bytes:,} bytes (grew while read); not parsed"
        )
    return decode(path, raw)


def atomic_write(path: str, data: bytes) -> None:
    """Replace the file's content in one rename; symlinks are written through.

    The temporary file lives beside the real target so the rename never crosses a
    file system, and it takes the target's permission bits before it becomes visible.
    """
    import tempfile

    target = os.path.realpath(path)
    directory = os.path.dirname(target) or "."
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
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


class DirectoryLocks:
    """Exclusive `flock`s on directories, taken in one order so two runs never deadlock.

    Trims that share an archive (or a checkpoint) run side by side when pre-commit or a
    user starts several; each holds the locks from reading the checkpoint to writing the
    archive and the checkpoint, so no entry is overwritten and nothing is archived twice.
    A directory rather than a lock file: nothing is left behind in the work tree, and a
    rename (the atomic writes) does not change which object is locked. Where the file
    system has no locks the run goes on unlocked, as before.
    """

    def __init__(self, paths: list[str]) -> None:
        dirs = set()
        for path in paths:
            directory = os.path.dirname(os.path.realpath(path))
            while directory and not os.path.isdir(directory):  # not created yet
                parent = os.path.dirname(directory)
                if parent == directory:
                    break
                directory = parent
            dirs.add(directory)
        self.dirs = sorted(dirs)
        self.fds: list[int] = []

    def __enter__(self) -> DirectoryLocks:
        import contextlib

        try:
            import fcntl
        except ImportError:  # Windows: no flock
            return self
        for directory in self.dirs:
            try:
                fd = os.open(directory, os.O_RDONLY)
            except OSError:
                continue
            self.fds.append(fd)
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in reversed(self.fds):
            os.close(fd)  # closing the descriptor releases its lock
        self.fds.clear()
