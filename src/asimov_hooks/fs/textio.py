"""Reading staged files as text, defensively.

Hooks see whatever a user stages: binaries, huge files, BOMs, CRLF, dangling links.
Every read goes through `fs.access` (confined, non-blocking, bounded) and is decoded
here, so that each failure becomes one named problem instead of a traceback.
"""

from __future__ import annotations

import os
import stat

from .access import FileProblem, read_bytes

BOM = b"\xef\xbb\xbf"


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
    newline = "\r\n" if "\r" in text and "\r\n" in text else "\n"  # a lone CR scan is quick
    return TextFile(path, raw, text, bom, newline)


def read_text(
    path: str, max_bytes: int | None = None, bound: str = "limit", *, root: str | None = None
) -> TextFile:
    """The file's text; over `max_bytes` it is not read. `bound` names what the cap is
    (a protocol's limit, or only a resource bound where the protocol sets none). A path
    whose real path leaves its work tree (or enters .git/) is refused (fs.access)."""
    return decode(path, read_bytes(path, max_bytes, root=root, bound=bound))
