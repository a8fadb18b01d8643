"""The rule registry: every rule id, the module in `checks/` that owns it, what it needs.

This is the one list of rule ids. It is data, so asking about rules (the engine planning
a file, the config rejecting a misspelt id, `asimov-hooks rules`) imports nothing: a
rule's module is imported the first time a file selects that rule (`checks.check`).

What a rule needs decides when it runs and what it costs:
  path    where the file is, not what it holds: runs before the file is read
  text    the decoded text; no parse
  data    the parsed document: selecting it makes the file be parsed
  git     asks git (with path or data)
  emitted reported outside a check function: by `readers/` while the file is read or
          parsed, or by the inline-suppression layer; its module documents it

A rule's levels, options and the kinds it applies to are data in `rules/kinds.json`
(and a repository's config). To add a rule: write its check in a module here (its
`RULES` maps the id to the function), add one line below, add its defaults to the rule
pack. `tests/test_registry.py` holds the three together.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any

# rule id: (module under asimov_hooks.checks, what it needs). The order is the order
# rules run in, and so the order of their findings at one position.
INDEX: dict[str, tuple[str, str]] = {
    # reading the file (fs/textio, readers/loaders, conflict_markers)
    "io-error": ("reading", "emitted"),
    "encoding": ("reading", "emitted"),
    "max-bytes-hard": ("sizes", "emitted"),
    "conflict-markers": ("reading", "text emitted"),
    "not-protocol-file": ("foreign", "text emitted"),
    "empty-file": ("reading", "data emitted"),
    "syntax": ("reading", "data emitted"),
    "duplicate-key": ("reading", "data emitted"),
    "yaml-aliases": ("reading", "data emitted"),
    # where the file is
    "must-be-ignored": ("drift", "path git"),
    "checkpoints-tracked": ("drift", "path git"),
    # sizes (ADR-007)
    "max-lines-hard": ("sizes", "text"),
    "max-lines-soft": ("sizes", "text"),
    "max-tokens": ("sizes", "text"),
    "max-bytes-soft": ("sizes", "text"),
    # what other agents' loaders cut off
    "max-chars": ("agent_limits", "text"),
    "shared-byte-budget": ("agent_limits", "text"),
    # the parsed document
    "schema": ("schema", "data"),
    "max-length": ("structure", "data"),
    "max-items": ("structure", "data"),
    "recommended-field": ("structure", "data"),
    "session-id-matches-name": ("structure", "data"),
    "definitions-cache-keys": ("structure", "data"),
    "skill-matches-name": ("structure", "data"),
    "timestamp-order": ("structure", "data"),
    "unknown-key": ("structure", "data"),
    "unknown-status": ("structure", "data"),
    "generated-files-exist": ("drift", "data"),
    "stale-checkpoint": ("drift", "data"),
    "next-action-merged": ("drift", "data git"),
    "project-dir-exists": ("drift", "data"),
    "generated-files-changed": ("drift", "data git"),
    # the deployed health endpoint against the local HEAD (`oc doctor --online` only)
    "deployed-commit": ("online", "emitted"),
    # inline suppressions (`asimov-hooks: disable-line RULE`), applied after the checks
    "unused-suppression": ("suppress", "text emitted"),
    "invalid-suppression": ("suppress", "text emitted"),
}

# Problems that stop a file from being read at all are reported whatever is selected
# (`select` in a config or --select): the byte cap is what keeps a huge file unparsed.
ESSENTIAL_RULES = frozenset({"io-error", "encoding", "max-bytes-hard"})


def _tables() -> tuple[tuple[str, ...], ...]:
    """The stage tables below, in one pass over INDEX (this module is on every hook's
    start-up path)."""
    path, data, emitted, size = [], [], [], []
    for rid, (module, words) in INDEX.items():
        need = words.split()
        if "path" in need:
            path.append(rid)
        if "data" in need:
            data.append(rid)
        if "emitted" in need:
            emitted.append(rid)
        if module in ("sizes", "agent_limits"):
            size.append(rid)
    return tuple(path), tuple(data), tuple(emitted), tuple(size)


_PATH, _DATA, _EMITTED_IDS, _SIZE = _tables()
PATH_RULES = frozenset(_PATH)
# everything that does not make the file be parsed
TEXT_RULES = frozenset(INDEX) - frozenset(_DATA)
# what the size-only hook (asimov-check-size) runs
SIZE_RULES = frozenset(_SIZE)
# the rules with a check function, in running order, per stage
_EMITTED = frozenset(_EMITTED_IDS)
PATH_CHECKS = tuple(sorted(PATH_RULES - _EMITTED))
TEXT_CHECKS = tuple(
    rid for rid in INDEX if rid in TEXT_RULES and rid not in PATH_RULES and rid not in _EMITTED
)
DATA_CHECKS = tuple(rid for rid in _DATA if rid not in _EMITTED)


def ids() -> tuple[str, ...]:
    """Every rule id, in running order."""
    return tuple(INDEX)


def needs(rule_id: str) -> frozenset[str]:
    return frozenset(INDEX[rule_id][1].split())


def rules_in(module: str) -> frozenset[str]:
    """The ids a module of `checks/` owns (`rules_in("drift")`): callers that want a
    family of rules ask for it instead of keeping their own list."""
    return frozenset(rid for rid, (owner, _) in INDEX.items() if owner == module)


_CHECKS = f"{__package__.rpartition('.')[0]}.checks"


def module_name(rule_id: str) -> str:
    """The module (under asimov_hooks.checks) that owns `rule_id`."""
    return f"{_CHECKS}.{INDEX[rule_id][0]}"


class RuleInfo:
    """What other code may ask about one rule (e.g. `asimov-hooks rules`)."""

    __slots__ = ("id", "kinds", "level", "module", "needs")

    def __init__(
        self, rule_id: str, level: str | None, kinds: list[str], module: str, needs: frozenset
    ) -> None:
        self.id, self.level, self.kinds, self.module, self.needs = (
            rule_id,
            level,
            kinds,
            module,
            needs,
        )

    def __repr__(self) -> str:
        return f"RuleInfo({self.id!r}, level={self.level!r}, kinds={self.kinds!r})"


def describe(data: dict[str, Any]) -> list[RuleInfo]:
    """Every rule with its level and the kinds it applies to in `data`: the rule packs
        (`config.default_data()`) or a loaded configuration (`Config.data`). A rule in the
        top-level `rules` applies to every kind that does not switch it off; `level` is the first kind's that
    has it on, None for a rule no kind has on."""
    kinds = data.get("kinds", {})
    top = data.get("rules", {})
    out = []
    for rid in INDEX:
        level = None
        applies = []
        for name, spec in kinds.items():
            own = spec.get("rules", {})
            if rid not in own and rid not in top:
                continue
            here = _level(own[rid]) if rid in own and "level" in normalize_rule(own[rid]) else None
            here = here or (_level(top[rid]) if rid in top else "error")
            if here != "off":
                applies.append(name)
                level = level or here
        out.append(RuleInfo(rid, level, applies, module_name(rid), needs(rid)))
    return out


def _level(value: Any) -> str:
    return normalize_rule(value).get("level", "error")


def normalize_rule(value: Any) -> dict[str, Any]:
    """A rule's value in a pack or config as its options: `true`, `false` (off) and a
    level name are shorthands."""
    if value is True:
        return {}
    if value is False:
        return {"level": "off"}
    if isinstance(value, str):
        return {"level": value}
    return dict(value)
