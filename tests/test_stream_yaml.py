"""Data read as data (`load_data`: the trim archive) and data read with positions
(`load_yaml`, one file or in a batch) are the same, whichever reader reads them (the
plain reader, libyaml's node-based fast path, the round trip): on every yaml-test-suite
case, on shapes the plain reader must hand over, and on generated checkpoints and
mutations of one. A file whose checks need no positions (`load_yaml(...,
positions=False)`) gets the same data, the same problems and the same positions."""

from __future__ import annotations

import json
import os
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from reading_support import norm
from test_trim_properties import checkpoints, mutated

from asimov_hooks.readers import loaders
from asimov_hooks.readers.loaders import YAMLProblem, batch_reading, load_data, load_yaml
from asimov_hooks.readers.plain_yaml import HandOver, plain_data


def stream_data(text: str):
    """(True, data) when the plain reader reads `text`, else (False, None)."""
    try:
        return True, plain_data(text)[0]
    except (HandOver, YAMLProblem):
        return False, None


SUITE = os.path.join(os.path.dirname(__file__), "conformance", "yaml-test-suite", "cases.json")
with open(SUITE, encoding="utf-8") as _fh:
    CASES = json.load(_fh)


def reading(text: str, positions: bool):
    """(data, None) or (None, (rule, message, line, col)) as load_yaml reads `text`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return norm(load_yaml(text, positions=positions).data), None
        except YAMLProblem as problem:
            return None, (problem.rule, problem.message, problem.line, problem.col)


def assert_agrees(text: str) -> bool:
    """Every reading of `text` gives the same; True when the plain reader read it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        streamed, data = stream_data(text)
        whole = reading(text, positions=True)
        assert reading(text, positions=False) == whole
        with batch_reading():
            assert reading(text, positions=True) == whole
    if streamed:
        assert norm(data) == whole[0]
        assert norm(load_data(text)[0]) == whole[0]
    return streamed


def test_the_suite_is_there() -> None:
    assert len(CASES) > 400


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_suite_case_reads_the_same(case: str) -> None:
    assert_agrees(CASES[case]["yaml"])


def test_the_plain_reader_reads_some_of_the_suite() -> None:
    """Not a path that hands everything over (the test above could not fail then)."""
    read = sum(assert_agrees(spec["yaml"]) for spec in CASES.values())
    assert read > 10


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",  # a duplicate key
        "- {a: 1, a: 1}\n",
        "? [a]\n: b\n",  # a complex key
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "a: !!str 1\n",  # a tag
        "<<: {a: 1}\nb: 2\n",  # a merge key
        "a: 1\n---\nb: 2\n",  # a stream of two documents
        "a: [1,\n",  # a syntax error
        "when: 2026-13-45\n",  # a timestamp no date holds
        "%YAML 1.1\n---\na: yes\n",  # a directive
        "a:\tb\n",  # a tab the two scanners place differently
        "k:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 101)) + "  " * 101 + "x\n",
    ],
)
def test_what_the_stream_hands_over(text: str) -> None:
    assert stream_data(text) == (False, None)
    assert_agrees(text)


@pytest.mark.parametrize(
    "text, data",
    [
        ("- a\n- 'b'\n- 1\n- 0x1f\n- 1.5\n- .inf\n- true\n- ~\n- \n", None),
        ("- a\n- 'b'\n- 1\n- true\n- ~\n- .x\n", ["a", "b", 1, True, None, ".x"]),
        ("- a: 1\n  b: [x, 'y']\n- c: {}\n", [{"a": 1, "b": ["x", "y"]}, {"c": {}}]),
        ("when: 2026-01-02T03:04:05Z\nday: 2026-01-02\n1: one\nnull: n\n", None),
        ("block: |\n  line\n  line\nfolded: >-\n  a\n  b\nafter: x\n", None),
        ("a: 1\r\nb:\r\n  - c\r\n", {"a": 1, "b": ["c"]}),
        ("# only a comment\n", None),
        ("just a scalar\n", "just a scalar"),
        ("[]\n", []),
        ("- []\n- {}\n- [[], {a: [b]}]\n", [[], {}, [[], {"a": ["b"]}]]),
    ],
)
def test_what_the_readers_read(text: str, data) -> None:
    assert_agrees(text)
    if data is not None:
        assert load_data(text)[0] == data
        assert load_yaml(text).data == data


def test_the_deepest_nesting_the_fast_path_reads_is_read() -> None:
    text = "[" * 99 + "x" + "]" * 99 + "\n"  # the scalar at depth 100
    assert_agrees(text)
    deep = "".join(f"{'  ' * i}k{i}:\n" for i in range(101)) + "  " * 101 + "x: 1\n"
    assert stream_data(deep) == (False, None)  # past 100 levels: the library's


def test_positions_asked_for_later_are_the_node_based_ones() -> None:
    text = "- a: 1\n  b:\n    - x\n    - y: z\n- c: 'q'\n"
    later, now = load_yaml(text, positions=False), load_yaml(text)
    for path in [(0,), (0, "a"), (0, "b", 1, "y"), (1, "c"), (9,)]:
        for on_key in (False, True):
            assert later.locate(path, on_key) == now.locate(path, on_key)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints())
def test_generated_checkpoints_read_the_same(generated) -> None:
    assert_agrees(generated.text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_checkpoints_read_the_same(text: str) -> None:
    assert_agrees(text)


def test_loaders_use_no_node_tree_for_plain_data(monkeypatch) -> None:
    def no_nodes(*args, **kwargs):
        raise AssertionError("a node-based reading")

    monkeypatch.setattr(loaders, "_fast_document", no_nodes)
    monkeypatch.setattr(loaders, "_rt_document", no_nodes)
    text = "- a: 1\n  b: [x]\n"
    assert load_data(text) == ([{"a": 1, "b": ["x"]}], False)
    assert load_yaml(text, positions=False).data == [{"a": 1, "b": ["x"]}]
