"""A small JSON Schema (2020-12) evaluator for the keywords our schemas use.

Importing `jsonschema` costs more than the whole check of one file, and a hook pays
start-up on every commit. Our schemas stay standard JSON Schema (editors and
check-jsonschema read them as they are); this package evaluates the subset they use
and reports each error with the instance path, so the caller can attach a line and
column. Schemas that use any other keyword are handed to `jsonschema` instead; the
test suite checks that both agree.

`compile_schema` (`entry`) is the one way in: it picks the `Evaluator` or jsonschema
(`fallback`) for a schema. `evaluator` compiles a schema into checks, `keywords` holds
the supported keywords and the checks of one value, `refs` resolves `$ref` (pointers,
anchors, `$id`), `patterns` the user patterns' time bound.
"""

from __future__ import annotations

from .entry import compile_schema
from .evaluator import Evaluator
from .keywords import SUPPORTED, SchemaError, unsupported_keywords
from .patterns import PatternTimeout, _timed_call
from .refs import References, Unresolvable

__all__ = [
    "SUPPORTED",
    "Evaluator",
    "PatternTimeout",
    "References",
    "SchemaError",
    "Unresolvable",
    "_timed_call",
    "compile_schema",
    "unsupported_keywords",
]
