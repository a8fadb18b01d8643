"""YAML side of the merge driver: parse with ruamel round-trip, write merged data back
into the ours document so its comments, key order and quoting survive.

The merged tree is applied to a fresh round-trip load of ours: unchanged nodes are
left alone, lists are rebuilt from ours' own item objects where the items are equal
(so their comments stay attached), and only what changed is replaced. ruamel's
emitter normalises some layout (one sequence indentation per file), so the dump is
then laid over ours' original text with a line merge: lines the merge did not touch
keep ours' exact bytes.
"""

from __future__ import annotations

import copy
import io
import itertools
import re
from functools import lru_cache

from .core import MISSING, Item, ItemFinder, canon, same, unmemoized
from .text_merge import merge3

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable
    from typing import Any

    KeyedFn = Callable[[tuple], "str | None"]


class ParseError(Exception):
    """A side is not a single YAML mapping."""


_INSTANCES: dict[tuple, Any] = {}


def _yaml(indent: tuple[int, int, int] | None = None, explicit_start: bool = False) -> Any:
    """A configured ruamel instance, reused: building one costs as much as a small load."""
    key = (indent, explicit_start)
    if key not in _INSTANCES:
        _INSTANCES[key] = _new_yaml(indent, explicit_start)
    return _INSTANCES[key]


def _new_yaml(indent: tuple[int, int, int] | None, explicit_start: bool) -> Any:
    from ..readers.yamlio import ROUND_TRIP, make_yaml

    yaml = make_yaml(ROUND_TRIP)
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never fold a long line the author kept on one line
    if indent is not None:
        yaml.indent(mapping=indent[0], sequence=indent[1], offset=indent[2])
    yaml.explicit_start = explicit_start
    return yaml


@lru_cache(maxsize=64)
def load(body: str, max_depth: int = 100, max_aliases: int = 1000, max_nodes: int = 100_000) -> Any:
    """The document's root (a mapping), or ParseError; empty documents are None.

    Cached by text: a round-trip load is the driver's main cost and the same text is
    often loaded again (a result that equals ours). Callers never modify the tree.
    Nesting, tags and aliases are bounded (guards): a side over a bound is not parsed,
    so the driver falls back to git's line merge and never writes an expanded file.
    """
    from ..readers.document import YAMLProblem, guard
    from ..readers.guards import InputProblem, alias_expansion

    try:
        guard(body, "yaml", {"max-depth": max_depth})
        root = _read(body)
    except YAMLProblem as exc:
        raise ParseError(exc.located()) from None
    try:
        alias_expansion(root, max_aliases, max_nodes)
    except InputProblem as exc:
        raise ParseError(exc.message) from None
    if root is not None and not isinstance(root, dict):
        raise ParseError("the document is not a mapping")
    return root


def _read(body: str) -> Any:
    """A new round-trip tree of `body` (one document, no container keys), uncached."""
    from ..readers.document import YAMLProblem
    from ..readers.rtdata import refuse_mapping_keys
    from ..readers.yamlio import ROUND_TRIP, reading, single

    try:
        with reading(body, ROUND_TRIP):
            root = single(list(_yaml().load_all(body)))
        refuse_mapping_keys(root)  # as every other reader does
    except YAMLProblem:
        _INSTANCES.pop((None, False), None)  # do not reuse a parser stopped mid-stream
        raise
    return root


_LINE = re.compile(r"^( *)(- +)?(?:[^#\s-][^:#]*|\"[^\"]*\"|'[^']*'):[ \t]*(?:#.*)?$")


