"""The keywords the evaluator supports, its error record, and the checks of one value.

What a keyword says about a single value (its type, enum, const equality, string length
and pattern, number bounds) lives here; `evaluator` composes these steps per schema node
and adds the keywords that walk into children or combine sub-schemas.
"""

from __future__ import annotations

from ..readers import is_date as _is_date
from ..readers import key_text
from .patterns import _regex, _timed
from .refs import References

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Callable
    from typing import Any

    Step = Callable[[Any, tuple, list], "bool | None"]  # True: stop checking this node

SUPPORTED = frozenset(
    {
        "$schema",
        "$id",
        "$ref",
        "$anchor",
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
        "exclusiveMinimum",
        "exclusiveMaximum",
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
        "format",  # an annotation; asserted under --format-assertion (formats.py)
    }
)
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
_SCHEMA_MAPS = ("properties", "$defs")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf")
_SUBSCHEMAS = ("additionalProperties", "items", "if", "then", "else", "not")


class SchemaError(tuple):
    """(path, message, keyword, on_key): one error, a tuple with named fields (as a
    namedtuple, without importing `collections`, nor `dataclasses`, which imports
    `inspect`: both cost start-up time on every hook run). `on_key`: the error is about
    a key itself (an unexpected property)."""

    __slots__ = ()
    _fields = ("path", "message", "keyword", "on_key")

    def __new__(cls, path: tuple, message: str, keyword: str, on_key: bool = False) -> SchemaError:
        return tuple.__new__(cls, (path, message, keyword, on_key))

    def __getnewargs__(self) -> tuple:  # pickles (and copies) as the four fields
        return tuple(self)

    def __repr__(self) -> str:
        return "SchemaError(path={!r}, message={!r}, keyword={!r}, on_key={!r})".format(*self)

    path = property(lambda self: self[0], doc="where, as keys and indexes")
    message = property(lambda self: self[1])
    keyword = property(lambda self: self[2])
    on_key = property(lambda self: self[3])


def unsupported_keywords(schema: Any) -> set[str]:
    """Keywords in `schema` (recursively) that this evaluator does not implement: any
    keyword not in SUPPORTED, a `$ref` that does not resolve inside the document, and a
    `$schema` of another draft (its keywords mean other things)."""
    found: set[str] = set()
    refs: list[References] = []  # built on the first `$ref`

    def walk(node: Any) -> None:
        if isinstance(node, bool):
            return
        if not isinstance(node, dict):
            found.add("<non-object schema>")
            return
        for key, value in node.items():
            if key not in SUPPORTED:
                found.add(key)
            elif key in _SCHEMA_MAPS:
                if isinstance(value, dict):
                    for sub in value.values():
                        walk(sub)
                else:
                    found.add(f"{key} (not an object)")
            elif key in _SCHEMA_LISTS:
                if isinstance(value, list):
                    for sub in value:
                        walk(sub)
                else:
                    found.add(f"{key} (not a list)")
            elif key in _SUBSCHEMAS:
                walk(value)
            elif key == "$ref":
                if not refs:
                    refs.append(References(schema))
                if not isinstance(value, str) or not refs[0].resolves(value, refs[0].base(node)):
                    found.add("$ref (outside the document)")
            elif key == "$schema" and str(value).rstrip("#") != DRAFT_2020_12:
                found.add("$schema (another draft)")

    walk(schema)
    return found


def _type_ok(value: Any, name: str) -> bool:
    if name == "string":
        # YAML loaders turn unquoted timestamps into dates; they were text in the file.
        return isinstance(value, str) or _is_date(value)
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
    if _is_date(a) and isinstance(b, str):
        return a.isoformat() == b
    if isinstance(a, dict) and isinstance(b, dict):
        a, b = text_keys(a), text_keys(b)  # object keys are strings (key_text)
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=False))
    return a == b


_STR = {str}


def text_keys(value: dict) -> dict:
    """`value` with every key its `key_text` (itself when all keys are strings already)."""
    if {*map(type, value)} <= _STR:  # every key a str (one pass in C)
        return value
    return {key_text(key): item for key, item in value.items()}


