"""Checkpoints read and written the way the protocol's own writer writes them.

The Node writer saves `JSON.stringify(obj, null, 2) + "\\n"`: two-space indentation,
`"key": value`, empty containers as `[]` / `{}`, non-ASCII characters as they are, and
one final newline. Writing the same layout back keeps an update a one-line diff.

Numbers keep the text they were read with (a hand-written `6.0` stays `6.0`); numbers
a command adds are printed as JavaScript prints them (`6`, `0.1`, `1e+21`). A file
that uses another indentation (four spaces, tabs), CRLF line ends, a byte-order mark or
no final newline keeps it.
"""

from __future__ import annotations

import json
import math
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class RawInt(int):
    """An integer with the text it was read from."""

    text: str

    def __new__(cls, text: str) -> RawInt:
        obj = super().__new__(cls, int(text))
        obj.text = text
        return obj


class RawFloat(float):
    """A float with the text it was read from."""

    text: str

    def __new__(cls, text: str) -> RawFloat:
        obj = super().__new__(cls, float(text))
        obj.text = text
        return obj


class JSONProblem(ValueError):
    """A file that cannot be read as a JSON object: one line that says why."""


class Layout:
    """How a file is laid out: indentation unit, line end, final newline, BOM."""

    __slots__ = ("bom", "final_newline", "indent", "newline")

    def __init__(
        self, indent: str = "  ", newline: str = "\n", final_newline: bool = True, bom: bool = False
    ) -> None:
        self.indent, self.newline = indent, newline
        self.final_newline, self.bom = final_newline, bom

    @classmethod
    def of(cls, raw: bytes) -> Layout:
        bom = raw.startswith(b"\xef\xbb\xbf")
        text = raw[3:] if bom else raw
        newline = "\r\n" if b"\r\n" in text else "\n"
        match = re.search(rb"\n([ \t]+)[\"\]\}]", text)
        indent = match.group(1).decode("ascii") if match else "  "
        final = text.endswith(b"\n")
        return cls(indent, newline, final or not text.strip(), bom)


def loads(text: str, limits: dict[str, int] | None = None) -> Any:
    """Parse JSON keeping number texts, through the door validate reads by
    (readers.json_loader.parse): what validate refuses (NaN, Infinity, `1e999`, a lone
    surrogate, a repeated key, nesting past `limits.max-depth`) is a JSONProblem with
    validate's words and the place."""
    from ..readers.json_loader import parse
    from ..readers.problem import YAMLProblem

    try:
        return parse(text, limits, parse_int=RawInt, parse_float=RawFloat)
    except YAMLProblem as problem:
        where = f" (line {problem.line}, column {problem.col})" if problem.placed else ""
        raise JSONProblem(problem.message + where) from None


def load_bytes(raw: bytes, limits: dict[str, int] | None = None) -> tuple[Any, Layout]:
    if b"\x00" in raw:
        raise JSONProblem("binary content (NUL byte)")
    layout = Layout.of(raw)
    try:
        text = raw[3:].decode("utf-8") if layout.bom else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JSONProblem(f"not valid UTF-8 (byte offset {exc.start})") from None
    if not text.strip():
        raise JSONProblem("file is empty")
    return loads(text, limits), layout


def js_number(value: float | int) -> str:
    """A number as JavaScript's JSON.stringify prints it."""
    text = getattr(value, "text", None)
    if text is not None:
        return text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return "null"  # what JSON.stringify writes for NaN and Infinity
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, exp = text.split("e")
        if -7 < int(exp) < 0:  # JavaScript writes 0.00001 and 0.000001 in full
            from decimal import Decimal

            return format(Decimal(text), "f")
        sign = "-" if exp.startswith("-") else "+"
        return f"{mantissa}e{sign}{exp.lstrip('+-').lstrip('0') or '0'}"
    return text


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def js_string(value: str) -> str:
    """A string as JSON.stringify writes it: only quotes, backslashes and control
    characters escaped; a lone surrogate as \\uXXXX (well-formed JSON.stringify)."""
    out = json.dumps(value, ensure_ascii=False)
    if _LONE_SURROGATE.search(out):
        out = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    return out


def _dump(value: Any, unit: str, depth: int, parts: list[str]) -> None:
    if isinstance(value, dict):
        if not value:
            parts.append("{}")
            return
        inner = "\n" + unit * (depth + 1)
        parts.append("{")
        first = True
        for key, item in value.items():
            parts.append(inner if first else "," + inner)
            first = False
            parts.append(js_string(str(key)) + ": ")
            _dump(item, unit, depth + 1, parts)
        parts.append("\n" + unit * depth + "}")
    elif isinstance(value, list):
        if not value:
            parts.append("[]")
            return
        inner = "\n" + unit * (depth + 1)
        parts.append("[")
        for i, item in enumerate(value):
            parts.append(inner if i == 0 else "," + inner)
            _dump(item, unit, depth + 1, parts)
        parts.append("\n" + unit * depth + "]")
    elif isinstance(value, str):
        parts.append(js_string(value))
    elif value is None:
        parts.append("null")
    elif isinstance(value, (bool, int, float)):
        parts.append(js_number(value))
    else:
        raise TypeError(f"cannot write {type(value).__name__} as JSON")


def dumps(value: Any, layout: Layout | None = None) -> str:
    layout = layout or Layout()
    parts: list[str] = []
    _dump(value, layout.indent, 0, parts)
    text = "".join(parts) + ("\n" if layout.final_newline else "")
    return text.replace("\n", layout.newline) if layout.newline != "\n" else text


def dump_bytes(value: Any, layout: Layout | None = None) -> bytes:
    layout = layout or Layout()
    data = dumps(value, layout).encode("utf-8", "surrogatepass")
    return (b"\xef\xbb\xbf" + data) if layout.bom else data


_INDEX_KEY = re.compile(r"0|[1-9][0-9]{0,9}")


def is_index_key(key: str) -> bool:
    """A key JavaScript orders before the others (an array index, < 2**32 - 1)."""
    return bool(_INDEX_KEY.fullmatch(key)) and int(key) < 2**32 - 1


def insert_key(obj: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """`obj` with a new key where JavaScript would put it: index-like keys in numeric
    order before the others, any other key last. Returns the (same or new) dict."""
    if key in obj or not is_index_key(key):
        obj[key] = value
        return obj
    items = list(obj.items())
    pos = 0
    while pos < len(items) and is_index_key(items[pos][0]) and int(items[pos][0]) < int(key):
        pos += 1
    items.insert(pos, (key, value))
    obj.clear()
    obj.update(items)
    return obj
