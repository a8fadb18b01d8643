"""YAML's `.nan`, `.inf` and `-.inf` against numeric bounds: the in-house evaluator, its
jsonschema fallback and jsonschema itself give one verdict, read through validate.

jsonschema compares: NaN is below and above nothing (it meets every bound), `.inf` is
above every maximum and `-.inf` below every minimum. `multipleOf` (evaluated by the
fallback) calls NaN and the infinities no multiple of anything, where jsonschema itself
fails on a fractional divisor.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from conftest import git_init, run_script, write

from asimov_hooks.minischema import Evaluator, compile_schema
from asimov_hooks.minischema.fallback import JsonschemaEvaluator

CP = ".claude_checkpoint.yaml"
CONFIG = "kinds:\n  asimov-checkpoint:\n    schema: ./schemas/cp.json\n"
VALUES = {".nan": float("nan"), ".inf": float("inf"), "-.inf": float("-inf"), "5": 5}

BOUNDS = {
    "minimum": {"minimum": 0},
    "maximum": {"maximum": 10},
    "exclusiveMinimum": {"exclusiveMinimum": 0},
    "exclusiveMaximum": {"exclusiveMaximum": 10},
    "both": {"minimum": 0, "maximum": 10},
    "float-bounds": {"minimum": -0.5, "exclusiveMaximum": 10.5},
}
# what jsonschema says, written out: the test fails if either side changes its mind
EXPECTED_INVALID = {
    "minimum": {"-.inf"},
    "maximum": {".inf"},
    "exclusiveMinimum": {"-.inf"},
    "exclusiveMaximum": {".inf"},
    "both": {".inf", "-.inf"},
    "float-bounds": {".inf", "-.inf"},
}


def _schema(bounds: dict) -> dict:
    return {"type": "object", "properties": {"x": {"type": "number", **bounds}}}


def _jsonschema_invalid(schema: dict, value: float) -> bool:
    return bool(list(jsonschema.Draft202012Validator(schema).iter_errors({"x": value})))


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_in_house_and_jsonschema_agree_on_bounds(name: str) -> None:
    schema = _schema(BOUNDS[name])
    ours = compile_schema(schema)
    assert isinstance(ours, Evaluator)  # the in-house evaluator is the one asked
    fallback = JsonschemaEvaluator(schema)
    for text, value in VALUES.items():
        reference = _jsonschema_invalid(schema, value)
        assert reference == (text in EXPECTED_INVALID[name]), (name, text)
        assert bool(ours.errors({"x": value})) == reference, (name, text)
        assert bool(fallback.errors({"x": value})) == reference, (name, text)
        keywords = {e.keyword for e in ours.errors({"x": value})}
        assert keywords == {e.keyword for e in fallback.errors({"x": value})}, (name, text)


@pytest.mark.parametrize("divisor", [2, 0.5])
def test_multiple_of_non_finite_is_not_a_multiple(divisor: float) -> None:
    evaluator = compile_schema(_schema({"multipleOf": divisor}))
    for text in (".nan", ".inf", "-.inf"):
        errors = evaluator.errors({"x": VALUES[text]})
        assert [e.keyword for e in errors] == ["multipleOf"], text
    assert evaluator.errors({"x": 4}) == []


@pytest.mark.parametrize("name", [*sorted(BOUNDS), "multipleOf-int", "multipleOf-fraction"])
def test_validate_gives_jsonschemas_verdict(tmp_path, name: str) -> None:
    bounds = BOUNDS.get(name) or {"multipleOf": 2 if name.endswith("int") else 0.5}
    schema = _schema(bounds)
    repo = git_init(tmp_path)
    write(repo, ".asimov-hooks.yaml", CONFIG)
    write(repo, "schemas/cp.json", json.dumps(schema))
    for text, value in VALUES.items():
        write(repo, CP, f"milestone: m\nx: {text}\n")
        run = run_script("asimov-validate", "--select", "schema", CP, cwd=repo)
        assert run.returncode in (0, 1), run  # never an internal error
        if name.startswith("multipleOf"):
            expected = text != "5" or (name.endswith("int") and value % 2 != 0)
        else:
            expected = _jsonschema_invalid(schema, value)
        assert (run.returncode == 1) == expected, (name, text, run.stdout)
        if expected:
            assert f"{CP}:2:4: error schema x: " in run.stdout, run.stdout
