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
    from collections.abc import Callable
    from typing import Any

    Check = Callable[[Any, tuple, list], None]  # (value, path, errors out)
    Step = Callable[[Any, tuple, list], "bool | None"]  # True: stop checking this node

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


def _accept(value: Any, path: tuple, out: list) -> None:
    return None


def _type_step(spec: Any) -> Step:
    types = spec if isinstance(spec, list) else [spec]
    expected = " or ".join(types)

    def type_step(value: Any, path: tuple, out: list) -> bool:
        for name in types:
            if _type_ok(value, name):
                return False
        message = f"{_show(value)} is not of type {expected} (got {_type_name(value)})"
        out.append(SchemaError(path, message, "type"))
        return True  # nothing else about a value of the wrong type is worth saying

    return type_step


def _enum_step(choices: list[Any]) -> Step:
    shown = ", ".join(str(e) for e in choices)
    # the usual enum holds only strings: a set lookup says the same as _equal
    strings = frozenset(choices) if all(type(e) is str for e in choices) else None

    def enum_step(value: Any, path: tuple, out: list) -> None:
        if strings is not None and isinstance(value, str):
            ok = value in strings
        elif strings is not None and isinstance(value, datetime.date):
            ok = value.isoformat() in strings
        elif strings is not None:
            ok = False
        else:
            ok = any(_equal(value, e) for e in choices)
        if not ok:
            out.append(SchemaError(path, f"{_show(value)} is not one of: {shown}", "enum"))

    return enum_step


class PatternTimeout(Exception):
    """A user's `pattern` ran longer than its time bound on one value."""

    def __init__(self, pattern: str, seconds: float) -> None:
        super().__init__(pattern)
        self.pattern, self.seconds = pattern, seconds


def _timed(pattern: str, seconds: float) -> Callable[[str], Any]:
    """`re.search` with a wall-clock bound (SIGALRM; `re` checks for signals as it
    backtracks), for patterns from a repository's own schema: `(a+)+$` on a long value
    would otherwise run for hours. Outside the main thread the search is unbounded."""
    import signal
    import threading

    search = _regex(pattern).search

    def timeout(signum: int, frame: Any) -> None:
        raise PatternTimeout(pattern, seconds)

    def run(text: str) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return search(text)  # signals reach the main thread only
        previous = signal.signal(signal.SIGALRM, timeout)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return search(text)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    return run


