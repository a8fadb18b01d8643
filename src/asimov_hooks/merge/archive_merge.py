"""Merging trim archives: append-only YAML lists, one entry per trim.

Both branches of a merge may have trimmed their checkpoint, each appending an entry to
the archive. The right merge keeps every entry: ours as it is, then each entry only
theirs added, copied as its own text. git's `union` line merge would also keep both
sides' lines, but it interleaves lines of entries that look alike (the same source and
reason), which can re-group items under the wrong entry.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any


def _load(text: str) -> Any:
    from ..readers.yamlio import SAFE_PURE, make_yaml, reading, single

    with reading(text, SAFE_PURE):
        return single(list(make_yaml(SAFE_PURE).load_all(text)))


def _entries(text: str) -> tuple[list[Any], list[str]] | None:
    """(entries, the text of each) of an archive, or None when it is not a plain list."""
    try:
        data = _load(text)
    except Exception:  # any parse failure: the caller falls back to a line merge
        return None
    if data is None:
        return [], []
    if not isinstance(data, list):
        return None
    chunks: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("- ") or line.rstrip("\r\n") == "-":
            chunks.append(line)
        elif chunks:
            chunks[-1] += line
    if len(chunks) != len(data):
        return None
    for chunk, entry in zip(chunks, data, strict=True):
        try:
            if _load(chunk) != [entry]:
                return None
        except Exception:
            return None
    return data, chunks


def merge_archive(base: bytes | None, ours: bytes, theirs: bytes) -> bytes | None:
    """Ours plus the entries only theirs added; None when a side is not a plain archive."""
    try:
        o_text, t_text = ours.decode("utf-8-sig"), theirs.decode("utf-8-sig")
        b_text = base.decode("utf-8-sig") if base else ""
    except UnicodeDecodeError:
        return None
    sides = [_entries(t) for t in (b_text, o_text, t_text)]
    if any(side is None for side in sides):
        return None
    (b_data, _), (o_data, _), (t_data, t_chunks) = sides  # type: ignore[misc]
    added = [
        (entry, chunk)
        for entry, chunk in zip(t_data, t_chunks, strict=True)
        if entry not in b_data and entry not in o_data
    ]
    newline = "\r\n" if "\r\n" in o_text else "\n"
    joiner = "" if not o_text or o_text.endswith("\n") else newline
    merged = o_text + joiner + "".join(chunk for _, chunk in added)
    if not merged.endswith("\n"):
        merged += newline
    try:
        if (_load(merged) or []) != o_data + [entry for entry, _ in added]:
            return None
    except Exception:
        return None
    bom = b"\xef\xbb\xbf" if ours.startswith(b"\xef\xbb\xbf") else b""
    return bom + merged.encode("utf-8")
