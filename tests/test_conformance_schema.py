"""JSON-Schema-Test-Suite (draft 2020-12, required tests), case by case.

Every case whose schema minischema evaluates itself runs on the in-house evaluator;
every other case runs through the shared entry point (`compile_schema`), which hands
it to jsonschema. Cases that refer to documents outside the schema (the suite's
remote server at localhost:1234) are not run: a schema here is one document and
nothing is ever fetched. Known differences: KNOWN below, and tests/conformance/README.md.
"""

from __future__ import annotations

import glob
import json
import os

import pytest

from asimov_hooks.minischema import Evaluator, compile_schema, unsupported_keywords
from asimov_hooks.minischema.fallback import InvalidSchema

SUITE = os.path.join(os.path.dirname(__file__), "conformance", "json-schema-test-suite")

_NO_P = "patterns are Python regular expressions, which have no \\p{...} classes"
# (file, group description, test description or "*" for all) -> why ours differs
KNOWN = {
    ("pattern.json", "pattern with Unicode property escape requires unicode mode", "*"): _NO_P,
    ("patternProperties.json", "patternProperties with Unicode property escape", "*"): _NO_P,
    (
        "vocabulary.json",
        "schema that uses custom metaschema with with no validation vocabulary",
        "no validation: invalid number, but it still validates",
    ): "a custom meta-schema's $vocabulary is not read: the schema is evaluated as 2020-12",
}


def _cases() -> tuple[list, list]:
    ours, deferred = [], []
    for path in sorted(glob.glob(os.path.join(SUITE, "*.json"))):
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as fh:
            groups = json.load(fh)
        for g, group in enumerate(groups):
            unsupported = unsupported_keywords(group["schema"])
            if "$ref (outside the document)" in unsupported:
                continue  # a remote document: never fetched
            for t, test in enumerate(group["tests"]):
                known = KNOWN.get((name, group["description"], "*")) or KNOWN.get(
                    (name, group["description"], test["description"])
                )
                marks = [pytest.mark.xfail(reason=known, strict=True)] if known else []
                case = pytest.param(
                    group["schema"], test["data"], test["valid"], id=f"{name}:{g}:{t}", marks=marks
                )
                (deferred if unsupported else ours).append(case)
    return ours, deferred


OURS, DEFERRED = _cases()


def test_the_suite_is_there() -> None:
    assert len(OURS) > 500 and len(DEFERRED) > 500, (len(OURS), len(DEFERRED))


@pytest.mark.parametrize(("schema", "data", "valid"), OURS)
def test_minischema_agrees_with_the_suite(schema, data, valid: bool) -> None:
    assert isinstance(compile_schema(schema), Evaluator)
    assert (Evaluator(schema).errors(data) == []) is valid


@pytest.mark.parametrize(("schema", "data", "valid"), DEFERRED)
def test_the_shared_entry_point_agrees_with_the_suite(schema, data, valid: bool) -> None:
    try:
        evaluator = compile_schema(schema)
    except InvalidSchema as exc:  # refused up front, as a user's schema would be
        pytest.fail(f"refused: {exc.message}")
    assert not isinstance(evaluator, Evaluator)
    assert (evaluator.errors(data) == []) is valid
