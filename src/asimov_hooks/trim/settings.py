"""The trimmer's settings: the `trim` config section (rules/trim.json merged with the
repository's config), checked, with a ConfigError naming the bad value."""

from __future__ import annotations

from ..config import Config, ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs every commit
    from typing import Any


class Cap:
    __slots__ = ("keep", "max")

    def __init__(self, keep: str, max: int) -> None:  # `max`: the config's word
        self.keep = keep  # "first" or "last": which end of the list is current
        self.max = max


class Settings:
    """The `trim` section, checked: a bad value is a ConfigError, never a traceback."""

    __slots__ = ("archive", "archive_path", "caps", "keep", "kinds", "optional", "window")

    def __init__(
        self,
        kinds: list[str],
        caps: dict[str, Cap],
        window: dict[str, int],
        keep: list[str],
        optional: list[str],
        archive: bool,
        archive_path: str,
    ) -> None:
        self.kinds, self.caps, self.window = kinds, caps, window
        self.keep, self.optional = keep, optional
        self.archive, self.archive_path = archive, archive_path

    @classmethod
    def from_config(cls, config: Config) -> Settings:
        return parse_settings(config.section("trim"))

    def list_fields(self) -> frozenset[str]:
        return frozenset(self.caps)


def _fail(where: str, message: str) -> ConfigError:
    return ConfigError(f"trim.{where}: {message}")


def _names(raw: dict[str, Any], key: str) -> list[str]:
    value = raw.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(key, "must be a list of field names")
    return list(value)


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _fail(where, f"must be an integer >= 0, not {value!r}")
    return value


def parse_settings(raw: Any) -> Settings:
    if not isinstance(raw, dict):
        raise ConfigError("trim: must be a mapping")
    kinds = _names(raw, "kinds")
    caps: dict[str, Cap] = {}
    raw_caps = raw.get("caps") or {}
    if not isinstance(raw_caps, dict):
        raise _fail("caps", "must be a mapping of list field -> {keep, max}")
    for name, spec in raw_caps.items():
        if spec is None or spec is False:  # a repository may switch a cap off
            continue
        if not isinstance(spec, dict):
            raise _fail(f"caps.{name}", "must be {keep: first|last, max: N} or null")
        if spec.get("keep") not in ("first", "last"):
            raise _fail(f"caps.{name}.keep", "must be 'first' or 'last'")
        caps[name] = Cap(spec["keep"], _count(spec.get("max"), f"caps.{name}.max"))
    raw_window = raw.get("window")
    window: dict[str, int] = {}
    if isinstance(raw_window, int) and not isinstance(raw_window, bool):
        window = {name: _count(raw_window, "window") for name in caps}
    elif isinstance(raw_window, dict):
        for name, size in raw_window.items():
            if size is None or name not in caps:
                if size is not None and name not in raw_caps:
                    raise _fail(
                        f"window.{name}", "no trim.caps entry says which end of this list to keep"
                    )
                continue
            window[name] = _count(size, f"window.{name}")
    elif raw_window is not None:
        raise _fail("window", "must be an integer or a mapping of list field -> integer")
    keep, optional = _names(raw, "keep"), _names(raw, "optional")
    both = sorted(set(keep) & set(optional))
    if both:
        raise _fail(
            "optional", f"{', '.join(both)} also listed in trim.keep; a field cannot be both"
        )
    archive = raw.get("archive") or {}
    if not isinstance(archive, dict):
        raise _fail("archive", "must be a mapping {enabled, path}")
    enabled = archive.get("enabled", True)
    if not isinstance(enabled, bool):
        raise _fail("archive.enabled", "must be true or false")
    path = archive.get("path")
    if enabled and (not isinstance(path, str) or not path.strip()):
        raise _fail("archive.path", "must be a file name or path template")
    return Settings(kinds, caps, window, keep, optional, enabled, path or "")
