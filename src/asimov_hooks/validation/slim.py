"""`asimov-check-size` when there is nothing to say: the common commit, checked at
little more than Python's own start-up cost.

The size hook runs on every commit that touches a protocol file, and almost every time
the files are within their limits and it prints nothing. This module answers that case
alone: with the shipped rule packs (no repository config), plain text output and
files it can read, it finds each file's kind and limits in `rules/kinds.json`, reads
the file through `fs.access` (the same guarded read the full check uses) and counts. A
kind whose limits depend on the repository's profile (CLAUDE.md) is counted against
every profile's: a file within all of them needs no decision. Whenever anything could
make the full check say something (a limit reached, a file it cannot read, an inline
directive, a config, a format other than text, a kind whose rules it does not count),
it answers None and the full check runs, from
the start, and says it. So the findings, messages and exit codes are the full check's
by construction: this path only ever prints nothing and exits 0.
"""

from __future__ import annotations

import os

from ..config.packs import ENV_CONFIG, ConfigError, deep_merge, find_config, load_rule_file
from ..config.registry import ESSENTIAL_RULES, SIZE_RULES, normalize_rule
from ..measure import TokenEstimator, count_lines, utf16_len

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence
    from typing import Any

# the rules this path counts itself; a kind that selects another size rule (a byte
# budget shared along a path) takes the full path
COUNTED = frozenset(
    {"max-lines-hard", "max-lines-soft", "max-tokens", "max-bytes-soft", "max-chars"}
)
# what the default rule packs hold and the full check's Config would act on beyond kinds
_UNHANDLED_KEYS = ("overrides", "select", "ignore")
_ENV_PROFILE = "ASIMOV_HOOKS_PROFILE"  # config/profiles: only kinds with profiles heed it
_PROFILES = ("", "auto", "asimov", "generic")


def check_size(paths: Sequence[str]) -> int | None:
    """`asimov-check-size PATH...` (no options): 0 when every file is of a known kind
    and plainly within all of its size limits, so that the full check would print
    nothing; None to run the full check instead. Anything unexpected here (a broken
    installation, an unreadable directory) is the full check's to report."""
    try:
        return _check_size(paths)
    except (ConfigError, OSError, ValueError):
        return None


def _check_size(paths: Sequence[str]) -> int | None:
    env = os.environ
    if not paths or env.get(ENV_CONFIG) or env.get(_ENV_PROFILE, "") not in _PROFILES:
        return None  # (a bad profile name is an error the full check words)
    if env.get("GITHUB_ACTIONS") == "true":  # annotations: the full check's format
        return None
    cwd = os.getcwd()
    if find_config(cwd) is not None:  # a repository's own limits: the full check reads them
        return None
    data = load_rule_file("kinds.json")
    if any(data.get(key) for key in _UNHANDLED_KEYS):
        return None
    from ..fs.trees import tree_of  # gitutil.find_toplevel's answer, without gitutil

    base = os.path.realpath(tree_of(cwd) or cwd).rstrip(os.sep) + os.sep
    plan = _Plan(data)
    for path in paths:
        absolute = os.path.normpath(os.path.join(cwd, path))
        if not absolute.startswith(base):  # outside the repository: the full check says
            return None
        if not plan.within(path, absolute[len(base) :].replace(os.sep, "/")):
            return None
    return 0


