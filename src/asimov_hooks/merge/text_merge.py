"""Line-level helpers for the merge driver: a strict diff3 and conflict-marker output.

The structural merge decides *what* the file contains; these helpers decide *which
bytes* to write. A clean line merge whose result parses to exactly the structural
answer keeps both sides' comments and layout untouched, so it is tried first; a
conflict is written as the two fully merged alternatives, with markers around only
the lines where they differ.
"""

from __future__ import annotations

from difflib import SequenceMatcher

BOM = "\ufeff"


class Text:
    """A side's text with its BOM and line-ending style split off (body uses '\\n')."""

    __slots__ = ("body", "bom", "crlf")

    def __init__(self, raw: bytes) -> None:
        text = raw.decode("utf-8")
        self.bom = text.startswith(BOM)
        if self.bom:  # one BOM at most: a doubled one is refused by every reader
            text = text.lstrip(BOM)
        self.crlf = "\r\n" in text
        self.body = text.replace("\r\n", "\n") if self.crlf else text

    def encode(self, body: str) -> bytes:
        """`body` (with '\\n' endings) in this side's BOM and line-ending style."""
        if self.crlf:
            body = body.replace("\r\n", "\n").replace("\n", "\r\n")
        return ((BOM if self.bom else "") + body).encode("utf-8")


# lines × lines of the two parts that differ past which no diff runs: difflib's work
# grows with their product (a line may match up to 1% of the other side's lines), and
# a hostile side of 1 MiB of short lines would take minutes; real files stay far below
DIFF_CELLS = 50_000_000


def _diff(a: list[str], b: list[str]) -> tuple[int, list[str], list[str], list | None]:
    """(how many lines both share at the start, the parts that differ, difflib's
    opcodes for those parts, or None when they are too big to diff).

    The shared start and end are cut off first, as git's diff does. Below 200 lines
    the diff is minimal; from 200 on, autojunk leaves lines found in over 1% of `b` out
    of the anchors (hunks may come out a little wider): without it, parts that differ
    in runs of a few repeated lines cost the cube of their length (23 s at 1,600)."""
    head, shorter = 0, min(len(a), len(b))
    while head < shorter and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < shorter - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middle_a, middle_b = a[head : len(a) - tail], b[head : len(b) - tail]
    if len(middle_a) * len(middle_b) > DIFF_CELLS:
        return head, middle_a, middle_b, None
    codes = SequenceMatcher(None, middle_a, middle_b, autojunk=True).get_opcodes()
    return head, middle_a, middle_b, codes


def _changes(base: list[str], other: list[str]) -> list[tuple[int, int, int, int]] | None:
    """The changed line ranges (base i1:i2 became other j1:j2); None when too big to
    diff. A less minimal diff can only make the line merge give up, and its result is
    verified anyway."""
    head, _, _, codes = _diff(base, other)
    if codes is None:
        return None
    return [
        (i1 + head, i2 + head, j1 + head, j2 + head)
        for tag, i1, i2, j1, j2 in codes
        if tag != "equal"
    ]


def _apply(base: list[str], side: list[str], changes: list, start: int, end: int) -> list[str]:
    out: list[str] = []
    pos = start
    for i1, i2, j1, j2 in changes:
        out += base[pos:i1] + side[j1:j2]
        pos = i2
    return out + base[pos:end]


def merge3(base: str, ours: str, theirs: str) -> str | None:
    """A line merge that succeeds only when the sides' changes are apart; else None.

    Changes that touch (even an insertion right next to the other side's change)
    count as a conflict, as in git, unless both sides made the identical change.
    """
    b, a, c = base.splitlines(True), ours.splitlines(True), theirs.splitlines(True)
    ours_changes, theirs_changes = _changes(b, a), _changes(b, c)
    if ours_changes is None or theirs_changes is None:
        return None
    events = sorted(
        [(ch, 0) for ch in ours_changes] + [(ch, 1) for ch in theirs_changes],
        key=lambda e: (e[0][0], e[0][1], e[1]),
    )
    sides = (a, c)
    out: list[str] = []
    pos = 0
    i = 0
    while i < len(events):
        start, end = events[i][0][0], events[i][0][1]
        group = [events[i]]
        i += 1
        while i < len(events) and events[i][0][0] <= end:
            group.append(events[i])
            end = max(end, events[i][0][1])
            i += 1
        out += b[pos:start]
        pos = end
        versions = {
            who: _apply(b, sides[who], [ch for ch, w in group if w == who], start, end)
            for who in {w for _, w in group}
        }
        if len(versions) == 2 and versions[0] != versions[1]:
            return None
        out += next(iter(versions.values()))
    return "".join(out + b[pos:])


def with_markers(ours: str, theirs: str, size: int, labels: tuple[str, str]) -> str:
    """`ours` and `theirs` as one text, conflict markers around the lines that differ."""
    a, c = ours.splitlines(True), theirs.splitlines(True)
    head, middle_a, middle_c, codes = _diff(a, c)
    if codes is None:  # too big to diff: the whole part that differs is one hunk
        codes = [("replace", 0, len(middle_a), 0, len(middle_c))]
    out: list[str] = a[:head]
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal":
            out += middle_a[i1:i2]
            continue
        out.append(f"{'<' * size} {labels[0]}\n")
        out += _terminated(middle_a[i1:i2])
        out.append("=" * size + "\n")
        out += _terminated(middle_c[j1:j2])
        out.append(f"{'>' * size} {labels[1]}\n")
    return "".join(out + a[head + len(middle_a) :])


def _terminated(lines: list[str]) -> list[str]:
    if lines and not lines[-1].endswith("\n"):
        return [*lines[:-1], lines[-1] + "\n"]
    return lines


def whole_file_conflict(ours: str, theirs: str, size: int, labels: tuple[str, str]) -> str:
    """The last resort when git itself is unavailable: both files, marked as one hunk."""
    return (
        f"{'<' * size} {labels[0]}\n{''.join(_terminated(ours.splitlines(True)))}"
        f"{'=' * size}\n{''.join(_terminated(theirs.splitlines(True)))}{'>' * size} {labels[1]}\n"
    )
