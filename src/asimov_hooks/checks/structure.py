"""Data-driven content rules beyond the schema: soft limits and recommendations.

The OC protocol's own validator warns (not fails) on long summaries, long decision
lists and a missing progress table; those thresholds are options in rules/.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterator
    from typing import Any

    from .context import Context


def _get(data: Any, dotted: str) -> tuple[tuple, Any] | None:
    node = data
    path: tuple = ()
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
        path = (*path, part)
    return path, node


def max_length(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    for field, limit in opts.get("fields", {}).items():
        hit = _get(ctx.data, field)
        if hit and isinstance(hit[1], str) and len(hit[1]) > limit:
            yield hit[0], f"{field} is {len(hit[1]):,} characters, over the guideline of {limit:,}"


def max_items(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    for field, limit in opts.get("fields", {}).items():
        hit = _get(ctx.data, field)
        if hit and isinstance(hit[1], list) and len(hit[1]) > limit:
            yield hit[0], f"{field} has {len(hit[1])} items, over the guideline of {limit}"


def recommended_field(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    if not isinstance(ctx.data, dict):
        return
    when = opts.get("when", {})
    if any(ctx.data.get(k) != v for k, v in when.items()):
        return
    condition = " and ".join(f"{k} is {v}" for k, v in when.items())
    for field in opts.get("fields", []):
        if _get(ctx.data, field) is None:
            yield (), f"no {field}" + (f" while {condition}" if condition else "")


def _walk(node: Any, parts: list[str], path: tuple) -> Iterator[tuple[tuple, Any]]:
    """The values at a dotted path whose `name[]` parts step into every list item."""
    if not parts:
        yield path, node
        return
    part, rest = parts[0], parts[1:]
    each = part.endswith("[]")
    key = part[:-2] if each else part
    if not isinstance(node, dict) or key not in node:
        return
    value = node[key]
    if not each:
        yield from _walk(value, rest, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, rest, (*path, key, i))


def unknown_status(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    """A status the protocol does not document: agents still read it, so a warning that
    names the documented values, never an error."""
    known = opts.get("known", [])
    if not known:
        return
    for field in opts.get("fields", []):
        for path, value in _walk(ctx.data, field.split("."), ()):
            if isinstance(value, str) and value not in known:
                where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
                yield (
                    path,
                    (
                        f"{where.lstrip('.')}: {value!r} is not one of the documented statuses "
                        f"({', '.join(known)})"
                    ),
                )


def name_matches_field(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    """A field that names the file (`session_id`, `skill`) must agree with the file name."""
    field, suffix = opts.get("field", "session_id"), opts.get("suffix", ".json")
    if not isinstance(ctx.data, dict) or field not in ctx.data:
        return
    stem = os.path.basename(ctx.path)
    stem = stem[: -len(suffix)] if stem.endswith(suffix) else stem
    if ctx.data[field] != stem:
        yield (field,), f"{field} {ctx.data[field]!r} does not match the file name {stem!r}"


def timestamp_order(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    """`updated_at` before `created_at` means one of them was stamped wrong."""
    from ..timestamps import parse_time

    if not isinstance(ctx.data, dict):
        return
    first, last = opts.get("before", "created_at"), opts.get("after", "updated_at")
    start, end = parse_time(ctx.data.get(first)), parse_time(ctx.data.get(last))
    if start is not None and end is not None and end < start:
        yield (last,), f"{last} ({ctx.data[last]}) is earlier than {first} ({ctx.data[first]})"


# a shipped schema's top-level keys, by the schema's name (read once per process)
_SHIPPED_KEYS: dict[str, list[str]] = {}


def unknown_key(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str, bool]]:
    """A top-level key the kind's schema does not name: allowed (the protocol allows
    extra keys), but most are typos, so say which known key it is closest to."""
    if not isinstance(ctx.data, dict):
        return
    known = opts.get("known")
    if known is None:
        schema = ctx.spec.get("schema")
        known = _SHIPPED_KEYS.get(schema) if schema else None
    if known is None:
        from ..config.schemas import is_user_schema, schema_for

        found = schema_for(schema, ctx.config) if schema else {}
        known = list(found.get("properties", {})) if isinstance(found, dict) else []
        if schema and not is_user_schema(schema):  # the same for every file of the kind
            _SHIPPED_KEYS[schema] = known
    if not known:
        return
    names, hints = _known_names(known)
    for key in ctx.data:
        if type(key) is str:
            name = key
        else:  # `1:`, `2020-01-01:` are the keys "1", "2020-01-01", as the schema sees them
            from ..readers import key_text

            name = key_text(key)
        if name in names:
            continue
        hint = hints.get(name)
        if hint is None:  # the closest known key, worked out once per key and list
            import difflib  # only for a key to name (a valid file does not pay for it)

            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = hints[name] = f"; did you mean {close[0]!r}?" if close else ""
        yield (key,), f"unknown key {name!r} (not one of the checkpoint's known keys){hint}", True


# id(a list of known keys) -> (the list, its keys as a set, {unknown key: its hint}):
# files of a kind share the list (the schema's, or the config's `known`)
_NAMES: dict[int, tuple[list[str], frozenset[str], dict[str, str]]] = {}


def _known_names(known: list[str]) -> tuple[frozenset[str], dict[str, str]]:
    entry = _NAMES.get(id(known))
    if entry is None or entry[0] is not known:
        entry = _NAMES[id(known)] = (known, frozenset(known), {})
    return entry[1], entry[2]


def definitions_cache_keys(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    """code-intel writes each `definitions_cache` key, a (name, path, scope, flag) tuple,
    as a JSON array string; its restore parses them back with json.loads."""
    cache = ctx.data.get("definitions_cache") if isinstance(ctx.data, dict) else None
    if not isinstance(cache, dict):
        return
    import json

    for key in cache:
        try:
            parts = json.loads(key)
        except ValueError:
            parts = None
        if not isinstance(parts, list):
            what = "is not a JSON array string"
        elif len(parts) != 4:
            what = f"is a JSON array of {len(parts)} items, not 4"
        elif not (
            isinstance(parts[0], str)
            and isinstance(parts[1], str)
            and (parts[2] is None or isinstance(parts[2], str))
            and isinstance(parts[3], bool)
        ):
            what = "does not hold [string, string, string or null, boolean]"
        else:
            continue
        shown = key if len(key) <= 60 else key[:57] + "..."
        yield (
            ("definitions_cache", key),
            f"definitions_cache key {shown!r} {what}: restoring the session cannot read it "
            'back (e.g. ["parse", "src/app.py", null, false])',
        )


RULES = {
    "definitions-cache-keys": definitions_cache_keys,
    "max-length": max_length,
    "max-items": max_items,
    "recommended-field": recommended_field,
    "session-id-matches-name": name_matches_field,
    "skill-matches-name": name_matches_field,
    "timestamp-order": timestamp_order,
    "unknown-key": unknown_key,
    "unknown-status": unknown_status,
}
