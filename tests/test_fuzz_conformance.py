"""Random documents and schemas, checked against the references: ruamel's safe loader
for YAML, the standard library (made strict) for JSON, jsonschema for schemas built
from the keywords minischema implements (references in every form included).

Example counts are modest so the suite stays fast; the conformance suites
(tests/conformance/) hold the hand-written edge cases.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import warnings

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reading_support import norm

from asimov_hooks.minischema import Evaluator, compile_schema, unsupported_keywords
from asimov_hooks.readers.fastjson import JSONError
from asimov_hooks.readers.fastjson import loads as strict_loads
from asimov_hooks.readers.loaders import YAMLProblem, load_yaml

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------ values
_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    _text,
    st.sampled_from(["true", "no", "null", "~", "1e3", "0x1F", "2026-01-01", "", " a", "#x"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_text, inner, max_size=4)),
    max_leaves=12,
)


def _safe(text: str):
    from ruamel.yaml import YAML

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return YAML(typ="safe", pure=True).load(text)


def _dump(data, flow: bool, anchors: bool) -> str:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.default_flow_style = flow
    yaml.width = 60
    if anchors and isinstance(data, dict) and data:  # the same node twice: an anchor
        first = next(iter(data))
        data = {**data, "alias of first": data[first]}
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


# ------------------------------------------------------------------ YAML
@FUZZ
@given(
    data=st.dictionaries(_text, values, min_size=1, max_size=5),
    flow=st.booleans(),
    anchors=st.booleans(),
)
def test_dumped_yaml_reads_as_the_safe_loader_reads_it(data, flow: bool, anchors: bool) -> None:
    text = _dump(data, flow, anchors)
    try:
        want = _safe(text)
    except Exception:  # ruamel's dumper wrote what its own reader refuses (`:0` in flow)
        with contextlib.suppress(YAMLProblem):  # read or refused cleanly, either way
            load_yaml(text)
        return
    assert norm(load_yaml(text).data) == norm(want), text


_pieces = st.sampled_from(
    [
        "a",
        "b: ",
        "- ",
        "? ",
        ": ",
        "&x ",
        "*x",
        "!!str ",
        "!!int ",
        "#c",
        "\n",
        "  ",
        "'q'",
        '"d"',
        "[",
        "]",
        "{",
        "}",
        ", ",
        "|",
        ">",
        "---\n",
        "1",
        "true",
        "~",
        "\t",
        "key:\n",
        "  # note\n",
        "\n\n",
    ]
)


@FUZZ
@given(st.lists(_pieces, max_size=25).map("".join))
def test_yaml_ish_text_is_read_or_refused_cleanly(text: str) -> None:
    """Text built from YAML's indicators: data or a one-line finding with a place, never
    an internal error; where the safe loader reads it, the same data."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            data = load_yaml(text).data
    except YAMLProblem as problem:
        assert "\n" not in problem.message and problem.line >= 1 and problem.col >= 1
        return
    try:
        want = _safe(text)
    except Exception:
        return  # read here, refused there: the safe loader is the stricter one
    assert norm(data) == norm(want), text


# ------------------------------------------------------------------ JSON
def _reference_json(text: str):
    def refuse(name: str):
        raise ValueError(name)

    def finite(token: str) -> float:
        value = float(token)
        if math.isinf(value):
            raise ValueError(token)
        return value

    return json.loads(text, parse_constant=refuse, parse_float=finite)


_json_pieces = st.sampled_from(
    [
        '{"a": ',
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        '"s"',
        "1",
        "-0.5e3",
        "1e999",
        "NaN",
        "Infinity",
        "true",
        "null",
        " ",
        "\n",
        '"\\u00e9"',
        '"\\"',
        "01",
        "[[[[",
    ]
)


@FUZZ
@given(st.one_of(values.map(json.dumps), st.lists(_json_pieces, max_size=20).map("".join)))
def test_strict_json_agrees_with_the_standard_library_made_strict(text: str) -> None:
    try:
        want, ok = _reference_json(text), True
    except (ValueError, RecursionError):
        want, ok = None, False
    try:
        got = strict_loads(text)
    except JSONError as exc:
        assert not ok or "nested more than" in exc.msg, (text, exc)
        return
    assert ok and norm(got) == norm(want), text


# ------------------------------------------------------------------ schemas
_leaf_schemas = st.one_of(
    st.booleans(),
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(
                [
                    "string",
                    "integer",
                    "number",
                    "boolean",
                    "null",
                    "array",
                    "object",
                    ["string", "null"],
                ]
            ),
            "minimum": st.integers(-5, 5),
            "maximum": st.integers(-5, 5),
            "exclusiveMinimum": st.integers(-5, 5),
            "exclusiveMaximum": st.integers(-5, 5),
            "minLength": st.integers(0, 3),
            "maxLength": st.integers(0, 3),
            "pattern": st.sampled_from(["^a", "b$", "[0-9]", "^$"]),
            "enum": st.lists(scalars, min_size=1, max_size=3),
            "const": scalars,
            "minItems": st.integers(0, 2),
            "maxItems": st.integers(0, 3),
            "required": st.lists(st.sampled_from(["a", "b", "c d"]), max_size=2, unique=True),
            "$ref": st.sampled_from(
                [
                    "#/$defs/x",
                    "#/$defs/a~1b",
                    "#/$defs/c%20d",
                    "#/$defs/t~0",
                    "#anchored",
                    "#/$defs/list/anyOf/0",
                    "defs.json#/$defs/small",
                    "defs.json",
                ]
            ),
        },
    ),
)


def _combine(inner):
    keys = st.sampled_from(["a", "b", "c d"])
    return st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "properties": st.dictionaries(keys, inner, max_size=2),
                "additionalProperties": inner,
                "items": inner,
                "allOf": st.lists(inner, min_size=1, max_size=2),
                "anyOf": st.lists(inner, min_size=1, max_size=2),
                "oneOf": st.lists(inner, min_size=1, max_size=2),
                "not": inner,
                "if": inner,
                "then": inner,
                "else": inner,
            },
        ),
    )


schemas = st.recursive(_leaf_schemas, _combine, max_leaves=6)
# what every generated `$ref` may point at, each form of draft 2020-12 in one document
DEFS = {
    "x": {"type": "integer", "maximum": 3},
    "a/b": {"type": "string"},
    "c d": {"minItems": 1},
    "t~": {"required": ["a"]},
    "named": {"$anchor": "anchored", "type": ["number", "null"]},
    "list": {"anyOf": [{"type": "array"}, {"type": "boolean"}]},
    "sub": {"$id": "defs.json", "type": "integer", "$defs": {"small": {"maximum": 1}}},
}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=schemas, instance=values)
def test_minischema_agrees_with_jsonschema(schema, instance) -> None:
    if isinstance(schema, dict):
        schema = {**schema, "$defs": DEFS}
    assert not unsupported_keywords(schema), schema
    assert isinstance(compile_schema(schema), Evaluator)
    ours = not Evaluator(schema).errors(instance)
    theirs = jsonschema.Draft202012Validator(schema).is_valid(instance)
    assert ours == theirs, (schema, instance)
