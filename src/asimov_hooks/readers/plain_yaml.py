"""The fast YAML reader: the plain subset the protocol files use, read without a YAML
library, as libyaml and ruamel.yaml's safe loader read it; anything else is handed over.

The subset, as this reader proves it line by line (`plain_rows` makes the rows):

- block mappings whose keys are plain words (letters, digits, `_`, `-`, `.`, `/`; not a
  number, a boolean or a null; at most 1,000 characters), each key once;
- block sequences (also at their key's indentation), items that are mappings
  (`- key: value`, the item's other keys lined up under the first), a sequence of such
  items at the top (a trim archive);
- on a key's or an item's line: a plain scalar (typed as YAML 1.2 types it: `true`,
  `false`, `null`, `~` in their spellings, decimal integers; anything else that may not
  be a string, such as `1.5`, `0x1f` or `2026-01-02`, is handed over), a single- or
  double-quoted scalar closed on its line (double-quoted without escapes), a one-line
  flow list of words and double-quoted strings, `[]` or `{}`;
- comments, blank lines.

Not in it, so handed over whole: tabs, control characters and odd line breaks, document
markers, directives, anchors, aliases, tags, block scalars, scalars over several lines,
open quotes, escapes, other flow collections, complex or duplicate keys, a long key,
floats, timestamps and other numbers, nesting past 100 levels. The library's reading is
the reference: `loaders` gives such a text to libyaml where speed matters and to
ruamel.yaml's round trip where its words do (a broken text).

From the same rows one tree builder gives the data, or with `marks` libyaml's node
marks, or the first error of one broken shape it can tell exactly: a `key:` line
indented under a line that ends with a quoted value (or between two indentations).
"""

from __future__ import annotations

from .plain_rows import NOT_KEYS, AfterQuote, HandOver, batch_rows, refused, rows
from .problem import YAMLProblem

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any

_MAX_DEPTH = 100
_FOUND = "invalid YAML: expected <block end>, but found '<block mapping start>'"
_IN_MAPPING = f"{_FOUND} (while parsing a block mapping)"
_IN_SEQUENCE = f"{_FOUND} (while parsing a block collection)"


def plain_data(text: str, batch: bool = False) -> tuple[Any, bool]:
    """(data, whether it is block-only: no flow list, no item that is a mapping, no list
    at the top) of a text in the subset; HandOver when it is not; YAMLProblem for the
    broken shape told here. `batch`: the regular-expression tokenizer first."""
    return plain_read(text, batch)[:2]


def plain_read(text: str, batch: bool = False) -> tuple[Any, bool, list[Any]]:
    """`plain_data`, and the rows read (`plain_locator` works positions out from them)."""
    ascii_text = text.isascii()
    found = batch_rows(text) if batch and ascii_text else None
    if found is None:  # (the expression's rows hold no refused character)
        if refused(text):
            raise HandOver
        found = rows(text.split("\n"))
    if not found:
        raise HandOver  # nothing but comments: the library says what that is
    _FLOW.clear()
    data = _document(found, False, ascii_text)[0]
    return data, not _FLOW, found


def plain_locator(text: str, found: list[Any] | None = None) -> Any:
    """A `Document.locate` for a text `plain_data` reads: positions from its rows (`found`
    when they are at hand), worked out on the first call."""
    root: list[Any] = []

    def locate(path: Any, on_key: bool = False) -> tuple[int, int]:
        if not root:
            root.append(_document(found or rows(text.split("\n")), True, False)[1])
        return position(root[0], path, on_key)

    return locate


def item_data(body: str) -> Any:
    """The data of a top-level list item whose text after its dash is `body`, or None
    when it is not in the subset (the trim archive's merge reads its items so)."""
    try:
        data = plain_data("-" + body)[0]
    except (HandOver, YAMLProblem):
        return None
    return data[0] if isinstance(data, list) and len(data) == 1 else None


