"""The trimmer composes through libyaml where the fast readers would (about a hundred
times faster than the pure reader it cuts by otherwise): there every node's marks, and
the data, are the pure reader's, on generated checkpoints, mutations of them and every
yaml-test-suite case."""

from __future__ import annotations

import json
import os
import warnings

from hypothesis import HealthCheck, given, settings
from test_trim_properties import checkpoints, mutated

from asimov_hooks.trim.parsing import _libyaml_nodes, _pure_nodes

SUITE = os.path.join(os.path.dirname(__file__), "conformance", "yaml-test-suite", "cases.json")
with open(SUITE, encoding="utf-8") as _fh:
    CASES = json.load(_fh)


def marks(node, seen=None) -> list:
    """Every node's kind, tag, start (index, line, column) and end index, in document
    order: what the trimmer reads of a mark (an end's line and column, which libyaml
    places elsewhere at the end of a text without a final newline, it never reads)."""
    seen = set() if seen is None else seen
    if node is None or id(node) in seen:
        return []
    seen.add(id(node))
    out = [
        (
            type(node).__name__,
            str(node.tag),
            (node.start_mark.index, node.start_mark.line, node.start_mark.column),
            node.end_mark.index,
            getattr(node, "flow_style", None),
        )
    ]
    if isinstance(node.value, list):
        for item in node.value:
            for part in item if isinstance(item, tuple) else (item,):
                out += marks(part, seen)
    return out


def agrees(text: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = _libyaml_nodes(text)
        if fast is None:
            return False
        try:
            pure = _pure_nodes(text)
        except Exception:  # the pure reader refuses what libyaml reads: not allowed here
            raise AssertionError(f"libyaml read what the pure reader refuses: {text!r}") from None
    assert marks(fast[0]) == marks(pure[0]), text
    assert repr(fast[1]) == repr(pure[1]), text
    return True


def test_suite_cases_compose_the_same() -> None:
    read = 0
    for spec in CASES.values():
        try:
            read += agrees(spec["yaml"])
        except AssertionError as problem:
            if "refuses" not in str(problem):
                raise
    assert read > 100


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints())
def test_generated_checkpoints_compose_the_same(generated) -> None:
    agrees(generated.text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_checkpoints_compose_the_same(text: str) -> None:
    try:
        agrees(text)
    except AssertionError as problem:
        if "refuses" not in str(problem):
            raise
