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


class _Constant(Exception):
    """NaN, Infinity, or a number too large for a float."""


def _refuse_constant(name: str) -> "Any":
    raise _Constant(name)


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Constant(text)
    return value


class _Context:
    """The attributes `_json.make_scanner` reads from a `json.JSONDecoder`."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = staticmethod(_finite)
    parse_int = int
    parse_constant = staticmethod(_refuse_constant)


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
        except _Constant as exc:
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
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise JSONError(exc.msg, exc.lineno, exc.colno) from None
    except _Constant as exc:
        _constant(text, exc.args[0])
    except RecursionError:
        raise _too_deep(text, max_depth) from None
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        raise JSONError(str(exc).split(";")[0]) from None


def _constant(text: str, name: str) -> None:
    if name in ("NaN", "Infinity", "-Infinity"):
        raise JSONError(f"{name} is not a JSON value", *_where(text, token=name))
    raise JSONError(f"{name[:40]} is out of range for a number", *_where(text, token=name))


def _where(text: str, token: str = "", deeper_than: int = -1) -> tuple[int, int]:
    """Line and column of the first `token` outside strings, or of the first bracket
    past `deeper_than` levels (error path only: one pass in Python)."""
    depth, in_string, escaped, line, line_start = 0, False, False, 1, 0
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch == "\n":
            line, line_start = line + 1, i + 1
        elif token and text.startswith(token, i):
            return line, i - line_start + 1
        elif ch in "[{":
            depth += 1
            if depth == deeper_than + 1:
                return line, i - line_start + 1
        elif ch in "]}" and depth:
            depth -= 1
    return 1, 1


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
    return JSONError(
        f"nested more than {limit} levels deep; not parsed", *_where(text, deeper_than=limit)
    )
