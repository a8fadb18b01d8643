"""Rule packs (rules/*.json) merged with a repository's own configuration.

The numbers in ADR-007 are, in its own words, assumptions; every limit, level, file
pattern, trim window and merge policy therefore lives in data that a repository can
override in `.asimov-hooks.yaml` or `[tool.asimov-hooks]` in `pyproject.toml`.
The packs themselves (where they are, reading and merging them, ConfigError) are in
`packs`, re-exported here; this module finds, reads, checks and merges a repository's
config files into a `Config`.
"""

from __future__ import annotations

import os

from ..fs.access import FileProblem, read_bytes
from ..gitutil import find_toplevel
from ..measure import TokenEstimator
from .check import known_rule_ids as known_rule_ids
from .check import validate_config as _validate_config
from .globs import FirstMatch, globset, match_any
from .packs import (
    CONFIG_NAMES,  # noqa: F401 - re-exported
    ENV_CONFIG,
    PACKS,  # noqa: F401 - re-exported: config.PACKS is where callers look
    ConfigError,
    deep_merge,
    default_data,
    find_config,
    load_rule_file,  # noqa: F401 - re-exported
    load_schema,  # noqa: F401 - re-exported
    rules_dir,  # noqa: F401 - re-exported
)
from .profiles import check_environment, profile_for
from .registry import ESSENTIAL_RULES, normalize_rule

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any


