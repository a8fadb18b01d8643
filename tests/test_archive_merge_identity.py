"""The archive merge gives the same bytes as the merge it replaced, on generated
archives: well-formed ones (appended to on both sides, entries rewritten with other
quotes, CRLF, a BOM, a missing last line break, duplicates, reordered sides) and ones
it must hand to git's line merge (anchors, tags, a header that is not comments, a
broken item, not a list, not UTF-8). Each case's result (its SHA-256, or None for a
line merge) was recorded with the previous implementation
(tests/data/archive-merge/before.json); the generator is seeded, so the cases are the
same on every run and every Python. Property tests (Hypothesis) hold the line-by-line
reading of entries of the trimmer's shape (`readers.plain_yaml`) to the YAML readers, on
that shape and on texts one edit away from it, and a merge to the merge that parses
every item."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# ------------------------------------------------------------------ the recogniser
# Entries of the trimmer's shape are read line by line (`readers.plain_yaml`), the others
# parsed. Generated entries of that shape, and texts near it (one character or one
# indentation changed), read exactly as the YAML readers read them, or are refused;
# and a merge gives the same bytes as with every item parsed.

WORDS = ["completed", "next_steps", "a", "true", "null", "n", "1", "x.y-z", "<<", "k" * 130]
TRICKY = [" ", ": ", " #", "#", ":", "'", "''", '"', "\\", "-", "- ", "?", ",", "[", "]", "{",
          "}", "&", "*", "!", "|", ">", "%", "@", "`", "~", ".", "é", "\u00a0", "\t", "\x85",
          "\u2028", "\ufeff", "\x7f", "\r", "\n", "0", "1.5", "2026-01-02", "T10:00:00Z",
          ".nan", "true", "null", "0x1F", "<<", "="]  # fmt: skip
words = st.text(alphabet=st.sampled_from("abc XYZ09_./,()é"), min_size=1, max_size=12)
scalars = st.one_of(
    words.filter(lambda w: w.strip() == w),
    words.filter(lambda w: w.strip() == w),
    st.lists(st.sampled_from([*TRICKY, "a", "b", " "]), max_size=6).map("".join),
    st.sampled_from(["2026-01-03T10:00:00Z", "1.5", "1.50", "-1", "+2", "0o7", ".inf", "~",
                     "True", "FALSE", "Null", "null", "{}", "[]", "a: b", "x #y", "'q'"]),
)  # fmt: skip
keys = st.one_of(
    st.sampled_from(["completed", "next_steps", "removed", "source", "reason", "comments"]),
    st.sampled_from(WORDS),
    st.text(alphabet=st.sampled_from("ab_:- #"), max_size=4),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
    max_leaves=8,
)
odd_entries = st.dictionaries(keys, values, min_size=1, max_size=4)
# the trimmer's shape: plain keys, scalars that need no quotes or that it quotes
clean_keys = st.sampled_from(["completed", "next_steps", "removed", "source", "reason", "n", "a_b"])
clean_scalars = st.one_of(
    words.filter(lambda w: w.strip() == w and w[0] not in "-,"),
    st.sampled_from(["2026-01-03T10:00:00Z", "1.5", "12", "true", "null", "a: b", "x #y", "{}"]),
    st.sampled_from([".claude_checkpoint.yaml", ".5", "._1", ".inf", ".Inf", ".NaN", ".n", "."]),
)
clean_values = st.recursive(
    clean_scalars,
    lambda inner: st.one_of(
        st.lists(clean_scalars, min_size=1, max_size=3),
        st.dictionaries(clean_keys, inner, min_size=1, max_size=3),
    ),
    max_leaves=8,
)
entries = st.one_of(
    st.dictionaries(clean_keys, clean_values, min_size=1, max_size=4),
    st.dictionaries(clean_keys, clean_values, min_size=1, max_size=4),
    odd_entries,
)


@st.composite
def written(draw, entry: dict) -> str | None:
    """`entry` as an archive item written by hand: each scalar plain, single- or
    double-quoted (not escaped: maybe not what it says), indentation of 1-4 spaces a
    level, a list under a key indented or not."""
    step = draw(st.sampled_from([2, 2, 1, 3, 4]))
    offset = draw(st.sampled_from([2, 2, 0, 1]))

    def scalar(value) -> str:
        if isinstance(value, dict):
            return "{}"
        if isinstance(value, list):
            return "[]"
        style = draw(st.sampled_from(["plain", "plain", "single", "double"]))
        if style == "single":
            return "'" + str(value).replace("'", "''") + "'"
        return f'"{value}"' if style == "double" else str(value)

    def lines(value, indent: int) -> list[str]:
        out = []
        if isinstance(value, list):
            for item in value:
                if isinstance(item, (dict, list)) and item:
                    return []  # a collection in a list: not written here
                out.append(" " * indent + "- " + scalar(item))
            return out
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                out.append(f"{' ' * indent}{key}:")
                deeper = indent + (offset if isinstance(item, list) else step)
                out += lines(item, deeper)
            else:
                out.append(f"{' ' * indent}{key}: {scalar(item)}")
        return out

    body = lines(entry, 2)
    if not body:
        return None
    return "- " + "\n".join(body)[2:] + "\n"


def _load(text: str):
    """What the YAML readers make of a text (the archive merge's parse), or None."""
    from asimov_hooks.merge.archive_merge import _read

    try:
        data, aliased = _read(text)
    except Exception:
        return None
    return None if aliased else data


def _dumped(entry: dict) -> str | None:
    from asimov_hooks.trim.archive import dump_entry

    try:
        return dump_entry(entry)
    except Exception:  # a key the dumper cannot write
        return None


@st.composite
def near(draw, text: str) -> str:
    """`text` with one change a hand edit might make."""
    lines = text.split("\n")
    at = draw(st.integers(0, len(lines) - 1))
    change = draw(st.sampled_from(["char", "cut", "dash", "indent", "drop", "copy", "blank"]))
    if change == "dash":  # `- key:` written `-key:`
        lines = [line.replace("- ", "-", 1) if line.startswith("- ") else line for line in lines]
    elif change == "cut" and lines[at]:
        where = draw(st.integers(0, len(lines[at]) - 1))
        lines[at] = lines[at][:where] + lines[at][where + 1 :]
    elif change == "char":
        where = draw(st.integers(0, len(lines[at])))
        extra = draw(st.sampled_from(TRICKY))
        lines[at] = lines[at][:where] + extra + lines[at][where:]
    elif change == "indent":
        delta = draw(st.sampled_from([-2, -1, 1, 2]))
        lines[at] = " " * delta + lines[at] if delta > 0 else lines[at][-delta:]
    elif change == "drop":
        del lines[at]
    elif change == "copy":
        lines.insert(at, lines[at])
    else:
        lines.insert(at, draw(st.sampled_from(["", "  ", "  # note"])))
    return "\n".join(lines)


def _same(found, expected) -> bool:
    return repr(found) == repr(expected)  # types and order too; NaN equals itself here


@settings(max_examples=300, deadline=None)
@given(entries, st.data())
def test_the_recogniser_reads_what_the_yaml_readers_read(entry: dict, data) -> None:
    from asimov_hooks.readers.plain_yaml import item_data

    text = _dumped(entry) if data.draw(st.booleans()) else data.draw(written(entry))
    if text is None:
        return
    if data.draw(st.booleans()):
        text = data.draw(near(text.rstrip("\n")))
    body = text.rstrip("\n")[1:] if text.startswith("-") else None
    if body is None or "\n-" in body:
        return  # not one item
    found = item_data(body)
    if found is None:
        return  # refused: the YAML readers read it
    expected = _load("-" + body + "\n")
    assert expected is not None and len(expected) == 1, body
    assert _same(found, expected[0]), body


line_chars = st.sampled_from([*TRICKY, "a", "b", "c", "1", " ", "  ", "'", '"', "x: y"])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(line_chars, max_size=8).map("".join),
    st.sampled_from(["", "", "'", '"']),
    st.sampled_from(["value", "item", "key", "nested"]),
)
def test_one_line_reads_as_the_yaml_readers_read_it(text: str, quote: str, where: str) -> None:
    """Scalars and keys of every nearby form: plain with `:`/`#`/spaces/indicators,
    quoted with doubled or escaped quotes, control characters, other line breaks."""
    from asimov_hooks.readers.plain_yaml import item_data

    text = quote + text + quote
    body = {
        "value": f" reason: {text}\n  source: x",
        "item": f" removed:\n    completed:\n      - {text}\n      - b",
        "key": f" {text}: 1\n  b: 2",
        "nested": f" a:\n    {text}\n  b: c",
    }[where]
    found = item_data(body)
    if found is None:
        return
    expected = _load("-" + body + "\n")
    assert expected is not None and len(expected) == 1, body
    assert _same(found, expected[0]), body