def stop_line(text: str) -> int:
    """The 0-based line where reading `text` as the subset stops (its line count when it
    does not): the lines before it are in the subset, as far as they go."""
    lines = text.split("\n")
    stop = len(lines)
    try:
        read = rows(lines)
    except HandOver as handed:
        stop = handed.line
        read = rows(lines[:stop])
    try:
        if read:
            _document(read, False, False)
    except HandOver as handed:
        return min(stop, handed.line)
    return stop


# ---------------------------------------------------------------- the tree builder
# With `marks` each call also gives its node, with libyaml's start mark (0-based line,
# column): [mark, "scalar"], [mark, "map", {key: (key mark, node)}], [mark, "seq",
# [nodes]]. `strays`: tell the broken shape above (not in items that are mappings, nor
# under a list at the top: the library tells it there).
_FLOW: list[bool] = []  # something other than block mappings and lists was read


def _document(found: list[Any], marks: bool, strays: bool) -> tuple[Any, Any]:
    first = found[0]
    if first[1] is None:  # a list at the top (a trim archive)
        _FLOW.append(True)
        data, node, at = _sequence(found, 0, first[0], -1, 1, marks, False)
    else:
        data, node, at = _mapping(found, 0, first[0], 1, marks, strays)
    if at != len(found):
        raise HandOver(found[at][3])  # a line less indented than the first
    return data, node


def _mapping(found: list[Any], at: int, indent: int, depth: int, marks: bool, strays: bool) -> Any:
    if depth > _MAX_DEPTH:
        raise HandOver(found[at][3])
    out: dict[str, Any] = {}
    pairs: dict[str, Any] = {}
    start = found[at][3]
    count = len(found)
    while at < count:
        row_indent, key, value, line, column = found[at]
        if row_indent != indent:
            break
        if key is None or key in out:
            raise HandOver(line)  # an item among keys, a duplicate key
        at += 1
        if value:
            first = value[0]  # the commonest values first: `_value`'s answer, sooner
            if first == '"' or first == "'":
                quoted = value.find(first, 1) == len(value) - 1 and "\\" not in value
                out[key] = value[1:-1] if quoted else _value(value, line, False)
            elif first in _SPECIAL_FIRST or " #" in value or ": " in value or value[-1] == ":":
                out[key] = _value(value, line, False)
            else:
                out[key] = value
            if marks:
                pairs[key] = ((line, indent), _value_node(value, line, column))
            if at < count and found[at][0] > indent:  # a scalar over lines, a stray line
                if strays:
                    _stray(found[at], value, _IN_MAPPING)
                raise HandOver(line)
            continue
        nxt = found[at] if at < count else None
        if nxt is not None and nxt[1] is None and nxt[0] >= indent:
            out[key], node, at = _sequence(found, at, nxt[0], indent, depth + 1, marks, strays)
        elif nxt is not None and nxt[0] > indent:
            out[key], node, at = _mapping(found, at, nxt[0], depth + 1, marks, strays)
        else:  # an empty value: libyaml marks it just after the `:`
            out[key], node = None, [(line, column), "scalar"]
        if marks:
            pairs[key] = ((line, indent), node)
    if at < count and found[at][0] > indent:  # between this indentation and the last
        if strays:
            _stray(found[at], None, _IN_MAPPING)
        raise HandOver(found[at][3])
    return out, ([(start, indent), "map", pairs] if marks else None), at


