"""The in-house schema evaluator agrees with jsonschema on every shipped schema.

Instances are mutations of each schema's own examples (types changed, required keys
dropped, unknown keys added, out-of-enum strings, long lists) plus arbitrary JSON.
"""

from __future__ import annotations

import copy
import functools
import glob
import json
import os

import jsonschema
import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asimov_hooks.minischema import Evaluator, unsupported_keywords

SCHEMA_FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "schemas", "*.schema.json")))
IDS = [os.path.basename(p).removesuffix(".schema.json") for p in SCHEMA_FILES]


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


_VALIDATORS: dict[int, jsonschema.Draft202012Validator] = {}


def reference_invalid(schema: dict, instance: object) -> bool:
    validator = _VALIDATORS.get(id(schema))
    if validator is None or validator.schema is not schema:
        validator = _VALIDATORS[id(schema)] = jsonschema.Draft202012Validator(schema)
    return bool(list(validator.iter_errors(instance)))


_EVALUATORS: dict[int, Evaluator] = {}


def ours_invalid(schema: dict, instance: object) -> bool:
    """As validate uses it: one Evaluator per schema, compiled once, for every instance
    (as reference_invalid keeps one jsonschema validator per schema)."""
    evaluator = _EVALUATORS.get(id(schema))
    if evaluator is None or evaluator.root is not schema:
        evaluator = _EVALUATORS[id(schema)] = Evaluator(schema)
    return bool(evaluator.errors(instance))


@functools.cache
def cached(path: str) -> dict:
    return load(path)


def walk_schema(node: object):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk_schema(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk_schema(value)


def pool_of(schema: dict) -> dict[str, list]:
    """Values that sit on the schema's edges: enum members, names, bounds, patterns."""
    scalars: list = ["", "x", "in_progress", "2026-03-31T15:30:00Z", 0, -1, 1, 0.5, True, None]
    names: list[str] = ["extra", "$comment"]
    lengths: list[int] = [0, 1, 30]
    bounds: list[float] = []
    for node in walk_schema(schema):
        for value in node.get("enum", []) if isinstance(node.get("enum"), list) else []:
            scalars.append(value)
        if "const" in node:
            scalars.append(node["const"])
        for bound in ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"):
            value = node.get(bound)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                near = [value - 1, value, value + 1]
                scalars += [*near, value + 0.5, *(float(v) for v in near)]  # 5.0 is an integer
                if bound in ("minimum", "maximum"):
                    bounds += [*near, float(value)]
                else:  # only length bounds size strings and lists (a maximum of 16 MiB must not)
                    lengths += [int(v) for v in near if v >= 0]
        if isinstance(node.get("properties"), dict):
            names += list(node["properties"])
        for key in ("required",):
            if isinstance(node.get(key), list):
                names += [n for n in node[key] if isinstance(n, str)]
    # A list of a million deep copies exhausts memory long before it finds a bug.
    assert max(lengths) <= 10_000, f"{schema.get('$id')}: length bound too large to fuzz"
    return {
        "scalars": scalars,
        "names": sorted(set(names)),
        "lengths": sorted(set(lengths)),
        "bounds": bounds,
    }


def json_values(pool: dict[str, list]):
    scalar = st.one_of(
        st.sampled_from(pool["scalars"]),
        st.sampled_from(pool["lengths"]).map(lambda n: "x" * n),
        st.none(),
        st.booleans(),
        st.integers(-(10**6), 10**6),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
        st.text(max_size=12),
    )
    keys = st.one_of(st.sampled_from(pool["names"]), st.text(max_size=6))
    return st.recursive(
        scalar,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)
        ),
        max_leaves=12,
    )


def paths(doc: object, prefix: tuple = ()):
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from paths(value, (*prefix, i))


def get(doc: object, path: tuple) -> object:
    for part in path:
        doc = doc[part]  # type: ignore[index]
    return doc


def put(doc: object, path: tuple, value: object) -> object:
    if not path:
        return value
    get(doc, path[:-1])[path[-1]] = value  # type: ignore[index]
    return doc


OPS = (
    "replace",
    "delete",
    "add_key",
    "long_list",
    "wrap",
    "stringify",
    "pool_scalar",
    "resize_string",
    "nudge",
    "nudge",
    "nudge",
)


