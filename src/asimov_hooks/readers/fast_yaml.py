"""The libyaml fast path of `loaders.load_yaml`: plain data and node positions of an
ordinary checkpoint, about a hundred times faster than the round-trip reader. Anything
it does not read exactly as the round-trip reader would is handed over (None)."""

from __future__ import annotations

from .document import Document, Path_
from .plain_rows import no_gc

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any


_FAST_LOADER: list[Any] = []  # [class] once built; [None] when libyaml is unavailable
# tag name -> the one Tag object the fast resolver gives every node of that tag, so the
# builder below tells tags apart by identity
_TAGS: dict[str, Any] = {}
_STR, _SEQ, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
_INT, _BOOL, _NULL = "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
_FLOAT, _TIMESTAMP = "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp"


def _fast_loader_class() -> Any:
    if not _FAST_LOADER:
        try:
            from ruamel.yaml.constructor import SafeConstructor
            from ruamel.yaml.cyaml import CParser
            from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
            from ruamel.yaml.resolver import VersionedResolver, implicit_resolvers
            from ruamel.yaml.tag import Tag
        except ImportError:  # no ruamel.yaml.clib (PyPy, a new CPython without wheels)
            _FAST_LOADER.append(None)
            return None

        # ruamel's YAML 1.2 implicit resolvers, in its order, looked up by first character
        # (VersionedResolver.resolve looks the version up and builds a Tag per scalar)
        by_first: dict[Any, list[tuple[Any, Any]]] = {}
        for versions, tag, regexp, first in implicit_resolvers:
            if (1, 2) in versions:
                shared = _TAGS.setdefault(tag, Tag(suffix=tag))
                for ch in first or [None]:
                    by_first.setdefault(ch, []).append((shared, regexp.match))
        anywhere = by_first.pop(None, [])
        table = {ch: tuple(found + anywhere) for ch, found in by_first.items()}
        fallback = tuple(anywhere)
        for name in (_STR, _SEQ, _MAP):
            _TAGS.setdefault(name, Tag(suffix=name))
        str_tag, seq_tag, map_tag = _TAGS[_STR], _TAGS[_SEQ], _TAGS[_MAP]

        class FastLoader(CParser, SafeConstructor, VersionedResolver):  # type: ignore[misc]
            # documents with a %YAML directive never come here: always YAML 1.2
            processing_version = (1, 2)

            def __init__(self, stream: str) -> None:
                CParser.__init__(self, stream)
                self._parser = self._composer = self
                SafeConstructor.__init__(self, loader=self)
                self.allow_duplicate_keys = False
                VersionedResolver.__init__(self, version=None, loadumper=self)

            def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
                if kind is ScalarNode:
                    if implicit[0]:
                        for tag, match in table.get(value[:1], fallback):
                            if match(value):
                                return tag
                    return str_tag
                if kind is SequenceNode:
                    return seq_tag
                return map_tag if kind is MappingNode else super().resolve(kind, value, implicit)

        _FAST_LOADER.append(FastLoader)
    return _FAST_LOADER[0]


# what the round trip reads: %YAML directives and tags change what a document means;
# libyaml and the pure scanner disagree on anchor names, on NEL and the Unicode line and
# paragraph separators (line breaks to YAML 1.1 only), on tabs, a stray byte-order mark
# and what may follow a block scalar indicator
_PATTERNS: list[Any] = []  # compiled on first use: `re` is not loaded by the plain reader
_HAND_OVER_CHARS = "\t\x85\u2028\u2029\ufeff"


def _patterns() -> Any:
    if not _PATTERNS:
        import re

        _PATTERNS.append(
            (
                re.compile(r"(?:^|[\s\[{,])[!&]"),
                # a block scalar header with anything after its indicators (a comment, a typo)
                re.compile(r"(?:^[ \t]*|:[ \t]+|-[ \t]+)[|>][-+0-9]*[ \t]*[^\s\-+0-9]", re.M),
                # ... and on a blank line that holds spaces inside a block scalar
                re.compile(r"^[ ]+\r?$", re.M),
            )
        )
    return _PATTERNS[0]


