"""The plain reader (readers/plain_yaml) reads exactly what the libyaml readers read, or
hands the text over: on every yaml-test-suite case, on generated checkpoints and
mutations of them, on generated line soups of the shapes it takes (with items that are
mappings and flow lists), and on the benchmark corpus's families; both of its
tokenizers give the same rows; the positions it works out are libyaml's; the broken
shape it tells is told in the round trip's words."""

from __future__ import annotations

import json
import os
import random
import sys
import warnings

import pytest
from conftest import GOOD_CHECKPOINT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reading_support import norm
from test_reading_differential import _marks, library_position
from test_trim_properties import checkpoints, mutated

from asimov_hooks.readers import fast_yaml, loaders
from asimov_hooks.readers.loaders import YAMLProblem
from asimov_hooks.readers.plain_yaml import HandOver, plain_data, plain_locator

SUITE = os.path.join(os.path.dirname(__file__), "conformance", "yaml-test-suite", "cases.json")
with open(SUITE, encoding="utf-8") as _fh:
    CASES = json.load(_fh)


def simple_data(text: str, batch: bool = False):
    """(True, data) when the plain reader reads `text`, (False, None) when it hands it
    over, ("problem", (message, line, col)) when it tells its problem."""
    try:
        return True, plain_data(text, batch)[0]
    except HandOver:
        return False, None
    except YAMLProblem as problem:
        return "problem", (problem.message, problem.line, problem.col)


def round_trip(text: str):
    """The full round-trip reading's problem (message, line, column), or None."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            loaders._rt_document(text, 100_000)
        except YAMLProblem as problem:
            return problem.message, problem.line, problem.col
    return None


def reference(text: str):
    """The libyaml readers' (or the round trip's) plain data, or the problem."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fast = fast_yaml._fast_document(text, 100_000)
            doc = fast if fast is not None else loaders._rt_document(text, 100_000)
            return norm(loaders.to_plain(doc.data))
        except YAMLProblem as problem:
            return ("problem", problem.rule)


def agrees(text: str) -> bool:
    read, data = simple_data(text)
    # a batch's reading (one regular expression over the commonest lines) is the same,
    # types and key order included
    assert repr(simple_data(text, batch=True)) == repr((read, data)), text
    if read == "problem":
        assert data == round_trip(text), text
        return False
    if read:
        assert norm(data) == reference(text), text
    return read


def test_every_suite_case_reads_the_same() -> None:
    read = sum(agrees(spec["yaml"]) for spec in CASES.values())
    assert read > 10  # not a reader that hands everything over


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",  # a duplicate key
        "a: |\n  x\n",  # a block scalar
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: 1.5\n",  # a float: ruamel's construction
        "a: 2026-01-02\n",  # a timestamp
        "a: 0x1f\n",
        "a: -01\n",  # a negative number with a leading zero
        "a: -1.5\n",
        'a: "x\\ty"\n',  # an escape
        'a: "x\n  y"\n',  # a quoted scalar over two lines
        "a: x\n  y\n",  # a plain scalar over two lines
        "a:\tb\n",
        "a: b\r\n",
        "---\na: 1\n",
        "a: b: c\n",
        "true: 1\n",
        "a:\n- x\n -y\n",
        "a:\n  - x\n y: 1\n",
        "a:\n  b: 1\n c: 2\n",
        "a:\n  -\n  - y\n",
        "a: 'x' y\n",
        "",
        "# only a comment\n",
        "a: [1.5]\n",
        "a: {b: 1}\n",
        'a: "open\n',  # an open quote: the round trip says what and where
        'a: "open\n  b: 1\n',
        f"{'k' * 1025}: 1\n",  # a key longer than any library takes
        f"{'k' * 1001}: 1\n",
        "null: 1\n",
        "~: 1\n",
        "TRUE: 1\n",
        "0o7: 1\n",
        "1.50: 1\n",
    ],
)
def test_what_it_hands_over(text: str) -> None:
    got = simple_data(text)
    assert got == (False, None) or got == ("problem", round_trip(text))


