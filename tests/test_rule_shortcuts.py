"""The shortcuts the rules take in a batch give the answers the long way gives: the
list-order detection's one search of all the items, the schema evaluator's type-only
nodes, what validate works out once per rule set and reuses for the next file, and a
top-level key's position found from its line."""

from __future__ import annotations

import json
import re

import jsonschema
from conftest import git_init, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from test_simple_yaml import benchmark_texts, line_soups

from asimov_hooks.minischema import Evaluator
from asimov_hooks.readers import fast_yaml, loaders
from asimov_hooks.readers.plain_yaml import HandOver, plain_data, plain_locator
from asimov_hooks.readers.problem import YAMLProblem
from asimov_hooks.trim import order
from asimov_hooks.trim.order import _trend, detect

CP = ".claude_checkpoint.yaml"


def detect_item_by_item(items: list) -> str | None:
    """`detect` as it was: every item searched for a date, then for a task number."""
    if len(items) < 2:
        return None
    date, task, newest = (re.compile(p).search for p in (order._DATE, order._TASK, order._NEWEST))
    texts = [item if isinstance(item, str) else "" for item in items]
    dates = [m.group(1).replace(" ", "T") if (m := date(t)) else None for t in texts]
    found = _trend(dates)
    if found:
        return found
    found = _trend([int(m.group(1)) if (m := task(t)) else None for t in texts])
    if found:
        return found
    first, last = bool(newest(texts[0])), bool(newest(texts[-1]))
    if first != last:
        return order.NEWEST_FIRST if first else order.OLDEST_FIRST
    return None


PIECES = st.sampled_from(
    ["2025-11-2", "9", "1", "-0", "T", " ", "10:30", ":00", "task", "Step", "#", "\x00",
     "\n", "x", "_", "most recent", "Latest", "é", "Task 3", "2025-01-05"]
)  # fmt: skip
ITEM = st.one_of(st.lists(PIECES, max_size=8).map("".join), st.integers(), st.none())


@given(st.lists(ITEM, max_size=7))
def test_one_search_of_all_items_finds_what_each_items_search_finds(items: list) -> None:
    assert detect(items) == detect_item_by_item(items)


def test_a_nul_between_items_never_joins_two_items_into_one_match() -> None:
    # "task" ending one item and "7" starting the next are no task number
    assert detect(["do the task", "7 is done", "task 9"]) is None
    assert detect(["2025-01-0", "2 and more", "x"]) is None
    assert detect(["a\x002025-01-02", "2025-01-03"]) == order.OLDEST_FIRST


INTEGERS = {"type": "integer"}
ITEMS = {"type": "array", "items": {"type": "string"}}
OBJECT = {
    "type": "object",
    "properties": {"n": INTEGERS, "s": {"type": "string"}, "l": ITEMS, "any": {"type": ["string", "array"]}},
}  # fmt: skip


def verdicts(schema: dict, value: object) -> tuple[list, list]:
    ours = sorted((e.path, e.keyword) for e in Evaluator(schema).errors(value))
    ref = sorted(
        (tuple(e.absolute_path), e.validator)
        for e in jsonschema.Draft202012Validator(schema).iter_errors(value)
    )
    return ours, ref


def test_a_type_only_node_looks_past_the_exact_type() -> None:
    # bool is an int to Python, not an integer to JSON Schema; subclasses of list, dict
    # and str (a round-trip reading) are still checked by their JSON type
    for value in (True, 3, 3.0, "3", None):
        ours, ref = verdicts(INTEGERS, value)
        assert ours == ref, value
    seq = CommentedSeq(["a", 1, True])
    assert [e.path for e in Evaluator(ITEMS).errors(seq)] == [(1,), (2,)]
    mapping = CommentedMap(n=True, s=1, l=CommentedSeq(["x", False]), any={"k": 1})
    found = sorted(e.path for e in Evaluator(OBJECT).errors(mapping))
    assert found == [("any",), ("l", 1), ("n",), ("s",)]
    assert Evaluator(OBJECT).errors({"n": 1, "s": "x", "l": ["a"], "any": ["b"]}) == []


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
        lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from("nsl"), kids, max_size=3),
        max_leaves=8,
    )
)  # fmt: skip
def test_type_only_shortcuts_agree_with_jsonschema(value: object) -> None:
    for schema in (INTEGERS, ITEMS, OBJECT, {**OBJECT, "additionalProperties": False}):
        ours, ref = verdicts(schema, value)
        assert ours == ref


# ------------------------------------------- answers kept per rule set, in one run
def _findings(cli, *names: str) -> dict[str, list[tuple]]:
    """{file: its findings} of one `asimov-validate --format json` run over `names`."""
    out = json.loads(cli("--jobs", "1", "--format", "json", *names).out)
    found: dict[str, list[tuple]] = {}
    for result in out["files"]:
        found.setdefault(result["path"], []).append(
            [(f["line"], f["rule"], f["message"], f["suggestion"]) for f in result["findings"]]
        )
    return found


