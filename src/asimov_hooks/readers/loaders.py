"""YAML loading that keeps line and column for every node, so that a finding points at
its line: which reader reads which text is docs/architecture.md's "Reading YAML" (JSON:
`json_loader`).
"""

from __future__ import annotations

from ..conflict_markers import find_conflict_marker
from .document import Document, Path_, YAMLProblem, guard, guard_plain
from .guards import limits as default_limits
from .plain_rows import AfterQuote
from .plain_yaml import HandOver, plain_locator, plain_read
from .problem import UnkeptComments

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing and dataclasses cost start-up time
    from typing import Any

__all__ = ["Document", "YAMLProblem", "find_conflict_marker", "guard", "load_yaml"]


# ---------------------------------------------------------------- YAML
def load_yaml_plain(text: str, limits: dict[str, int] | None = None) -> Any:
    """Plain Python data, for config files (no positions needed)."""
    lim = limits if limits is not None else default_limits()
    guard(text, "yaml", lim)
    max_nodes = lim["max-alias-nodes"]
    return to_plain(_rt_document(text, max_nodes, lim).data, max_nodes=max_nodes)


def load_data(text: str) -> tuple[Any, bool]:
    """(plain data, whether it may hold aliases) of a one-document text, as the safe
    loader reads it, for data only read as data (the trim archive): the plain reader,
    else libyaml's fast path, else the safe loader. The guards are the caller's."""
    try:
        return _plain(text, len(text) > _NO_GC_FROM)[0], False
    except (HandOver, YAMLProblem):
        pass
    fast = _fast_document(text, 0)
    if fast is not None:
        return fast.data, False
    from .yamlio import SAFE, load_all, single

    return single(load_all(text, SAFE)), True


# a text past this size is read with the cyclic garbage collector paused
_NO_GC_FROM = 1 << 16


def _plain(text: str, large: bool = False) -> tuple[Any, bool, list[Any]]:
    """`plain_yaml.plain_read`: in a batch, its regular-expression rows first; a large
    text (an archive, whose lines repeat: read once each) by string methods."""
    if not large:
        return plain_read(text, bool(_BATCH))
    from .plain_rows import no_gc

    with no_gc():  # every object built is kept
        return plain_read(text)


def _fast_document(text: str, max_nodes: int, refused: list[Any] | None = None) -> Document | None:
    """`fast_yaml`'s node-based libyaml reading (imported when a text needs it)."""
    from .fast_yaml import _fast_document as read

    return read(text, max_nodes, refused)


def _focused_problem(text: str) -> YAMLProblem | None:
    """The round-trip reader's problem with a text libyaml refuses, found by composing
    only its last entries (`_focused`); None: read the whole text. From the key that
    opens the kept part the reader is where it was in the whole text (at the top-level
    mapping's next key, nothing pending), so it meets the same problem at the same line
    and column, sooner."""
    part = _focused(text)
    if part is None:
        return None
    from .yamlio import _PURE_SCANNER_ONLY, ROUND_TRIP, make_yaml, reading

    try:
        with reading(part, ROUND_TRIP):
            for _ in make_yaml(ROUND_TRIP).compose_all(part):
                pass
    except UnkeptComments:
        return None
    except YAMLProblem as problem:
        if any(words in problem.message for words in _PURE_SCANNER_ONLY):
            return None  # libyaml reads the whole text there
        return problem
    return None


def _focused(text: str) -> str | None:
    """`text` with its first top-level entries, in the plain subset, blanked (lines left
    empty) up to the entry before the one where that reading stops; None when there are
    not three entries before the stop, or more than one document."""
    if not text.isascii() or "\n---" in text or "\n..." in text or text[:3] in ("---", "..."):
        return None
    from .plain_rows import refused, rows
    from .plain_yaml import stop_line

    if refused(text):
        return None
    lines = text.split("\n")
    stop = stop_line(text)
    entries = [row[3] for row in rows(lines[:stop]) if row[0] == 0 and row[1] is not None]
    if len(entries) < 3:
        return None
    keep = entries[-2]
    return "\n" * keep + "\n".join(lines[keep:])


