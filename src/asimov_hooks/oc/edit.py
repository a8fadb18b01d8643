"""`oc update` operations on dotted paths, and `oc done`.

    --PATH=VALUE          replace a scalar with the string VALUE
    --PATH+=VALUE         append the string VALUE to an array (created when missing)
    --PATH:json=VALUE     set PATH to VALUE parsed as JSON (objects, arrays, numbers, ...)
    --PATH:json+=VALUE    append VALUE parsed as JSON to an array

PATH is dotted: `context_primer.key_decisions`, `skill_state.scores.sprint-1`. In an array
a segment is an index (`next_actions.0`, `-1` for the last item) or the `id` of an item
(`progress_table.sprint-2.status`, `blockers.b1.resolved`). Missing objects on the way
are created. A string never silently replaces a number, a boolean, an object or an
array (use :json), and a key the OC schema does not know is not added at the top level
or where it looks like a misspelt known key (`--field=value` pasted from the docs).
"""

from __future__ import annotations

import difflib
import json

from ..readers.fastjson import DEFAULT_MAX_DEPTH
from ..readers.fastjson import loads as strict_loads
from .jsonfmt import insert_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


class OpError(Exception):
    """A usage mistake in an operation (exit 2)."""


class Op:
    __slots__ = ("append", "as_json", "path", "raw", "text", "value")

    def __init__(self, raw: str) -> None:
        self.raw = raw
        if not raw.startswith("--") or "=" not in raw:
            raise OpError(f"{raw!r}: expected --PATH=VALUE, --PATH+=VALUE or --PATH:json=VALUE")
        left, _, self.text = raw[2:].partition("=")
        self.append = self.as_json = False
        while True:
            if left.endswith("+"):
                left, self.append = left[:-1], True
            elif left.endswith(":json"):
                left, self.as_json = left[: -len(":json")], True
            else:
                break
        if not left or any(not part for part in left.split(".")):
            raise OpError(f"{raw!r}: empty field name in the path")
        self.path = left.split(".")
        if len(self.path) > DEFAULT_MAX_DEPTH:  # deeper than any checkpoint is read
            shown = raw if len(raw) <= 60 else raw[:57] + "..."
            raise OpError(
                f"{shown!r}: the path is {len(self.path):,} levels deep; a checkpoint nests "
                f"at most {DEFAULT_MAX_DEPTH} (limits.max-depth); nothing written"
            )
        if self.as_json:
            try:
                self.value: Any = strict_loads(self.text)  # no NaN: the file stays JSON
            except ValueError as exc:
                raise OpError(f"{raw!r}: the value is not JSON ({exc})") from None
        else:
            self.value = self.text
        if not _encodable((self.path, self.value)):
            raise OpError(
                f"{raw!r}: holds a lone surrogate (\\ud800-\\udfff) or bytes that are not "
                "UTF-8: not text a checkpoint can hold; nothing written"
            )

    def describe(self) -> str:
        shown = json.dumps(self.value, ensure_ascii=False)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return f"{'.'.join(self.path)} {'+=' if self.append else '='} {shown}"


