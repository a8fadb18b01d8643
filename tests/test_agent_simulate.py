"""The content a Write, Edit or MultiEdit would leave (agent/runtime/simulate) and which errors a
write makes worse (agent/runtime/verdict), held to small references by property tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asimov_hooks.agent.runtime import simulate
from asimov_hooks.agent.runtime.simulate import CannotSimulate, OutOfBounds, Replace, TooBig, Write
from asimov_hooks.agent.runtime.verdict import worse
from asimov_hooks.findings import Finding

TEXT = st.text(alphabet="ab\né", max_size=30)
EDIT = st.fixed_dictionaries(
    {"old_string": st.text(alphabet="ab\né", max_size=3), "new_string": TEXT},
    optional={"replace_all": st.booleans()},
)


def reference(text: str | None, edits: list[dict], limit: int) -> str:
    """The tools' rules, stated plainly, with the limit checked after each step:
    the result, or "fail" where the tool would fail, or "big" past the limit."""
    for edit in edits:
        old, new = edit["old_string"], edit["new_string"]
        if text is None or (old == "" and text == ""):
            if old != "":
                return "fail"
            text = new
        elif old == "" or old not in text or (text.count(old) > 1 and not edit.get("replace_all")):
            return "fail"
        else:
            text = text.replace(old, new)
        if len(text.encode("utf-8")) > limit:
            return "big"
    return text


@settings(max_examples=200, deadline=None)
@given(current=st.one_of(st.none(), TEXT), edits=st.lists(EDIT, min_size=1, max_size=4))
def test_replace_matches_the_reference(current, edits) -> None:
    limit = 40
    if current is not None and len(current.encode("utf-8")) > limit:
        current = current[:10]
    expected = reference(current, edits, limit)
    try:
        got = Replace(edits, multi=True).apply(current, limit)
    except CannotSimulate:
        got = "fail"
    except TooBig:
        got = "big"
    assert got == expected


def test_replace_all_is_refused_before_it_is_built() -> None:
    with pytest.raises(TooBig) as caught:
        Replace([{"old_string": "a", "new_string": "b" * 1000, "replace_all": True}]).apply(
            "a" * 100_000, 1 << 20
        )
    assert caught.value.size > 1 << 20


def test_write_is_held_to_the_limit_in_bytes() -> None:
    assert Write("é" * 10).apply(None, 20) == "é" * 10
    with pytest.raises(TooBig):
        Write("é" * 11).apply(None, 20)
    with pytest.raises(CannotSimulate):
        Write(None).apply(None, 20)


def test_edit_count_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(simulate, "MAX_EDITS", 3)
    edits = [{"old_string": "a", "new_string": "a"}] * 4
    with pytest.raises(OutOfBounds, match="split it"):
        Replace(edits).apply("a", 100)


def finding(rule: str, message: str, line: int = 1) -> Finding:
    return Finding("f", line, 1, "error", rule, message)


def test_worse_keeps_new_errors_and_grown_sizes() -> None:
    before = [
        finding("schema", "status: 'x' is not one of: a, b", 3),
        finding("max-lines-hard", "45 lines, over the hard limit of 15"),
    ]
    moved = finding("schema", "status: 'x' is not one of: a, b", 9)
    shrunk = finding("max-lines-hard", "42 lines, over the hard limit of 15")
    grown = finding("max-lines-hard", "46 lines, over the hard limit of 15")
    added = finding("schema", "tool_calls: -1 is less than the minimum of 0")
    assert worse(before, [moved, shrunk]) == []
    assert worse(before, [moved, grown]) == [grown]
    assert worse(before, [moved, shrunk, added]) == [added]
    assert worse([], [moved]) == [moved]


def test_repairing_the_syntax_uncovers_no_new_errors() -> None:
    before = [finding("syntax", "expected ',' or ']' (line 4, column 7)")]
    after = [finding("schema", "status: 'x' is not one of: a, b")]
    assert worse(before, after) == []
    assert worse(
        before, [*after, finding("max-bytes-hard", "300,000 bytes, over the 262,144-byte limit")]
    )
