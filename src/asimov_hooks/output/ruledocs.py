"""Rule documentation: `asimov-hooks rules [ID]`, the SARIF rule help and docs/rules.md.

The text is data (rules/rule-docs.json); levels, kinds and option defaults come from the
rule packs, so the three outputs say the same thing and follow the packs. The list of
rules is the registry's (config/registry.py): a rule without documentation is an error
here (and a failing test), not a silent gap.

`python -m asimov_hooks.output.ruledocs` prints docs/rules.md.
"""

from __future__ import annotations

import json
import sys

from ..config.config import ConfigError, default_data, load_rule_file
from ..config.registry import ids as registry_ids
from ..config.registry import normalize_rule

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

DOCS_FILE = "rule-docs.json"
ALL_KINDS = "every kind"
LEVEL_OPTION = "error, warning, info, or off (the rule does not run)."


def docs() -> dict[str, dict[str, Any]]:
    """Each rule id's documentation; ConfigError when a rule has none."""
    data = load_rule_file(DOCS_FILE).get("rules", {})
    missing = sorted(set(registry_ids()) - set(data))
    if missing:
        raise ConfigError(f"rules/{DOCS_FILE}: no documentation for rule {missing[0]!r}")
    return data


def rule_ids() -> list[str]:
    """The registry's rule ids (config/registry.py, the one list), sorted for people."""
    return sorted(registry_ids())


class RuleInfo:
    """What the packs say about one rule: per-kind options (level included)."""

    def __init__(self, rid: str, doc: dict[str, Any], defaults: dict[str, Any]) -> None:
        self.id = rid
        self.doc = doc
        self.general = rid in defaults.get("rules", {})
        self.by_kind: dict[str, dict[str, Any]] = {}
        if self.general:
            self.by_kind[ALL_KINDS] = normalize_rule(defaults["rules"][rid])
        for kind, spec in defaults.get("kinds", {}).items():
            if rid in spec.get("rules", {}):
                opts = normalize_rule(spec["rules"][rid])
                if opts.get("level") != "off" or not self.general:
                    self.by_kind[kind] = opts

    @property
    def kinds(self) -> list[str]:
        return list(self.by_kind)

    def levels(self) -> dict[str, str]:
        return {k: opts.get("level", "error") for k, opts in self.by_kind.items()}

    def default_level(self) -> str:
        """The level most kinds give the rule (the more severe one on a tie)."""
        counts: dict[str, int] = {}
        for level in self.levels().values():
            counts[level] = counts.get(level, 0) + 1
        order = {"error": 3, "warning": 2, "info": 1, "off": 0}
        return max(counts, key=lambda lv: (counts[lv], order.get(lv, 0)), default="error")

    def level_text(self) -> str:
        """`warning`, or `warning (error: claude-md)` when some kinds differ."""
        main = self.default_level()
        others: dict[str, list[str]] = {}
        for kind, level in self.levels().items():
            if level != main:
                others.setdefault(level, []).append(kind)
        extra = "; ".join(f"{lv}: {', '.join(kinds)}" for lv, kinds in others.items())
        return f"{main} ({extra})" if extra else main

    def option_defaults(self, option: str) -> list[tuple[str, Any]]:
        """(kinds, default) for an option, kinds that share a default together."""
        groups: dict[str, tuple[list[str], Any]] = {}
        for kind, opts in self.by_kind.items():
            if option in opts:
                key = json.dumps(opts[option], sort_keys=True)
                groups.setdefault(key, ([], opts[option]))[0].append(kind)
        if len(groups) == 1:
            kinds, value = next(iter(groups.values()))
            if len(kinds) == len(self.by_kind) and len(kinds) > 1:
                return [(ALL_KINDS if self.general else "all its kinds", value)]
        return [(", ".join(kinds), value) for kinds, value in groups.values()]


def infos() -> list[RuleInfo]:
    data, defaults = docs(), default_data()
    return [RuleInfo(rid, data[rid], defaults) for rid in rule_ids()]


def info(rid: str) -> RuleInfo | None:
    if rid not in registry_ids():
        return None
    return RuleInfo(rid, docs()[rid], default_data())


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _kinds_text(rule: RuleInfo) -> str:
    return ALL_KINDS if rule.general else ", ".join(rule.kinds)


# ------------------------------------------------------------------ plain text
def list_text() -> str:
    rules = infos()
    width = max(len(r.id) for r in rules)
    lines = []
    for rule in rules:
        lines.append(f"{rule.id:<{width}}  {rule.level_text()}")
        lines.append(f"{'':<{width}}  applies to: {_kinds_text(rule)}")
        lines.append(f"{'':<{width}}  {rule.doc['summary']}")
    lines.append("")
    lines.append("`asimov-hooks rules ID` explains one rule.")
    return "\n".join(lines) + "\n"


