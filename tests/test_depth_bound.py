"""The YAML depth guard's shortcut (guards._yaml_depth_bound) never lets a file skip
the line-by-line scan that the scan would refuse: the bound is at least the depth the
scan finds, on generated YAML-like text with every construct that adds a level."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asimov_hooks.readers import fastjson, guards

PIECES = ["- ", "? ", ": ", "-", "?", "[", "]", "{", "}", '"', "'", "#", "|", ">", "a", "k:", ","]


@st.composite
def yamlish(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 30))):
        indent = " " * draw(st.integers(0, 24))
        body = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=10)))
        lines.append(indent + body)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + draw(st.sampled_from(["", newline]))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(yamlish())
def test_the_bound_is_never_below_the_scan(text: str) -> None:
    """The scan refuses a text once its depth passes the limit, so a scan limited to the
    bound that lets the text through shows the depth it finds is within the bound."""
    bound = guards._yaml_depth_bound(text) + text.count("[") + text.count("{")
    try:
        guards._yaml_depth(text, bound)
    except guards.InputProblem as exc:
        raise AssertionError(f"the scan finds more than the bound {bound}: {exc}") from None


def test_the_scan_refuses_one_level_past_its_limit() -> None:
    """What the property above rests on: the scan passes a text at its depth, and
    refuses it at one level less."""
    for text, depth in (("a: 1\n", 1), ("a:\n  b:\n    - c\n", 4), ("a: [[{b: 1}]]\n", 4)):
        guards._yaml_depth(text, depth)
        with pytest.raises(guards.InputProblem):
            guards._yaml_depth(text, depth - 1)


def test_deep_block_nesting_is_still_scanned() -> None:
    """The shortcut leaves deep files to the scan, which refuses them."""
    text = "k0:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 150))
    assert guards._yaml_depth_bound(text) > 100
    compact = "k:\n  " + "- " * 150 + "x\n"
    assert guards._yaml_depth_bound(compact) > 100


JSON_PIECES = ["[", "]", "{", "}", '"', "\\", '\\"', "a", ",", ":", " ", "1"]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(JSON_PIECES), max_size=80), st.integers(1, 12))
def test_json_shortcut_refuses_exactly_what_the_scan_refuses(pieces, limit) -> None:
    """The JSON guard's shortcut (strings and all but brackets dropped at C speed) lets
    through exactly what the token scan lets through, and the scan still says where."""
    import re

    text = "".join(pieces)
    deepest, depth = 0, 0
    for match in re.finditer(fastjson.JSON_TOKEN, text):
        ch = match.group()[0]
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(depth - 1, 0)
    assert (fastjson.depth_past(text, limit) >= 0) == (deepest > limit)
