"""Applying the hunks (`apply_patch.Hunk`) of one `*** Update File:` section: where
each hunk's lines are, found as Codex finds them (in order from the file's start,
context matched exactly, then ignoring trailing whitespace, then surrounding
whitespace, then with typographic punctuation read as ASCII), and the edits made.

Linear in the patch: each comparison's normalised copy of the file, and an index of
where each line occurs, are built once per file, so a hunk costs the places its first
line occurs, not a pass over the file. A long hunk is compared at each place by a hash
of its lines (prefix hashes of the file, built once per comparison), so a file of one
repeated line does not cost places times the hunk's length. Pure Python without `re`.
"""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable
    from typing import Any


class PatchError(Exception):
    """The patch cannot be parsed or applied as Codex would; `line` is 1-based in the
    patch text (0 when the problem is not on one line)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.message = message
        self.line = line


# typographic punctuation read as ASCII (the loosest context match); built on first use,
# not on the hook's cheap path
_PUNCTUATION = (
    ("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    ("\u2018\u2019\u201a\u201b", "'"),
    ("\u201c\u201d\u201e\u201f", '"'),
    ("\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000", " "),
)
_ASCII: dict[int, str] = {}


def _loose(line: str) -> str:
    if not _ASCII:
        _ASCII.update({ord(c): ascii for chars, ascii in _PUNCTUATION for c in chars})
    return line.strip().translate(_ASCII)


# a hunk longer than this is compared by hash first (shorter ones cost as little in full)
_SHORT = 8
_PRIME = (1 << 61) - 1
_BASE = int.from_bytes(os.urandom(8), "big") % (_PRIME - 256) + 256

_NORMS: "tuple[Callable[[str], str] | None, ...]" = (None, str.rstrip, str.strip, _loose)


def _normalised(norm: "Callable[[str], str] | None", lines: list[str]) -> list[str]:
    return lines if norm is None else [norm(line) for line in lines]


class _Lines:
    """A file's lines, each comparison's normalised copy and an index of where each
    (normalised) line occurs, built once per file on first use: finding a hunk costs
    the places its first line occurs, not a pass over the whole file, so a patch's
    work grows with the patch, not with hunks times the file."""

    __slots__ = ("hashes", "index", "lines", "normal")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.normal: dict[int, list[str]] = {}
        self.index: dict[int, dict[str, list[int]]] = {}
        self.hashes: dict[int, tuple[dict[str, int], list[int]]] = {}

    def seek(self, pattern: list[str], start: int, eof: bool) -> int | None:
        """Where `pattern` first occurs at or after `start` (at the very end when
        `eof`), trying ever looser comparisons."""
        from bisect import bisect_left

        if not pattern:
            return start
        lines = self.lines
        if len(pattern) > len(lines):
            return None
        last = len(lines) - len(pattern)
        first = last if eof else start
        size = len(pattern)
        for level, norm in enumerate(_NORMS):
            have = self._have(level)
            want = pattern if norm is None else [norm(p) for p in pattern]
            if eof:
                if have[last : last + size] == want:
                    return last
                continue
            places = self._index(level).get(want[0], ())
            same = self._matcher(level, want) if size > _SHORT else None
            if same is None and size > _SHORT:
                continue  # a line of the hunk is nowhere in the file
            for i in range(bisect_left(places, first), len(places)):
                at = places[i]
                if at > last:
                    break
                if (same is None or same(at)) and have[at : at + size] == want:
                    return at
        return None

    def _matcher(self, level: int, want: list[str]) -> "Callable[[int], bool] | None":
        """A test of "the file's lines from `at` hash as `want`'s do", in constant time
        (None when a line of `want` is not in the file). The base is drawn per run, so
        no text can be made to collide on purpose; a match is still compared in full."""
        if level not in self.hashes:
            ids: dict[str, int] = {}
            prefix, value = [0], 0
            for line in self._have(level):
                value = (value * _BASE + ids.setdefault(line, len(ids) + 1)) % _PRIME
                prefix.append(value)
            self.hashes[level] = (ids, prefix)
        ids, prefix = self.hashes[level]
        target = 0
        for line in want:
            known = ids.get(line)
            if known is None:
                return None
            target = (target * _BASE + known) % _PRIME
        size, shift = len(want), pow(_BASE, len(want), _PRIME)
        return lambda at: (prefix[at + size] - prefix[at] * shift) % _PRIME == target

    def _have(self, level: int) -> list[str]:
        if level not in self.normal:
            self.normal[level] = _normalised(_NORMS[level], self.lines)
        return self.normal[level]

    def _index(self, level: int) -> dict[str, list[int]]:
        if level not in self.index:
            where: dict[str, list[int]] = {}
            for at, line in enumerate(self._have(level)):
                where.setdefault(line, []).append(at)
            self.index[level] = where
        return self.index[level]


def updated(path: str, original: str, hunks: "list[Any]") -> str:
    """The file's text after the section's hunks; PatchError where Codex refuses."""
    lines = original.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    text = _Lines(lines)
    edits: list[tuple[int, int, list[str]]] = []
    at = 0
    for hunk in hunks:
        if hunk.context is not None:
            found = text.seek([hunk.context], at, False)
            if found is None:
                raise PatchError(f"context '{hunk.context}' not found in {path}")
            at = found + 1
        if not hunk.old:  # a pure addition goes at the end of the file
            edits.append((len(lines), 0, hunk.new))
            continue
        old, new = hunk.old, hunk.new
        found = text.seek(old, at, hunk.end_of_file)
        if found is None and old[-1] == "":
            old = old[:-1]
            new = new[:-1] if new and new[-1] == "" else new
            found = text.seek(old, at, hunk.end_of_file)
        if found is None:
            raise PatchError(f"the lines a hunk replaces are not in {path} (from '{hunk.old[0]}')")
        edits.append((found, len(old), new))
        at = found + len(old)
    lines = _replaced(lines, edits)
    if not lines or lines[-1] != "":
        lines.append("")
    return "\n".join(lines)


def _replaced(lines: list[str], edits: list[tuple[int, int, list[str]]]) -> list[str]:
    """The lines with the edits made, as Codex makes them (from the last place back;
    edits at one place in the reverse of their order), in one pass when no two overlap."""
    order = sorted(range(len(edits)), key=lambda i: (edits[i][0], -i))
    out: list[str] = []
    done = 0
    for i in order:
        start, length, new = edits[i]
        if start < done:  # overlapping edits: Codex's own order, one by one
            for begin, size, lines_new in sorted(edits, key=lambda e: e[0], reverse=True):
                lines[begin : begin + size] = lines_new
            return lines
        out.extend(lines[done:start])
        out.extend(new)
        done = start + length
    out.extend(lines[done:])
    return out
