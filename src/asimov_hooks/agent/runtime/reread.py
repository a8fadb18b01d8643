"""What a resumed agent is given back (ADR-007's self-healing re-read), after a
compaction, resume or fork: where the work stood, in the form it needs.

- the Asimov checkpoint, as written (it is small by design; a longer one is cut at
  a line end and says how to shrink it);
- each OC skill, newest `updated_at` first: a brief rendered from its checkpoint
  (skill, status, phase and step, the summary, open blockers, next actions), never
  its private `skill_state` or its raw JSON; a `protocol_version` this version does
  not know is named;
- the warmup essentials the Asimov Protocol names (`agent.warmup-essentials`:
  identity, mission, the self-healing core rules and what to do on confusion),
  when the repository has a warmup file.

At most `context-budget` characters in all, and no file is read past its bound.
"""

from __future__ import annotations

import json
import os

from ...fs.access import FileProblem, read_bytes, read_head, show
from .protocols import checkpoint_kinds, kind_files

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ...validation.config import Config

OC_KIND, WARMUP_KIND = "oc-checkpoint", "asimov-warmup"
MAX_OC_BYTES = 256 * 1024  # the OC checkpoint's own byte limit
MAX_WARMUP_BYTES = 256 * 1024
LIST_ITEMS = 5  # blockers and next actions shown per skill


class _Budget:
    def __init__(self, total: int) -> None:
        self.total, self.left = total, max(0, total)

    def fit(self, text: str, advice: str) -> str:
        """`text` cut at a line end to what is left, saying what was cut."""
        if len(text) > self.left:
            cut = text.rfind("\n", 0, self.left) + 1 or self.left
            more = text.count("\n", cut) + (not text.endswith("\n"))
            text = (
                text[:cut] + f"# ... {more} more lines not shown: over the "
                f"{self.total}-character re-read budget{advice}\n"
            )
        self.left -= len(text)
        return text


def reread(
    config: Config, settings: dict[str, Any], top: str, protocols: list[str]
) -> tuple[list[str], list[str], bool]:
    """(the texts to re-inject, each headed by its file; notes on what is not shown;
    whether there is a checkpoint at all)."""
    budget = _Budget(settings["context-budget"])
    parts: list[str] = []
    notes: list[str] = []
    checkpoint = False
    for kind in checkpoint_kinds(settings, protocols):
        found = kind_files(config, kind, top)[0]
        checkpoint = checkpoint or bool(found)
        if kind == OC_KIND:
            briefs = [_oc_brief(top, rel, notes) for rel in found]
            for _stamp, rel, brief in sorted((b for b in briefs if b), reverse=True):
                _add(parts, notes, budget, rel, brief, "")
            continue
        for rel in found:
            text = _raw(top, rel, budget, notes)
            if text is not None:
                advice = "; run `asimov-hooks trim` and keep current state only"
                _add(parts, notes, budget, rel, text, advice)
    if "asimov" in protocols and budget.left > 0:  # the checkpoint comes first
        for rel in kind_files(config, WARMUP_KIND, top)[0][:1]:
            essentials = _warmup(top, rel, settings.get("warmup-essentials", []), notes)
            if essentials:
                _add(parts, notes, budget, f"{rel} (essentials)", essentials, f"; read {rel}")
    return parts, notes, checkpoint


def _add(
    parts: list[str], notes: list[str], budget: _Budget, name: str, text: str, advice: str
) -> None:
    if budget.left <= 0:
        notes.append(
            f"{show(name)}: not shown (the {budget.total}-character re-read budget is used up)"
        )
        return
    parts.append(f"--- {show(name)} ---\n{budget.fit(text, advice)}")


def _raw(top: str, rel: str, budget: _Budget, notes: list[str]) -> str | None:
    try:
        raw, more = read_head(os.path.join(top, rel), max(budget.left, 1) * 4 + 4, root=top)
    except FileProblem as problem:
        notes.append(f"{show(rel)}: not re-read: {problem.message}")
        return None
    if b"\x00" in raw:
        notes.append(f"{show(rel)}: not re-read: binary content")
        return None
    text = raw.decode("utf-8", "replace").removeprefix("\ufeff")
    return text + ("\n" * (not text.endswith("\n"))) + ("…\n" if more else "")


