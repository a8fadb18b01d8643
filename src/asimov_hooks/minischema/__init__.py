"""A small JSON Schema (2020-12) evaluator for the keywords our schemas use.

Importing `jsonschema` costs more than the whole check of one file, and a hook pays
start-up on every commit. Our schemas stay standard JSON Schema (editors and
check-jsonschema read them as they are); this package evaluates the subset they use
and reports each error with the instance path, so the caller can attach a line and
column. Schemas that use any other keyword are handed to `jsonschema` instead; the
test suite checks that both agree.

`evaluator` compiles a schema into checks (`Evaluator`), `keywords` holds the supported
keywords and the checks of one value, `patterns` the user patterns' time bound. The
names are importable from here, as they were from the single module.
"""

from __future__ import annotations

from .evaluator import Evaluator
from .keywords import SUPPORTED, SchemaError, unsupported_keywords
from .patterns import PatternTimeout, _timed_call

__all__ = [
    "SUPPORTED",
    "Evaluator",
    "PatternTimeout",
    "SchemaError",
    "_timed_call",
    "unsupported_keywords",
]