@pytest.mark.parametrize(
    "text, data",
    [
        ("a: 1\nb: x y\n", {"a": 1, "b": "x y"}),
        ("a: yes\nb: on\nc: No\nd: True\ne: ~\nf:\n", {"a": "yes", "b": "on", "c": "No",
         "d": True, "e": None, "f": None}),
        ("a: 'it''s' # c\nb: \"q: #x\"  # c\nc: C# and x#y\n",
         {"a": "it's", "b": "q: #x", "c": "C# and x#y"}),
        ("a:\n- x\n- 'y'\nb:\n  c:\n    - 1\n  d: +3\n", {"a": ["x", "y"],
         "b": {"c": [1], "d": 3}}),
        ("a:\n\n  # c\n  - x   \n\n  - y\nb: z\n", {"a": ["x", "y"], "b": "z"}),
        ("ключ: значение — x\n", {"ключ": "значение — x"}),
        ("tool_calls: -3\nb:\n  - -12 # c\n", {"tool_calls": -3, "b": [-12]}),
        ("a: [1, 2]\n", {"a": [1, 2]}),
        ("- a\n- b\n", ["a", "b"]),
        ("a:\n  - x: 1\n", {"a": [{"x": 1}]}),
        ("completed: []\nb: {}  # c\nc: [ ]\n", {"completed": [], "b": {}, "c": []}),
        ("- trimmed_at: '2025-11-29'\n  source: .claude\n  removed:\n    a:\n      - x\n",
         [{"trimmed_at": "2025-11-29", "source": ".claude", "removed": {"a": ["x"]}}]),
    ],
)  # fmt: skip
def test_what_it_reads(text: str, data) -> None:
    assert simple_data(text) == (True, data)
    assert agrees(text)


def test_a_checkpoint_is_read_here() -> None:
    assert agrees(GOOD_CHECKPOINT)


@pytest.mark.parametrize(
    "text",
    [
        'a: "x"\nb:\n  - "y"\n  - z\nc:\n  d: 1\n',
        "a: x  \nb: -3\n",  # trailing spaces; a negative number (left to the lines)
        "a:\n- 'x'\n",
        'a: "x" # c\n',
        "a: 1\n\n# c\n   \nb: 2",
        "a:\n  - x\n b: 1\n",
    ],
)
def test_a_batch_reads_what_the_lines_read(text: str) -> None:
    agrees(text)


WORDS = ["a", "b", "key", "true", "no", "null", "~", "1", "+2", "012", "-3", "-0", "-07",
         "-1_0", "-", "--2", "-3x", "x y", "it''s", "#",
         " #c", ":", ": ", "-", "- ", "'", '"', "1.5", "[x]", "{", "&a", "*a", "!x", "é",
         "\\", "|", ">", "?", "%", "@", "`", "yes", "on", "0x1", "2026-01-02", "C#"]  # fmt: skip


@st.composite
def line_soups(draw: st.DrawFn) -> str:
    """Lines of the shapes the reader takes (and near misses) at a few indents."""
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        indent = " " * draw(st.sampled_from([0, 0, 0, 1, 2, 2, 4]))
        shape = draw(
            st.sampled_from(["key", "keyval", "keyval", "item", "item", "comment", "blank", "raw"])
        )
        plain = draw(st.sampled_from(["plain", "word", "x y", "no", "1"]))
        word = draw(st.sampled_from([plain] * len(WORDS) + WORDS))
        word += draw(st.sampled_from(["", "", "", "x", " y", " #z"]))
        quote = draw(st.sampled_from(["", "", "'", '"']))
        value = f"{quote}{word}{quote}"
        key = draw(st.sampled_from(["a", "b", "c", "d", "c-d", "e.f", "true", "1", "g h"]))
        lines.append(
            {
                "key": f"{indent}{key}:",
                "keyval": f"{indent}{key}: {value}",
                "item": f"{indent}- {value}",
                "comment": f"{indent}# {word}",
                "blank": indent,
                "raw": f"{indent}{value}",
            }[shape]
        )
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_soups())
def test_line_soups_read_the_same(text: str) -> None:
    agrees(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints())
def test_generated_checkpoints_read_the_same(generated) -> None:
    agrees(generated.text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_checkpoints_read_the_same(text: str) -> None:
    agrees(text)


def benchmark_texts() -> list[str]:
    """120 files of the benchmark corpus: checkpoints and warmups, every variant."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
    import corpus_files

    return [
        make(random.Random(index), ["valid", "oversized", "schema", "syntax", "foreign"][index % 5])
        for index in range(60)
        for make in (corpus_files.asimov_checkpoint, corpus_files.warmup)
    ]


def test_benchmark_families_read_the_same() -> None:
    assert sum(agrees(text) for text in benchmark_texts()) > 60


def test_positions_of_what_it_reads_are_libyamls() -> None:
    text = "a: 1\nb:\n  - x\n  - y\nc:\n  d: 'q'\n"
    assert simple_data(text)[0]
    doc, nodes = loaders.load_yaml(text), fast_yaml._fast_document(text, 100_000)
    for path in [("a",), ("b", 1), ("c",), ("c", "d"), ("z",)]:
        for on_key in (False, True):
            assert doc.locate(path, on_key) == nodes.locate(path, on_key)


def _paths(data, prefix=()):
    """Every path into `data`, and paths that leave it (a missing key, an index past
    the end, a key under a scalar)."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
        yield (*prefix, "missing")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, (*prefix, index))
        yield (*prefix, len(data))
        yield (*prefix, -1)
    else:
        yield (*prefix, "below")