def _load(top: str, rel: str, limit: int, notes: list[str]) -> str | None:
    try:
        raw = read_bytes(os.path.join(top, rel), limit, root=top, bound="re-read bound")
        return raw.decode("utf-8").removeprefix("\ufeff")
    except FileProblem as problem:
        notes.append(f"{show(rel)}: not re-read: {problem.message}")
    except UnicodeDecodeError:
        notes.append(f"{show(rel)}: not re-read: not UTF-8 text")
    return None


def _line(value: Any) -> str:
    """A value on one line, without control characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return show(" ".join(text.split()))


def _oc_brief(top: str, rel: str, notes: list[str]) -> tuple[str, str, str] | None:
    """(updated_at for the order, rel, the brief) of one OC skill checkpoint."""
    text = _load(top, rel, MAX_OC_BYTES, notes)
    if text is None:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        notes.append(f"{show(rel)}: not re-read: not valid JSON (run `asimov-hooks oc doctor`)")
        return None
    if not isinstance(data, dict):
        notes.append(f"{show(rel)}: not re-read: not a JSON object")
        return None
    from ...oc.summary import action_text, open_blockers

    lines = [f"skill: {_line(data.get('skill', os.path.basename(rel)))}"]
    for key in ("status", "phase", "step", "updated_at"):
        if key in data:
            lines.append(f"{key}: {_line(data[key])}")
    if "progress_summary" in data:
        lines.append(f"progress_summary: {_line(data['progress_summary'])}")
    blockers = open_blockers(data)
    if blockers:
        lines.append("blockers:")
        for blocker in blockers[:LIST_ITEMS]:
            lines.append(f"  - {_line(blocker.get('description', blocker.get('id', '')))}")
    actions = [a for a in map(action_text, data.get("next_actions") or []) if a]
    if actions:
        lines.append("next_actions:")
        lines += [f"  - {_line(action)}" for action in actions[:LIST_ITEMS]]
    for name, items in (("blockers", blockers), ("next_actions", actions)):
        if len(items) > LIST_ITEMS:
            lines.append(f"  (+{len(items) - LIST_ITEMS} more {name}: asimov-hooks oc show)")
    version = data.get("protocol_version")
    known = _known_versions()
    if version is not None and known and version not in known:
        lines.append(
            f"note: protocol_version {_line(version)} is not one this asimov-hooks knows "
            f"({', '.join(known)}): read the file itself before you rely on this brief"
        )
    stamp = data.get("updated_at") if isinstance(data.get("updated_at"), str) else ""
    return stamp, rel, "\n".join(lines) + "\n"


def _known_versions() -> list[str]:
    from ...validation.packs import load_schema

    spec = load_schema("oc-checkpoint.schema.json").get("properties", {})
    values = spec.get("protocol_version", {}).get("enum", [])
    return [v for v in values if isinstance(v, str)]


def _warmup(top: str, rel: str, keys: list[str], notes: list[str]) -> str | None:
    """The warmup's values at the dotted `keys` that exist, one `key: value` line each."""
    if not keys:
        return None
    text = _load(top, rel, MAX_WARMUP_BYTES, notes)
    if text is None:
        return None
    from ...readers.loaders import load_yaml_plain

    try:
        data = load_yaml_plain(text)
    except Exception:  # any reading problem: the validator reports it; nothing to show
        notes.append(f"{show(rel)}: essentials not re-read: it cannot be read as YAML")
        return None
    lines: list[str] = []
    for key in keys:
        value: Any = data
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is not None and value != "" and value != [] and value != {}:
            lines.append(f"{key}: {_line(value)}")
    return "\n".join(lines) + "\n" if lines else None