def _show(value: Any, room: int = 60) -> str:
    """A value for a message, as YAML data reads (never a Python repr such as
    `datetime.date(...)` or `ordereddict([...])`), cut to about `room` characters."""
    if _is_date(value):
        text = repr(value.isoformat())
    elif isinstance(value, dict):
        parts: list[str] = []
        used = 2
        for key, item in value.items():
            if used > room:
                parts.append("...")
                break
            part = f"{_show(key_text(key), room)}: {_show(item, room - used)}"
            parts.append(part)
            used += len(part) + 2
        text = "{" + ", ".join(parts) + "}"
    elif isinstance(value, list):
        shown: list[str] = []
        used = 2
        for item in value:
            if used > room:
                shown.append("...")
                break
            part = _show(item, room - used)
            shown.append(part)
            used += len(part) + 2
        text = "[" + ", ".join(shown) + "]"
    elif type(value) in (str, int, float, bool) or value is None:
        text = repr(value)
    else:
        text = repr(key_text(value)) if isinstance(value, (str, tuple)) else repr(value)
    return text if len(text) <= room else text[: max(room - 3, 0)] + "..."


def _accept(value: Any, path: tuple, out: list) -> None:
    return None


# the Python types whose values are certainly of a JSON type (`_type_ok` says so of
# every value whose type is exactly one of these): most values a step is asked about
_EXACT = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
    "array": (list,),
    "object": (dict,),
}


def exact_types(spec: Any) -> frozenset[type]:
    """The Python types whose values pass the `type` keyword `spec` without a closer
    look (exactly these types, not subclasses: `bool` is no `integer`)."""
    types = spec if isinstance(spec, list) else [spec]
    return frozenset(t for name in types if isinstance(name, str) for t in _EXACT.get(name, ()))


def _type_step(spec: Any) -> Step:
    types = spec if isinstance(spec, list) else [spec]
    expected = " or ".join(types)
    exact = exact_types(spec)

    def type_step(value: Any, path: tuple, out: list) -> bool:
        if type(value) in exact:
            return False
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
        elif strings is not None and _is_date(value):
            ok = value.isoformat() in strings
        elif strings is not None:
            ok = False
        else:
            ok = any(_equal(value, e) for e in choices)
        if not ok:
            out.append(SchemaError(path, f"{_show(value)} is not one of: {shown}", "enum"))

    return enum_step


def _string_step(schema: dict[str, Any], seconds: float | None = None) -> Step:
    least, most, pattern = schema.get("minLength"), schema.get("maxLength"), schema.get("pattern")
    search = None
    if pattern is not None:
        search = _regex(pattern).search if seconds is None else _timed(pattern, seconds)

    def string_step(value: Any, path: tuple, out: list) -> None:
        if type(value) is str:  # most values: no closer look
            text = value
        elif not (isinstance(value, str) or _is_date(value)) or isinstance(value, bool):
            return
        else:
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
    above, below = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")

    def number_step(value: Any, path: tuple, out: list) -> None:
        if type(value) is not int and type(value) is not float and not _type_ok(value, "number"):
            return
        # as jsonschema (and check-jsonschema) compare: NaN is below and above nothing, so
        # it meets every bound; .inf is above every maximum. (A config refuses NaN and the
        # infinities before its schema is asked: config.finite.)
        if least is not None and value < least:
            out.append(SchemaError(path, f"{value} is less than the minimum of {least}", "minimum"))
        if most is not None and value > most:
            out.append(SchemaError(path, f"{value} is more than the maximum of {most}", "maximum"))
        if above is not None and value <= above:
            message = f"{value} is not more than the exclusive minimum of {above}"
            out.append(SchemaError(path, message, "exclusiveMinimum"))
        if below is not None and value >= below:
            message = f"{value} is not less than the exclusive maximum of {below}"
            out.append(SchemaError(path, message, "exclusiveMaximum"))

    return number_step