def _needs_round_trip(text: str) -> bool:
    if "%YAML" in text:
        return True
    tag_or_anchor, odd_block_header, blank_with_spaces = _patterns()
    if ("!" in text or "&" in text) and tag_or_anchor.search(text):
        return True
    if ("|" in text or ">" in text) and (
        odd_block_header.search(text) or blank_with_spaces.search(text)
    ):
        return True
    return any(ch in text for ch in _HAND_OVER_CHARS)


def _fast_document(text: str, max_nodes: int, refused: list[Any] | None = None) -> Document | None:
    """The fast reading, or None; libyaml's refusal (a syntax error: not a shape this
    reading leaves to the round trip) goes to `refused`."""
    if _needs_round_trip(text):
        return None  # the round-trip loader's reading is the reference for these
    cls = _fast_loader_class()
    if cls is None:
        return None
    import warnings

    loader = cls(text)
    try:
        with warnings.catch_warnings(), no_gc():
            warnings.simplefilter("ignore")
            root = loader.get_single_node()
            data = _build(loader, root) if root is not None else None
    except _HandOver:
        return None
    except Exception as problem:  # any problem: the round-trip loader reports it properly
        if refused is not None and type(problem).__name__ in _SYNTAX_ERRORS:
            refused.append(problem)
        return None
    finally:
        loader.dispose()
    return node_document(data, root)


def node_document(data: Any, root: Any) -> Document:
    """`data` with positions read off its composed node tree `root`."""
    index: dict[int, Any] = {}  # the mappings' keys, as findings ask for them
    return Document(data, lambda path, on_key=False: _node_position(root, path, on_key, index))


_FAST_MAX_DEPTH = 100
# what libyaml raises for a text it cannot parse (ruamel.yaml's names for them)
_SYNTAX_ERRORS = frozenset({"ScannerError", "ParserError", "ReaderError"})
_KEY_TYPES = frozenset({str, int, float, bool, type(None)})


class _HandOver(Exception):
    """The fast builder leaves this document to the round-trip loader."""


def _build(loader: Any, root: Any) -> Any:
    """Plain data from the composed nodes, as SafeConstructor builds it: the common tags
    here, other scalars by SafeConstructor; a merge key, a complex or duplicate key or
    nesting past _FAST_MAX_DEPTH goes to the round trip (_HandOver). The fast path sees
    no anchors, so nothing expands and every node is built once."""
    tags = _TAGS
    str_tag, seq_tag, map_tag = tags[_STR], tags[_SEQ], tags[_MAP]
    int_tag, bool_tag, null_tag = tags[_INT], tags[_BOOL], tags[_NULL]
    float_tag, timestamp_tag = tags[_FLOAT], tags[_TIMESTAMP]

    def build(node: Any, depth: int) -> Any:
        if depth > _FAST_MAX_DEPTH:
            raise _HandOver
        tag = node.ctag
        if tag is str_tag:
            return node.value
        if tag is map_tag:
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = build(key_node, depth + 1)
                if type(key) not in _KEY_TYPES or key in out:  # complex or duplicate key
                    raise _HandOver
                out[key] = build(value_node, depth + 1)
            return out
        if tag is seq_tag:
            return [build(item, depth + 1) for item in node.value]
        if tag is null_tag:
            return None
        if tag is bool_tag:
            return node.value.lower() == "true"
        if tag is int_tag:
            digits = node.value.lstrip("+-")
            if digits.isdigit() and digits.isascii() and len(node.value) - len(digits) <= 1:
                return int(node.value)
            return loader.construct_object(node, deep=True)
        if tag is float_tag or tag is timestamp_tag:
            return loader.construct_object(node, deep=True)
        raise _HandOver  # a merge key (`<<`), `=`: SafeConstructor's own rules apply

    return build(root, 1)


