"""JSON for the rule packs without importing the `json` package.

`import json` pulls in `re` and costs more than the whole size check of a commit's
files; the rule packs are read on every hook run. CPython's own C scanner (`_json`,
the one `json.loads` uses) reads them just as well. Anything it does not handle the
way `json.loads` would (another interpreter, an error to report) goes to `json.loads`,
so results and error messages are the standard library's.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

_WHITESPACE = " \t\n\r"


class _Context:
    """The attributes `_json.make_scanner` reads from a `json.JSONDecoder`."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return float(name)


_SCANNER: list[Any] = []


def _scanner() -> Any:
    if not _SCANNER:
        try:
            from _json import make_scanner

            _SCANNER.append(make_scanner(_Context()))
        except Exception:  # not CPython, or a scanner with other needs
            _SCANNER.append(None)
    return _SCANNER[0]


def loads(text: str) -> Any:
    """As `json.loads(text)`; raises `ValueError` (json.JSONDecodeError) the same way."""
    scan = _scanner()
    if scan is not None:
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = scan(text, start)
        except Exception:
            value, end = None, -1
        if end >= 0 and not text[end:].strip(_WHITESPACE):
            return value
    import json

    return json.loads(text)


class _StrictContext(_Context):
    """As `_Context`, but NaN, Infinity and -Infinity are refused (not JSON)."""

    @staticmethod
    def parse_constant(name: str) -> float:
        raise ValueError(f"{name} is not a JSON value")


_STRICT: list[Any] = []


def loads_strict(text: str) -> Any:
    """As `loads`, refusing NaN and Infinity (ValueError); RecursionError for a text
    nested deeper than the interpreter's recursion limit, as `json.loads` raises it."""
    if not _STRICT:
        try:
            from _json import make_scanner

            _STRICT.append(make_scanner(_StrictContext()))
        except Exception:
            _STRICT.append(None)
    scan = _STRICT[0]
    if scan is not None:
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = scan(text, start)
        except Exception:  # the standard library says what is wrong, below
            value, end = None, -1
        if end >= 0 and not text[end:].strip(_WHITESPACE):
            return value
    import json

    return json.loads(text, parse_constant=_StrictContext.parse_constant)
