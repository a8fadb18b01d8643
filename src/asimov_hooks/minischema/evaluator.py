"""`Evaluator`: a schema compiled once into checks, node by node.

The steps for one value come from `keywords`; this module adds `$ref`, the keywords
that walk into arrays and objects, and the combinations (allOf, anyOf, oneOf, if/then/
else, not), and picks the closest alternative to report when none matches.
"""

from __future__ import annotations

from .keywords import (
    SchemaError,
    _accept,
    _enum_step,
    _equal,
    _number_step,
    _show,
    _string_step,
    _type_step,
    exact_types,
    text_keys,
)
from .refs import References

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Callable
    from typing import Any

    Check = Callable[[Any, tuple, list], None]  # (value, path, errors out)
    Step = Callable[[Any, tuple, list], "bool | None"]  # True: stop checking this node


def _format_step(name: Any) -> Step:
    from .formats import CHECKS, conforms

    def format_step(value: Any, path: tuple, out: list) -> None:
        if not conforms(name, value):
            out.append(SchemaError(path, f"{_show(value)} is not a valid {name}", "format"))

    return format_step if name in CHECKS else _accept


class Evaluator:
    """Evaluates instances against one schema; each schema node is compiled once.

    A hook checks hundreds of files against the same few schemas, so every schema
    node becomes a closure that runs only the keywords the node has, instead of asking
    the node for every keyword on every value.
    """

    def __init__(
        self,
        schema: dict[str, Any],
        pattern_seconds: float | None = None,
        formats: bool = False,
    ) -> None:
        self.root = schema
        self.pattern_seconds = pattern_seconds  # a time bound for a user schema's patterns
        self.formats = formats  # `format` asserted (formats.CHECKS), else an annotation
        self._compiled: dict[int, tuple[Any, Check]] = {}
        # id(a node that only checks `type`) -> (the node, the Python types that pass it
        # as they are): a parent asks a value's type instead of calling the node's check
        self._only_type: dict[int, tuple[Any, frozenset[type]]] = {}
        self._refs: References | None = None  # built on the first `$ref`

    def _resolve(self, schema: dict[str, Any]) -> Any:
        """The node `schema["$ref"]` names (refs: every in-document form; Unresolvable)."""
        if self._refs is None:
            self._refs = References(self.root)
        return self._refs.lookup(schema["$ref"], self._refs.base(schema))

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
            target = self._resolve(schema)
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
        if self.formats and "format" in schema:
            steps.append(_format_step(schema["format"]))
        if {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} & schema.keys():
            steps.append(_number_step(schema))
        if {"minItems", "maxItems", "items"} & schema.keys():
            steps.append(self._array_step(schema))
        if {"required", "properties", "additionalProperties"} & schema.keys():
            steps.append(self._object_step(schema))
        steps.extend(self._combination_steps(schema))
        if len(steps) == 1:  # one step (most nodes): no loop; a node's check returns None
            step = steps[0]
            if "type" in schema:  # the type step alone (a `$ref` would be a step before it)
                exact = exact_types(schema["type"])
                self._only_type[id(schema)] = (schema, exact)

                def typed(value: Any, path: tuple, out: list) -> None:
                    if type(value) not in exact:
                        step(value, path, out)

                return typed

            def single(value: Any, path: tuple, out: list) -> None:
                step(value, path, out)

            return single
        steps_t = tuple(steps)
        if "type" in schema and "$ref" not in schema and len(steps_t) == 2:
            exact, (check_type, then) = exact_types(schema["type"]), steps_t

            def typed_then(value: Any, path: tuple, out: list) -> None:
                if type(value) in exact or not check_type(value, path, out):
                    then(value, path, out)  # the type step passed: the other one

            return typed_then
        if "type" in schema and "$ref" not in schema:  # the type step first, then others
            exact, rest = exact_types(schema["type"]), steps_t[1:]

            def typed_run(value: Any, path: tuple, out: list) -> None:
                for step in rest if type(value) in exact else steps_t:
                    if step(value, path, out):
                        return

            return typed_run

        def run(value: Any, path: tuple, out: list) -> None:
            for step in steps_t:
                if step(value, path, out):
                    return

        return run

    def _exact(self, schema: Any) -> frozenset[type]:
        """The Python types whose values pass `schema` (compiled already) with nothing
        to say: those of its `type` when that is all it checks, else none."""
        entry = self._only_type.get(id(schema))
        return entry[1] if entry is not None and entry[0] is schema else frozenset()

    def _array_step(self, schema: dict[str, Any]) -> Step:
        least, most = schema.get("minItems"), schema.get("maxItems")
        items = self._fn(schema["items"]) if "items" in schema else None
        # items that all pass a type-only `items` by their type need no call each
        same = self._exact(schema["items"]) if items is not None else frozenset()

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
            if items is not None and not (same and {*map(type, value)} <= same):
                for i, item in enumerate(value):
                    items(item, (*path, i), out)

        return array_step

    def _object_step(self, schema: dict[str, Any]) -> Step:
        required = tuple(schema.get("required", ()))
        # each property's check, and the types whose values pass it with no call
        props = {
            key: (self._fn(sub), self._exact(sub))
            for key, sub in schema.get("properties", {}).items()
        }
        extra = schema.get("additionalProperties", True)
        refuse_extra = extra is False
        # `additionalProperties: true` (or absent) accepts any other key: no call
        extra_fn = self._fn(extra) if extra is not True and not refuse_extra else None

        def object_step(value: Any, path: tuple, out: list) -> None:
            if not isinstance(value, dict):
                return
            value = text_keys(value)  # `1:` is the property "1" (key_text)
            for name in required:
                if name not in value:
                    out.append(SchemaError(path, f"missing required property {name!r}", "required"))
            for key, item in value.items():
                prop = props.get(key)
                if prop is not None:
                    if type(item) not in prop[1]:
                        prop[0](item, (*path, key), out)
                elif extra_fn is not None:
                    extra_fn(item, (*path, key), out)
                elif refuse_extra:
                    out.append(
                        SchemaError(
                            (*path, key),
                            f"unexpected property {_show(key)}",
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