def positions_agree(text: str) -> bool:
    """Where the plain reader's locator puts every path is where libyaml's marks do."""
    read, data = simple_data(text)
    if not read:
        return False
    if read == "problem":
        return False
    nodes = fast_yaml._fast_document(text, 100_000) or loaders._rt_document(text, 100_000)
    yaml, root = _marks(text)
    mine = plain_locator(text)
    for path in _paths(data):
        for on_key in (False, True):
            # libyaml's mark; for a text the fast path leaves to the round trip, the two
            # differ on an empty value at the very end (`a:\n \n`), and either is the library's
            places = {nodes.locate(path, on_key)}
            if root is not None:
                places.add(library_position(yaml, root, path, on_key))
            assert mine(path, on_key) in places, (text, path, on_key)
    return True


@pytest.mark.parametrize(
    "text",
    [
        "a:\nb:   # a comment\n  - x\nc:\n- y\n-   'z'\nd: \"é😀\" # x\ne: x😀y\nf:\n  g:\n    h:\n",
        "k:    v\n# a comment\n\n  # an indented comment\nz:\n",
        "top:\n  - 1\n  - true\n  - ~\nnext: 'it''s'\n",
    ],
)
def test_positions_of_odd_lines_are_libyamls(text: str) -> None:
    assert positions_agree(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_soups())
def test_positions_in_line_soups_are_libyamls(text: str) -> None:
    positions_agree(text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints())
def test_positions_in_generated_checkpoints_are_libyamls(generated) -> None:
    positions_agree(generated.text)


def test_positions_in_benchmark_families_are_libyamls() -> None:
    assert sum(positions_agree(text) for text in benchmark_texts()) > 60


def guard_says(check, text: str, limits: dict[str, int]):
    try:
        check(text, limits)
    except YAMLProblem as problem:
        return problem.message, problem.line, problem.col
    return None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_soups(), st.sampled_from([1, 2, 3, 4, 6, 100]))
def test_the_plain_guard_says_what_the_guard_says(text: str, depth: int) -> None:
    """What the plain reading proves spares the guard's scan, never its answer."""
    from asimov_hooks.readers.document import guard, guard_plain
    from asimov_hooks.readers.guards import limits

    if simple_data(text)[0] is not True:
        return
    lim = {**limits(), "max-depth": depth}
    assert guard_says(guard_plain, text, lim) == guard_says(
        lambda t, li: guard(t, "yaml", li), text, lim
    )


def test_the_plain_guard_on_deep_and_long_texts() -> None:
    from asimov_hooks.readers.document import guard, guard_plain
    from asimov_hooks.readers.guards import limits

    texts = [t for t in benchmark_texts() if simple_data(t)[0] is True]
    texts += ["".join(f"{' ' * i}k{i}:\n" for i in range(n)) + f"{' ' * n}v: 1\n" for n in range(9)]
    texts += [
        "a:\n" + "  - x [\n" * 3,
        "a: 'x!'\n",
        "a:\n" + "".join(f"b{i}: 1\n" for i in range(150)),
    ]
    refused = 0
    for text in texts:
        for depth in (1, 2, 3, 5, 8, 100, 200):
            lim = {**limits(), "max-depth": depth}
            plain = guard_says(guard_plain, text, lim)
            assert plain == guard_says(lambda t, li: guard(t, "yaml", li), text, lim), text
            refused += plain is not None
    assert refused > 20


def more_agrees(text: str) -> bool:
    """The plain reader reads what the libyaml readers read (items that are mappings,
    flow lists), or tells the round trip's problem, or hands the text over."""
    return agrees(text) is True


