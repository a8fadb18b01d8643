"""The one door for a repository's JSON: reading (`parse`) and printing (`dump_text`),
so that no reader accepts what validate refuses (docs/architecture.md, "The JSON door").

The standard library parses; positions are found only when there is something to
report: `json_find` walks along one path, `json_spans` maps the whole text.
"""

from __future__ import annotations

import contextlib
import json
import re

from .document import Document, Path_, YAMLProblem, guard
from .fastjson import Constant, constant_words, refuse_constant, token_position
from .fastjson import line_col as _position
from .json_spans import WS, locator, spans

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from collections.abc import Callable
    from typing import Any

_INFINITIES = (float("inf"), float("-inf"))


class DuplicateKey(Exception):
    """A JSON object repeats a key (`args[0]`): the file means different things to
    different tools."""


def reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`object_pairs_hook` for json.loads that raises DuplicateKey."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def load_json(text: str, limits: dict[str, int] | None = None) -> Document:
    """`parse`, with a way to find where any path sits in the text (validate's reading)."""
    data = parse(text, limits)
    return Document(data, locator(text, json_find))


def parse(
    text: str,
    limits: dict[str, int] | None = None,
    parse_int: Callable[[str], Any] | None = None,
    parse_float: Callable[[str], float] | None = None,
) -> Any:
    """The data of the JSON `text`, or YAMLProblem (rule, one line of words, line and
    column): the door every reader of repository JSON goes through. `limits` as
    validate's (`max-depth`; None: rules/limits.json). `parse_int`/`parse_float` make
    the numbers (oc keeps their text); an infinite float is refused whatever makes it."""
    guard(text, "json", limits)
    make = float if parse_float is None else parse_float

    def read_float(number: str) -> float:
        value = make(number)
        if value in _INFINITIES:  # 1e999: Python reads inf, JSON has none
            raise Constant(number)
        return value

    try:
        data = json.loads(
            text,
            object_pairs_hook=reject_duplicates,
            parse_constant=refuse_constant,
            parse_float=read_float,
            parse_int=parse_int,
        )
    except json.JSONDecodeError as exc:
        raise YAMLProblem("syntax", f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except Constant as exc:  # Python reads NaN, Infinity, 1e999; JSON has none of them
        message, line, col = constant_words(text, exc.args[0])
        raise YAMLProblem("syntax", f"invalid JSON: {message}", line, col) from None
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        line, col = token_position(text, r"-?\d{100,}")
        detail = str(exc).split(";")[0]  # drop Python's advice on sys.set_int_max_str_digits
        raise YAMLProblem("syntax", f"invalid JSON: {detail}", line, col) from None
    except DuplicateKey as dup:
        key = dup.args[0]
        line, col = _duplicate_position(text, key)
        raise YAMLProblem("duplicate-key", f"duplicate key {key!r}", line, col) from None
    except RecursionError:
        raise YAMLProblem("syntax", "invalid JSON: nesting too deep") from None
    lone = _lone_surrogate(text)
    if lone is not None:
        line, col = _position(text, lone)
        escape = text[lone : lone + 6]
        message = (
            f"invalid JSON: {escape} is a lone surrogate (half of a UTF-16 pair), not Unicode text"
        )
        raise YAMLProblem("syntax", message, line, col)
    return data


# an escaped UTF-16 surrogate: \uD800-\uDFFF (high: D800-DBFF, low: DC00-DFFF)
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _lone_surrogate(text: str) -> int | None:
    """Offset of the first escape of a surrogate that is not half of a pair (a high one
    followed at once by a low one), in JSON text that parsed; else None."""
    if "\\ud" not in text and "\\uD" not in text:
        return None
    paired_low = -1
    for match in _SURROGATE.finditer(text):
        at = match.start()
        before = at
        while before and text[before - 1] == "\\":
            before -= 1
        if (at - before) % 2:  # `\\ud800`: an escaped backslash, then text
            continue
        if match.group()[3] in "89abAB":
            low = _SURROGATE.match(text, at + 6)
            if low is not None and low.group()[3] in "cdefCDEF":
                paired_low = at + 6
                continue
            return at
        if at != paired_low:
            return at
    return None


def _duplicate_position(text: str, key: str) -> tuple[int, int]:
    """Line and column of the first repeat of `key` in `text` (valid JSON up to there:
    json.loads stops at the first object that repeats a key)."""
    repeats: dict[str, int] = {}
    with contextlib.suppress(IndexError, ValueError, AttributeError, RecursionError):
        spans(text.removeprefix("\ufeff"), repeats)
    offset = repeats.get(key)
    if offset is None:
        return 1, 1
    return _position(text, offset + text.startswith("\ufeff"))


_SKIP: list[Any] = []  # the C scanner, built on first use


def json_find(text: str, path: Path_, on_key: bool = False) -> tuple[int, int]:
    """Line and column of `path` in valid JSON `text` (its key, or its value; the deepest
    node it reached where it leaves the document), walking only along the path: the C
    scanner steps over every other value."""
    from json.decoder import scanstring

    if not _SKIP:
        _SKIP.append(json.JSONDecoder().scan_once)
    skip = _SKIP[0]

    def ws(pos: int) -> int:
        return WS.match(text, pos).end()

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
                    return _position(text, key_at)
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
    return _position(text, pos)


# ---------------------------------------------------------------- printing
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


def dump_text(
    value: Any, indent: int | None = 2, ascii: bool = False, sort_keys: bool = False
) -> str:
    """`value` as JSON text for printing. Never `NaN` or `Infinity` (not JSON; only a
    YAML file's data or a computed ratio can hold them): they are written `null`, as
    JSON.stringify writes them. A lone surrogate (a file name that is not UTF-8) is
    written as its `\\uXXXX` escape, so any stream can carry the text."""
    options = {"indent": indent, "ensure_ascii": ascii, "sort_keys": sort_keys}
    try:
        text = json.dumps(value, allow_nan=False, **options)
    except ValueError:  # a NaN or an infinity somewhere
        text = json.dumps(_nulled(value), allow_nan=False, **options)
    if not ascii and _RAW_SURROGATE.search(text):
        text = _RAW_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def _nulled(value: Any) -> Any:
    """`value` with each NaN and infinity replaced by None."""
    if isinstance(value, float) and (value != value or value in _INFINITIES):
        return None
    if isinstance(value, dict):
        return {key: _nulled(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_nulled(item) for item in value]
    return value
