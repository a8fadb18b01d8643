"""The round-trip reading's data made plain: the values ruamel's safe loader gives.

ruamel's round trip wraps a scalar with an anchor or a tag in a type of its own:
`flag: &f true` is a `ScalarBoolean` (an int to a schema), `!!str milestone:` a
`TaggedScalar` key (so `milestone` is not found). The containers are kept (findings
point at their positions); each scalar, key or value, becomes the safe loader's value.
"""

from __future__ import annotations

from .problem import YAMLProblem

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any

_PLAIN = frozenset({str, int, float, bool, type(None)})


def plain_scalar(value: Any) -> Any:
    """The safe loader's value for one round-trip scalar."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    from ruamel.yaml.comments import TaggedScalar
    from ruamel.yaml.scalarbool import ScalarBoolean

    if isinstance(value, TaggedScalar):  # only `!!str` stays tagged (guards refuse others)
        return str(value.value)
    if isinstance(value, ScalarBoolean):
        return bool(value)
    for base in (bool, int, float, str):
        if isinstance(value, base):
            return base(value)
    if isinstance(value, tuple):  # a sequence as a key (`? [a, b]`): the safe loader's tuple
        return tuple(plain_scalar(item) for item in value)
    return value  # dates, timestamps


def plain_rt(root: Any) -> Any:
    """`root` with every scalar plain (in place: positions stay on the containers)."""
    if not isinstance(root, (dict, list)):
        return plain_scalar(root)
    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:  # an alias shares the node: made plain once
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            if any(type(key) not in _PLAIN for key in node):
                _rekey(node)
            for key, value in node.items():
                if isinstance(value, (dict, list)):
                    todo.append(value)
                elif type(value) not in _PLAIN:
                    _set(node, key, plain_scalar(value))
        else:
            for i, value in enumerate(node):
                if isinstance(value, (dict, list)):
                    todo.append(value)
                elif type(value) not in _PLAIN:
                    list.__setitem__(node, i, plain_scalar(value))
    return root


def _set(mapping: Any, key: Any, value: Any) -> None:
    """Replace a value without the round-trip map re-wrapping it in its old style."""
    from ruamel.yaml.comments import CommentedMap

    if isinstance(mapping, CommentedMap):
        super(CommentedMap, mapping).__setitem__(key, value)
    else:
        mapping[key] = value


def _rekey(mapping: Any) -> None:
    """Plain keys, in order; two keys that become one are the safe loader's duplicate."""
    from ruamel.yaml.comments import CommentedMap

    items = list(mapping.items())
    lc = getattr(mapping, "lc", None)
    places = dict(lc.data) if lc is not None else {}
    plain: dict[Any, Any] = {}
    moved: dict[Any, Any] = {}
    for key, value in items:
        if _is_mapping(key):
            raise mapping_key(places.get(key))
        new = plain_scalar(key) if not isinstance(key, (dict, list)) else key
        if new in plain:
            raise YAMLProblem("duplicate-key", f"duplicate key {new!r}", *_place(places.get(key)))
        plain[new] = value
        if key in places:
            moved[new] = places[key]
    if isinstance(mapping, CommentedMap):
        base = super(CommentedMap, mapping)
        base.clear()
        for key, value in plain.items():
            base.__setitem__(key, value)
        if lc is not None:
            lc.data.clear()
            lc.data.update(moved)
    else:
        mapping.clear()
        mapping.update(plain)


def _is_mapping(key: Any) -> bool:
    from collections.abc import Mapping

    return isinstance(key, Mapping)


def _place(where: Any) -> tuple[int, int]:
    return (where[0] + 1, where[1] + 1) if where else (0, 0)


def mapping_key(where: Any) -> YAMLProblem:
    """The safe loader's refusal of a mapping as a key, placed at the key."""
    from .yamlio import MAPPING_KEY

    return YAMLProblem("syntax", MAPPING_KEY, *_place(where))


def refuse_mapping_keys(root: Any) -> None:
    """A YAMLProblem at the first mapping used as a key in a round-trip tree (the merge
    driver keeps the round-trip objects, so it asks here rather than `plain_rt`)."""
    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            lc = getattr(node, "lc", None)
            for key, value in node.items():
                if _is_mapping(key):
                    raise mapping_key(lc.data.get(key) if lc is not None else None)
                if isinstance(value, (dict, list)):
                    todo.append(value)
        elif isinstance(node, list):
            todo.extend(v for v in node if isinstance(v, (dict, list)))