def _encodable(value: Any) -> bool:
    """Whether every string in `value` (keys too) is text UTF-8 can hold."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, (list, tuple)):
            todo.extend(item)
    return True


def parse(args: Sequence[str]) -> list[Op]:
    return [Op(arg) for arg in args]


# --------------------------------------------------------------- the schema's names
def _resolve(schema: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        ref = node["$ref"]
        if not ref.startswith("#/"):
            return {}
        target: Any = schema
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        node = target
    return node if isinstance(node, dict) else {}


def _known(schema: dict[str, Any], node: Any) -> list[str]:
    node = _resolve(schema, node)
    keys = list(node.get("properties", {}))
    for branch in node.get("oneOf", []) + node.get("anyOf", []):
        keys += list(_resolve(schema, branch).get("properties", {}))
    return keys


def _child(schema: dict[str, Any], node: Any, key: Any) -> Any:
    node = _resolve(schema, node)
    if isinstance(key, int):
        return node.get("items", {})
    props = node.get("properties", {})
    if key in props:
        return props[key]
    for branch in node.get("oneOf", []) + node.get("anyOf", []):
        branch = _resolve(schema, branch)
        if key in branch.get("properties", {}):
            return branch["properties"][key]
    return {}


# --------------------------------------------------------------- applying
def _index(op: Op, where: str, items: list[Any], seg: str) -> int:
    try:
        index = int(seg)
    except ValueError:
        ids = [
            i for i, item in enumerate(items) if isinstance(item, dict) and item.get("id") == seg
        ]
        if not ids:
            raise OpError(f"{op.raw!r}: {where} has no item with id {seg!r}") from None
        return ids[0]
    if not -len(items) <= index < len(items):
        raise OpError(f"{op.raw!r}: {where} has {len(items)} items, no index {index}")
    return index % len(items)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return "null" if value is None else "a string"


def apply(data: dict[str, Any], op: Op, schema: dict[str, Any], new_keys: bool) -> None:
    """Apply one operation to `data` in place, or raise OpError."""
    node: Any = data
    snode: Any = schema
    where = "the checkpoint"
    for depth, seg in enumerate(op.path):
        last = depth == len(op.path) - 1
        if isinstance(node, list):
            i = _index(op, where, node, seg)
            key: Any = i
        elif isinstance(node, dict):
            key = seg
            if key not in node:
                _check_new_key(op, depth, seg, node, _known(schema, snode), new_keys)
                if not last:
                    node = insert_key(node, key, {})
        else:
            raise OpError(f"{op.raw!r}: {where} is {_kind(node)}, it has no field {seg!r}")
        if last:
            _set(op, node, key, where + f".{seg}" if depth else seg)
            return
        where = ".".join(op.path[: depth + 1])
        snode = _child(schema, snode, key)
        node = node[key]


def _check_new_key(
    op: Op, depth: int, seg: str, node: dict[str, Any], known: list[str], new_keys: bool
) -> None:
    if new_keys or seg in known:
        return
    close = difflib.get_close_matches(seg, [*known, *node], n=1, cutoff=0.75)
    place = "top-level key" if depth == 0 else f"key under {'.'.join(op.path[:depth])}"
    if close:
        raise OpError(
            f"{op.raw!r} would add a new {place} {seg!r}; did you mean {close[0]!r}? "
            "(--new-key adds it as written)"
        )
    if depth == 0:
        raise OpError(
            f"{op.raw!r} would add a top-level key {seg!r} that the OC checkpoint schema does "
            "not define; name a checkpoint field (--status=complete, "
            "--skill_state.NAME=VALUE for skill-private state), or pass --new-key"
        )


def _set(op: Op, node: Any, key: Any, where: str) -> None:
    exists = key in node if isinstance(node, dict) else True
    current = node[key] if exists else None
    if op.append:
        if not exists or current is None:
            value = [op.value]
            if isinstance(node, dict):
                insert_key(node, key, value)
            else:
                node[key] = value
            return
        if not isinstance(current, list):
            raise OpError(f"{op.raw!r}: {where} is {_kind(current)}, not an array to append to")
        current.append(op.value)
        return
    if exists and not op.as_json and current is not None and not isinstance(current, str):
        hint = "+= appends to it, " if isinstance(current, list) else ""
        raise OpError(
            f"{op.raw!r}: {where} holds {_kind(current)}; {hint}--{'.'.join(op.path)}:json=... "
            "replaces it"
        )
    if isinstance(node, dict):
        insert_key(node, key, op.value)
    else:
        node[key] = op.value


def pop_done(data: dict[str, Any], when: str) -> str:
    """Move next_actions[0] to the front of recently_done; returns its text."""
    actions = data.get("next_actions")
    if not isinstance(actions, list) or not actions:
        raise OpError("no next_actions to mark done")
    first = actions.pop(0)
    text = first.get("text") if isinstance(first, dict) else first
    if not isinstance(text, str):
        raise OpError("next_actions[0] is neither a string nor {text, ...}")
    done = data.get("recently_done")
    if done is None:
        done = []
        insert_key(data, "recently_done", done)
    if not isinstance(done, list):
        raise OpError(f"recently_done is {_kind(done)}, not an array")
    plain = bool(done) and all(isinstance(item, str) for item in done)
    done.insert(0, text if plain else {"action": text, "at": when})
    return text
