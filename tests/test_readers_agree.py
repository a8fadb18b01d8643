"""The validator and the merge driver read JSON alike: NaN and Infinity are not JSON."""

from __future__ import annotations

import pytest
from merge_support import JSON_PATH, dump, oc, settings

from asimov_hooks.merge.driver import merge_bytes
from asimov_hooks.merge.json_merge import ParseError, load
from asimov_hooks.readers.json_loader import YAMLProblem, load_json


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_both_readers_reject_the_constant(constant: str) -> None:
    text = '{"tool_calls": ' + constant + "}"
    with pytest.raises(YAMLProblem, match=f"{constant} is not a JSON value"):
        load_json(text)
    with pytest.raises(ParseError, match=f"{constant} is not a JSON value"):
        load(text)


def test_the_driver_never_writes_a_nan_it_would_then_reject() -> None:
    base = dump(oc())
    ours = dump(oc(progress_summary="ours"))
    theirs = dump(oc(updated_at="2026-04-01T00:00:00Z")).replace(
        '"protocol_version"', '"x": NaN, "protocol_version"'
    )
    outcome = merge_bytes(base.encode(), ours.encode(), theirs.encode(), settings(JSON_PATH))
    # a side that does not parse: git's own line merge, not a tree merge that keeps NaN
    assert outcome.data is None and outcome.how == "line-merge", outcome.how
