"""The event-stream path of YAML reading: plain data straight from libyaml's events,
with no node tree, for files read as data only (the trim archive, and every file whose
checks need no positions).

Building a node per value is most of the cost of the node-based fast path
(`fast_yaml`): a trim archive at its 8 MiB byte cap has about 700,000 of them. This
path reads the events the C parser hands over (PyYAML's libyaml binding when installed,
ruamel's otherwise) and builds dicts, lists and scalars from them directly, once each:
its work is one step per event, linear in the text.

It reads exactly what the node-based fast path reads (the same YAML 1.2 resolution, the
same scalar construction) and hands everything else over (None): anchors, aliases,
tags, complex or duplicate keys, merge keys, a second document, nesting past
`_MAX_DEPTH`, a parse error, and whatever `fast_yaml` itself leaves to the round-trip
reader. The readers then read such a text as before and report its problems with their
positions, so findings never depend on which path ran.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any

# [(parser class, (stream-end, doc-start, doc-end, scalar, seq-start, seq-end, map-start,
# map-end) event classes)] once found; [None] when neither binding has libyaml
_SOURCE: list[Any] = []
_MAX_DEPTH = 100  # as fast_yaml._FAST_MAX_DEPTH: deeper nodes go to the round trip
_KEY_TYPES = frozenset({str, int, float, bool, type(None)})


class _HandOver(Exception):
    """The event-stream path leaves this text to the other readers."""


def _source() -> Any:
    if not _SOURCE:
        try:  # PyYAML's binding hands events over about a quarter faster
            from yaml import _yaml as binding
            from yaml import events
        except ImportError:
            try:
                from ruamel.yaml import events
                from ruamel.yaml.cyaml import CParser as parser
            except ImportError:
                _SOURCE.append(None)
                return None
        else:
            parser = binding.CParser
        _SOURCE.append(
            (
                parser,
                (
                    events.StreamEndEvent,
                    events.DocumentStartEvent,
                    events.DocumentEndEvent,
                    events.ScalarEvent,
                    events.SequenceStartEvent,
                    events.SequenceEndEvent,
                    events.MappingStartEvent,
                    events.MappingEndEvent,
                ),
            )
        )
    return _SOURCE[0]


def stream_data(text: str) -> tuple[bool, Any]:
    """(True, the data) of a one-document text as the node-based fast path reads it, or
    (False, None) when this path hands the text over (see the module's docstring)."""
    from .fast_yaml import _needs_round_trip, no_gc

    if _needs_round_trip(text):
        return False, None
    source = _source()
    if source is None:
        return False, None
    parser_class, kinds = source
    import warnings

    parser = parser_class(text)
    try:
        with warnings.catch_warnings(), no_gc():
            warnings.simplefilter("ignore")
            return True, _walk(parser.get_event, kinds)
    except Exception:  # _HandOver, a parse error: the other readers say what it is
        return False, None
    finally:
        parser.dispose()


def _walk(get: Any, kinds: tuple[Any, ...]) -> Any:
    """The document's data, one step per event (`get` hands the next one over)."""
    stream_end, doc_start, doc_end, scalar, seq_start, seq_end, map_start, map_end = kinds
    scalar_value = _scalars()
    get()  # the stream's start
    event = get()
    if event.__class__ is stream_end:
        return None  # only comments: no document
    if event.__class__ is not doc_start:
        raise _HandOver
    nokey = _HandOver  # a sentinel no key can be
    root: list[Any] = []
    # the open collection, the key read and not yet set in it (a dict's), whether it
    # is a list; `stack` holds the same of each collection around it
    into: Any = root
    key: Any = nokey
    is_list = True
    stack: list[tuple[Any, Any, bool]] = []
    depth = 1  # of a node read now (the document's is 1)
    while True:
        event = get()
        kind = event.__class__
        if kind is scalar:
            if event.anchor is not None or event.tag is not None or depth > _MAX_DEPTH:
                raise _HandOver
            value = event.value
            if event.implicit[0] and value[:1] in _TYPED_FIRST:  # plain, maybe not a string
                value = scalar_value(value)
            opened = False
        elif kind is map_start or kind is seq_start:
            if event.anchor is not None or event.tag is not None or depth > _MAX_DEPTH:
                raise _HandOver
            value = {} if kind is map_start else []
            opened = True
        elif kind is map_end or kind is seq_end:
            into, key, is_list = stack.pop()
            depth -= 1
            if not stack:
                break
            continue
        else:  # an alias (no anchors reach here: a dangling one), anything unforeseen
            raise _HandOver
        if is_list:
            into.append(value)
        elif key is nokey:
            if value.__class__ not in _KEY_TYPES or value in into:
                raise _HandOver  # a complex or a duplicate key: the round trip says which
            key = value
        else:
            into[key] = value
            key = nokey
        if opened:
            stack.append((into, key, is_list))
            into, key, is_list = value, nokey, kind is seq_start
            depth += 1
        elif not stack:
            break  # the document is one scalar
    if get().__class__ is not doc_end or get().__class__ is not stream_end:
        raise _HandOver  # a second document: the readers report the stream
    return root[0]


# YAML 1.2's implicit types (as ruamel.yaml resolves them) by a plain scalar's first
# character; a plain scalar starting with any other character is a string
# (`tests/test_stream_yaml.py` holds this table to ruamel's resolvers)
_BOOL, _NULL, _NUMBER, _RUAMEL = "bool", "null", "number", "ruamel"
_TYPED_FIRST = {
    **dict.fromkeys("tTfF", _BOOL),
    **dict.fromkeys(("", "~", "n", "N"), _NULL),
    **dict.fromkeys("+-0123456789", _NUMBER),
    **dict.fromkeys("!&*.<=", _RUAMEL),
}
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_KNOWN_MAX = 4096  # distinct resolved values remembered per document


def _scalars() -> Any:
    """The data of a plain scalar that may not be a string, as fast_yaml._build makes
    it: booleans, nulls and decimal integers read here (no YAML library needed); anything
    else that starts like a number (a float, a timestamp, an integer in another base)
    resolved by ruamel's YAML 1.2 resolvers and built by its SafeConstructor, imported
    only when such a scalar is met. A value ruamel resolves is remembered: an archive
    repeats the same few (`source: .claude_checkpoint.yaml` in every entry), and its
    resolvers try several patterns each time. Everything remembered is immutable; a NaN
    is not (each one stays its own object, as every other reader builds it)."""
    ruamel: list[Any] = []
    known: dict[str, Any] = {}

    def scalar_value(value: str) -> Any:
        first = _TYPED_FIRST[value[:1]]
        if first is _BOOL:
            return _BOOLS.get(value, value)
        if first is _NULL:
            return None if value in _NULLS else value
        if first is _NUMBER:
            digits = value.lstrip("+-")
            if digits.isdigit() and digits.isascii() and len(value) - len(digits) <= 1:
                return int(value)
        found = known.get(value, known)
        if found is not known:
            return found
        if not ruamel:
            ruamel.append(_ruamel_scalars())
        found = ruamel[0](value)
        if found == found and len(known) < _KNOWN_MAX:  # not a NaN
            known[value] = found
        return found

    return scalar_value


def _ruamel_scalars() -> Any:
    """ruamel's resolution and construction of a plain scalar (the fast loader's)."""
    from .fast_yaml import _TAGS, _fast_loader_class

    loader_class = _fast_loader_class()
    if loader_class is None:
        raise _HandOver
    resolvers_of, fallback = loader_class.resolvers[0].get, loader_class.resolvers[1]
    str_tag, int_tag, bool_tag, null_tag = (
        _TAGS["tag:yaml.org,2002:" + name] for name in ("str", "int", "bool", "null")
    )
    constructed = {_TAGS["tag:yaml.org,2002:" + name] for name in ("float", "timestamp")}
    constructor: list[Any] = []

    def construct(tag: Any, value: str) -> Any:
        from ruamel.yaml.nodes import ScalarNode

        if not constructor:
            constructor.append(loader_class(""))
        return constructor[0].construct_object(ScalarNode(tag, value), deep=True)

    def scalar_value(value: str) -> Any:
        resolvers = resolvers_of(value[:1], fallback)
        tag = next((tag for tag, match in resolvers if match(value)), None)
        if tag is None or tag is str_tag:
            return value
        if tag is null_tag:
            return None
        if tag is bool_tag:
            return value.lower() == "true"
        if tag is int_tag:
            digits = value.lstrip("+-")
            if digits.isdigit() and digits.isascii() and len(value) - len(digits) <= 1:
                return int(value)
            return construct(tag, value)
        if tag in constructed:
            return construct(tag, value)
        raise _HandOver  # a merge key (`<<`), `=`: SafeConstructor's own rules apply

    return scalar_value


def node_locator(text: str) -> Any:
    """A `Document.locate` for `text` from libyaml's node marks through PyYAML's binding
    (the marks the node-based fast path reads through ruamel's), or None without it."""
    composer = _composer_class()
    if composer is None:
        return None
    from .fast_yaml import _node_position

    found: list[Any] = []
    index: dict[int, Any] = {}  # the mappings' keys, as findings ask for them

    def locate(path: Any, on_key: bool = False) -> tuple[int, int]:
        if not found:
            import warnings

            parser = composer(text)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    found.append(parser.get_single_node())
            finally:
                parser.dispose()
        return _node_position(found[0], path, on_key, index)

    return locate


_COMPOSER: list[Any] = []


def _composer_class() -> Any:
    if not _COMPOSER:
        try:
            from yaml._yaml import CParser
        except ImportError:
            _COMPOSER.append(None)
        else:

            class Composer(CParser):  # type: ignore[misc]
                def resolve(self, kind: Any, value: Any, implicit: Any) -> None:
                    return None  # positions only: no tags needed

                def descend_resolver(self, parent: Any, index: Any) -> None:
                    pass

                def ascend_resolver(self) -> None:
                    pass

            _COMPOSER.append(Composer)
    return _COMPOSER[0]