def _timed_call(call: Callable[[], Any], seconds: float) -> Any:
    """`call()` under the same SIGALRM bound as a user's pattern (main thread only)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return call()

    def timeout(signum: int, frame: Any) -> None:
        raise PatternTimeout("(jsonschema keywords)", seconds)

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _string_step(schema: dict[str, Any], seconds: float | None = None) -> Step:
    least, most, pattern = schema.get("minLength"), schema.get("maxLength"), schema.get("pattern")
    search = None
    if pattern is not None:
        search = _regex(pattern).search if seconds is None else _timed(pattern, seconds)

    def string_step(value: Any, path: tuple, out: list) -> None:
        if not isinstance(value, (str, datetime.date)) or isinstance(value, bool):
            return
        text = value if isinstance(value, str) else value.isoformat()
        if least is not None and len(text) < least:
            out.append(
                SchemaError(path, f"{_show(text)} is shorter than {least} characters", "minLength")
            )
        if most is not None and len(text) > most:
            out.append(
                SchemaError(path, f"is {len(text)} characters, more than {most}", "maxLength")
            )
        if search is not None and not search(text):
            out.append(SchemaError(path, f"{_show(text)} does not match {pattern!r}", "pattern"))

    return string_step


def _number_step(schema: dict[str, Any]) -> Step:
    least, most = schema.get("minimum"), schema.get("maximum")

    def number_step(value: Any, path: tuple, out: list) -> None:
        if not _type_ok(value, "number"):
            return
        if least is not None and value < least:
            out.append(SchemaError(path, f"{value} is less than the minimum of {least}", "minimum"))
        if most is not None and value > most:
            out.append(SchemaError(path, f"{value} is more than the maximum of {most}", "maximum"))

    return number_step


class Evaluator:
    """Evaluates instances against one schema; each schema node is compiled once.

    A hook checks hundreds of files against the same few schemas, so every schema
    node becomes a closure that runs only the keywords the node has, instead of asking
    the node for every keyword on every value.
    """

    def __init__(self, schema: dict[str, Any], pattern_seconds: float | None = None) -> None:
        self.root = schema
        self.pattern_seconds = pattern_seconds  # a time bound for a user schema's patterns
        self._compiled: dict[int, tuple[Any, Check]] = {}

    def _resolve(self, ref: str) -> Any:
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def errors(self, instance: Any) -> list[SchemaError]:
        return self._check(instance, self.root, ())

    def valid(self, instance: Any, schema: Any) -> bool:
        return not self._check(instance, schema, ())

    def _check(self, value: Any, schema: Any, path: tuple) -> list[SchemaError]:
        out: list[SchemaError] = []
        self._fn(schema)(value, path, out)
        return out

    def _fn(self, schema: Any) -> Check:
        entry = self._compiled.get(id(schema))
        if entry is None or entry[0] is not schema:
            entry = self._compiled[id(schema)] = (schema, self._compile(schema))
        return entry[1]

    def _compile(self, schema: Any) -> Check:
        if schema is True:
            return _accept
        if schema is False:

            def refuse(value: Any, path: tuple, out: list) -> None:
                out.append(SchemaError(path, "is not allowed here", "false"))

            return refuse
        # each step appends its errors; a step that returns True ends the node
        steps: list[Callable[[Any, tuple, list], bool | None]] = []
        if "$ref" in schema:
            target = self._resolve(schema["$ref"])
            # looked up on use: a schema may refer to itself
            steps.append(lambda value, path, out: self._fn(target)(value, path, out))
        if "type" in schema:
            steps.append(_type_step(schema["type"]))
        if "const" in schema:
            const = schema["const"]

            def const_step(value: Any, path: tuple, out: list) -> None:
                if not _equal(value, const):
                    out.append(
                        SchemaError(path, f"{_show(value)} should be {_show(const)}", "const")
                    )

            steps.append(const_step)
        if "enum" in schema:
            steps.append(_enum_step(schema["enum"]))
        if {"minLength", "maxLength", "pattern"} & schema.keys():
            steps.append(_string_step(schema, self.pattern_seconds))
        if {"minimum", "maximum"} & schema.keys():
            steps.append(_number_step(schema))
        if {"minItems", "maxItems", "items"} & schema.keys():
            steps.append(self._array_step(schema))
        if {"required", "properties", "additionalProperties"} & schema.keys():
            steps.append(self._object_step(schema))
        steps.extend(self._combination_steps(schema))
        steps_t = tuple(steps)

        def run(value: Any, path: tuple, out: list) -> None:
            for step in steps_t:
                if step(value, path, out):
                    return

        return run

    def _array_step(self, schema: dict[str, Any]) -> Step:
        least, most = schema.get("minItems"), schema.get("maxItems")
        items = self._fn(schema["items"]) if "items" in schema else None

        def array_step(value: Any, path: tuple, out: list) -> None:
            if not isinstance(value, list):
                return
            if least is not None and len(value) < least:
                out.append(
                    SchemaError(path, f"has {len(value)} items, fewer than {least}", "minItems")
                )
            if most is not None and len(value) > most:
                out.append(
                    SchemaError(path, f"has {len(value)} items, more than {most}", "maxItems")
                )
            if items is not None:
                for i, item in enumerate(value):
                    items(item, (*path, i), out)

        return array_step

    def _object_step(self, schema: dict[str, Any]) -> Step:
        required = tuple(schema.get("required", ()))
        props = {key: self._fn(sub) for key, sub in schema.get("properties", {}).items()}
        has_extra = "additionalProperties" in schema
        extra = schema.get("additionalProperties")
        extra_fn = self._fn(extra) if has_extra and extra is not False else None

        def object_step(value: Any, path: tuple, out: list) -> None:
            if not isinstance(value, dict):
                return
            for name in required:
                if name not in value:
                    out.append(SchemaError(path, f"missing required property {name!r}", "required"))
            for key, item in value.items():
                check = props.get(key)
                if check is not None:
                    check(item, (*path, key), out)
                elif extra_fn is not None:
                    extra_fn(item, (*path, key), out)
                elif has_extra:
                    out.append(
                        SchemaError(
                            (*path, key),
                            f"unexpected property {key!r}",
                            "additionalProperties",
                            True,
                        )
                    )

        return object_step

    def _combination_steps(self, schema: dict[str, Any]) -> list[Step]:
        steps: list[Step] = []
        for sub in schema.get("allOf", ()):
            steps.append(self._fn(sub))
        if "anyOf" in schema:
            options = schema["anyOf"]

            def any_of(value: Any, path: tuple, out: list) -> None:
                if not any(self.valid(value, s) for s in options):
                    out.extend(self._best(value, options, path, "anyOf"))

            steps.append(any_of)
        if "oneOf" in schema:
            choices = schema["oneOf"]

            def one_of(value: Any, path: tuple, out: list) -> None:
                matches = sum(1 for s in choices if self.valid(value, s))
                if matches == 0:
                    out.extend(self._best(value, choices, path, "oneOf"))
                elif matches > 1:
                    out.append(
                        SchemaError(path, "matches more than one of the allowed shapes", "oneOf")
                    )

            steps.append(one_of)
        if "if" in schema:
            condition = schema["if"]
            then, otherwise = schema.get("then"), schema.get("else")

            def if_then(value: Any, path: tuple, out: list) -> None:
                branch = then if self.valid(value, condition) else otherwise
                if branch is not None:
                    self._fn(branch)(value, path, out)

            steps.append(if_then)
        if "not" in schema:
            forbidden = schema["not"]

            def not_step(value: Any, path: tuple, out: list) -> None:
                if self.valid(value, forbidden):
                    out.append(SchemaError(path, "matches a shape that is not allowed here", "not"))

            steps.append(not_step)
        return steps

    def _best(self, value: Any, options: list, path: tuple, keyword: str) -> list[SchemaError]:
        """Report the alternative that came closest, the way a reader would fix it."""
        candidates = []
        for option in options:
            errs = self._check(value, option, path)
            type_miss = any(e.keyword == "type" and e.path == path for e in errs)
            # an alternative whose errors sit deeper got further: a mapping of options
            # with one bad value beats "is not one of: error, warning, ..."
            depth = max((len(e.path) for e in errs), default=0)
            candidates.append((type_miss, -depth, len(errs), errs))
        type_miss, _, _, errs = min(candidates, key=lambda c: c[:3])
        if type_miss:
            return [SchemaError(path, f"{_show(value)} is not any of the allowed shapes", keyword)]
        return errs