def _read_config_file(path: str, root: str | None = None) -> dict[str, Any]:
    """A config file's data; the file is untrusted (a pull request can change it): only a
    regular file within limits.max-config-bytes is read (`extends: /dev/zero` is not), its
    size checked before a byte is read and again while reading (fs.access). A config may
    live outside the work tree (`--config`, `extends: ~/shared.yaml`): it is read, never
    written, and an extended file's content is never shown unless it is a config."""
    from ..readers.guards import limits

    most = limits()["max-config-bytes"]
    try:
        raw = read_bytes(
            path, most, root=root, confined=root is not None, bound="limit for a config file"
        )
        text = raw.decode("utf-8-sig")
    except FileProblem as problem:
        if problem.message == "no such file":
            raise ConfigError(f"{path}: config file not found") from None
        if problem.message == "not a regular file":
            raise ConfigError(f"{path}: not a regular file; a config file must be one") from None
        raise ConfigError(f"{path}: {problem.message}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: cannot read config: not UTF-8 text") from None
    if path.endswith(".toml"):
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        from ..readers.guards import InputProblem, check_depth

        try:
            check_depth(text, "json", limits()["max-depth"])  # brackets nest as in JSON
            doc = tomllib.loads(text)
        except InputProblem as exc:
            raise ConfigError(f"{path}:{exc.line}:{exc.col}: invalid TOML: {exc.message}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
        except RecursionError:
            raise ConfigError(f"{path}: invalid TOML: nesting too deep") from None
        data = doc.get("tool", {}).get("asimov-hooks")
        if data is None:
            raise ConfigError(f"{path}: no [tool.asimov-hooks] table")
        _refuse_toml_times(path, data)
    else:
        from ..readers.loaders import YAMLProblem, load_yaml_plain

        try:
            data = load_yaml_plain(text)
        except YAMLProblem as exc:
            raise ConfigError(f"{path}:{exc.line}:{exc.col}: {exc.message}") from None
        if data is None:
            data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the configuration must be a mapping")
    return data


def _refuse_toml_times(path: str, data: Any) -> None:
    """ConfigError for the first TOML date or time in the table: TOML has them as values
    of their own (`extends = 1979-05-27`), unlike YAML, where such a scalar is read by
    its text; no setting takes one, and its text as written is not kept to read it by."""
    import datetime

    todo: list[tuple[str, Any]] = [("", data)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, dict):
            todo.extend((f"{where}.{key}" if where else key, v) for key, v in value.items())
        elif isinstance(value, list):
            todo.extend((f"{where}[{i}]", v) for i, v in enumerate(value))
        elif isinstance(value, (datetime.date, datetime.time)):
            what = "time" if isinstance(value, datetime.time) else "date"
            if isinstance(value, datetime.datetime):
                what = "date-time"
            raise ConfigError(
                f"{path}: [tool.asimov-hooks] {where}: a TOML {what} "
                f"({value.isoformat()}), not a string; quote it if it is meant as text"
            )


def _expand_rule_shorthands(data: dict[str, Any]) -> dict[str, Any]:
    """Rule values as option mappings, so `max-tokens: warning` merged over the
    defaults changes the level and keeps the default `max` and `suggestion`."""

    def table(rules: Any) -> Any:
        return {rid: normalize_rule(v) for rid, v in rules.items()} if rules else rules

    data = dict(data)
    if "rules" in data:
        data["rules"] = table(data["rules"])
    if "kinds" in data:
        data["kinds"] = {
            name: {**spec, "rules": table(spec["rules"])} if "rules" in spec else spec
            for name, spec in data["kinds"].items()
        }
    return data


CONFIG_SUFFIXES = (".yaml", ".yml", ".toml")


def _load_chain(path: str, seen: tuple[str, ...] = (), root: str | None = None) -> dict[str, Any]:
    """`root`: the file is the checkout's, read by descriptor from inside that work tree."""
    path = os.path.realpath(path)
    if path in seen:
        raise ConfigError(f"{path}: 'extends' loops back to this file")
    if seen and not path.endswith(CONFIG_SUFFIXES):
        raise ConfigError(
            f"{seen[-1]}: extends: {path} is not a config file (.yaml, .yml or .toml)"
        )
    try:
        data = _read_config_file(path, root)
    except ConfigError as exc:
        raise ConfigError(f"{seen[-1]}: extends: {exc}" if seen else str(exc)) from None
    try:
        _validate_config(path, data)
    except ConfigError:
        if not seen:
            raise
        # what an extended file holds is only shown once it is a config: `extends:
        # /etc/shadow` must not print the file's first line
        raise ConfigError(
            f"{seen[-1]}: extends: {path}: not a valid asimov-hooks config "
            f"(check it with --config {path})"
        ) from None
    data = _expand_rule_shorthands(data)
    parent = data.pop("extends", "default")
    if parent == "default":
        base = default_data()
    else:
        parent_path = os.path.join(os.path.dirname(path), os.path.expanduser(parent))
        base = _load_chain(parent_path, (*seen, path))
    return _merge_config(base, data)


def _merge_config(base: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """`data` over `base`. Top-level `rules` are "rules for every kind": a rule that
    kinds set themselves (max-tokens, schema, ...) is merged into each kind that sets
    it, so `max-tokens: warning` changes every cap and adds none where a kind has no
    cap; a kind's own `rules` in the same file still win."""
    top = data.get("rules") or {}
    per_kind = {rid for spec in base.get("kinds", {}).values() for rid in spec.get("rules", {})}
    pushed = {rid: value for rid, value in top.items() if rid in per_kind}
    if not pushed:
        return deep_merge(base, data)
    kinds = {}
    for name, spec in base.get("kinds", {}).items():
        own = spec.get("rules", {})
        if any(rid in own for rid in pushed):
            own = {rid: deep_merge(v, pushed.get(rid, {})) for rid, v in own.items()}
            spec = {**spec, "rules": own}
        kinds[name] = spec
    generic = base.get("rules", {})
    rest = {rid: v for rid, v in top.items() if rid not in pushed or rid in generic}
    return deep_merge({**base, "kinds": kinds}, {**data, "rules": rest})


class Config:
    """The merged configuration, answering which kind a path is and which rules apply."""

    def __init__(self, data: dict[str, Any], source: str | None, base_dir: str) -> None:
        self.data = data
        self.source = source
        self.base_dir = base_dir
        self.kinds: dict[str, dict[str, Any]] = data.get("kinds", {})
        self.exclude: list[str] = list(data.get("exclude", []))
        self.select: set[str] | None = set(data["select"]) if data.get("select") else None
        self.ignore: set[str] = set(data.get("ignore", []))
        self.overrides: list[dict[str, Any]] = list(data.get("overrides", []))
        self.estimator = TokenEstimator.from_settings(data.get("token-estimator"))
        self._estimators: dict[str, TokenEstimator] = {}
        self._rules_cache: dict[tuple, dict[str, dict[str, Any]]] = {}
        self._limits: dict[str, int] | None = None
        self._kind_of: FirstMatch | None = None
        # what a reader works out from a section once per run (the trim Settings)
        self.derived: dict[str, Any] = {}
        # `asimov-validate --format-assertion`: schemas' `format`s are asserted
        self.format_assertion = False

    @property
    def limits(self) -> dict[str, int]:
        """Input limits (rules/limits.json under the config's `limits:`), see guards."""
        if self._limits is None:
            from ..readers.guards import limits

            self._limits = limits(self.data)
        return self._limits

    def estimator_for(self, kind: str) -> TokenEstimator:
        """The kind's own `token-estimator` over the top-level one (the default)."""
        est = self._estimators.get(kind)
        if est is None:
            own = self.kinds.get(kind, {}).get("token-estimator")
            est = self._estimators[kind] = TokenEstimator.from_settings(own, self.estimator)
        return est

    def section(self, name: str) -> dict[str, Any]:
        return self.data.get(name, {})

    def relpath(self, path: str | os.PathLike[str]) -> str:
        """`path` relative to the config's base directory, in POSIX form, for matching.
        A run asks once per file, when it makes the file's record (discovery.py)."""
        cwd = os.getcwd()
        absolute = os.path.normpath(os.path.join(cwd, os.fspath(path)))
        for base in (self.base_dir, cwd):
            if absolute == base:
                rel = "."
                break
            prefix = base.rstrip(os.sep) + os.sep
            if absolute.startswith(prefix):  # both normalized: the rest is the relative path
                rel = absolute[len(prefix) :].replace(os.sep, "/")
                break
        else:
            rel = absolute.replace(os.sep, "/").lstrip("/")
        if base is not self.base_dir:  # where it is, for its own repository's profile
            self.derived.setdefault("elsewhere", {})[rel] = absolute
        return rel

    def excluded(self, rel: str) -> bool:
        """As in .gitignore, a pattern that names a directory (`vendor`, `vendor/`,
        `/build`) excludes everything below it."""
        if not self.exclude:
            return False
        patterns = self.derived.get("exclude")
        if patterns is None:  # compiled once, however long the list
            patterns = self.derived["exclude"] = globset(self.exclude)
        parts = rel.split("/")
        return any(patterns.match_parts(parts[:n]) for n in range(1, len(parts) + 1))

    def kind_for(self, rel: str) -> str | None:
        """The first kind whose `files` patterns match `rel`: every kind's patterns are
        compiled once into one matcher (globs.FirstMatch), which tries a path only
        against the patterns that can match it."""
        if self._kind_of is None:
            self._kind_of = FirstMatch(
                [(name, spec.get("files", [])) for name, spec in self.kinds.items()]
            )
        return self._kind_of(rel)

    def rules_for(self, kind: str | None, rel: str) -> dict[str, dict[str, Any]]:
        """Each enabled rule id with its options (always including `level`).

        Files of one kind that match the same overrides share the answer; callers
        treat it as read-only.
        """
        matched = tuple(i for i, o in enumerate(self.overrides) if match_any(rel, o["files"]))
        key = (kind, matched, profile_for(self, kind, rel))
        cached = self._rules_cache.get(key)
        if cached is None:
            cached = self._rules_cache[key] = self._rules_for(kind, rel)
        return cached

    def _rules_for(self, kind: str | None, rel: str) -> dict[str, dict[str, Any]]:
        merged, ignored = self._merged(kind, rel)
        return {
            rid: opts
            for rid, opts in merged.items()
            if opts.get("level", "error") != "off"
            and rid not in ignored
            and (self.select is None or rid in self.select or rid in ESSENTIAL_RULES)
        }

    def _merged(self, kind: str | None, rel: str) -> tuple[dict[str, dict[str, Any]], set[str]]:
        """Every rule's options for the file (levels `off` included), and the ids ignored."""
        merged: dict[str, dict[str, Any]] = {
            rid: normalize_rule(v) for rid, v in self.data.get("rules", {}).items()
        }
        ignored = set(self.ignore)
        if kind and "schema" not in merged and self.kinds.get(kind, {}).get("schema"):
            merged["schema"] = {"level": "error"}  # a kind that names a schema is checked by it
        layers = [self.kinds.get(kind, {}).get("rules", {})] if kind else []
        profile = profile_for(self, kind, rel)
        if profile:  # the kind's rules under this profile (CLAUDE.md: config/profiles)
            layers.append(self.kinds[kind]["profiles"].get(profile, {}).get("rules", {}))
        for override in self.overrides:
            if match_any(rel, override["files"]):
                layers.append(override.get("rules", {}))
                ignored |= set(override.get("ignore", []))
        for layer in layers:
            for rid, value in layer.items():
                merged[rid] = deep_merge(merged.get(rid, {}), normalize_rule(value))
        return merged, ignored

    def level_of(self, rule: str, kind: str | None, rel: str) -> str:
        """The level the configuration gives `rule` for this file ("off" when it does not
        apply), whatever `select` and `ignore` say: they only hide findings, the level
        decides what a rule does (not-protocol-file: whether look-alikes are skipped)."""
        opts = self._merged(kind, rel)[0].get(rule)
        return "off" if opts is None else opts.get("level", "error")


def load_config(
    explicit: str | os.PathLike[str] | None = None, start: str | os.PathLike[str] | None = None
) -> Config:
    """Find and load the configuration; `explicit` (or $ASIMOV_HOOKS_CONFIG) wins."""
    check_environment()  # a bad $ASIMOV_HOOKS_PROFILE is said before any check runs
    start = os.fspath(start) if start is not None else os.getcwd()
    chosen = os.fspath(explicit) if explicit else os.environ.get(ENV_CONFIG) or None
    source = chosen or find_config(start)
    if source is None:
        base = find_toplevel(start) or start
        return Config(default_data(), None, os.path.realpath(base))
    if chosen and not os.path.isfile(source):
        raise ConfigError(f"{source}: config file not found")
    root = None if chosen else find_toplevel(os.path.dirname(source))
    if root is not None:  # the checkout's own config: read from inside it only
        from ..fs.access import UnsafePath, confine, show

        try:
            confine(source, root, what="config file")
        except UnsafePath:  # its keys are never echoed: not a byte of it is read
            raise ConfigError(
                f"{show(source)}: a symbolic link that leads outside the repository; "
                "refused (a committed config is read only from inside the repository)"
            ) from None
    data = _load_chain(source, root=root)
    return Config(data, source, os.path.dirname(os.path.realpath(source)))


# the git-free work-tree finder lives in gitutil (one finder); the old name still works
work_tree_of = find_toplevel