plain_words = st.text(alphabet=st.sampled_from("abcxyz ABC019_.,/()"), min_size=1, max_size=20)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(plain_words.filter(lambda w: w.strip() == w), min_size=1, max_size=5),
    st.sampled_from(["completed", "next_steps", "decisions"]),
)
def test_the_trimmers_entries_are_recognised(items: list[str], field: str) -> None:
    from asimov_hooks.readers.plain_yaml import item_data

    entry = {
        "trimmed_at": "2026-11-26T03:06:06Z",
        "source": ".claude_checkpoint.yaml",
        "reason": "list caps",
        "removed": {field: items},
    }
    text = _dumped(entry)
    found = item_data(text.rstrip("\n")[1:])
    from asimov_hooks.readers.plain_yaml import _NUMBER_CHARS

    if any(i[0] in "+-.0123456789" and _NUMBER_CHARS.issuperset(i) for i in items):
        return  # may be a number or a timestamp: the libraries read it
    assert found is not None, text
    assert _same(found, _load(text)[0])


def _whole(text: str):
    """What the YAML readers make of a whole text without the entry reader, or a
    string saying they refuse it."""
    from asimov_hooks.readers.yamlio import SAFE, load_all, single

    try:
        return single(load_all(text, SAFE))
    except Exception as exc:
        return f"refused: {exc}"