def mutate(data, doc: object, pool: dict[str, list]) -> object:
    doc = copy.deepcopy(doc)
    values = json_values(pool)
    for _ in range(data.draw(st.sampled_from([1, 1, 2, 3]), label="mutations")):
        # depth first, then a node at that depth: shallow keys get their share
        by_depth: dict[int, list[tuple]] = {}
        for p in paths(doc):
            by_depth.setdefault(len(p), []).append(p)
        depth = data.draw(st.sampled_from(sorted(by_depth)), label="depth")
        path = data.draw(st.sampled_from(by_depth[depth]), label="path")
        target = get(doc, path)
        op = data.draw(st.sampled_from(OPS), label="op")
        if op == "replace":
            doc = put(doc, path, data.draw(values, label="value"))
        elif op == "delete" and path:
            parent = get(doc, path[:-1])
            del parent[path[-1]]  # type: ignore[attr-defined]
        elif op == "add_key" and isinstance(target, dict):
            key = data.draw(st.one_of(st.sampled_from(pool["names"]), st.text(max_size=6)))
            target[key] = data.draw(values, label="value")
        elif op == "long_list":  # or short: list lengths around minItems / maxItems
            items = target if isinstance(target, list) and target else [target]
            lengths = st.sampled_from(pool["lengths"])
            n = data.draw(st.one_of(lengths, st.integers(0, 25)), label="length")
            doc = put(doc, path, [copy.deepcopy(items[i % len(items)]) for i in range(n)])
        elif op == "wrap":
            doc = put(doc, path, data.draw(st.sampled_from([[target], {"k": target}])))
        elif op == "stringify":
            doc = put(doc, path, json.dumps(target) if not isinstance(target, str) else 7)
        elif op == "resize_string" and isinstance(target, str):
            n = data.draw(st.sampled_from(pool["lengths"]), label="length")
            doc = put(doc, path, "x" * n)
        elif op == "nudge":  # same type, at an edge: 5 -> 5.0 / -1, "a" -> "", [..] -> 6 items
            if isinstance(target, bool):
                doc = put(doc, path, not target)
            elif isinstance(target, (int, float)):
                edges = [float(target), -target, target + 0.5, target - 1, 0, *pool["bounds"]]
                doc = put(doc, path, data.draw(st.sampled_from(edges), label="number"))
            elif isinstance(target, str):
                texts = [v for v in pool["scalars"] if isinstance(v, str)]
                texts += ["x" * n for n in pool["lengths"]]
                texts += [target + "x", " " + target, target[:-1], target.upper()]
                doc = put(doc, path, data.draw(st.sampled_from(texts), label="text"))
            elif isinstance(target, list):
                n = data.draw(st.sampled_from(pool["lengths"]), label="length")
                items = target or ["x"]
                doc = put(doc, path, [copy.deepcopy(items[i % len(items)]) for i in range(n)])
            elif isinstance(target, dict) and target:
                del target[data.draw(st.sampled_from(sorted(target)), label="key")]
        elif op == "pool_scalar":
            doc = put(doc, path, data.draw(st.sampled_from(pool["scalars"]), label="scalar"))
    return doc


def edits(target: object, pool: dict[str, list]) -> list[object]:
    """Replacement values for one node: same type at an edge, or another type."""
    out: list[object] = [None, True, 0, -1, 2.5, "", "x", [], {}, [target], {"k": target}]
    if isinstance(target, bool):
        out.append(not target)
    elif isinstance(target, (int, float)):
        out += [float(target), -target, target + 0.5, target - 1, target + 1, *pool["bounds"]]
        out.append(str(target))
    elif isinstance(target, str):
        out += [v for v in pool["scalars"] if isinstance(v, str)]
        out += ["x" * n for n in pool["lengths"]]
        out += [target + "x", " " + target, target[:-1], target.upper(), 1]
    elif isinstance(target, list):
        items = target or ["x"]
        out += [[copy.deepcopy(items[i % len(items)]) for i in range(n)] for n in pool["lengths"]]
        out += [[*target, 1], [*target, None], [*target, {"extra": 1}]]
    elif isinstance(target, dict):
        out += [{k: v for k, v in target.items() if k != drop} for drop in target]
        out += [{**target, name: "x"} for name in pool["names"]]
        out += [{**target, name: 1} for name in pool["names"]]
    return out