def _node_position(
    root: Any, path: Path_, on_key: bool, index: dict[int, Any] | None = None
) -> tuple[int, int]:
    """Where `path` sits in the composed node tree (as the round-trip loader puts it).
    `index` (one per tree) keeps each mapping's keys once a path went through it: a
    file's thousands of findings cost one pass over its keys, not one each."""
    if root is None:
        return 1, 1
    node, mark = root, root.start_mark
    for i, part in enumerate(path):
        if node.id == "sequence" and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            mark = node.start_mark
            continue
        if node.id != "mapping":
            break
        pair = _pair(node.value, part) if index is None else _indexed(node, part, index)
        if pair is None:
            break
        key, value = pair
        last = i == len(path) - 1
        # a nested block is best shown at the key that introduces it
        mark = key.start_mark if (on_key and last) or value.id != "scalar" else value.start_mark
        node = value
    return mark.line + 1, mark.column + 1


def _pair(pairs: list[Any], part: Any) -> Any:
    """The (key, value) nodes of the key `part` names, the last of equal keys as the
    data keeps it: a string by its text (quoted, or plain that stays a string), another
    key (`null:`, `~:`, `TRUE:`, `0o7:`, `1.50:`) by the value its plain text resolves to."""
    if type(part) is str:
        typed = part[:1] in _TYPED_KEY_FIRST
        same_text = None  # a plain key of that text that is no string: when no other is
        for kv in reversed(pairs):
            key = kv[0]
            if key.id == "scalar" and key.value == part:
                if key.style or not typed or type(_key_value(part)) is str:
                    return kv
                same_text = same_text or kv
        return same_text
    for kv in reversed(pairs):
        key = kv[0]
        if key.id == "scalar" and not key.style and _same_key(_key_value(key.value), part):
            return kv
    text = str(part).lower() if isinstance(part, bool) else str(part)  # a date, `!!str 1`
    return next(
        (kv for kv in reversed(pairs) if kv[0].id == "scalar" and kv[0].value == text), None
    )


def _indexed(node: Any, part: Any, index: dict[int, Any]) -> Any:
    """`_pair(node.value, part)`, from the mapping's keys by text and by value, worked out
    on its first lookup and kept in `index` (with the node, so that its id stays its own)."""
    tables = index.get(id(node))
    if tables is None:
        texts = {kv[0].value: kv for kv in node.value if kv[0].id == "scalar"}
        tables = index[id(node)] = [node, texts, None]
    if type(part) is str:
        kv = tables[1].get(part)
        if kv is None or kv[0].style or part[:1] not in _TYPED_KEY_FIRST:
            return kv  # the last key of that text (none: no such key)
        return _pair(node.value, part)  # a plain `null` after a quoted "null"...
    if tables[2] is None:
        import contextlib

        values: dict[Any, Any] = {}
        for kv in node.value:
            key = kv[0]
            if key.id == "scalar" and not key.style and key.value[:1] in _TYPED_KEY_FIRST:
                value = _key_value(key.value)
                with contextlib.suppress(TypeError):  # unhashable: looked for in turn
                    values[type(value), value] = kv
        tables[2] = values
    try:
        kv = tables[2].get((type(part), part))
    except TypeError:
        kv = None
    return kv if kv is not None and part == part else _pair(node.value, part)


# the first characters of a plain scalar that may resolve to something else than a string
_TYPED_KEY_FIRST = frozenset("tTfFnN~+-.0123456789")
_KEY_LOADER: list[Any] = []


def _key_value(text: str) -> Any:
    """A plain key's value as the fast loader builds it (YAML 1.2: `TRUE` a boolean,
    `0o7` 7, `~` null); its text when it stays a string or cannot be built alone."""
    if text[:1] not in _TYPED_KEY_FIRST:
        return text
    if not _KEY_LOADER:
        loader_class = _fast_loader_class()
        _KEY_LOADER.append(None if loader_class is None else loader_class(""))
    loader = _KEY_LOADER[0]
    if loader is None:
        return text
    from ruamel.yaml.nodes import ScalarNode

    try:
        node = ScalarNode(loader.resolve(ScalarNode, text, (True, False)), text)
        return loader.construct_object(node, deep=True)
    except Exception:  # a merge key (`<<`), a value that does not convert: its text
        return text


def _same_key(value: Any, part: Any) -> bool:
    """Equal keys of one type (`1` is not `true`, `1.0` not `1`); NaN is its own key."""
    if type(value) is not type(part):
        return False
    return value == part or (value != value and part != part)