@st.composite
def item_soups(draw: st.DrawFn) -> str:
    """Lists of mappings (`- key: value`, keys lined up under it or not) and flow lists,
    and near misses, at a few indents."""
    lines = []
    for _ in range(draw(st.integers(1, 10))):
        indent = " " * draw(st.sampled_from([0, 0, 2, 2, 3, 4, 4, 6, 8]))
        key = draw(st.sampled_from(["a", "b", "name", "args", "true", "c-d"]))
        word = draw(st.sampled_from([*WORDS, "warm", "4", '"x"', '"a, b"', "x:1", "r.io/x:3.0"]))
        items = draw(st.lists(st.sampled_from(['"-v"', '"4"', "4", "x", "true", '"a"', "", "'q'",
                                               "-1", "x y", "[x]", '"\\n"', "a_b", "0x1"]),
                              max_size=4))  # fmt: skip
        flow = "[" + draw(st.sampled_from([", ", ",", " , "])).join(items) + "]"
        flow += draw(st.sampled_from(["", "", " # c", "x", ","]))
        lines.append(
            draw(
                st.sampled_from(
                    [
                        f"{indent}- {key}: {word}",
                        f"{indent}-   {key}: {word}",
                        f"{indent}- {key}:",
                        f"{indent}{key}: {word}",
                        f"{indent}{key}:",
                        f"{indent}{key}: {flow}",
                        f"{indent}- {flow}",
                        f"{indent}- {word}",
                        f"{indent}# {word}",
                        indent,
                    ]
                )
            )
        )
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(item_soups())
def test_item_soups_read_the_same(text: str) -> None:
    more_agrees(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_soups())
def test_line_soups_read_the_same_with_items(text: str) -> None:
    more_agrees(text)


def test_items_and_flow_lists_are_read() -> None:
    manifest = (
        "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n"
        '        - name: warm\n          image: r.example.com/w:3.0\n          args: ["-c", "4"]\n'
        "      restartPolicy: Never\n"
    )
    texts = [manifest, "a:\n- b: 1\n  c: [x, 2, true]\n- d:\n    - e\n", "a: []\nb: [ ]\n"]
    assert all(more_agrees(text) for text in texts)
    assert sum(more_agrees(text) for text in benchmark_texts()) > 60
    assert sum(more_agrees(case["yaml"]) for case in CASES.values()) > 10


def more_document(rng: random.Random) -> str:
    """A document of mappings, lists (of scalars, flow lists and mappings, `- key:` and
    its keys lined up under it) and one-line flow lists, at assorted indents."""
    scalars = ['"x"', '"a, b"', "warm", "4", "true", "~", "r.io/x:3.0", "'q'", "-1", "x y"]
    flows = ['["-c", "4"]', "[x, 2, true]", "[]", "[ ]", '["a"]', "[a_b,c]"]

    def value() -> str:
        return rng.choice(scalars + flows) + rng.choice(["", "", "", " # c"])

    def mapping(indent: int, depth: int, first: str = "") -> list[str]:
        pad, lines = " " * indent, []
        for n in range(rng.randint(1, 3)):
            key = f"{rng.choice(['name', 'args', 'k', 'spec'])}{depth}{n}"
            lead = first if n == 0 and first else pad
            shape = rng.random() if depth < 4 else 0.0
            if shape < 0.45:
                lines.append(f"{lead}{key}: {value()}")
            elif shape < 0.75:
                lines.append(f"{lead}{key}:")
                step = rng.choice([0, 2, 2, 4])
                for _ in range(rng.randint(1, 3)):
                    dash = f"{pad}{' ' * step}-{' ' * rng.choice([1, 1, 3])}"
                    if rng.random() < 0.5:
                        lines += mapping(len(dash), depth + 1, first=dash)
                    else:
                        lines.append(f"{dash}{value()}")
            else:
                lines.append(f"{lead}{key}:")
                lines += mapping(indent + rng.choice([1, 2, 4]), depth + 1)
        return lines

    return "\n".join(mapping(0, 0)) + rng.choice(["\n", ""])


@pytest.mark.parametrize("seed", range(3))
def test_documents_with_items_read_the_same(seed: int) -> None:
    rng = random.Random(seed)
    read = 0
    for _ in range(300):
        text = more_document(rng)
        read += more_agrees(text)
        for _ in range(2):  # and near misses
            at = rng.randrange(len(text) + 1)
            cut = text[:at] + rng.choice(["", " ", "-", ":", ",", "]", "[", '"', "\n ", "x"])
            more_agrees(cut + text[at + rng.randint(0, 3) :])
    assert read > 200


def more_positions_agree(text: str) -> bool:
    return positions_agree(text)


@pytest.mark.parametrize("seed", range(3))
def test_positions_in_documents_with_items_are_libyamls(seed: int) -> None:
    rng = random.Random(10 + seed)
    assert sum(more_positions_agree(more_document(rng)) for _ in range(300)) > 200
    assert sum(more_positions_agree(text) for text in benchmark_texts()) > 60


def test_the_batch_expression_compiles_on_python_3_10() -> None:
    """Python 3.10's `re` has no possessive quantifiers or atomic groups: the batch
    tokenizer's expression is written without them (linear all the same:
    tests/test_linear_time.py)."""
    from asimov_hooks.readers import plain_rows

    for token in ("*+", "++", "?+", "}+", "(?>"):
        assert token not in plain_rows._LINE
