"""What one merge needs from the configuration: the `Settings` of the file git is
merging (format, field policies, schema, limits), and whether the driver is switched off.

Kept apart from the merge itself (`file_merge`) so tests and benchmarks build settings
without git, and from the git-facing command (`driver`), which only reads them.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from .core import Policies

DISABLE_VALUES = frozenset({"0", "false", "no", "off", "disable", "disabled"})


class Settings:
    """Everything one merge needs from the configuration."""

    __slots__ = (
        "archive",
        "bounds",
        "cap_order",
        "caps",
        "fixable",
        "fmt",
        "labels",
        "limits",
        "marker_size",
        "max_bytes",
        "policies",
        "schema",
        "schema_seconds",
    )

    def __init__(
        self,
        fmt: str,
        policies: Policies,
        schema: dict[str, Any] | None = None,
        marker_size: int = 7,
        labels: tuple[str, str] = ("ours", "theirs"),
        max_bytes: int | None = None,
        limits: dict[str, int] | None = None,
        fixable: frozenset[str] = frozenset(),
        schema_seconds: float | None = None,
        caps: dict[str, tuple[str, int]] | None = None,
        archive: bool = True,
        cap_order: str = "auto",
        bounds: Any = None,
    ) -> None:
        from ..readers.guards import limits as default_limits

        self.fmt, self.policies, self.schema = fmt, policies, schema
        self.marker_size, self.labels, self.max_bytes = marker_size, labels, max_bytes
        lim = limits if limits is not None else default_limits()
        # what each side's parse is bounded by: nesting depth, alias references, alias nodes
        self.limits = (lim["max-depth"], lim["max-aliases"], lim["max-alias-nodes"])
        # top-level lists the trimmer caps: too many items there is the trimmer's to fix
        # (it keeps or archives every item), never a reason for a conflict
        self.fixable = fixable
        self.schema_seconds = schema_seconds  # a repository schema's patterns are time-bounded
        # the trimmer's caps on those lists, (keep: first|last, max): a union over a cap
        # is cut as the trimmer cuts it, the cut items kept for the archive (`archive`
        # false: the trim config archives nothing, so neither does the merge)
        self.caps = caps or {}
        self.archive = archive
        # which end of a history list is newest, as the trimmer reads it (trim/order):
        # a union over a cap keeps the newest items whatever the list's order
        self.cap_order = cap_order
        # the kind's hard limits on the merged file (merge/bounds), None for none
        self.bounds = bounds


def settings_for(relpath: str, marker_size: int, config: Any = None) -> Settings | str:
    """Settings for the file git is merging, or why the driver does not handle it."""
    from ..config.config import load_config
    from .core import Policies

    if config is None:
        config = load_config(None)
    section = config.section("merge")
    kind = config.kind_for(relpath)
    if kind is None:
        return f"no asimov-hooks file kind matches {relpath!r}"
    if config.kinds[kind].get("archive"):  # a trim archive: append-only, keep both sides
        # merged up to the archive's own byte cap (what validate lets be committed)
        # merged up to the archive's own byte cap (what validate lets be committed)
        from .bounds import bounds_for

        bounds = bounds_for(config, kind, relpath)
        cap = config.rules_for(kind, relpath).get("max-bytes-hard", {}).get("max")
        return Settings(
            fmt="archive",
            policies=Policies({}, "conflict"),
            marker_size=marker_size,
            max_bytes=cap,
            bounds=bounds,
        )
    kind_merge = section.get("kinds", {}).get(kind)
    fmt = config.kinds.get(kind, {}).get("format")
    if not kind_merge or fmt not in ("yaml", "json"):
        return f"no merge policies for {kind!r} files"
    # each config file's `merge` section passed config-merge.schema.json as it was
    # loaded (policy names included), and the packs' own is tested against it
    fields = kind_merge.get("fields", {})
    schema_name = config.kinds[kind].get("schema")
    schema, seconds = None, None
    if schema_name and section.get("schema-check", True):
        from ..config.schemas import is_user_schema, schema_for

        schema = schema_for(schema_name, config)
        if is_user_schema(schema_name):
            seconds = config.limits.get("pattern-milliseconds", 1000) / 1000
    labels = section.get("labels", {})
    from ..trim.settings import Settings as TrimSettings

    trim = TrimSettings.from_config(config)  # caps switched off (null) are not the trimmer's
    trimmed = kind in trim.kinds
    fixable = trim.list_fields() if trimmed else frozenset()
    caps = {name: (cap.keep, cap.max) for name, cap in trim.caps.items()} if trimmed else {}
    from .bounds import bounds_for

    bounds = bounds_for(config, kind, relpath, trim if trimmed else None)
    return Settings(
        fmt=fmt,
        policies=Policies(fields, kind_merge.get("default", section.get("default", "conflict"))),
        schema=schema,
        marker_size=marker_size,
        labels=(labels.get("ours", "ours"), labels.get("theirs", "theirs")),
        max_bytes=section.get("max-bytes"),
        limits=config.limits,
        fixable=fixable,
        schema_seconds=seconds,
        caps=caps,
        archive=trim.archive,
        cap_order=trim.order,
        bounds=bounds,
    )


def disabled(env: Any = None) -> bool:
    value = (env if env is not None else os.environ).get("ASIMOV_HOOKS_MERGE_DRIVER", "")
    return value.strip().lower() in DISABLE_VALUES
