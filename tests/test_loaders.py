"""The fast (libyaml) reading path must agree with the round-trip loader it stands in for.

`load_yaml` reads through libyaml when it can and falls back to ruamel's round-trip
loader otherwise; a file must never be valid on one path and invalid on the other, and
every finding must point at the same line and column either way.
"""

from __future__ import annotations

import os
import re

import pytest
from conftest import GOOD_CHECKPOINT
from hypothesis import HealthCheck, given, settings
from test_trim_properties import checkpoints, mutated

from asimov_hooks.readers import fast_yaml, json_loader, loaders
from asimov_hooks.trim import parsing


def paths(data: object, prefix: tuple = ()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths(value, (*prefix, index))


def assert_same_reading(text: str) -> None:
    fast = loaders._fast_document(text, 100_000)
    try:
        slow = loaders._rt_document(text, 100_000)
    except loaders.YAMLProblem as problem:
        assert fast is None, (
            f"libyaml accepts what the round-trip loader rejects: {problem.message}"
        )
        return
    if fast is None:
        return
    assert loaders.to_plain(fast.data) == loaders.to_plain(slow.data)
    lines = len(re.split(r"\r\n|\r|\n", text))  # YAML breaks lines at a bare CR too
    for path in paths(slow.data):
        if not path:
            continue
        for on_key in (False, True):
            where = fast.locate(path, on_key)
            assert 1 <= where[0] <= lines and where[1] >= 1
            if "<<" not in text and plainly_keyed(slow.data, path):
                assert where == slow.locate(path, on_key), (path, on_key)


def plainly_keyed(data: object, path: tuple) -> bool:
    """Paths where both loaders must agree to the column.

    They differ, and libyaml is the more precise, on an empty value (ruamel places it at
    the next token, libyaml after its key), on a non-string mapping key (ruamel reads an
    integer key as a list index) and on keys merged in with `<<` (libyaml points at
    their definition).
    """
    for part in path:
        if isinstance(data, dict) and not isinstance(part, str):
            return False
        data = data[part]  # type: ignore[index]
    return data is not None


def test_fast_path_is_taken_for_an_ordinary_checkpoint() -> None:
    assert loaders._fast_document(GOOD_CHECKPOINT, 100_000) is not None
    assert_same_reading(GOOD_CHECKPOINT)


@pytest.mark.parametrize(
    "text",
    [
        "%YAML 1.1\n---\nstatus: yes\n",  # a directive changes what `yes` means
        "milestone: !custom m\n",  # tags are the round-trip loader's business
        "milestone: " + "[" * 150 + "]" * 150 + "\n",  # too deep for the reference loader
        "a: 1\n---\nb: 2\n",  # a stream
        "a: 1\na: 2\n",  # duplicate key
        "a: [1,\n",  # syntax error
        "a: &x 1\nb: *x\n",  # anchor names are read differently
    ],
)
def test_fast_path_hands_over(text: str) -> None:
    assert loaders._fast_document(text, 100_000) is None


def test_without_libyaml_the_same_document_is_read(monkeypatch) -> None:
    fast = loaders.load_yaml(GOOD_CHECKPOINT)
    monkeypatch.setattr(fast_yaml, "_FAST_LOADER", [None])
    monkeypatch.setattr(parsing, "_COMPOSER", [None])
    slow = loaders.load_yaml(GOOD_CHECKPOINT)
    assert loaders.to_plain(fast.data) == loaders.to_plain(slow.data)
    for path in paths(slow.data):
        assert fast.locate(path, False) == slow.locate(path, False)


@pytest.mark.parametrize(
    "text",
    [
        "a:\n  - x: 1\n    y: [1, {z: 2}]\n  - 'q'\n",
        "? complex\n: value\nlist:\n- a\n- b\n",
        "anchor: &a {k: v}\nref: *a\nmerged:\n  <<: *a\n  k2: v2\n",
        "when: 2026-01-02T03:04:05+02:00\nday: 2026-01-02\nflag: true\n1: one\nnull: n\n",
        "block: |\n  line\n  line\nfolded: >-\n  a\n  b\nafter: x\n",
        "a: 1\r\nb:\r\n  - c\r\n",
        "# only a comment\n",
        "",
    ],
)
def test_fast_and_round_trip_agree_on_shapes(text: str) -> None:
    assert_same_reading(text)


@settings(
    max_examples=int(os.environ.get("LOADER_EXAMPLES", 300)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(mutated())
def test_fast_and_round_trip_agree_on_mangled_checkpoints(text: str) -> None:
    assert_same_reading(text.removeprefix("\ufeff"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints())
def test_fast_and_round_trip_agree_on_generated_checkpoints(cp) -> None:
    assert_same_reading(cp.text.removeprefix("\ufeff"))


JSON_DOC = (
    '\ufeff{\n  "a": {"b": [10, {"c": "x, ]}"}, [1, 2]]},\n'
    '  "s": "q\\"uote",\n  "e": [],\n  "o": {},\n  "n": null\n}\n'
)


@pytest.mark.parametrize(
    ("path", "on_key", "expected"),
    [
        ((), False, (1, 2)),
        (("a",), True, (2, 3)),
        (("a",), False, (2, 8)),
        (("a", "b", 1, "c"), False, (2, 25)),
        (("a", "b", 1, "c"), True, (2, 20)),
        (("a", "b", 2, 1), False, (2, 39)),
        (("s",), False, (3, 8)),
        (("n",), False, (6, 8)),
        (("a", "b", 7), False, (2, 14)),  # past the end: the list itself
        (("e", 0), False, (4, 8)),  # into an empty list
        (("o", "k"), True, (5, 8)),  # a missing key: its object
        (("a", "missing", "deeper"), False, (2, 8)),
        (("s", "x"), False, (3, 8)),  # into a string
    ],
)
def test_json_find_walks_only_the_path(path: tuple, on_key: bool, expected: tuple) -> None:
    assert json_loader.json_find(JSON_DOC, path, on_key) == expected
    assert json_loader.load_json(JSON_DOC.removeprefix("\ufeff")).locate(path, on_key) == (
        expected[0],
        expected[1] - (1 if expected[0] == 1 else 0),
    )


SCALARS = [
    "0", "-0", "+5", "012", "1_000", "0x1F", "0o17", "0b101", "-0x1f", "123456789012345678901",
    "1.5", "-2.", ".5", "1e3", "1.0e-3", ".inf", "-.Inf", ".NaN",
    "true", "True", "FALSE", "yes", "off", "~", "null", "Null", "",
    "2026-01-02", "2026-01-02T03:04:05Z", "2026-01-02 03:04:05.5 +02:00",
    "'012'", '"true"', "0.0.1", "12:30", "<<x", "=x", "-x", "+", "1_", "٣",
]  # fmt: skip


@pytest.mark.parametrize("scalar", SCALARS)
def test_fast_builder_types_scalars_as_safe_constructor_does(scalar: str) -> None:
    """Every plain scalar the fast builder types itself comes out as ruamel's would."""
    text = f"value: {scalar}\nkey_{scalar.strip(chr(39) + chr(34))}: 1\n"
    fast = loaders._fast_document(text, 100_000)
    assert fast is not None, "an ordinary scalar must not leave the fast path"
    slow = loaders._rt_document(text, 100_000)
    mine, reference = loaders.to_plain(fast.data), loaders.to_plain(slow.data)
    assert repr(mine) == repr(reference)
    assert [type(v) for v in mine.values()] == [type(v) for v in reference.values()]


@pytest.mark.parametrize(
    "text",
    [
        "base: &b {a: 1}\nm:\n  <<: *b\n",  # merge keys: anchors never take the fast path
        "? [a, b]\n: 1\n",  # a complex key
        "a: 1\nb: 2\nb: 3\n",  # a duplicate key
        "1: x\ntrue: y\n1.0: z\n",  # keys equal to ruamel too
    ],
)
def test_fast_builder_hands_unusual_mappings_over(text: str) -> None:
    assert loaders._fast_document(text, 100_000) is None
    assert_same_reading(text)


def test_a_long_document_without_aliases_is_no_alias_bomb() -> None:
    """The alias limit counts what aliases add, not entries: a long list without an
    alias is read (by the fast path) however many nodes it has."""
    text = "items:\n" + "".join(f"  - {i}\n" for i in range(50))
    assert loaders._fast_document(text, 40) is not None
    assert loaders.load_yaml(text, 40).data["items"][-1] == 49
    # the same nodes behind an anchor are read by the round-trip reader: still fine
    anchored = "items: &all\n" + "".join(f"  - {i}\n" for i in range(50))
    assert loaders.load_yaml(anchored, 40).data["items"][-1] == 49
    # one alias of it adds 51 nodes: over 40
    with pytest.raises(loaders.YAMLProblem) as info:
        loaders.load_yaml(anchored + "again: *all\n", 40)
    assert info.value.rule == "yaml-aliases"
    assert loaders.load_yaml(anchored + "again: *all\n", 60).data["again"][0] == 0


def _reading(text: str) -> object:
    """What load_yaml makes of `text`: its data and every path's position, or the problem."""
    try:
        doc = loaders.load_yaml(text)
    except loaders.YAMLProblem as problem:
        return ("problem", problem.rule, problem.message, problem.line, problem.col)
    return doc.data, [doc.locate(p, k) for p in paths(doc.data) for k in (False, True)]


@pytest.mark.parametrize(
    "text",
    [
        GOOD_CHECKPOINT,
        GOOD_CHECKPOINT + "notes: |\n  one\n  two\n",  # a block scalar
        GOOD_CHECKPOINT + "ratio: 1.5\nwhen: 2026-01-02\n",  # a float, a timestamp
        GOOD_CHECKPOINT + "a: &x [1, 2]\nb: *x\n",  # an anchor and its alias
        GOOD_CHECKPOINT + "a: 1\na: 2\n",  # a duplicate key
        GOOD_CHECKPOINT.replace("status: in_progress", "status: [in_progress"),  # broken
        GOOD_CHECKPOINT.replace('  - "Task 7: add tests"', '   - "Task 7: add tests"'),
        "- a\n- b: [1\n",
        "a: b\n---\nc: d\n",  # two documents
    ],
)
def test_a_batch_reads_what_one_file_reads(text: str) -> None:
    alone = _reading(text)
    with loaders.batch_reading():
        assert _reading(text) == alone
