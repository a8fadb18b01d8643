"""Data-driven content rules beyond the schema: soft limits and recommendations.

The OC protocol's own validator warns (not fails) on long summaries, long decision
lists and a missing progress table; those thresholds are options in rules/.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from .engine import Context


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


def session_id_matches_name(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    if not isinstance(ctx.data, dict) or "session_id" not in ctx.data:
        return
    stem = os.path.basename(ctx.path)
    stem = stem[: -len(".json")] if stem.endswith(".json") else stem
    if ctx.data["session_id"] != stem:
        yield (
            ("session_id",),
            (f"session_id {ctx.data['session_id']!r} does not match the file name {stem!r}"),
        )


RULES = {
    "max-length": max_length,
    "max-items": max_items,
    "recommended-field": recommended_field,
    "session-id-matches-name": session_id_matches_name,
}
