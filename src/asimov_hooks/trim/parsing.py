"""Parsing a checkpoint for the trimmer, and reading what the parse gave.

`parse` yields the composed node tree (with the marks `layout` locates parts by) and the
constructed data, or raises `Refused`, the one-line reason a file is left untouched.
The helpers read those results: the scalars' spans and the comments outside them,
structural equality of data, and a value's shape for messages.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing and dataclasses cost every commit ~10 ms
    from typing import Any


class Refused(Exception):
    """The file cannot be trimmed safely; it is left untouched. One line, no traceback."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line  # 1-based, when it helps to point at one

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


# ------------------------------------------------------------------ parsing
def parse(
    text: str, max_nodes: int = 100_000, limits: dict[str, int] | None = None
) -> tuple[Any, Any]:
    """(composed node, constructed data) of a one-document YAML text."""
    from ..readers.loaders import YAMLProblem, count_nodes, guard

    try:  # nesting and tags first: the same verdict as validate, before any parser runs
        guard(text, "yaml", limits)
        read = _plain_nodes(text) or _libyaml_nodes(text)
        if read is not None:
            node, data = read
        else:
            node, data = _pure_nodes(text)
        if limits is not None:
            from ..readers.guards import InputProblem, alias_expansion

            try:
                alias_expansion(data, limits["max-aliases"], max_nodes)
            except InputProblem as exc:
                raise Refused(exc.message) from None
        count_nodes(data, max_nodes)
    except YAMLProblem as exc:
        raise Refused(exc.message, exc.line if exc.placed else None) from None
    return node, data


def _plain_nodes(text: str) -> tuple[Any, Any] | None:
    """(node, data) of a text in the plain subset (`readers.plain_yaml`: no tag,
    anchor, block scalar, tab or odd line break, so nothing `fast_yaml` hands to the
    pure reader) without ruamel.yaml: the data as the plain reader reads it (held to
    the libraries' by the tests) and the node marks from libyaml through PyYAML's
    binding, the marks `_libyaml_nodes` reads through ruamel's. None: another reader
    reads it."""
    from ..readers.plain_yaml import HandOver, plain_data
    from ..readers.problem import YAMLProblem as Broken

    try:
        data = plain_data(text)[0]
    except (HandOver, Broken):
        return None

    composer = _composer_class()
    if composer is None:
        return None
    import warnings

    parser = composer(text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            node = parser.get_single_node()
    except Exception:  # the other readers say what is wrong, and where
        return None
    finally:
        parser.dispose()
    if node is None or _has_empty_scalar(node):
        return None  # libyaml places an empty value elsewhere than the pure reader
    return node, data


def _libyaml_nodes(text: str) -> tuple[Any, Any] | None:
    """(node, data) through libyaml for a text the fast readers read as the pure one
    does (no directive, tag, anchor, tab or odd block header: `fast_yaml`); its node
    marks are the same character offsets, and it composes a checkpoint about a hundred
    times faster. None: the pure reader reads it (an error is worded by it)."""
    from ..readers.fast_yaml import _needs_round_trip
    from ..readers.yamlio import SAFE, make_yaml, reading, single

    if _needs_round_trip(text):
        return None
    try:
        from ruamel.yaml.cyaml import CParser  # noqa: F401 - libyaml is there
    except ImportError:
        return None
    yaml = make_yaml(SAFE)
    try:
        with reading(text, SAFE):
            node = single(list(yaml.compose_all(text)))
            _refuse_merge_keys(node)  # before constructing moves the marks
            data = yaml.constructor.construct_document(node) if node is not None else None
    except Exception:  # a problem, a merge key: the pure reading says what and where
        return None
    if _has_empty_scalar(node):
        return None  # libyaml places an empty value elsewhere than the pure reader
    return node, data


def _has_empty_scalar(root: Any) -> bool:
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node.value, str):
            if node.start_mark.index == node.end_mark.index:
                return True
        elif node.value and isinstance(node.value[0], tuple):
            for key, value in node.value:
                stack += (key, value)
        else:
            stack += node.value
    return False


def _pure_nodes(text: str) -> tuple[Any, Any]:
    from ..readers.loaders import YAMLProblem
    from ..readers.yamlio import SAFE_PURE, libyaml_reading, make_yaml, reading, single

    yaml = make_yaml(SAFE_PURE)  # pure: the node marks are where the text is cut
    try:
        with reading(text, SAFE_PURE):
            node = single(list(yaml.compose_all(text)))
            # constructing flattens merge keys into the nodes, moving their marks
            _refuse_merge_keys(node)
            data = yaml.constructor.construct_document(node) if node is not None else None
    except YAMLProblem as problem:  # only the pure scanner refuses it: libyaml's reading
        read = libyaml_reading(text, problem)
        if read is None:
            raise
        node, data = read  # libyaml's marks are character offsets too
        _refuse_merge_keys(node)
    return node, data


def _refuse_merge_keys(root: Any) -> None:
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = _node_kind(node)
        if kind == "MappingNode":
            for key, value in node.value:
                if key.tag.endswith(":merge"):
                    raise Refused(
                        "uses a YAML merge key (<<: *anchor); cannot trim safely",
                        key.start_mark.line + 1,
                    )
                stack.extend((key, value))
        elif kind == "SequenceNode":
            stack.extend(node.value)


def _node_kind(node: Any) -> str:
    return type(node).__name__  # ScalarNode, SequenceNode, MappingNode


def iter_scalars(node: Any, seen: set[int] | None = None) -> list[tuple[int, int]]:
    """(start, end) offsets of every scalar under `node` (each anchored node once)."""
    seen = set() if seen is None else seen
    out: list[tuple[int, int]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        kind = _node_kind(current)
        if kind == "ScalarNode":
            out.append((current.start_mark.index, current.end_mark.index))
        elif kind == "SequenceNode":
            stack.extend(current.value)
        elif kind == "MappingNode":
            for key, value in current.value:
                stack.extend((key, value))
    return out


def comments_in(text: str, start: int, end: int, scalars: list[tuple[int, int]]) -> list[str]:
    """Comments in text[start:end] that are not inside any of the scalar spans."""
    spans = sorted((s, e) for s, e in scalars if e > start and s < end)
    out: list[str] = []
    pos = start
    index = 0
    while True:
        hash_at = text.find("#", pos, end)
        if hash_at == -1:
            return out
        while index < len(spans) and spans[index][1] <= hash_at:
            index += 1
        if index < len(spans) and spans[index][0] <= hash_at:
            pos = spans[index][1]
            continue
        if hash_at == 0 or text[hash_at - 1] in " \t\r\n":
            line_end = text.find("\n", hash_at, end)
            line_end = end if line_end == -1 else line_end
            out.append(text[hash_at:line_end].rstrip())
            pos = line_end
        else:
            pos = hash_at + 1


def shape_name(value: Any) -> str:
    """What a YAML value is, with its article, for messages."""
    import datetime

    if value is None:
        return "null"
    for kind, name in (
        (bool, "a boolean"),
        (int, "an integer"),
        (float, "a number"),
        (str, "a string"),
        (list, "a list"),
        (dict, "a mapping"),
        (datetime.date, "a date"),
    ):
        if isinstance(value, kind):
            return name
    return f"a {type(value).__name__}"


def same(a: Any, b: Any) -> bool:
    """Structural equality that also checks key order, types and NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (a != a and b != b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


_COMPOSER: list[Any] = []


def _composer_class() -> Any:
    """libyaml's composer through PyYAML's binding, for node marks only (no tags: the
    layout of a text the plain reader has read), or None without it."""
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
