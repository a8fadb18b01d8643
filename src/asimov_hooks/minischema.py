"""A small JSON Schema (2020-12) evaluator for the keywords our schemas use.

Importing `jsonschema` costs more than the whole check of one file, and a hook pays
start-up on every commit. Our schemas stay standard JSON Schema (editors and
check-jsonschema read them as they are); this module evaluates the subset they use
and reports each error with the instance path, so the caller can attach a line and
column. Schemas that use any other keyword are handed to `jsonschema` instead; the
test suite checks that both agree.
"""

from __future__ import annotations

import datetime
import re
from collections import namedtuple
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterator
    from typing import Any

SUPPORTED = frozenset(
    {
        "$schema",
        "$id",
        "$ref",
        "$defs",
        "$comment",
        "title",
        "description",
        "examples",
        "default",
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "enum",
        "const",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "anyOf",
        "oneOf",
        "allOf",
        "if",
        "then",
        "else",
        "not",
        "deprecated",
    }
)
_SCHEMA_MAPS = ("properties", "$defs")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf")
_SUBSCHEMAS = ("additionalProperties", "items", "if", "then", "else", "not")


# A namedtuple rather than a dataclass: dataclasses imports inspect, ~10 ms per hook run.
# `on_key`: the error is about a key itself (an unexpected property).
class SchemaError(namedtuple("SchemaError", "path message keyword on_key", defaults=(False,))):
    __slots__ = ()

    @property
    def dotted(self) -> str:
        out = "$"
        for part in self.path:
            out += f"[{part}]" if isinstance(part, int) else f".{part}"
        return out


def unsupported_keywords(schema: Any) -> set[str]:
    """Keywords in `schema` (recursively) that this evaluator does not implement."""
    found: set[str] = set()
    if isinstance(schema, bool):
        return found
    if not isinstance(schema, dict):
        return {"<non-object schema>"}
    for key, value in schema.items():
        if key not in SUPPORTED:
            found.add(key)
        elif key in _SCHEMA_MAPS:
            for sub in value.values():
                found |= unsupported_keywords(sub)
        elif key in _SCHEMA_LISTS:
            for sub in value:
                found |= unsupported_keywords(sub)
        elif key in _SUBSCHEMAS:
            found |= unsupported_keywords(value)
        elif key == "$ref" and not str(value).startswith("#/"):
            found.add("$ref (non-local)")
    return found


def _type_ok(value: Any, name: str) -> bool:
    if name == "string":
        # YAML loaders turn unquoted timestamps into dates; they were text in the file.
        return isinstance(value, (str, datetime.date))
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    return False


def _type_name(value: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _type_ok(value, name):
            return name
    return type(value).__name__


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, datetime.date) and isinstance(b, str):
        return a.isoformat() == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=False))
    return a == b


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, datetime.date) else repr(value.isoformat())
    return text if len(text) <= 60 else text[:57] + "..."


@lru_cache(maxsize=256)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


