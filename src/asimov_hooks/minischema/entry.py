"""The one way to get a schema evaluated: `compile_schema`.

Validate's schema rule, the config checks and the merge driver's gate all ask here,
so a schema is judged the same everywhere: the in-house `Evaluator` when it implements
every keyword the schema uses, else jsonschema (`fallback`). A keyword minischema does
not know is never silently ignored on any path.
"""

from __future__ import annotations

from .evaluator import Evaluator
from .keywords import unsupported_keywords

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any

# (id(schema), formats) -> (schema, seconds, evaluator): a schema is compiled once per process
_COMPILED: dict[tuple[int, bool], tuple[Any, float | None, Any]] = {}


def compile_schema(schema: Any, pattern_seconds: float | None = None, formats: bool = False) -> Any:
    """An object whose `errors(data)` lists `SchemaError`s, for `schema`.

    `pattern_seconds` bounds a user schema's patterns (and, under jsonschema, the whole
    check); `formats` asserts `format` (the checks of `formats.CHECKS`, in either
    evaluator), else it is an annotation. Raises `fallback.InvalidSchema` for a schema
    jsonschema refuses."""
    key = (id(schema), formats)
    entry = _COMPILED.get(key)
    if entry is not None and entry[0] is schema and entry[1] == pattern_seconds:
        return entry[2]
    if unsupported_keywords(schema):
        from .fallback import JsonschemaEvaluator

        evaluator: Any = JsonschemaEvaluator(schema, pattern_seconds, formats)
    else:
        evaluator = Evaluator(schema, pattern_seconds, formats)
    if len(_COMPILED) >= 256:  # schemas made on the fly (tests, a fuzzer) do not pile up
        _COMPILED.clear()
    _COMPILED[key] = (schema, pattern_seconds, evaluator)
    return evaluator