def guess_indent(body: str) -> tuple[int, int, int]:
    """(mapping indent, sequence indent, dash offset) as ruamel's YAML.indent wants them."""
    mapping: int | None = None
    seq: tuple[int, int] | None = None
    lines = [ln for ln in body.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    for here, nxt in itertools.pairwise(lines):
        m = _LINE.match(here)
        if not m:
            continue
        col = len(m.group(1)) + (len(m.group(2)) if m.group(2) else 0)
        inner = len(nxt) - len(nxt.lstrip(" "))
        if inner <= col:
            continue
        rest = nxt[inner:]
        if rest.startswith("- ") or rest == "-":
            if seq is None:
                after = len(rest) - len(rest[1:].lstrip(" ")) if rest != "-" else 2
                seq = (inner - col, max(after, 2))
        elif mapping is None:
            mapping = inner - col
        if mapping is not None and seq is not None:
            break
    offset, dash = seq if seq is not None else (0, 2)
    return (mapping or 2, offset + dash, offset)


def _dump(doc: Any, body: str) -> str:
    starts = next(
        (ln for ln in body.split("\n") if ln.strip() and not ln.startswith("#")), ""
    ).startswith("---")
    out = io.StringIO()
    _yaml(guess_indent(body), starts).dump(doc, out)
    return out.getvalue()


def render(ours_body: str, merged: Any, keyed: KeyedFn, ours_doc: Any = None) -> str:
    """Text for `merged`, written into ours' document and laid over ours' bytes.

    `ours_doc` (ours_body already parsed) is never modified: the edits go into a new
    parse of ours_body, not a deep copy (ruamel copies a list's comment and position
    tables once per item, so a copy grows with the square of a long list).
    """
    with unmemoized():  # the applier modifies the tree it compares
        return _render(ours_body, merged, keyed, ours_doc)


def _render(ours_body: str, merged: Any, keyed: KeyedFn, ours_doc: Any) -> str:
    if ours_doc is None:
        ours_doc = load(ours_body)
    if same(ours_doc, merged):  # nothing to write in: the applier would change nothing
        return ours_body
    pristine = _pristine(ours_body) if ours_doc is load(ours_body) else _dump(ours_doc, ours_body)
    doc = _read(ours_body)  # the text passed the guards when ours_doc was read from it
    _apply_map(doc, merged, (), keyed)
    dumped = _dump(doc, ours_body)
    if pristine == ours_body:
        return dumped
    overlaid = merge3(pristine, ours_body, dumped)
    return dumped if overlaid is None else overlaid


@lru_cache(maxsize=16)
def _pristine(body: str) -> str:
    """How ruamel writes `body` back unchanged (to lay our edits over the original)."""
    return _dump(load(body), body)


# ---------------------------------------------------------------- applying
def _apply_value(current: Any, value: Any, path: tuple, keyed: KeyedFn) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if same(current, value):
        return current
    if isinstance(current, CommentedMap) and isinstance(value, dict):
        _apply_map(current, value, path, keyed)
        return current
    if isinstance(current, CommentedSeq) and isinstance(value, list):
        _apply_seq(current, value, path, keyed)
        return current
    return _adopt(value, current)


def _apply_map(cm: Any, merged: dict, path: tuple, keyed: KeyedFn) -> None:
    from ruamel.yaml.comments import merge_attrib

    for key in [k for k in cm if k not in merged]:
        _delete_key(cm, key)
    # a key the merge adds is put at its place by one pass of moves at the end, not by
    # `insert` (which moves every key after it: thousands of added keys took minutes);
    # a mapping with a `<<` merge key keeps `insert`, which keeps its position right
    plain = not getattr(cm, merge_attrib, None)
    added = False
    for index, (key, value) in enumerate(merged.items()):
        if key in cm:
            current = cm[key]
            new = _apply_value(current, value, (*path, key), keyed)
            if new is not current:
                trailing = _take_trailing(cm, key)
                cm[key] = new
                _put_trailing(cm, key, trailing)
        elif plain:
            cm[key] = _clean(value)
            added = True
        else:
            cm.insert(min(index, len(cm)), key, _clean(value))
    if added and list(cm) != list(merged):
        for key in merged:
            cm.move_to_end(key)


def _apply_seq(seq: Any, merged: list, path: tuple, keyed: KeyedFn) -> None:
    """Rebuild `seq` as `merged` from its own items where they match (equal first, then
    by id key, each used once), found through indexes so a long list costs linear time."""
    old = list(seq)
    key = keyed((*path, Item("")))
    # (position, item): each pair its own object to take
    finder = ItemFinder(enumerate(old), key, lambda pair: pair[1], set())
    items: list[Any] = []
    origin: list[int | None] = []
    like = next((x for x in old if isinstance(x, str)), None)
    for value in merged:
        pair, by_id = finder.find(value, canon(value))
        if by_id:
            j = pair[0]
            old[j] = _apply_value(old[j], value, (*path, Item("")), keyed)
        if pair is None:
            items.append(_adopt(value, like))
            origin.append(None)
        else:
            items.append(old[pair[0]])
            origin.append(pair[0])
    last_old = len(old) - 1
    trailing = _take_trailing(seq, last_old) if old and origin[-1:] != [last_old] else None
    comments = dict(seq.ca.items)
    seq.ca.items.clear()
    list.__delitem__(seq, slice(None))
    list.extend(seq, items)
    for i, j in enumerate(origin):
        if j is not None and j in comments:
            seq.ca.items[i] = comments[j]
    if items and trailing is not None:
        _put_trailing(seq, len(items) - 1, trailing)


# ---------------------------------------------------------------- comments
def _slot(container: Any) -> int:
    from ruamel.yaml.comments import CommentedMap

    return 2 if isinstance(container, CommentedMap) else 0


def _last_key(container: Any) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(container, CommentedMap) and container and not container.fa.flow_style():
        return next(reversed(container))
    if isinstance(container, CommentedSeq) and container and not container.fa.flow_style():
        return len(container) - 1
    return MISSING


def _take_trailing(container: Any, key: Any) -> Any:
    """Remove and return the comment/blank lines that follow an entry (not its own
    end-of-line comment), wherever ruamel attached them."""
    value = container[key]
    inner = _last_key(value) if isinstance(value, (dict, list)) else MISSING
    if inner is not MISSING:
        return _take_trailing(value, inner)
    entry = container.ca.items.get(key)
    slot = _slot(container)
    if not entry or len(entry) <= slot or entry[slot] is None:
        return None
    token = entry[slot]
    text = token.value
    if text.startswith("#"):  # keep the entry's own end-of-line comment where it is
        eol, _, rest = text.partition("\n")
        if not rest:
            return None
        kept = copy.copy(token)
        kept.value = eol + "\n"
        entry[slot] = kept
        moved = copy.copy(token)
        moved.value = "\n" + rest
        return moved
    entry[slot] = None
    return token


def _put_trailing(container: Any, key: Any, token: Any) -> None:
    if token is None:
        return
    value = container[key]
    inner = _last_key(value) if isinstance(value, (dict, list)) else MISSING
    if inner is not MISSING:
        _put_trailing(value, inner, token)
        return
    slot = _slot(container)
    entry = container.ca.items.setdefault(key, [None, None, None, None])
    while len(entry) <= slot:
        entry.append(None)
    if entry[slot] is None:
        entry[slot] = token
    else:
        joined = copy.copy(entry[slot])
        joined.value = re.sub(r"\n{3,}", "\n\n", entry[slot].value + token.value.lstrip("\n"))
        entry[slot] = joined


def _delete_key(cm: Any, key: Any) -> None:
    keys = list(cm)
    trailing = _take_trailing(cm, key)
    del cm[key]
    position = keys.index(key)
    if trailing is not None and position > 0:
        _put_trailing(cm, keys[position - 1], trailing)


# ---------------------------------------------------------------- foreign nodes
def _clean(value: Any) -> Any:
    """A copy of a node from another document, without that document's comments."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, dict):
        out = CommentedMap()
        for k, v in value.items():
            out[k] = _clean(v)
        if isinstance(value, CommentedMap) and value.fa.flow_style():
            out.fa.set_flow_style()
        return out
    if isinstance(value, list):
        seq = CommentedSeq(_clean(v) for v in value)
        if isinstance(value, CommentedSeq) and value.fa.flow_style():
            seq.fa.set_flow_style()
        return seq
    return value


def _adopt(value: Any, like: Any) -> Any:
    """`value` for a place where ours had `like`: a plain string takes ours' quoting."""
    if type(value) is str and isinstance(like, str) and type(like) is not str:
        return type(like)(value)
    return _clean(value)
