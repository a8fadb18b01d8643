"""Every draft 2020-12 reference form inside one document, and the one entry point
(`minischema.compile_schema`) that validate, the config and the merge gate share."""

from __future__ import annotations

import pytest
from conftest import git_init, run_script, write

from asimov_hooks.merge.core import Policies
from asimov_hooks.merge.driver import Settings, merge_bytes
from asimov_hooks.minischema import Evaluator, compile_schema, unsupported_keywords
from asimov_hooks.minischema.fallback import JsonschemaEvaluator

CP = ".claude_checkpoint.yaml"
CONFIG = "kinds:\n  asimov-checkpoint:\n    schema: ./schemas/cp.json\n"

# (schema, an instance it accepts, one it refuses)
FORMS = {
    "pointer-into-array": (
        {
            "$defs": {"pick": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
            "items": {"$ref": "#/$defs/pick/anyOf/0"},
        },
        ["a", "b"],
        ["a", 1],
    ),
    "tilde-escapes": (
        {
            "$defs": {"a/b": {"type": "integer"}, "c~d": {"type": "string"}},
            "properties": {"x": {"$ref": "#/$defs/a~1b"}, "y": {"$ref": "#/$defs/c~0d"}},
        },
        {"x": 1, "y": "s"},
        {"x": "1", "y": "s"},
    ),
    "percent-encoded": (
        {
            "$defs": {"a b": {"type": "integer"}, "50%": {"maximum": 5}},
            "properties": {"x": {"$ref": "#/$defs/a%20b"}, "y": {"$ref": "#/$defs/50%25"}},
        },
        {"x": 1, "y": 3},
        {"x": 1, "y": 9},
    ),
    "anchor": (
        {
            "$defs": {"n": {"$anchor": "name", "type": "string", "minLength": 2}},
            "properties": {"owner": {"$ref": "#name"}},
        },
        {"owner": "ab"},
        {"owner": "a"},
    ),
    "id-relative": (
        {
            "$id": "https://example.com/root.json",
            "$defs": {
                "item": {"$id": "item.json", "type": "integer", "$defs": {"small": {"maximum": 3}}}
            },
            "properties": {"n": {"$ref": "item.json"}, "m": {"$ref": "item.json#/$defs/small"}},
        },
        {"n": 1, "m": 2},
        {"n": 1, "m": 7},
    ),
    "root": (
        {"properties": {"child": {"$ref": "#"}}, "required": ["name"]},
        {"name": 1, "child": {"name": 2}},
        {"name": 1, "child": {}},
    ),
}


@pytest.mark.parametrize("form", FORMS)
def test_reference_forms_are_evaluated_in_house(form: str) -> None:
    schema, good, bad = FORMS[form]
    assert unsupported_keywords(schema) == set()
    assert isinstance(compile_schema(schema), Evaluator)
    assert Evaluator(schema).errors(good) == []
    assert Evaluator(schema).errors(bad) != []
    # and jsonschema agrees
    assert JsonschemaEvaluator(schema).errors(good) == []
    assert JsonschemaEvaluator(schema).errors(bad) != []


def test_an_id_inside_a_value_is_not_an_identifier() -> None:
    schema = {"$defs": {"c": {"const": {"$id": "x.json"}}}, "properties": {"a": {"$ref": "x.json"}}}
    assert "$ref (outside the document)" in unsupported_keywords(schema)


def test_another_draft_goes_to_jsonschema() -> None:
    # draft-07 ignores keywords beside $ref; 2020-12 applies them: not ours to guess
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
    assert isinstance(compile_schema(schema), JsonschemaEvaluator)


@pytest.mark.parametrize("form", ["pointer-into-array", "percent-encoded", "anchor"])
def test_user_schema_reference_forms_on_the_command_line(tmp_path, form: str) -> None:
    import json

    schema = {
        "pointer-into-array": {
            "anyOf": [{"type": "object", "required": ["milestone"]}, {"type": "null"}],
            "allOf": [{"$ref": "#/anyOf/0"}],
        },
        "percent-encoded": {
            "$defs": {"needs milestone": {"required": ["milestone"]}},
            "$ref": "#/$defs/needs%20milestone",
        },
        "anchor": {"$defs": {"m": {"$anchor": "cp", "required": ["milestone"]}}, "$ref": "#cp"},
    }[form]
    git_init(tmp_path)
    write(tmp_path, ".asimov-hooks.yaml", CONFIG)
    write(tmp_path, "schemas/cp.json", json.dumps(schema))
    write(tmp_path, CP, "milestone: m\nstatus: done\n")
    run = run_script("asimov-validate", "--select", "schema", CP, cwd=tmp_path)
    assert run.returncode == 0, run
    write(tmp_path, CP, "status: done\n")
    run = run_script("asimov-validate", "--select", "schema", CP, cwd=tmp_path)
    assert run.returncode == 1 and "missing required property 'milestone'" in run.stdout, run
    assert "internal error" not in run.stderr + run.stdout


def test_merge_gate_defers_to_jsonschema() -> None:
    """A clean tree merge the schema refuses through a keyword minischema does not
    implement (maxProperties) is not written: validate would refuse the file."""
    schema = {"type": "object", "maxProperties": 2}
    settings = Settings("yaml", Policies({}, "conflict"), schema)
    out = merge_bytes(b"a: 1\n", b"a: 1\nb: 2\n", b"a: 1\nc: 3\n", settings)
    assert out.how == "line-merge" and "schema" in out.reason, out
    settings = Settings("yaml", Policies({}, "conflict"), {"type": "object", "maxProperties": 3})
    assert merge_bytes(b"a: 1\n", b"a: 1\nb: 2\n", b"a: 1\nc: 3\n", settings).how == "clean"


def test_merge_gate_with_a_broken_schema_falls_back() -> None:
    settings = Settings("yaml", Policies({}, "conflict"), {"maxProperties": "two"})
    out = merge_bytes(b"a: 1\n", b"a: 1\nb: 2\n", b"a: 1\nc: 3\n", settings)
    assert out.how == "line-merge" and "schema" in out.reason, out