def _sequence(
    found: list[Any], at: int, indent: int, parent: int, depth: int, marks: bool, strays: bool
) -> Any:
    if depth > _MAX_DEPTH:
        raise HandOver(found[at][3])
    out: list[Any] = []
    items: list[Any] = []
    start = found[at][3]
    count = len(found)
    while at < count:
        row_indent, key, value, line, column = found[at]
        if row_indent != indent or key is not None:
            break
        at += 1
        if value:
            first = value[0]  # the commonest values first: `_value`'s answer, sooner
            if first == '"' or first == "'":
                quoted = value.find(first, 1) == len(value) - 1 and "\\" not in value
                out.append(value[1:-1] if quoted else _value(value, line, True))
            elif first in _SPECIAL_FIRST or " #" in value or ": " in value or value[-1] == ":":
                out.append(_value(value, line, True))
            else:
                out.append(value)
            if marks:
                items.append(_value_node(value, line, column))
            if at < count and found[at][0] > indent:
                if strays:
                    _stray(found[at], value, _IN_SEQUENCE if indent > parent else _IN_MAPPING)
                raise HandOver(line)
            continue
        if at == count or found[at][3] != line:
            raise HandOver(line)  # an empty item, or one on the next lines
        _FLOW.append(True)  # `- key: value`: a mapping from its first key
        data, node, at = _mapping(found, at, found[at][0], depth + 1, marks, False)
        out.append(data)
        if marks:
            items.append(node)
        if at < count and found[at][0] > indent:
            raise HandOver(found[at][3])  # under the dash, not under the keys
    if at < count:
        nxt = found[at][0]
        if nxt > parent and not (nxt == indent and indent == parent):
            if strays and nxt < indent:  # between the list's indentation and its key's
                _stray(found[at], None, _IN_MAPPING)
            raise HandOver(found[at][3])
    return out, ([(start, indent), "seq", items] if marks else None), at


def _stray(row: Any, value: str | None, message: str) -> None:
    """Raise the round-trip reader's problem with a stray `key:` row after a line that
    ends with the quoted `value` (None: a row between two indentations); return when
    it is not that shape (the caller hands the text over)."""
    if value is not None and value[0] not in ("'", '"'):
        return  # a plain scalar runs on into a deeper line
    indent, key, _, line, _ = row
    if key is not None and key.isidentifier():
        raise YAMLProblem("syntax", message, line + 1, indent + 1)