@settings(max_examples=150, deadline=None)
@given(
    st.lists(entries, min_size=1, max_size=5),
    st.sampled_from(["", "# asimov-hooks trim archive\n# more\n", "\n  # x\n\n", "---\n"]),
    st.data(),
)
def test_a_whole_archive_reads_as_the_yaml_readers_read_it(
    pool: list[dict], header: str, data
) -> None:
    """What `asimov-validate` and the trimmer read: the whole file, recognised or not."""
    items = [data.draw(written(e)) if data.draw(st.booleans()) else _dumped(e) for e in pool]
    items = [item for item in items if item is not None]
    if items and data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(items) - 1))
        items[at] = data.draw(near(items[at].rstrip("\n"))) + "\n"
    text = header + "".join(items)
    if text and data.draw(st.booleans()):
        text = text.rstrip("\n")
    recognised, found = archive_data(text)
    if recognised:
        assert _same(found, _whole(text)), text


@pytest.mark.parametrize(
    "text",
    [
        "-x: 1\n",  # a mapping whose key is `-x`, not a list
        "- a: 1\n-b: 2\n",  # the same, after an item
        "- a:\n  - x\n",  # a list at its key's indentation
        "- a: b\n    c\n",  # a scalar over two lines
        "- a: 1\n  a: 2\n",  # a duplicate key
        "- a: x #c\n",  # a comment
        "- a: 'x'  \n",  # a trailing space
        '- a: "x\\ty"\n',  # an escape
        "- a: &x 1\n",  # an anchor
        "- a: !!str 1\n",  # a tag
        "- a: [1]\n",  # a flow list
        "- a: |\n    x\n",  # a block scalar
        "- a:\tx\n",  # a tab
        "- a: x\r\n",  # CR
        "- a: x\u2028y\n",  # a line separator
        "- a: x\n\n",  # a blank line
        "---\n- a: 1\n",  # a document marker
        "- a: <<\n",  # a merge key's spelling
        "- " + "k" * 200 + ": 1\n",  # a key too long to be implicit
        "- a:\n" + "".join("  " * i + "  b:\n" for i in range(1, 20)),  # deep
    ],
)
def test_nearby_shapes_are_read_as_the_yaml_readers_read_them(text: str) -> None:
    recognised, found = archive_data(text)
    if recognised:
        assert _same(found, _whole(text)), text


def test_nearby_shapes_the_plain_reader_hands_over() -> None:
    for text in ["-x: 1\n", "- a: 1\n-b: 2\n", "- a: b\n    c\n", "- a: 1\n  a: 2\n",
                 '- a: "x\\ty"\n', "- a: &x 1\n", "- a: |\n    x\n", "- a:\tx\n",
                 "---\n- a: 1\n", "- a: <<\n", "- " + "k" * 1025 + ": 1\n"]:  # fmt: skip
        assert archive_data(text) == (False, None), text


def archive_data(text: str):
    """(True, data) when the plain reader reads the whole archive, else (False, None)."""
    from asimov_hooks.readers.plain_yaml import HandOver, plain_data
    from asimov_hooks.readers.problem import YAMLProblem

    try:
        return True, plain_data(text)[0]
    except (HandOver, YAMLProblem):
        return False, None


def _disabled():
    """The merge with every item parsed as YAML (the plain reader refusing all)."""
    from asimov_hooks.merge import archive_merge
    from asimov_hooks.readers import plain_yaml

    real = plain_yaml.item_data, archive_merge._plain_items
    plain_yaml.item_data = lambda body: None
    archive_merge._plain_items = lambda bodies: None
    return real


@settings(max_examples=150, deadline=None)
@given(
    st.lists(entries, min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(0, 5), st.booleans(), st.integers(0, 5)), max_size=8),
    st.data(),
)
def test_a_merge_gives_the_bytes_of_the_merge_that_parses_every_item(
    pool: list[dict], picks: list[tuple[int, bool, int]], data
) -> None:
    from asimov_hooks.merge import archive_merge
    from asimov_hooks.readers import plain_yaml

    texts = [t for t in (_dumped(e) for e in pool) if t is not None]
    if not texts:
        return
    texts += [data.draw(near(t.rstrip("\n"))) + "\n" for t in texts[:2]]
    sides: list[list[str]] = [[], [], []]
    for which, both, index in picks:
        item = texts[index % len(texts)]
        sides[which % 3].append(item)
        if both:
            sides[(which + 1) % 3].append(item)
    base, ours, theirs = (("# header\n" + "".join(side)).encode() for side in sides)
    fast = merge_archive(base, ours, theirs)
    real = _disabled()
    try:
        slow = merge_archive(base, ours, theirs)
    finally:
        plain_yaml.item_data, archive_merge._plain_items = real
    assert fast == slow


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
