"""YAML loading that keeps line and column for every node.

Schema errors are only useful when they point at the offending line, which
check-jsonschema cannot do. YAML goes through ruamel.yaml's round-trip loader (its
nodes carry positions), or a fast path for ordinary checkpoints. JSON lives in
`json_loader` (re-exported here), the shared pieces in `document`.
"""

from __future__ import annotations

import re
import warnings

from .document import Document, Path_, YAMLProblem, guard
from .json_loader import (
    DuplicateKey,
    NotJSONConstant,
    json_find,
    load_json,
    reject_constant,
    reject_duplicates,
)
from .markers import find_conflict_marker

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing and dataclasses cost start-up time
    from typing import Any

__all__ = [
    "Document",
    "DuplicateKey",
    "NotJSONConstant",
    "YAMLProblem",
    "find_conflict_marker",
    "guard",
    "json_find",
    "load_json",
    "load_yaml",
    "reject_constant",
    "reject_duplicates",
]


# ---------------------------------------------------------------- YAML
def _load(text: str) -> Any:
    """The round-trip reading of a one-document text (the reference for every reader)."""
    from .yamlio import ROUND_TRIP, load_all, single

    return single(load_all(text, ROUND_TRIP))


def load_yaml_plain(text: str, limits: dict[str, int] | None = None) -> Any:
    """Plain Python data, for config files (no positions needed)."""
    from .guards import limits as default_limits

    lim = limits if limits is not None else default_limits()
    guard(text, "yaml", lim)
    root = _load(text)
    _check_aliases(root, lim)
    return to_plain(root, max_nodes=lim["max-alias-nodes"])


def _check_aliases(root: Any, limits: dict[str, int]) -> None:
    from .guards import InputProblem, check_aliases

    try:
        check_aliases(root, limits["max-aliases"], limits["max-alias-nodes"])
    except InputProblem as problem:
        raise YAMLProblem("yaml-aliases", f"{problem.message}; not checked") from None


def load_yaml(
    text: str, max_nodes: int = 100_000, limits: dict[str, int] | None = None
) -> Document:
    """The file's data and positions: the C parser when it can, else the round-trip one.

    libyaml reads a checkpoint about a hundred times faster than ruamel's pure-Python
    round-trip parser, which matters for a hook given hundreds of files. Anything the
    fast path does not handle exactly as the round-trip loader would (an error, a tag,
    a %YAML directive) is read again by the round-trip loader, so errors and data
    never depend on which path ran. Nesting and tags are checked first (guards).
    """
    from .guards import limits as default_limits

    lim = limits if limits is not None else default_limits()
    guard(text, "yaml", lim)
    fast = _fast_document(text, max_nodes)
    return fast if fast is not None else _rt_document(text, max_nodes, lim)


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


# %YAML directives and tags change what a document means, the two scanners disagree on
# which characters an anchor name may hold; NEL and the Unicode line and
# paragraph separators are line breaks to libyaml (YAML 1.1) but not to YAML 1.2, and
# the two scanners disagree on where a tab or a stray byte-order mark may stand and on
# what may follow a block scalar indicator
_TAG_OR_ANCHOR = re.compile(r"(?:^|[\s\[{,])[!&]")
# a block scalar header with anything after its indicators (a comment, a typo)
_ODD_BLOCK_HEADER = re.compile(r"(?:^[ \t]*|:[ \t]+|-[ \t]+)[|>][-+0-9]*[ \t]*[^\s\-+0-9]", re.M)
# ... and on a blank line that holds spaces inside a block scalar
_BLANK_WITH_SPACES = re.compile(r"^[ ]+\r?$", re.M)
_HAND_OVER_CHARS = "\t\x85\u2028\u2029\ufeff"


def _needs_round_trip(text: str) -> bool:
    if "%YAML" in text or (("!" in text or "&" in text) and _TAG_OR_ANCHOR.search(text)):
        return True
    if ("|" in text or ">" in text) and (
        _ODD_BLOCK_HEADER.search(text) or _BLANK_WITH_SPACES.search(text)
    ):
        return True
    return any(ch in text for ch in _HAND_OVER_CHARS)


