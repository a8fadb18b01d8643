"""JSONTestSuite's parsing cases, file by file, through every JSON reader.

y_ files are JSON every parser must accept, n_ files JSON every parser must refuse,
i_ files are left to the implementation: for those only a clean answer (the value, or
the reader's own one-line error) is asserted, never an internal error. The checkpoint
readers (validate, the merge driver) refuse a repeated key on purpose: KNOWN below.
"""

from __future__ import annotations

import glob
import os

import pytest

from asimov_hooks.merge.json_merge import ParseError
from asimov_hooks.merge.json_merge import load as merge_load
from asimov_hooks.readers.fastjson import JSONError
from asimov_hooks.readers.fastjson import loads as strict_loads
from asimov_hooks.readers.json_loader import load_json
from asimov_hooks.readers.problem import YAMLProblem

SUITE = os.path.join(os.path.dirname(__file__), "conformance", "json-test-suite", "test_parsing")
FILES = sorted(os.path.basename(p) for p in glob.glob(os.path.join(SUITE, "*.json")))

# readers of checkpoints: a key given twice means different things to different tools
KNOWN = {
    "y_object_duplicated_key.json": "checkpoint readers refuse a repeated key (rule duplicate-key)",
    "y_object_duplicated_key_and_value.json": "checkpoint readers refuse a repeated key (rule duplicate-key)",
}


def _text(name: str) -> str | None:
    with open(os.path.join(SUITE, name), "rb") as fh:
        raw = fh.read()
    try:  # every reader takes UTF-8 text (a file's bytes are decoded before parsing)
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _strict(text: str) -> None:
    strict_loads(text)


def _validate(text: str) -> None:
    load_json(text)


def _merge(text: str) -> None:
    # the merge driver reads only objects; a valid non-object is its own refusal
    try:
        merge_load(text)
    except ParseError as exc:
        if str(exc) != "the document is not a JSON object":
            raise


READERS = {
    "strict": (_strict, JSONError),
    "validate": (_validate, YAMLProblem),
    "merge": (_merge, ParseError),
}


def test_the_suite_is_there() -> None:
    kinds = {name[:2] for name in FILES}
    assert kinds == {"y_", "n_", "i_"} and len(FILES) > 300


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("name", FILES)
def test_json_suite(name: str, reader: str) -> None:
    parse, error = READERS[reader]
    if reader != "strict" and name in KNOWN:
        pytest.xfail(KNOWN[name])
    text = _text(name)
    if text is None:  # not UTF-8: refused before any parser (no y_ file is here)
        assert not name.startswith("y_")
        return
    try:
        parse(text)
        accepted = True
    except error as exc:
        accepted = False
        assert "\n" not in str(exc)
    if name.startswith("y_"):
        assert accepted
    elif name.startswith("n_"):
        assert not accepted