def single_edits(doc: object, pool: dict[str, list]):
    """Every document that differs from `doc` by one edit at one node."""
    for path in paths(doc):
        target = get(doc, path)
        for value in edits(target, pool):
            yield put(copy.deepcopy(doc), path, value)


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=IDS)
def test_agrees_with_jsonschema_on_every_single_edit(path: str) -> None:
    """Deterministic sweep: each example with one node changed, at every node."""
    schema = cached(path)
    pool = pool_of(schema)
    checked = 0
    for example in schema.get("examples") or [{}]:
        for doc in single_edits(example, pool):
            assert ours_invalid(schema, doc) == reference_invalid(schema, doc), doc
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=IDS)
def test_schema_is_valid_2020_12_and_supported(path: str) -> None:
    schema = load(path)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema"
    assert unsupported_keywords(schema) == set()


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=IDS)
def test_examples_are_valid(path: str) -> None:
    schema = load(path)
    for example in schema.get("examples", []):
        assert not reference_invalid(schema, example), example
        assert Evaluator(schema).errors(example) == [], example


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=IDS)
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_agrees_with_jsonschema_on_mutations(path: str, data) -> None:
    schema = cached(path)
    pool = pool_of(schema)
    seeds = schema.get("examples") or [{}]
    doc = mutate(data, data.draw(st.sampled_from(seeds), label="example"), pool)
    assert ours_invalid(schema, doc) == reference_invalid(schema, doc), doc


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_agrees_with_jsonschema_on_arbitrary_json(path: str, data) -> None:
    schema = cached(path)
    doc = data.draw(json_values(pool_of(schema)), label="doc")
    assert ours_invalid(schema, doc) == reference_invalid(schema, doc), doc


# ------------------------------------------------------------------ targeted cases
CHECKPOINT = load(os.path.join(ROOT, "rules", "schemas", "asimov-checkpoint.schema.json"))
OC = load(os.path.join(ROOT, "rules", "schemas", "oc-checkpoint.schema.json"))


@pytest.mark.parametrize(
    ("instance", "invalid"),
    [
        ({"milestone": "m"}, False),
        ({}, True),
        ({"milestone": "m", "tool_calls": 3.0}, False),  # 3.0 is an integer in JSON Schema
        ({"milestone": "m", "tool_calls": 3.5}, True),
        ({"milestone": "m", "tool_calls": True}, True),  # booleans are not integers
        ({"milestone": "m", "tool_calls": -1}, True),
        ({"milestone": "m", "status": "done"}, False),
        ({"milestone": "m", "status": "finished"}, True),
        ({"milestone": "m", "completed": ["a"] * 5}, False),
        ({"milestone": "m", "completed": ["a"] * 6}, True),
        ({"milestone": "m", "next_steps": [1]}, True),
        ({"milestone": "m", "extra": 1}, False),  # extra keys: a warning, not the schema's
        ({"milestone": ""}, True),
    ],
)
def test_checkpoint_cases(instance: dict, invalid: bool) -> None:
    assert reference_invalid(CHECKPOINT, instance) is invalid
    assert ours_invalid(CHECKPOINT, instance) is invalid


def test_error_paths_and_keywords() -> None:
    errors = Evaluator(CHECKPOINT).errors(
        {"milestone": "m", "status": "x", "completed": [1], "bogus": 1}
    )
    found = {(e.path, e.keyword, e.on_key) for e in errors}
    assert (("status",), "enum", False) in found
    assert (("completed", 0), "type", False) in found
    assert not any(e.path == ("bogus",) for e in errors)  # the unknown-key rule's
    strict = {**CHECKPOINT, "additionalProperties": False}
    found = {
        (e.path, e.keyword, e.on_key)
        for e in Evaluator(strict).errors({"milestone": "m", "bogus": 1})
    }
    assert (("bogus",), "additionalProperties", True) in found


def test_oc_enum_values_and_one_of() -> None:
    example = OC["examples"][0]
    ev = Evaluator(OC)
    assert ev.errors(example) == []
    both = copy.deepcopy(example)
    both["next_actions"] = [{"text": "t", "done_when": "true"}, "plain", {"done_when": "x"}]
    errs = ev.errors(both)
    assert [e.path for e in errs] == [("next_actions", 2)]
    assert "text" in errs[0].message


def test_yaml_dates_count_as_strings() -> None:
    import datetime

    stamp = datetime.datetime(2026, 1, 1, 10, 0, tzinfo=datetime.timezone.utc)
    assert Evaluator(CHECKPOINT).errors({"milestone": "m", "timestamp": stamp}) == []
    assert Evaluator(CHECKPOINT).errors({"milestone": datetime.date(2026, 1, 1)}) == []


def test_unsupported_keywords_are_reported() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"format": "date-time", "items": {"prefixItems": []}}},
        "$defs": {"x": {"patternProperties": {}}},
        "allOf": [{"$ref": "other.json#/x"}],
    }
    assert unsupported_keywords(schema) == {  # `format` is evaluated in house (formats.py)
        "prefixItems",
        "patternProperties",
        "$ref (outside the document)",
    }


def test_default_rule_pack_is_a_valid_config() -> None:
    """rules/kinds.json is itself a configuration the config schema accepts."""
    config_schema = load(os.path.join(ROOT, "rules", "schemas", "config.schema.json"))
    pack = load(os.path.join(ROOT, "rules", "kinds.json"))
    assert Evaluator(config_schema).errors(pack) == []
    assert not reference_invalid(config_schema, pack)
