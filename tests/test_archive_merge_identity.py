"""The archive merge gives the same bytes as the merge it replaced, on generated
archives: well-formed ones (appended to on both sides, entries rewritten with other
quotes, CRLF, a BOM, a missing last line break, duplicates, reordered sides) and ones
it must hand to git's line merge (anchors, tags, a header that is not comments, a
broken item, not a list, not UTF-8). Each case's result (its SHA-256, or None for a
line merge) was recorded with the previous implementation
(tests/data/archive-merge/before.json); the generator is seeded, so the cases are the
same on every run and every Python."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import random

import pytest

from asimov_hooks.merge.archive_merge import merge_archive

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDED = os.path.join(HERE, "data", "archive-merge", "before.json")

# item templates: the trimmer's own form first (three quotings of one entry), then
# scalars that read alike (1.5 / 1.50, .nan), flow and block forms of one mapping,
# comments, block scalars, unicode, and items the merge must not take item by item
ITEMS = [
    "- archived_at: '2026-01-0{d}T10:00:00Z'\n  source: .claude_checkpoint.yaml\n"
    "  reason: over the cap\n  removed:\n    completed:\n      - {s} task {i}\n",
    '- archived_at: "2026-01-0{d}T10:00:00Z"\n  source: .claude_checkpoint.yaml\n'
    "  reason: over the cap\n  removed:\n    completed:\n      - {s} task {i}\n",
    "- archived_at: 2026-01-0{d}T10:00:00Z\n  source: '.claude_checkpoint.yaml'\n"
    "  reason: over the cap\n  removed: {{completed: [{s} task {i}]}}\n",
    "- {i}\n",
    "- +{i}\n",
    "- .nan\n",
    "- .NaN\n",
    "- 1.5\n",
    "- 1.50\n",
    "-\n",
    "- ~\n",
    "- null\n",
    "- &a {{x: {i}}}\n",
    "- *a\n",
    "- !!str {i}\n",
    "- [unclosed\n",
    "- {{a: 1, a: 2}}\n",
    "- a: {i}\n  b: [{i}, {s}]\n",
    "- b: [{i}, {s}]\n  a: {i}\n",
    "- a: {i}  # c\n  # comment\n  b: x\n",
    "# interleaved comment\n",
    "not a list: 1\n",
    "-  x: 'it''s {i}'\n",
    '- "\\u00e9t\\u00e9 {i}"\n',
    "- été {i}\n",
    "- true\n",
    "- True\n",
    "- 0x{i}\n",
    "- 0o7\n",
    "- '{i}'\n",
    "- {i}\n  # trailing comment\n",
    "-\n  a: 1\n",
    "- a: |\n    block {i}\n    more\n",
    "- a: >\n    folded {i}\n",
    "-x: {i}\n",
]
HEADERS = [
    "",
    "# asimov-hooks trim archive\n# more\n",
    "---\n",
    "  # indented comment\n",
    "%YAML 1.2\n---\n",
    "# c\r\n",
]
CASES = 600


def _item(rnd: random.Random, side: str, odd: float) -> str:
    template = rnd.choice(ITEMS) if rnd.random() < odd else ITEMS[rnd.randint(0, 2)]
    return template.format(d=rnd.randint(1, 3), s=side, i=rnd.randint(0, 6))


def triple(
    rnd: random.Random, most: int, added: int, odd: float
) -> tuple[bytes | None, bytes, bytes]:
    header = rnd.choice(HEADERS) if rnd.random() < 0.5 else HEADERS[1]
    base = [_item(rnd, "b", odd) for _ in range(rnd.randint(0, most))]

    def side(name: str) -> list[str]:
        items = list(base)
        if rnd.random() < 0.2 and items:
            items.pop(rnd.randrange(len(items)))
        if rnd.random() < 0.2:
            rnd.shuffle(items)
        count = rnd.randint(0, added)
        return items + [_item(rnd, name if rnd.random() < 0.7 else "b", odd) for _ in range(count)]

    def text(items: list[str]) -> str:
        top = header if rnd.random() < 0.9 else rnd.choice(HEADERS)
        body = top + "".join(items)
        if rnd.random() < 0.1:
            body = body.replace("\n", "\r\n")
        if rnd.random() < 0.1:
            body = body.rstrip("\n")
        return body

    def encoded(body: str) -> bytes:
        raw = body.encode()
        if rnd.random() < 0.05:
            raw = b"\xef\xbb\xbf" + raw
        if rnd.random() < 0.01:
            raw += b"\xff"
        return raw

    ours, theirs = side("o"), side("t")
    base_raw = None if rnd.random() < 0.1 else encoded(text(base))
    return base_raw, encoded(text(ours)), encoded(text(theirs))


@functools.cache
def cases() -> list[tuple[bytes | None, bytes, bytes]]:
    rnd = random.Random(27)
    small = [triple(rnd, 6, 4, 0.5) for _ in range(CASES // 2)]
    # many entries new to theirs, few odd items: mostly merged, entries looked up in groups
    large = [triple(rnd, 30, 20, 0.01) for _ in range(CASES // 2)]
    return small + large


def digest(merged: bytes | None) -> str | None:
    return None if merged is None else hashlib.sha256(merged).hexdigest()


def results() -> list[str | None]:
    return [digest(merge_archive(*case)) for case in cases()]


def test_the_merge_gives_the_recorded_bytes() -> None:
    with open(RECORDED, encoding="utf-8") as fh:
        recorded = json.load(fh)
    got = results()
    assert len(got) == len(recorded) == CASES
    differ = [i for i, (a, b) in enumerate(zip(got, recorded, strict=True)) if a != b]
    assert not differ, f"{len(differ)} cases differ, first {differ[:5]}"
    merged = sum(result is not None for result in recorded)
    assert CASES // 4 < merged < CASES  # both kinds of case are covered


@pytest.mark.parametrize("index", [0, 1, CASES - 1])
def test_the_cases_are_the_recorded_ones(index: int) -> None:
    """The generator still makes the cases the results were recorded for."""
    with open(RECORDED.replace("before.json", "cases.json"), encoding="utf-8") as fh:
        sample = json.load(fh)
    base, ours, theirs = cases()[index]
    assert sample[str(index)] == [digest(base), digest(ours), digest(theirs)]


if __name__ == "__main__":  # record: python tests/test_archive_merge_identity.py
    import sys

    print(f"recording {CASES} results with {sys.modules['asimov_hooks.merge.archive_merge']}")
    with open(RECORDED, "w", encoding="utf-8") as fh:
        json.dump(results(), fh, indent=0)
        fh.write("\n")
    all_cases = cases()
    with open(RECORDED.replace("before.json", "cases.json"), "w", encoding="utf-8") as fh:
        picked = {str(i): [digest(x) for x in all_cases[i]] for i in (0, 1, CASES - 1)}
        json.dump(picked, fh, indent=1)
        fh.write("\n")
