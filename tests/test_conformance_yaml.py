"""yaml-test-suite, case by case, through every YAML reader.

Every case ends with the reader's data or its own one-line error, never an internal
error, in each reader (validate, the config loader, the trimmer, the merge driver).
Every case ruamel's safe loader reads as one document, validate and the config loader
read to the same data. Known differences: KNOWN below, and tests/conformance/README.md.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import warnings

import pytest

from asimov_hooks.merge.yaml_merge import ParseError
from asimov_hooks.merge.yaml_merge import load as merge_load
from asimov_hooks.readers.loaders import YAMLProblem, load_yaml, load_yaml_plain, to_plain
from asimov_hooks.trim.parsing import Refused, parse

SUITE = os.path.join(os.path.dirname(__file__), "conformance", "yaml-test-suite", "cases.json")
with open(SUITE, encoding="utf-8") as _fh:
    CASES = json.load(_fh)

_TAGS = "only the standard tags are read: !!set, !!omap and !!binary are refused with a finding"
KNOWN = {"2XXW": _TAGS, "565N": _TAGS, "J7PZ": _TAGS}

READERS = {
    "validate": (load_yaml, YAMLProblem),
    "config": (load_yaml_plain, YAMLProblem),
    "trim": (parse, Refused),
    "merge": (merge_load, ParseError),
}


def _safe(text: str) -> tuple[bool, list]:
    from ruamel.yaml import YAML

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return True, list(YAML(typ="safe", pure=True).load_all(text))
    except Exception:
        return False, []


def _norm(value):
    """Comparable data: types kept apart (True is not 1), NaN equal to itself."""
    if isinstance(value, dict):
        return ("map", [(_norm(k), _norm(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", [_norm(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    if isinstance(value, (datetime.date, datetime.datetime)):
        return ("date", value.isoformat())
    return (type(value).__name__, value)


def test_the_suite_is_there() -> None:
    assert len(CASES) > 400


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_no_internal_error(case: str, reader: str) -> None:
    read, error = READERS[reader]
    text = CASES[case]["yaml"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            read(text)
        except error as exc:
            assert "\n" not in str(exc)
            if isinstance(exc, YAMLProblem):
                assert exc.line >= 1 and exc.col >= 1


@pytest.mark.parametrize("case", sorted(CASES))
def test_valid_yaml_reads_as_the_safe_loader_reads_it(case: str) -> None:
    text = CASES[case]["yaml"]
    ok, docs = _safe(text)
    if not ok or len(docs) != 1:
        return  # refused by the safe loader, or a stream (a protocol file is one document)
    if case.split("/")[0] in KNOWN:
        pytest.xfail(KNOWN[case.split("/")[0]])
    want = docs[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = load_yaml(text).data
        plain = load_yaml_plain(text)
    assert _norm(data) == _norm(want)
    assert _norm(plain) == _norm(to_plain(want))


def _libyaml(text: str) -> tuple[bool, list]:
    from ruamel.yaml import YAML

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return True, list(YAML(typ="safe", pure=False).load_all(text))
    except Exception:
        return False, []


# valid YAML (the spec's examples 5.12, 7.12 and 8.8 among them) that only the pure-Python
# scanner refuses: a tab between tokens, blank lines before a block scalar's first line
PURE_SCANNER_ONLY = sorted(
    case
    for case, spec in CASES.items()
    if not spec["error"] and not _safe(spec["yaml"])[0] and _libyaml(spec["yaml"])[0]
)


def test_the_pure_scanner_cases_are_there() -> None:
    names = " ".join(CASES[case]["name"] for case in PURE_SCANNER_ONLY)
    for example in ("Example 5.12.", "Example 7.12.", "Example 8.8."):
        assert example in names, names


@pytest.mark.parametrize("case", PURE_SCANNER_ONLY)
def test_what_only_the_pure_scanner_refuses_is_read_as_libyaml_reads_it(case: str) -> None:
    text = CASES[case]["yaml"]
    docs = _libyaml(text)[1]
    if len(docs) != 1:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _norm(load_yaml(text).data) == _norm(docs[0])
        assert _norm(load_yaml_plain(text)) == _norm(to_plain(docs[0]))
        assert _norm(parse(text)[1]) == _norm(docs[0])


@pytest.mark.parametrize("case", sorted(c for c, spec in CASES.items() if spec["error"]))
def test_invalid_yaml_the_safe_loader_refuses_stays_refused(case: str) -> None:
    text = CASES[case]["yaml"]
    if _safe(text)[0]:
        return
    with warnings.catch_warnings(), pytest.raises(YAMLProblem):
        warnings.simplefilter("ignore")
        load_yaml(text)