class _Plan:
    """Each kind's size rules, worked out from the rule pack once per run."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.kinds: dict[str, dict[str, Any]] = data.get("kinds", {})
        self.rules: dict[str, dict[str, dict[str, Any]] | None] = {}
        self._kind_of: Any = None
        self._exclude: Any = None

    def kind_for(self, rel: str) -> str | None:
        from ..config.globs import FirstMatch, globset

        if self._kind_of is None:
            self._kind_of = FirstMatch(
                [(name, spec.get("files", [])) for name, spec in self.kinds.items()]
            )
            self._exclude = globset(self.data.get("exclude", []))
        parts = rel.split("/")
        if any(self._exclude.match_parts(parts[:n]) for n in range(1, len(parts) + 1)):
            return None  # excluded: the full check says what it found instead
        return self._kind_of(rel)

    def rules_for(self, kind: str) -> list[dict[str, dict[str, Any]]] | None:
        """The kind's enabled size rules (as the full check selects them for
        asimov-check-size), one set per profile the full check may choose for it (a
        kind with profiles, CLAUDE.md: a file within all of them is within the one that
        applies, so nothing needs deciding), or None when any holds a rule this path
        does not count."""
        if kind in self.rules:
            return self.rules[kind]
        spec = self.kinds[kind]
        layers = [{}]  # a kind without profiles: its own rules
        profiles = spec.get("profiles")
        if profiles:
            named = os.environ.get(_ENV_PROFILE) or self.data.get("profile") or "auto"
            names = sorted({"asimov", "generic", *profiles}) if named == "auto" else [named]
            layers = [profiles.get(name, {}).get("rules", {}) for name in names]
        chosen: list[dict[str, dict[str, Any]]] | None = []
        for layer in layers:
            rules = self._selected(spec, layer)
            if rules is None:
                chosen = None
                break
            chosen.append(rules)
        self.rules[kind] = chosen
        return chosen

    def _selected(
        self, spec: dict[str, Any], profile: dict[str, Any]
    ) -> dict[str, dict[str, Any]] | None:
        merged = {rid: normalize_rule(v) for rid, v in self.data.get("rules", {}).items()}
        for layer in (spec.get("rules", {}), profile):
            for rid, value in layer.items():
                merged[rid] = deep_merge(merged.get(rid, {}), normalize_rule(value))
        wanted = SIZE_RULES | ESSENTIAL_RULES
        chosen = {
            rid: opts
            for rid, opts in merged.items()
            if rid in wanted and opts.get("level", "error") != "off"
        }
        if any(
            rid not in ESSENTIAL_RULES
            and (rid not in COUNTED or not isinstance(opts.get("max"), int))
            for rid, opts in chosen.items()
        ):
            return None
        return chosen

    def within(self, path: str, rel: str) -> bool:
        """Whether the full check would find nothing in this file."""
        kind = self.kind_for(rel)
        variants = self.rules_for(kind) if kind else None
        if not variants:
            return False
        from ..fs.textio import FileProblem, read_text

        caps = [r["max-bytes-hard"]["max"] for r in variants if "max-bytes-hard" in r]
        try:  # the full check's read: confined, bounded, decoded
            read = read_text(path, min(caps) if caps else None)
        except FileProblem:  # the full check reports it (or says why it skipped it)
            return False
        text = read.text
        if "asimov-hooks:" in text:  # directives: the full check's to apply
            return False
        lines = count_lines(text)
        return all(self._counted(kind, rules, read.raw, text, lines) for rules in variants)

    def _counted(
        self, kind: str, rules: dict[str, dict[str, Any]], raw: bytes, text: str, lines: int
    ) -> bool:
        if "max-bytes-soft" in rules and len(raw) > rules["max-bytes-soft"]["max"]:
            return False
        for rid in ("max-lines-hard", "max-lines-soft"):
            if rid in rules and lines > rules[rid]["max"]:
                return False
        chars = rules.get("max-chars")  # as an agent counts: UTF-16 code units
        if chars is not None and utf16_len(text) > chars["max"]:
            return False
        tokens = rules.get("max-tokens")
        return tokens is None or self._estimator(kind).estimate(text) <= tokens["max"]

    def _estimator(self, kind: str) -> TokenEstimator:
        """As Config.estimator_for: the kind's own `token-estimator` over the top one."""
        top = TokenEstimator.from_settings(self.data.get("token-estimator"))
        return TokenEstimator.from_settings(self.kinds[kind].get("token-estimator"), top)
