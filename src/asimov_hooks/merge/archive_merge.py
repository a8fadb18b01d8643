"""Merging trim archives: append-only YAML lists, one entry per trim.

Both branches of a merge may have trimmed their checkpoint, each appending an entry to
the archive. The right merge keeps every entry: ours as it is, then each entry only
theirs added, copied as its own text. git's `union` line merge would also keep both
sides' lines, but it interleaves lines of entries that look alike (the same source and
reason), which can re-group items under the wrong entry.

Archives only grow, so the merge is linear in their size: each side is parsed once
(libyaml when installed, as the trimmer reads it), entries are compared by a hashable
key rather than against every other entry, and the result is parsed once more and must
read as ours followed by the entries taken from theirs, or git's line merge runs instead.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Hashable
    from typing import Any


def _load(text: str) -> Any:
    """The archive's data; guarded like every reader (depth, tags, alias expansion)."""
    from ..readers.document import guard
    from ..readers.guards import InputProblem, check_aliases, limits
    from ..readers.yamlio import SAFE, load_all, single

    lim = limits()
    guard(text, "yaml", lim)
    data = single(load_all(text, SAFE))
    try:
        # a plain archive has about as many nodes as bytes: only aliases may expand it
        check_aliases(data, lim["max-aliases"], max(lim["max-alias-nodes"], len(text)))
    except InputProblem as exc:
        raise ValueError(exc.message) from None
    return data


def _chunks(text: str) -> list[str]:
    """The text of each top-level `- ` item (comments before the first one dropped)."""
    chunks: list[list[str]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("- ") or line.rstrip("\r\n") == "-":
            chunks.append([line])
        elif chunks:
            chunks[-1].append(line)
    return ["".join(lines) for lines in chunks]


def _entries(text: str) -> list[Any] | None:
    """The entries of an archive, or None when it is not a plain list of `- ` items."""
    try:
        data = _load(text)
    except Exception:  # any parse failure: the caller falls back to a line merge
        return None
    if data is None:
        return []
    if not isinstance(data, list):
        return None
    starts = sum(
        1 for line in text.splitlines() if line.startswith("- ") or line.rstrip("\r\n") == "-"
    )
    return data if starts == len(data) else None


def _key(value: Any) -> Hashable:
    """A hashable stand-in that is equal exactly when the values are (`==`)."""
    if isinstance(value, dict):
        return (dict, frozenset((_key(k), _key(v)) for k, v in value.items()))
    if isinstance(value, list):
        return (list, tuple(_key(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return (set, frozenset(_key(v) for v in value))
    hash(value)  # TypeError for anything else unhashable: the caller compares by ==
    return value


class _Seen:
    """Entries of base and ours, looked up by key (by `==` only for odd values)."""

    def __init__(self, *sides: list[Any]) -> None:
        self.keys: set[Hashable] = set()
        self.odd: list[Any] = []
        for side in sides:
            for entry in side:
                try:
                    self.keys.add(_key(entry))
                except TypeError:
                    self.odd.append(entry)

    def __contains__(self, entry: Any) -> bool:
        try:
            if _key(entry) in self.keys:
                return True
        except TypeError:
            pass
        return any(entry == other for other in self.odd)


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
    b_data, o_data, t_data = sides  # type: ignore[misc]
    t_chunks = _chunks(t_text) if t_data else []
    seen = _Seen(b_data, o_data)
    added = [
        (entry, chunk) for entry, chunk in zip(t_data, t_chunks, strict=True) if entry not in seen
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
