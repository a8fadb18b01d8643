"""Strict JSON (RFC 8259) with a bounded depth, for JSON that is not the repository's
(the rule packs, an agent hook's stdin, command-line values): NaN, Infinity and `1e999`
refused, nesting past `max_depth` a `JSONError` with the place. `import json` pulls in
`re` and costs more than a commit's whole size check, so CPython's C scanner (`_json`)
reads the usual text; what it refuses is read again by `json.loads` for its words.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

_WHITESPACE = " \t\n\r"
DEFAULT_MAX_DEPTH = 100  # as rules/limits.json's max-depth


class JSONError(ValueError):
    """Text that is not strict JSON: one line of words, and where (1-based)."""

    def __init__(self, msg: str, lineno: int = 0, colno: int = 0) -> None:
        where = f": line {lineno} column {colno}" if lineno else ""
        super().__init__(msg + where)
        self.msg, self.lineno, self.colno = msg, lineno, colno


class Constant(Exception):
    """NaN, Infinity, or a number too large for a float (`args[0]`, as written)."""


def refuse_constant(name: str) -> "Any":
    """`parse_constant` for the json module: NaN and Infinity are not JSON."""
    raise Constant(name)


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise Constant(text)
    return value


class _Context:
    """The attributes `_json.make_scanner` reads from a `json.JSONDecoder`."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = staticmethod(_finite)
    parse_int = int
    parse_constant = staticmethod(refuse_constant)


_SCANNER: "list[Any]" = []


def _scanner() -> "Any":
    if not _SCANNER:
        try:
            from _json import make_scanner

            _SCANNER.append(make_scanner(_Context()))
        except Exception:  # not CPython, or a scanner with other needs
            _SCANNER.append(None)
    return _SCANNER[0]


def loads(text: str, max_depth: int | None = DEFAULT_MAX_DEPTH) -> "Any":
    """The value of strict JSON `text`; raises JSONError (a ValueError).

    `max_depth` bounds the nesting (None: only the interpreter's own bound)."""
    scan = _scanner()
    value: Any = None
    end = -1
    if scan is not None:
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = scan(text, start)
        except Constant as exc:
            _constant(text, exc.args[0])
        except RecursionError:
            raise _too_deep(text, max_depth) from None
        except Exception:
            end = -1
        if end >= 0 and text[end:].strip(_WHITESPACE):
            end = -1
    if end < 0:
        value = _slow(text, max_depth)
    deep = max_depth is not None and text.count("[") + text.count("{") > max_depth
    if deep and _depth(value) > max_depth:  # type: ignore[operator]
        raise _too_deep(text, max_depth)
    return value


def _slow(text: str, max_depth: int | None) -> "Any":
    """`json.loads`, for its error words (or where the C scanner is not there)."""
    import json

    try:
        return json.loads(text, parse_constant=refuse_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise JSONError(exc.msg, exc.lineno, exc.colno) from None
    except Constant as exc:
        _constant(text, exc.args[0])
    except RecursionError:
        raise _too_deep(text, max_depth) from None
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        raise JSONError(str(exc).split(";")[0]) from None


def _constant(text: str, name: str) -> None:
    raise JSONError(*constant_words(text, name))


def constant_words(text: str, name: str) -> tuple[str, int, int]:
    """The words and place (line, column) of NaN, Infinity or a number too large for a
    float (`name`, as written): the first in `text`, where parsing stopped."""
    import re

    if name in ("NaN", "Infinity", "-Infinity"):
        return (f"{name} is not a JSON value", *token_position(text, r"NaN|-?Infinity"))
    where = token_position(text, rf"(?<![\w.+-]){re.escape(name)}(?![\w.+-])")
    return (f"{name[:40]} is out of range for a number", *where)


# ---------------------------------------------------------------- places (error paths)
# a string (also one left open), written so the engine does not try each character
JSON_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"?'
JSON_TOKEN = JSON_STRING + r"|[\[{]|[\]}]"


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of `offset` in `text`."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def token_position(text: str, token: str) -> tuple[int, int]:
    """Line and column of the first match of `token` (a regex) outside JSON strings."""
    import re

    for match in re.finditer(JSON_STRING + "|" + token, text):
        if not match.group().startswith('"'):
            return line_col(text, match.start())
    return 1, 1


def depth_past(text: str, max_depth: int) -> int:
    """Offset of the first bracket outside strings that opens a level past `max_depth`,
    or -1 (a stray closer never goes below zero). The usual text is cleared at C speed:
    strings, then all but brackets, dropped."""
    import re

    depth = deepest = 0
    for ch in re.sub(r"[^\[\]{}]+", "", re.sub(JSON_STRING, "", text)):
        if ch == "[" or ch == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
    if deepest <= max_depth:
        return -1
    depth = 0
    for match in re.finditer(JSON_TOKEN, text):  # where it is too deep, to say so
        ch = match.group()[0]
        if ch in "[{":
            depth += 1
            if depth > max_depth:
                return match.start()
        elif ch in "]}":
            depth = max(depth - 1, 0)
    return -1


def _depth(value: "Any") -> int:
    """The nesting of parsed data, without recursion."""
    deepest = 0
    todo = [(value, 1)]
    while todo:
        node, depth = todo.pop()
        if isinstance(node, dict):
            node = node.values()
        elif not isinstance(node, list):
            continue
        if depth > deepest:
            deepest = depth
        todo.extend((child, depth + 1) for child in node if isinstance(child, (dict, list)))
    return deepest


def _too_deep(text: str, max_depth: int | None) -> "JSONError":
    limit = max_depth if max_depth is not None else DEFAULT_MAX_DEPTH
    at = depth_past(text, limit)
    where = line_col(text, at) if at >= 0 else (1, 1)
    return JSONError(f"nested more than {limit} levels deep; not parsed", *where)
