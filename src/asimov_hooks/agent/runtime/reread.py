"""What a resumed agent is given back (ADR-007's self-healing re-read), after a
compaction, resume or fork: where the work stood, in the form it needs.

- the Asimov checkpoint, as written (it is small by design; a longer one is cut at
  a line end and says how to shrink it);
- the OC skills as the OC Resume Protocol asks (`resume`): most urgent first, each
  oriented, primed and told whether to go on or stop and ask the user first;
- the warmup essentials the Asimov Protocol names (`agent.warmup-essentials`:
  identity, mission, the self-healing core rules and what to do on confusion),
  when the repository has a warmup file.

At most `context-budget` characters in all, and no file is read past its bound: every
OC skill's one line is kept before the Asimov checkpoint takes its share, and the warmup
essentials before the skills' detail.
"""

from __future__ import annotations

import os

from ...fs.access import FileProblem, read_bytes, read_head, show
from .protocols import checkpoint_kinds, kind_files
from .resume import line

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ...config.config import Config

OC_KIND, WARMUP_KIND = "oc-checkpoint", "asimov-warmup"
MAX_OC_BYTES = 256 * 1024  # the OC checkpoint's own byte limit
MAX_WARMUP_BYTES = 256 * 1024


class _Budget:
    def __init__(self, total: int) -> None:
        self.total, self.left = total, max(0, total)

    def fit(self, text: str, advice: str) -> str:
        """`text` cut at a line end to what is left, saying what was cut."""
        if len(text) > self.left:
            note = (
                "# ... {n} more lines not shown: over the "
                f"{self.total}-character re-read budget{advice}\n"
            )
            room = max(self.left - len(note) - 4, 0)  # the note counts too
            cut = text.rfind("\n", 0, room) + 1 or room
            more = text.count("\n", cut) + (not text.endswith("\n"))
            text = text[:cut] + note.replace("{n}", str(more), 1)
        self.left -= len(text)
        return text


def reread(
    config: Config, settings: dict[str, Any], top: str, protocols: list[str]
) -> tuple[list[str], list[str], bool, bool]:
    """(the texts to re-inject, each headed by its file; notes on what is not shown;
    whether there is a checkpoint at all; whether a skill's brief says to stop and ask
    the user before resuming it)."""
    budget = _Budget(settings["context-budget"])
    parts: list[str] = []
    notes: list[str] = []
    kinds = [
        (kind, kind_files(config, kind, top)[0]) for kind in checkpoint_kinds(settings, protocols)
    ]
    checkpoint = any(found for _kind, found in kinds)
    skills = _oc_skills(config, settings, top, kinds, notes)
    from . import resume

    # every skill's one line is kept before the Asimov checkpoint takes its share
    reserve = min(resume.minimum(skills, budget.total), budget.total // 2) if skills else 0
    essentials = None
    if "asimov" in protocols:
        for rel in kind_files(config, WARMUP_KIND, top)[0][:1]:
            text = _warmup(top, rel, settings.get("warmup-essentials", []), notes)
            essentials = (rel, text) if text else None
    # and the warmup essentials (a few lines) before the checkpoints' detail
    keep = min(len(essentials[1]) + len(essentials[0]) + 24, budget.total // 4) if essentials else 0
    for kind, found in kinds:
        if kind == OC_KIND:
            if skills:
                text = resume.section(skills, max(budget.left - keep, reserve), budget.total)
                where = os.path.dirname(found[0]) or "."
                _add(parts, notes, budget, f"{where}/ (OC checkpoints)", text, "")
            continue
        for rel in found:
            text = _raw(top, rel, budget, notes)
            if text is not None:
                advice = "; run `asimov-hooks trim` and keep current state only"
                budget.left -= reserve + keep
                _add(parts, notes, budget, rel, text, advice)
                budget.left += reserve + keep
    if essentials and budget.left > 0:  # the checkpoint comes first
        rel, text = essentials
        _add(parts, notes, budget, f"{rel} (essentials)", text, f"; read {rel}")
    return parts, notes, checkpoint, any(skill.asks for skill in skills)


def _oc_skills(
    config: Config,
    settings: dict[str, Any],
    top: str,
    kinds: list[tuple[str, list[str]]],
    notes: list[str],
) -> list[Any]:
    found = next((f for kind, f in kinds if kind == OC_KIND), [])
    loaded = [(rel, data) for rel in found if (data := _oc_data(top, rel, notes)) is not None]
    if not loaded:
        return []
    from ...oc.store import stale_days
    from .resume import skills

    words = config.section("oc").get("gate-words", [])
    words = [w for w in words if isinstance(w, str) and w] if isinstance(words, list) else []
    days = settings["stale-days"]
    return skills(loaded, top, stale_days(config) if days is None else days, words)


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


def _oc_data(top: str, rel: str, notes: list[str]) -> dict[str, Any] | None:
    """One OC skill checkpoint's data, or None (and a note saying why)."""
    text = _load(top, rel, MAX_OC_BYTES, notes)
    if text is None:
        return None
    from ...readers.json_loader import parse
    from ...readers.problem import YAMLProblem

    try:  # through validate's door: what validate refuses is not re-read either
        data = parse(text)
    except YAMLProblem:
        notes.append(f"{show(rel)}: not re-read: not valid JSON (run `asimov-hooks oc doctor`)")
        return None
    if not isinstance(data, dict):
        notes.append(f"{show(rel)}: not re-read: not a JSON object")
        return None
    return data


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
            lines.append(f"{key}: {line(value)}")
    return "\n".join(lines) + "\n" if lines else None