def _fast_document(text: str, max_nodes: int) -> Document | None:
    if _needs_round_trip(text):
        return None  # the round-trip loader's reading is the reference for these
    cls = _fast_loader_class()
    if cls is None:
        return None
    loader = cls(text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root = loader.get_single_node()
            data = _build(loader, root, max_nodes) if root is not None else None
    except Exception:  # any problem: the round-trip loader reports it properly
        return None
    finally:
        loader.dispose()
    return Document(data, lambda path, on_key=False: _node_position(root, path, on_key))


_FAST_MAX_DEPTH = 100
_KEY_TYPES = frozenset({str, int, float, bool, type(None)})


class _HandOver(Exception):
    """The fast builder leaves this document to the round-trip loader."""


def _build(loader: Any, root: Any, max_nodes: int) -> Any:
    """Plain data from the composed nodes, as SafeConstructor builds it.

    The fast path never sees anchors or tags, so every node is built once; the common
    tags are built here, other scalars by SafeConstructor itself. Anything else (a
    merge key, a complex key, a duplicate key, nesting past _FAST_MAX_DEPTH, more than
    `max_nodes` nodes) goes to the round-trip loader, whose answer is the reference.
    """
    tags = _TAGS
    str_tag, seq_tag, map_tag = tags[_STR], tags[_SEQ], tags[_MAP]
    int_tag, bool_tag, null_tag = tags[_INT], tags[_BOOL], tags[_NULL]
    float_tag, timestamp_tag = tags[_FLOAT], tags[_TIMESTAMP]
    count = 0

    def build(node: Any, depth: int) -> Any:
        nonlocal count
        count += 1
        if count > max_nodes or depth > _FAST_MAX_DEPTH:
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


def _node_position(root: Any, path: Path_, on_key: bool) -> tuple[int, int]:
    """Where `path` sits, read off the composed node tree (as the round-trip loader puts it)."""
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
        wanted = str(part).lower() if isinstance(part, bool) else str(part)
        pair = next(
            (kv for kv in reversed(node.value) if kv[0].id == "scalar" and kv[0].value == wanted),
            None,
        )
        if pair is None:
            break
        key, value = pair
        last = i == len(path) - 1
        # a nested block is best shown at the key that introduces it
        mark = key.start_mark if (on_key and last) or value.id != "scalar" else value.start_mark
        node = value
    return mark.line + 1, mark.column + 1


def _rt_document(text: str, max_nodes: int, limits: dict[str, int] | None = None) -> Document:
    root = _untag(_load(text))
    if limits is not None:
        _check_aliases(root, {**limits, "max-alias-nodes": max_nodes})
    count_nodes(root, max_nodes)

    def locate(path: Path_, on_key: bool = False) -> tuple[int, int]:
        node = root
        lc = getattr(root, "lc", None)
        pos = (lc.line, lc.col) if lc is not None else (0, 0)
        for i, part in enumerate(path):
            lc = getattr(node, "lc", None)
            if lc is None:
                break
            try:
                child = node[part]
                if isinstance(part, int):
                    pos = lc.item(part)
                elif (on_key and i == len(path) - 1) or _is_container(child):
                    # a nested block is best shown at the key that introduces it
                    pos = lc.key(part)
                else:
                    pos = lc.value(part)
            except (KeyError, IndexError, TypeError):
                break
            node = child
        return pos[0] + 1, pos[1] + 1

    return Document(root, locate)


def _untag(root: Any) -> Any:
    """The round-trip loader keeps `!!str x` as a TaggedScalar; every reader reads it as
    the string it is (guards.check_tags has refused any other tag already)."""
    from ruamel.yaml.comments import TaggedScalar

    if isinstance(root, TaggedScalar):
        return str(root.value)
    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        pairs = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for key, value in list(pairs):
            if isinstance(value, TaggedScalar):
                node[key] = str(value.value)
            elif isinstance(value, (dict, list)):
                todo.append(value)
    return root


def _is_container(node: Any) -> bool:
    return isinstance(node, (dict, list))


def count_nodes(root: Any, max_nodes: int) -> int:
    """Size of the tree with aliases expanded, computed without expanding them."""
    memo: dict[int, int] = {}

    def size(node: Any) -> int:
        if not isinstance(node, (dict, list)):
            return 1
        key = id(node)
        if key in memo:
            return memo[key]
        memo[key] = 1  # a recursive alias counts once and ends here
        children = node.values() if isinstance(node, dict) else node
        total = 1
        for child in children:
            total += size(child)
            if total > max_nodes:
                break
        memo[key] = total
        return total

    total = size(root)
    if total > max_nodes:
        raise YAMLProblem(
            "yaml-aliases",
            f"aliases expand to more than {max_nodes:,} nodes (alias bomb?); not checked",
        )
    return total


def to_plain(node: Any, max_nodes: int = 100_000) -> Any:
    """Round-trip objects to plain JSON-like data (dates become ISO strings)."""
    import datetime

    count_nodes(node, max_nodes)

    def conv(value: Any) -> Any:
        if isinstance(value, dict):
            return {str(k): conv(v) for k, v in value.items()}
        if isinstance(value, list):
            return [conv(v) for v in value]
        if isinstance(value, (datetime.datetime, datetime.date)):
            return value.isoformat()
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return float(value)
        if isinstance(value, str):
            return str(value)
        return value

    return conv(node)
