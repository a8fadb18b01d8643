"""Checking a config file as it loads: every problem in one run, in one line.

A config with two mistakes says both (`path: where: problem; where: problem`), and a
misspelt key or rule id names the closest known one ("did you mean ..."), as linters do.
The shape comes from rules/schemas/config.schema.json (and its trim / merge sections).
"""

from __future__ import annotations

import os

from .packs import ConfigError, default_data, load_schema, rules_dir

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing imports re
    from typing import Any


def known_rule_ids() -> set[str]:
    """Every rule id (the rule registry, config/registry.py)."""
    from .registry import ids

    return set(ids())


def did_you_mean(word: str, known: Any) -> str:
    """ " (did you mean 'x'?)" for the closest of `known`, or ""."""
    import difflib

    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown_rule_ids(ids: Any, known: set[str] | None = None) -> list[str]:
    """'unknown rule id ...' for each id not in the registry, with a suggestion."""
    known = known_rule_ids() if known is None else known
    return [
        f"unknown rule id {rid!r}{did_you_mean(rid, known)}" for rid in sorted(set(ids) - known)
    ]


def validate_config(path: str, data: dict[str, Any]) -> None:
    from ..fs.access import show
    from ..minischema import compile_schema
    from .finite import non_finite, with_nul

    nul = with_nul(data)
    if nul is not None:
        raise ConfigError(f"{path}: {show(nul)}: holds a NUL character, which no setting can")
    bad = non_finite(data)
    if bad is not None:
        where, value = bad
        word = "not a number" if value != value else "an infinite number"
        raise ConfigError(f"{path}: {where}: {value} is {word}; use a finite value")
    schema = load_schema("config.schema.json")
    errors = compile_schema(schema).errors(data)
    for section in ("trim", "merge"):
        schema_file = os.path.join(rules_dir(), "schemas", f"config-{section}.schema.json")
        if section in data and os.path.isfile(schema_file):
            sub = compile_schema(load_schema(f"config-{section}.schema.json")).errors(data[section])
            errors += [type(e)((section, *e.path), e.message, e.keyword, e.on_key) for e in sub]
    problems: list[str] = []
    known = known_rule_ids()  # a misspelt rule id is the likelier mistake: say so first
    for where, ids in _rule_id_uses(data):
        problems += [f"{where}: {text}" for text in unknown_rule_ids(ids, known)]
    for error in errors:
        where = ".".join(str(p) for p in error.path) or "(top level)"
        problems.append(f"{where}: {error.message}{_key_hint(error, data, schema)}")
    for kind, spec in data.get("kinds", {}).items() if isinstance(data.get("kinds"), dict) else ():
        new = kind not in default_data().get("kinds", {}) and isinstance(spec, dict)
        if new and not {"files", "format"} <= spec.keys():
            close = did_you_mean(kind, default_data().get("kinds", {}))
            problems.append(f"kinds.{kind}: a new kind needs 'files' and 'format'{close}")
    if problems:
        raise ConfigError(lines=[f"{path}: {problem}" for problem in dict.fromkeys(problems)])


def _key_hint(error: Any, data: dict[str, Any], schema: dict[str, Any]) -> str:
    """For an unexpected key at the top level or in a section: the closest known key."""
    if error.keyword != "additionalProperties":
        return ""
    import re

    found = re.search(r"'([^']+)' was unexpected|unexpected property '([^']+)'", error.message)
    if not found:
        return ""
    key = found.group(1) or found.group(2)
    path = list(error.path)
    if path and path[-1] == key:  # the path may name the key itself
        path.pop()
    node: Any = schema
    if path and path[0] in ("trim", "merge"):  # sections with a schema of their own
        node = load_schema(f"config-{path.pop(0)}.schema.json")
    for part in path:
        node = node.get("properties", {}).get(part, {}) if isinstance(node, dict) else {}
    known = node.get("properties", {}) if isinstance(node, dict) else {}
    return did_you_mean(key, known)


def _rule_id_uses(data: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(where, rule ids) for every place a config names rules; typos must not pass."""

    def names(value: Any) -> list[str]:  # shape errors are the schema's to report
        if isinstance(value, dict):
            return [k for k in value if isinstance(k, str)]
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

    def get(mapping: Any, key: str) -> Any:
        return mapping.get(key) if isinstance(mapping, dict) else None

    uses = [(key, names(data.get(key))) for key in ("select", "ignore", "rules")]
    kinds = data.get("kinds")
    for kind, spec in kinds.items() if isinstance(kinds, dict) else ():
        uses.append((f"kinds.{kind}.rules", names(get(spec, "rules"))))
    overrides = data.get("overrides")
    for i, override in enumerate(overrides if isinstance(overrides, list) else ()):
        uses.append((f"overrides[{i}].rules", names(get(override, "rules"))))
        uses.append((f"overrides[{i}].ignore", names(get(override, "ignore"))))
    return uses