# ---------------------------------------------------------------- scalars
# characters a plain scalar may not start with here (YAML's indicators, and what may
# start a number, a merge key `<<` or `=`: a `.` and a `-` are looked at again)
_NOT_PLAIN_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@`<=.")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NONZERO = frozenset("123456789")
# every character YAML 1.2's numbers and timestamps are written with (ruamel's
# resolvers): a scalar with any other character is a string (`2 tests fixed`)
_NUMBER_CHARS = frozenset("0123456789_.+-:boxabcdefABCDEFTtZ infINF")
# the first characters of a plain scalar that may not be a string, or of anything else
_SPECIAL_FIRST = _NOT_PLAIN_FIRST | frozenset("tTfFnN~+0123456789")


def _value(raw: str, line: int, in_list: bool) -> Any:
    """The data of the value a row ends with (spaces cut, a comment maybe after it)."""
    first = raw[0]
    if first not in _SPECIAL_FIRST:  # the commonest: a plain string
        comment = raw.find(" #")
        value = raw if comment < 0 else raw[:comment].rstrip(" ")
        if ": " in value or value[-1] == ":":
            raise HandOver(line)  # a mapping in an item, an error
        return value
    if first == '"':
        end = raw.find('"', 1)
        if end >= 0 and raw.find("\\", 1, end) >= 0:
            raise HandOver(line)  # escapes
        if end < 0 or (end + 1 < len(raw) and not _comment(raw, end + 1)):
            raise AfterQuote(line)  # open (over several lines, or broken), or broken
        return raw[1:end]
    if first == "'":
        end = raw.find("'", 1)
        while end >= 0 and raw[end + 1 : end + 2] == "'":
            end = raw.find("'", end + 2)
        if end < 0 or not _comment(raw, end + 1):
            raise AfterQuote(line)
        return raw[1:end].replace("''", "'")
    if first == "[" or first == "{":
        return _flow(raw, line)
    comment = raw.find(" #")
    value = raw if comment < 0 else raw[:comment].rstrip(" ")
    if first in _NOT_PLAIN_FIRST:
        if first == "-" and value[1:2] in _NONZERO and _decimal(value[1:]):
            return int(value)  # `-3`: a negative decimal integer
        if (
            (first != "." and first != "-")
            or (first == "-" and value[1:2] in (" ", ""))
            or _NUMBER_CHARS.issuperset(value)
        ):
            raise HandOver(line)  # an indicator, or maybe a number
    if ": " in value or value[-1] == ":" or (in_list and value[:2] == "- "):
        raise HandOver(line)  # a mapping in an item, an error
    return _typed(value, line)


def _decimal(digits: str) -> bool:
    # past 4,300 digits int() refuses (Python's conversion limit): the library says so
    return digits.isdigit() and digits.isascii() and len(digits) <= 4000


def _typed(value: str, line: int) -> Any:
    """A plain scalar's YAML 1.2 value: booleans, nulls and decimal integers; anything
    else that may not be a string is handed over."""
    first = value[0]
    if first in "tTfF":
        return _BOOLS.get(value, value)
    if first in "nN~":
        return None if value in NOT_KEYS or value == "~" else value
    if first in "+0123456789":
        if _decimal(value[1:] if first == "+" else value):
            return int(value)
        if _NUMBER_CHARS.issuperset(value):
            raise HandOver(line)  # maybe a float, a timestamp, an int in another base
    return value


def _comment(raw: str, end: int) -> bool:
    """Whether `raw` holds nothing but a comment from `end` (a quote's or a bracket's)."""
    return end == len(raw) or (raw[end] == " " and raw[end:].lstrip(" ")[:1] == "#")


def _flow(raw: str, line: int) -> Any:
    """`[]`, `{}`, or a one-line flow list of words and double-quoted strings."""
    if raw[0] == "{":
        if raw[1:2] != "}":
            raise HandOver(line)
        if not _comment(raw, 2):
            raise HandOver(line)
        return {}
    close = raw.find("]")
    if close < 0:
        raise HandOver(line)
    if not _comment(raw, close + 1):
        raise HandOver(line)
    inner = raw[1:close]
    if "[" in inner or "{" in inner:
        raise HandOver(line)
    if not inner.strip(" "):
        return []
    _FLOW.append(True)
    out: list[Any] = []
    for part in inner.split(","):
        item = part.strip(" ")
        if len(item) >= 2 and item[0] == '"' and item[-1] == '"':
            text = item[1:-1]
            if '"' in text or "\\" in text:
                raise HandOver(line)
            out.append(text)
        elif item and all(ch in _WORD for ch in item):
            out.append(_typed(item, line))
        else:
            raise HandOver(line)  # an empty item, a quote with a comma, a symbol
    return out


def _value_node(raw: str, line: int, column: int) -> list:
    """A value's node: a scalar's, or a flow collection's with its items' marks."""
    if raw[0] == "{":
        return [(line, column), "map", {}]
    if raw[0] != "[":
        return [(line, column), "scalar"]
    items = []
    inner = raw[1 : raw.find("]")]
    if inner.strip(" "):
        offset = column + 1
        for part in inner.split(","):
            items.append([(line, offset + len(part) - len(part.lstrip(" "))), "scalar"])
            offset += len(part) + 1
    return [(line, column), "seq", items]


def position(root: list, path: Any, on_key: bool) -> tuple[int, int]:
    """`fast_yaml._node_position` over the marked nodes (1-based line and column)."""
    node, mark = root, root[0]
    for i, part in enumerate(path):
        if node[1] == "seq" and isinstance(part, int) and 0 <= part < len(node[2]):
            node = node[2][part]
            mark = node[0]
            continue
        if node[1] != "map":
            break
        wanted = str(part).lower() if isinstance(part, bool) else str(part)
        pair = node[2].get(wanted)
        if pair is None:
            break
        key_mark, value = pair
        last = i == len(path) - 1
        mark = key_mark if (on_key and last) or value[1] != "scalar" else value[0]
        node = value
    return mark[0] + 1, mark[1] + 1