def load_yaml(
    text: str,
    max_nodes: int = 100_000,
    limits: dict[str, int] | None = None,
    positions: bool = True,
) -> Document:
    """The file's data and positions: the plain reader (no YAML library: ruamel's import
    is a third of a one-file run), else libyaml's fast path, else the round trip, whose
    reading is the reference, so data and errors never depend on which path ran.
    Nesting and tags are checked first (guards). `positions` is kept for callers: every
    reading gives the same positions."""
    lim = limits if limits is not None else default_limits()
    try:
        data, block, found = _plain(text, len(text) > _NO_GC_FROM)
    except AfterQuote as handed:  # a stray quote: the library's words, maybe told here
        from .quote_tail import quote_problem

        problem = quote_problem(text, handed.line)
        if problem is not None:
            guard(text, "yaml", lim)
            raise problem from None
    except HandOver:
        pass
    except YAMLProblem:  # the broken shape the plain reader tells: the guards come first
        guard(text, "yaml", lim)
        raise
    else:  # the plain subset: no YAML library loaded, positions from its rows
        if block:  # what a block-only reading proves spares the guards' scans
            guard_plain(text, lim)
        else:  # an item that is a mapping opens two levels on one line
            guard(text, "yaml", lim)
        return Document(data, plain_locator(text, found), plain=True)
    guard(text, "yaml", lim)
    refused: list[Any] = []
    fast = _fast_document(text, max_nodes, refused)
    if fast is not None:
        return fast
    if refused:  # broken: the round trip's words, from as little of the text as it needs
        problem = _focused_problem(text)
        if problem is not None:
            raise problem
    return _rt_document(text, max_nodes, lim)


# Inside `batch_reading()` (a validate run of many files, where `re` is loaded anyway)
# the plain reader's rows come from one regular expression over the whole text.
_BATCH: list[bool] = []


class batch_reading:  # a statement: `with batch_reading():`
    def __enter__(self) -> None:
        _BATCH.append(True)

    def __exit__(self, *exc: object) -> None:
        _BATCH.pop()


def _rt_document(text: str, max_nodes: int, limits: dict[str, int] | None = None) -> Document:
    from .rtdata import plain_rt
    from .yamlio import ROUND_TRIP, libyaml_reading, load_all, single

    try:  # the round trip: the reference for every reader
        root = plain_rt(single(load_all(text, ROUND_TRIP)))
    except UnkeptComments:
        return _safe_document(text, max_nodes, limits)
    except YAMLProblem as problem:  # refused by the pure scanner alone: libyaml's reading?
        read = libyaml_reading(text, problem)
        if read is None:
            raise
        return _safe_document(text, max_nodes, limits, read)
    _count(root, max_nodes, limits)

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
                if isinstance(node, list):  # an int is a key in a mapping (`1:`)
                    pos = lc.item(part)
                elif (on_key and i == len(path) - 1) or isinstance(child, (dict, list)):
                    # a nested block is best shown at the key that introduces it
                    pos = lc.key(part)
                else:
                    pos = lc.value(part)
            except (KeyError, IndexError, TypeError):
                break
            node = child
        return pos[0] + 1, pos[1] + 1

    return Document(root, locate)


def _safe_document(
    text: str, max_nodes: int, limits: dict[str, int] | None, read: tuple | None = None
) -> Document:
    """The plain reading, with positions from its node marks, for valid YAML whose
    comments the round-trip reader cannot place (or, `read`, libyaml's node and data of
    a text only the pure scanner refuses): the checks need only data."""
    from .fast_yaml import node_document
    from .yamlio import SAFE_PURE, compose

    node, data = read if read is not None else compose(text, SAFE_PURE)
    _count(data, max_nodes, limits)
    return node_document(data, node)


def _count(root: Any, max_nodes: int, limits: dict[str, int] | None) -> None:
    count_nodes(root, max_nodes, limits["max-aliases"] if limits is not None else 1 << 62)


def count_nodes(root: Any, max_nodes: int, max_aliases: int = 1 << 62) -> int:
    """How many nodes the document's aliases add once expanded, computed without
    expanding them (a document without aliases adds none, however long it is); a
    `yaml-aliases` problem past `max_aliases` references or `max_nodes` added nodes."""
    from .guards import InputProblem, alias_expansion

    try:
        return alias_expansion(root, max_aliases, max_nodes)[1]
    except InputProblem as problem:
        raise YAMLProblem("yaml-aliases", f"{problem.message}; not checked") from None


def to_plain(node: Any, max_nodes: int = 100_000) -> Any:
    """Round-trip objects to plain JSON-like data (dates become ISO strings)."""
    import datetime

    count_nodes(node, max_nodes)

    from . import key_text
    from .rtdata import plain_scalar

    def conv(value: Any) -> Any:
        if isinstance(value, dict):  # keys as JSON Schema sees them: their YAML text
            return {key_text(plain_scalar(k)): conv(v) for k, v in value.items()}
        if isinstance(value, list):
            return [conv(v) for v in value]
        value = plain_scalar(value)  # `&f true` is a bool, `!!str x` a string
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