class Evaluator:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.root = schema

    def _resolve(self, ref: str) -> Any:
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def errors(self, instance: Any) -> list[SchemaError]:
        return list(self._check(instance, self.root, ()))

    def valid(self, instance: Any, schema: Any) -> bool:
        return next(iter(self._check(instance, schema, ())), None) is None

    def _check(self, value: Any, schema: Any, path: tuple) -> Iterator[SchemaError]:
        if schema is True:
            return
        if schema is False:
            yield SchemaError(path, "is not allowed here", "false")
            return
        if "$ref" in schema:
            yield from self._check(value, self._resolve(schema["$ref"]), path)
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(_type_ok(value, t) for t in types):
                expected = " or ".join(types)
                yield SchemaError(
                    path,
                    f"{_show(value)} is not of type {expected} (got {_type_name(value)})",
                    "type",
                )
                return
        if "const" in schema and not _equal(value, schema["const"]):
            yield SchemaError(path, f"{_show(value)} should be {_show(schema['const'])}", "const")
        if "enum" in schema and not any(_equal(value, e) for e in schema["enum"]):
            choices = ", ".join(str(e) for e in schema["enum"])
            yield SchemaError(path, f"{_show(value)} is not one of: {choices}", "enum")
        if isinstance(value, (str, datetime.date)) and not isinstance(value, bool):
            text = value if isinstance(value, str) else value.isoformat()
            if "minLength" in schema and len(text) < schema["minLength"]:
                yield SchemaError(
                    path,
                    f"{_show(text)} is shorter than {schema['minLength']} characters",
                    "minLength",
                )
            if "maxLength" in schema and len(text) > schema["maxLength"]:
                yield SchemaError(
                    path, f"is {len(text)} characters, more than {schema['maxLength']}", "maxLength"
                )
            if "pattern" in schema and not _regex(schema["pattern"]).search(text):
                yield SchemaError(
                    path, f"{_show(text)} does not match {schema['pattern']!r}", "pattern"
                )
        if _type_ok(value, "number"):
            if "minimum" in schema and value < schema["minimum"]:
                yield SchemaError(
                    path, f"{value} is less than the minimum of {schema['minimum']}", "minimum"
                )
            if "maximum" in schema and value > schema["maximum"]:
                yield SchemaError(
                    path, f"{value} is more than the maximum of {schema['maximum']}", "maximum"
                )
        if isinstance(value, list):
            if "minItems" in schema and len(value) < schema["minItems"]:
                yield SchemaError(
                    path, f"has {len(value)} items, fewer than {schema['minItems']}", "minItems"
                )
            if "maxItems" in schema and len(value) > schema["maxItems"]:
                yield SchemaError(
                    path, f"has {len(value)} items, more than {schema['maxItems']}", "maxItems"
                )
            if "items" in schema:
                for i, item in enumerate(value):
                    yield from self._check(item, schema["items"], (*path, i))
        if isinstance(value, dict):
            for name in schema.get("required", ()):
                if name not in value:
                    yield SchemaError(path, f"missing required property {name!r}", "required")
            props = schema.get("properties", {})
            for key, item in value.items():
                if key in props:
                    yield from self._check(item, props[key], (*path, key))
                elif "additionalProperties" in schema:
                    extra = schema["additionalProperties"]
                    if extra is False:
                        yield SchemaError(
                            (*path, key),
                            f"unexpected property {key!r}",
                            "additionalProperties",
                            True,
                        )
                    else:
                        yield from self._check(item, extra, (*path, key))
        for sub in schema.get("allOf", ()):
            yield from self._check(value, sub, path)
        if "anyOf" in schema and not any(self.valid(value, s) for s in schema["anyOf"]):
            yield from self._best(value, schema["anyOf"], path, "anyOf")
        if "oneOf" in schema:
            matches = sum(1 for s in schema["oneOf"] if self.valid(value, s))
            if matches == 0:
                yield from self._best(value, schema["oneOf"], path, "oneOf")
            elif matches > 1:
                yield SchemaError(path, "matches more than one of the allowed shapes", "oneOf")
        if "if" in schema:
            branch = "then" if self.valid(value, schema["if"]) else "else"
            if branch in schema:
                yield from self._check(value, schema[branch], path)
        if "not" in schema and self.valid(value, schema["not"]):
            yield SchemaError(path, "matches a shape that is not allowed here", "not")

    def _best(self, value: Any, options: list, path: tuple, keyword: str) -> Iterator[SchemaError]:
        """Report the alternative that came closest, the way a reader would fix it."""
        candidates = []
        for option in options:
            errs = list(self._check(value, option, path))
            type_miss = any(e.keyword == "type" and e.path == path for e in errs)
            # an alternative whose errors sit deeper got further: a mapping of options
            # with one bad value beats "is not one of: error, warning, ..."
            depth = max((len(e.path) for e in errs), default=0)
            candidates.append((type_miss, -depth, len(errs), errs))
        type_miss, _, _, errs = min(candidates, key=lambda c: c[:3])
        if type_miss:
            yield SchemaError(path, f"{_show(value)} is not any of the allowed shapes", keyword)
        else:
            yield from errs
