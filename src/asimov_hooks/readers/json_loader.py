"""JSON loading that keeps line and column for every node.

The standard library parses; positions are found only when there is something to
report: `json_find` walks along one path, `json_spans` maps the whole text (it is also
the merge driver's span tree). NaN, Infinity, numbers out of range and duplicate keys
are refused here, by every reader of checkpoints.
"""

from __future__ import annotations

import contextlib
import json
import re

from .document import Document, Path_, YAMLProblem, guard
from .json_spans import WS, spans

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any


class DuplicateKey(Exception):
    """A JSON object repeats a key: the file means different things to different tools."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`object_pairs_hook` for json.loads that raises DuplicateKey."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


class NotJSONConstant(Exception):
    """NaN or Infinity: Python's json module reads them, JSON (and other tools) do not."""


def reject_constant(name: str) -> Any:
    """`parse_constant` for json.loads: every reader of checkpoints refuses NaN/Infinity."""
    raise NotJSONConstant(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):  # 1e999: Python reads inf, JSON has none
        raise NotJSONConstant(text)
    return value


# a JSON string, or a token Python's json module reads but JSON does not allow; a string
# left open runs to the end (else each later quote would start a scan to the end again)
_STRING_OR = r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|'


def _token_position(text: str, token: str) -> tuple[int, int]:
    """Line and column of the first `token` (a regex) outside JSON strings."""
    for match in re.finditer(_STRING_OR + token, text):
        if not match.group().startswith('"'):
            line = text.count("\n", 0, match.start()) + 1
            return line, match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
    return 1, 1


def load_json(text: str, limits: dict[str, int] | None = None) -> Document:
    guard(text, "json", limits)
    try:
        data = json.loads(
            text,
            object_pairs_hook=reject_duplicates,
            parse_constant=reject_constant,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as exc:
        raise YAMLProblem("syntax", f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except NotJSONConstant as exc:  # Python reads NaN, Infinity, 1e999; JSON has none of them
        name = exc.args[0]
        if name in ("NaN", "Infinity", "-Infinity"):
            line, col = _token_position(text, r"NaN|-?Infinity")
            message = f"invalid JSON: {name} is not a JSON value"
        else:
            line, col = _token_position(text, r"-?\d[\d.]*[eE][+-]?\d+")
            message = f"invalid JSON: {name[:40]} is out of range for a number"
        raise YAMLProblem("syntax", message, line, col) from None
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        line, col = _token_position(text, r"-?\d{100,}")
        detail = str(exc).split(";")[0]  # drop Python's advice on sys.set_int_max_str_digits
        raise YAMLProblem("syntax", f"invalid JSON: {detail}", line, col) from None
    except DuplicateKey as dup:
        line, col = _duplicate_position(text, dup.key)
        raise YAMLProblem("duplicate-key", f"duplicate key {dup.key!r}", line, col) from None
    except RecursionError:
        raise YAMLProblem("syntax", "invalid JSON: nesting too deep") from None

    def locate(path: Path_, on_key: bool = False) -> tuple[int, int]:
        return json_find(text, path, on_key)

    return Document(data, locate)


def _duplicate_position(text: str, key: str) -> tuple[int, int]:
    """Line and column of the first repeat of `key` in `text` (valid JSON up to there:
    json.loads stops at the first object that repeats a key)."""
    repeats: dict[str, int] = {}
    with contextlib.suppress(IndexError, ValueError, AttributeError, RecursionError):
        spans(text.removeprefix("\ufeff"), repeats)
    offset = repeats.get(key)
    if offset is None:
        return 1, 1
    offset += text.startswith("\ufeff")
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


_SKIP: list[Any] = []  # the C scanner, built on first use


def json_find(text: str, path: Path_, on_key: bool = False) -> tuple[int, int]:
    """Line and column of `path` in valid JSON `text`: its key, or its value.

    Walks only along the path and lets the json module's C scanner step over every
    other value, so finding one node costs a fraction of mapping them all. Where the
    path leaves the document, the deepest node it reached is given.
    """
    from json.decoder import scanstring

    if not _SKIP:
        _SKIP.append(json.JSONDecoder().scan_once)
    skip = _SKIP[0]

    def ws(pos: int) -> int:
        return WS.match(text, pos).end()

    def where(offset: int) -> tuple[int, int]:
        return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1

    pos = ws(1 if text.startswith("\ufeff") else 0)
    try:
        for depth, part in enumerate(path):
            opener = text[pos]
            start = ws(pos + 1)
            if opener == "{" and isinstance(part, str):
                at, key_at = start, None
                while text[at] == '"':
                    key_start = at
                    key, at = scanstring(text, at + 1)
                    at = ws(ws(at) + 1)  # past the colon
                    if key == part:
                        key_at = key_start
                        break
                    at = ws(skip(text, at)[1])
                    if text[at] != ",":
                        break
                    at = ws(at + 1)
                if key_at is None:
                    break
                if on_key and depth == len(path) - 1:
                    return where(key_at)
                pos = at
            elif opener == "[" and isinstance(part, int) and part >= 0:
                at = start
                for _ in range(part):
                    if text[at] == "]":
                        break
                    at = ws(skip(text, at)[1])
                    if text[at] != ",":
                        break
                    at = ws(at + 1)
                else:
                    if text[at] != "]":
                        pos = at
                        continue
                break
            else:
                break
    except (IndexError, ValueError, StopIteration, RecursionError):
        pass
    return where(pos)