def test_two_rule_sets_in_one_run_each_get_their_own_line_limit_advice(
    tmp_path, monkeypatch, cli
) -> None:
    # one text, two rule sets: under the default limits it is over the soft one and trim
    # would remove `notes` (so "run trim"); under the override it is over a hard limit of
    # 20 with no soft limit, where trim only caps the lists (nothing to remove)
    git_init(tmp_path)
    monkeypatch.chdir(tmp_path)
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "overrides:\n  - files: ['strict/**']\n"
        "    rules: {max-lines-soft: 'off', max-lines-hard: {max: 20}}\n",
    )
    text = (
        "milestone: M\nstatus: in_progress\n# a comment\n\ncompleted:\n"
        + "".join(f'  - "Task {n}"\n' for n in range(1, 4))
        + "notes:\n"
        + "".join(f'  - "note {n}"\n' for n in range(1, 17))
    )
    loose, strict = "loose/" + CP, "strict/" + CP
    write(tmp_path, loose, text)
    write(tmp_path, strict, text)
    alone = {**_findings(cli, loose), **_findings(cli, strict)}
    assert "run `asimov-hooks trim`" in alone[loose][0][0][3], alone
    assert "(1 comment and 1 blank lines of 25)" in alone[strict][0][0][3], alone
    assert _findings(cli, loose, strict) == alone
    assert _findings(cli, strict, loose) == alone


def test_two_known_key_lists_in_one_run_each_name_their_own_closest_key(
    tmp_path, monkeypatch, cli
) -> None:
    git_init(tmp_path)
    monkeypatch.chdir(tmp_path)
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "overrides:\n  - files: ['own/**']\n"
        "    rules: {unknown-key: {known: [milestone, milestones_done]}}\n",
    )
    text = "milestone: M\nstatus: done\nmilestones_don: 1\n"
    names = ["shipped/" + CP, "own/" + CP, "again/" + CP]
    for name in names:
        write(tmp_path, name, text)
    found = _findings(cli, *names)
    hints = {name: [f[2] for f in found[name][0] if "milestones_don" in f[2]] for name in names}
    assert hints["own/" + CP] == [
        "unknown key 'milestones_don' (not one of the checkpoint's known keys); "
        "did you mean 'milestones_done'?"
    ], found
    shipped = hints["shipped/" + CP]
    assert shipped == hints["again/" + CP] and "milestones_done" not in shipped[0], found


def test_a_broken_file_over_the_line_limit_reports_its_syntax_error_once(
    tmp_path, monkeypatch, cli
) -> None:
    # the size rules read the text to ask whether trim would help; the engine's parse
    # then reports the reading's problem (not read twice), exactly as it would alone
    git_init(tmp_path)
    monkeypatch.chdir(tmp_path)
    broken = "milestone: M\nstatus: [done\n" + "".join(f"# line {n}\n" for n in range(40))
    write(tmp_path, CP, broken)
    (found,) = _findings(cli, CP)[CP]
    rules = [f[1] for f in found]
    assert rules == ["max-lines-hard", "syntax"], found
    assert found[0][2] == "42 lines, over the hard limit of 30 (soft limit 20)", found
    assert found[1][0] == 43 and found[1][2].startswith("invalid YAML: expected ','"), found


# ------------------------------------------------ a top-level key's line, from its rows
def _top_level_agrees(text: str) -> bool:
    """The plain reader's answer for the document and each top-level key (and keys it
    does not hold, of every kind a finding names) is libyaml's node marks' answer."""
    try:
        data = plain_data(text)[0]
    except (HandOver, YAMLProblem):
        return False
    if not isinstance(data, dict):
        return False
    nodes = fast_yaml._fast_document(text, 100_000) or loaders._rt_document(text, 100_000)
    mine = plain_locator(text)
    for part in [*data, "missing", True, False, None, 1, "a:b", "x\ny", "-x", ""]:
        for path in ((), (part,)):
            for on_key in (False, True):
                assert mine(path, on_key) == nodes.locate(path, on_key), (text, path)
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_soups())
def test_a_top_level_key_is_placed_from_its_line_as_the_marked_nodes_place_it(text) -> None:
    _top_level_agrees(text)


def test_top_level_keys_of_the_benchmark_families_are_placed_from_their_lines() -> None:
    assert sum(_top_level_agrees(text) for text in benchmark_texts()) > 60
    odd = "# head\n\n  a: 1\n  b:\n  - x\n  c:\n    d: 2\n  e:   # note\n  f:  'q'  \n"
    assert _top_level_agrees(odd)
    locate = plain_locator(odd)
    assert locate(("f",), False) == (9, 7)
    assert locate(("b",), False) == (4, 3)
    assert locate(("e",), False) == (8, 5)
    assert locate(("zz",), True) == (3, 3)
