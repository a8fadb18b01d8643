"""Where a kind's JSON Schema may come from, and what a user's schema must be.

A kind's `schema` is a committed setting, so it is untrusted: a bare file name is one of
the shipped schemas in rules/schemas/; a path (it holds a `/`) is a file inside the
repository, relative to the config file, read with a size bound. A user's schema is
checked once, up front, so that a mistake in it is a config error naming the file and
the keyword (exit 2), never an internal error or a hang halfway through a run:
its keywords against the JSON Schema meta-schema, every `$ref` resolvable inside the
document (pointers, anchors, `$id`-relative: minischema.refs),
no `$ref`/`allOf` loop that would evaluate forever, and every `pattern` a regular
expression of bounded length (run with a time bound: minischema).
"""

from __future__ import annotations

import os

from ..gitutil import find_toplevel
from .config import ConfigError, load_schema

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

_USER: dict[str, dict[str, Any]] = {}
# keywords whose subschemas apply to the same instance (a loop among them never ends)
_SAME_INSTANCE_LISTS = ("allOf", "anyOf", "oneOf")
_SAME_INSTANCE = ("not", "if", "then", "else")


def is_user_schema(name: str) -> bool:
    return "/" in name or "\\" in name


def schema_for(name: str, config: Any) -> dict[str, Any]:
    """The schema a kind names: shipped (a bare name) or the repository's (a path)."""
    if not is_user_schema(name):
        return load_schema(name)
    from ..fs.access import UnsafePath, confine, show

    base = config.base_dir if config is not None else os.getcwd()
    joined = os.path.join(base, name)
    path = os.path.realpath(joined)
    if path in _USER:
        return _USER[path]
    root = os.path.realpath(find_toplevel(base) or base)
    try:  # outside the work tree, or into .git/, is refused
        confine(joined, root, what="schema")
    except UnsafePath as refused:
        raise ConfigError(
            f"schema {show(name)!r}: {refused.message}; a kind's schema is a shipped "
            "schema name or a file inside the repository"
        ) from None
    limits = config.limits if config is not None else None
    schema = _read(path, limits, root)
    check_user_schema(schema, path, limits)
    _USER[path] = schema
    return schema


def _read(path: str, limits: dict[str, int] | None, root: str) -> dict[str, Any]:
    from ..fs.textio import FileProblem, read_text
    from ..readers.guards import limits as default_limits
    from ..readers.json_loader import YAMLProblem, load_json

    lim = limits if limits is not None else default_limits()
    try:
        text = read_text(path, lim["max-config-bytes"], root=root)
        data = load_json(text.text, lim).data
    except FileProblem as problem:
        raise ConfigError(f"{path}: schema {problem.message}") from None
    except YAMLProblem as problem:
        raise ConfigError(f"{path}:{problem.line}:{problem.col}: {problem.message}") from None
    if not isinstance(data, (dict, bool)):
        raise ConfigError(f"{path}: a JSON Schema must be an object")
    return data  # type: ignore[return-value]


def check_user_schema(schema: Any, path: str, limits: dict[str, int] | None = None) -> None:
    """Raise ConfigError (naming `path` and the keyword) for a schema that cannot run."""
    import jsonschema

    from ..readers.guards import limits as default_limits

    lim = limits if limits is not None else default_limits()
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "(top level)"
        keyword = next(
            (str(p) for p in reversed(exc.absolute_path) if isinstance(p, str)), exc.validator
        )
        raise ConfigError(
            f"{path}: schema keyword {keyword!r} at {where}: {exc.message[:200]}"
        ) from None
    _check_nodes(schema, path, lim["max-pattern-length"])


def _resolve(refs: Any, node: dict[str, Any], ref: str, path: str) -> Any:
    """The node `ref` names inside the document (every draft 2020-12 form: JSON Pointer,
    `$anchor`, `$id`-relative); anything else is refused, nothing is fetched."""
    from ..minischema import Unresolvable

    try:
        return refs.lookup(ref, refs.base(node))
    except Unresolvable:
        raise ConfigError(
            f"{path}: $ref {ref!r} does not resolve inside the schema (references to "
            "other files or URLs are not read)"
        ) from None


def _check_nodes(root: Any, path: str, max_pattern: int) -> None:
    from ..minischema import References

    refs = References(root)
    same: dict[int, list[Any]] = {}  # node -> subschemas applied to the same instance
    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if not isinstance(node, dict) or id(node) in seen:
            if isinstance(node, list):
                todo.extend(node)
            continue
        seen.add(id(node))
        edges: list[Any] = []
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                edges.append(_resolve(refs, node, value, path))
            elif key == "pattern" and isinstance(value, str):
                check_pattern(value, path, max_pattern)
            elif key == "patternProperties" and isinstance(value, dict):
                for pattern in value:
                    check_pattern(pattern, path, max_pattern)
            if key in _SAME_INSTANCE_LISTS and isinstance(value, list):
                edges.extend(value)
            elif key in _SAME_INSTANCE:
                edges.append(value)
            if key not in ("enum", "const", "examples", "default"):
                todo.append(value) if isinstance(value, (dict, list)) else None
        same[id(node)] = [e for e in edges if isinstance(e, dict)]
    # a cycle of subschemas applied to the same value never ends
    state: dict[int, int] = {}
    for start in same:
        if state.get(start):
            continue
        stack = [(start, iter(same.get(start, ())))]
        state[start] = 1
        while stack:
            current, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[current] = 2
                stack.pop()
                continue
            key = id(child)
            if state.get(key) == 1:
                raise ConfigError(
                    f"{path}: $ref loop: a subschema refers back to itself without "
                    "descending into the value (via $ref/allOf/anyOf/oneOf/not/if)"
                )
            if not state.get(key):
                state[key] = 1
                stack.append((key, iter(same.get(key, ()))))


def check_pattern(pattern: str, path: str, max_length: int) -> None:
    """A user's `pattern` compiles and has a bounded length. Backtracking (`(a+)+$` on a
    long string) is bounded when the pattern runs (minischema), not guessed at here."""
    import re

    if len(pattern) > max_length:
        raise ConfigError(
            f"{path}: schema keyword 'pattern': {len(pattern):,} characters, over the "
            f"{max_length:,}-character limit (limits.max-pattern-length)"
        )
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ConfigError(f"{path}: schema keyword 'pattern': {pattern!r}: {exc}") from None
