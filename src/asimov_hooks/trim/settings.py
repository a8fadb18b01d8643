"""The trimmer's settings: the `trim` config section (rules/trim.json merged with the
repository's config) with the command line over it, and a ConfigError naming the
config file and the bad value for what the section's schema cannot check."""

from __future__ import annotations

import os

from ..config.config import Config, ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs every commit
    from typing import Any


class Cap:
    __slots__ = ("keep", "max")

    def __init__(self, keep: str, max: int) -> None:  # `max`: the config's word
        self.keep = keep  # "first" or "last": which end of the list is current
        self.max = max


class Settings:
    """The `trim` section with the command line over it: what one trim run uses."""

    __slots__ = (
        "archive",
        "archive_file",
        "archive_path",
        "caps",
        "keep",
        "kinds",
        "optional",
        "order",
        "window",
    )

    def __init__(
        self,
        kinds: list[str],
        caps: dict[str, Cap],
        window: dict[str, int],
        keep: list[str],
        optional: list[str],
        archive: bool,
        archive_path: str,
        archive_file: str | None = None,
        order: str = "auto",
    ) -> None:
        self.kinds, self.caps, self.window = kinds, caps, window
        self.order = order  # which end of a history list is newest (trim/order)
        self.keep, self.optional = keep, optional
        self.archive, self.archive_path = archive, archive_path
        # the command line's --archive FILE (absolute): trusted, unlike the config's
        # archive.path template, so it may lie outside the checkpoint's repository
        self.archive_file = archive_file

    @classmethod
    def from_config(cls, config: Config) -> Settings:
        """The config's `trim` section; a ConfigError names the config file. Read once per
        Config (validate asks for every checkpoint)."""
        settings = config.derived.get("trim")
        if settings is None:
            try:
                settings = config.derived["trim"] = parse_settings(config.section("trim"))
            except ConfigError as exc:
                where = f"{config.source}: {exc}" if config.source else str(exc)
                raise ConfigError(where) from None
        return settings

    def overridden(self, no_archive: bool = False, archive_path: str | None = None) -> Settings:
        """The command line (`trim`'s --no-archive and --archive FILE) over the config:
        the one place the two meet. Asking on the command line wins over the config:
        --archive FILE archives there even where `archive.enabled` is false, and
        --no-archive archives nothing (the two together are a usage error)."""
        return Settings(
            self.kinds,
            self.caps,
            self.window,
            self.keep,
            self.optional,
            (self.archive or archive_path is not None) and not no_archive,
            self.archive_path,
            os.path.abspath(archive_path) if archive_path else None,
            self.order,
        )

    def list_fields(self) -> frozenset[str]:
        return frozenset(self.caps)

    def ends(self, items: dict[str, list[Any]]) -> dict[str, str]:
        """{capped list: the end to keep} for these lists' items (trim/order)."""
        from .order import keep_for

        return {
            name: keep_for(cap.keep, self.order, items.get(name) or [])
            for name, cap in self.caps.items()
        }


def _fail(where: str, message: str) -> ConfigError:
    return ConfigError(f"trim.{where}: {message}")


def parse_settings(raw: dict[str, Any]) -> Settings:
    """Settings from the merged `trim` section.

    Its shape (types, `first`/`last`, counts >= 0, a non-blank archive path) is checked
    once, by rules/schemas/config-trim.schema.json, on every config file as it is
    loaded; the packs' own section is tested against it. Only what no single file's
    schema can see is checked here: a cap that the merge left without `keep` or `max`
    (a repository adding a list), a window for a list nothing caps, a field both kept
    and optional.
    """
    caps: dict[str, Cap] = {}
    raw_caps = raw.get("caps") or {}
    for name, spec in raw_caps.items():
        if spec is None or spec is False:  # a repository may switch a cap off
            continue
        for needed in ("keep", "max"):
            if needed not in spec:
                raise _fail(
                    f"caps.{name}.{needed}",
                    "missing: a cap needs keep (first or last) and max (a count)",
                )
        caps[name] = Cap(spec["keep"], spec["max"])
    raw_window = raw.get("window")
    window: dict[str, int] = {}
    if isinstance(raw_window, int):
        window = dict.fromkeys(caps, raw_window)
    elif raw_window:
        for name, size in raw_window.items():
            if size is None:
                continue
            if name not in raw_caps:
                raise _fail(
                    f"window.{name}", "no trim.caps entry says which end of this list to keep"
                )
            if name in caps:
                window[name] = size
    keep, optional = list(raw.get("keep") or []), list(raw.get("optional") or [])
    both = sorted(set(keep) & set(optional))
    if both:
        raise _fail(
            "optional", f"{', '.join(both)} also listed in trim.keep; a field cannot be both"
        )
    archive = raw.get("archive") or {}
    enabled = archive.get("enabled", True)
    return Settings(
        list(raw.get("kinds") or []),
        caps,
        window,
        keep,
        optional,
        enabled,
        archive.get("path", ""),
        order=raw.get("order") or "auto",
    )