def _options(rule: RuleInfo) -> list[tuple[str, str, list[tuple[str, Any]]]]:
    """(option, meaning, defaults) for `level` and the documented options."""
    out = [("level", LEVEL_OPTION, rule.option_defaults("level"))]
    for name, meaning in rule.doc.get("options", {}).items():
        out.append((name, meaning, rule.option_defaults(name)))
    return out


def _example_files(example: dict[str, Any], key: str) -> list[tuple[str, str]]:
    """(path, text) of an example's files; a NUL byte shown as \\0."""
    return [(path, text.replace("\x00", "\\0")) for path, text in example.get(key, {}).items()]


def explain_text(rule: RuleInfo) -> str:
    doc = rule.doc
    out = [f"{rule.id}: {doc['summary']}", ""]
    out.append(f"Default level: {rule.level_text()}")
    out.append(f"Applies to:    {_kinds_text(rule)}")
    out.append(f"Source:        {doc['source']}")
    out += ["", "Why:", *_wrap(doc["why"], "  "), "", "Options (set in .asimov-hooks.yaml):"]
    for name, meaning, defaults in _options(rule):
        out.append(f"  {name}: {meaning}")
        for where, value in defaults:
            out.append(f"      default {_value(value)} ({where})")
    example = doc.get("example", {})
    out += ["", "Example that fails:"]
    if example.get("commits"):
        out.append("  (after a commit: " + "; ".join(example["commits"]) + ")")
    for path, text in _example_files(example, "files"):
        out.append(f"  {path}:" + ("" if text else " (empty)"))
        out += ["      " + line for line in text.splitlines()]
    if example.get("bad"):
        out += ["  " + line for line in example["bad"].splitlines()]
    out += ["", "Fix:", *_wrap(example.get("fix", ""), "  ")]
    for path, text in _example_files(example, "fixed"):
        out.append(f"  {path}:" + ("" if text else " (empty)"))
        out += ["      " + line for line in text.splitlines()]
    return "\n".join(out) + "\n"


def _wrap(text: str, indent: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, 92, initial_indent=indent, subsequent_indent=indent) or [indent]


# ------------------------------------------------------------------ markdown
def _md_example(example: dict[str, Any], key: str) -> list[str]:
    out: list[str] = []
    for path, text in _example_files(example, key):
        lang = (
            "json" if path.endswith(".json") else "yaml" if path.endswith((".yaml", ".yml")) else ""
        )
        if not text:
            out += [f"`{path}`: (empty)", ""]
            continue
        out += [f"`{path}`:", "", f"```{lang}", text.rstrip("\n"), "```", ""]
    return out


def rule_markdown(rule: RuleInfo, heading: str = "##") -> str:
    doc = rule.doc
    example = doc.get("example", {})
    out = [f"{heading} `{rule.id}`", "", doc["summary"], ""]
    out.append(f"- Default level: {rule.level_text()}")
    out.append(f"- Applies to: {_kinds_text(rule)}")
    out.append(f"- Source: {doc['source']}")
    out += ["", f"**Why.** {doc['why']}", "", "**Options** (set in `.asimov-hooks.yaml`):", ""]
    for name, meaning, defaults in _options(rule):
        shown = "; ".join(f"`{_value(v)}` ({w})" for w, v in defaults) or "none"
        out.append(f"- `{name}`: {meaning} Default: {shown}.")
    out += ["", "**Example that fails:**", ""]
    if example.get("commits"):
        out += ["After a commit: " + "; ".join(f"`{c}`" for c in example["commits"]), ""]
    out += _md_example(example, "files")
    if example.get("bad"):
        out += [example["bad"], ""]
    out += [f"**Fix.** {example.get('fix', '')}", ""]
    out += _md_example(example, "fixed")
    return "\n".join(out).rstrip("\n") + "\n"


def markdown() -> str:
    rules = infos()
    out = [
        "# Rules",
        "",
        "<!-- Generated from rules/rule-docs.json and rules/kinds.json by "
        "`python -m asimov_hooks.output.ruledocs`; do not edit by hand. -->",
        "",
        "Every rule asimov-hooks can report, with its default level and the file kinds it "
        "applies to. `asimov-hooks rules` prints this list and `asimov-hooks rules ID` one "
        "entry. Levels and options can be changed per repository (see the README's "
        "configuration section).",
        "",
        "| rule | default level | applies to | what it reports |",
        "|---|---|---|---|",
    ]
    for rule in rules:
        out.append(
            f"| [`{rule.id}`](#{rule.id}) | {rule.level_text()} | {_kinds_text(rule)} "
            f"| {rule.doc['summary'].replace('|', '/')} |"
        )
    out.append("")
    for rule in rules:
        out.append(rule_markdown(rule))
    return "\n".join(out)


def main() -> int:
    sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
