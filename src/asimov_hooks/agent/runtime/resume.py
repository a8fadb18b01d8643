"""The OC Checkpoint Protocol's Resume Protocol, for an agent whose session restarted:
each skill's brief, most urgent first, under the re-read budget.

- Orient: skill and project, the last session as a relative time, status and summary,
  progress (X/Y phases complete), the first next action.
- Confirm: in progress and not stale: "Resuming from next_actions[0]: ..." and go on.
  Blocked, failed, stale (older than the stale-checkpoint rule's `days`, or
  `agent.stale-days` when set) or waiting on a user decision:
  stop and ask the user the protocol's three choices before any work on the skill.
- Prime: `context_primer.key_decisions`, the `generated_files` of the current step
  (not those of other steps), every open blocker with what it needs and its proposed
  resolution, the further next actions.

Skills come in `oc next`'s order (oc.priority). A budget too small for every brief
degrades in that order: each skill first gets one line (its state, whether to ask, its
first next action), then whole briefs replace those lines, most urgent first, while they
fit; what is left out is named in one line with the command that shows it.
"""

from __future__ import annotations

import datetime
import json
import os

from ...fs.access import show

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ...oc.summary import Record

ASK = "Continue from here, restart, or show the full checkpoint?"
LIST_ITEMS = 5  # key decisions, files, blockers and next actions shown per skill
ITEM_WIDTH, SUMMARY_WIDTH = 200, 400  # one of them at most, in characters
LINE_MIN, LINE_MAX = 60, 320  # a skill's one line, at least and at most
LEFT_OUT_ROOM = 150  # kept for the line naming what was left out


def line(value: Any) -> str:
    """A value on one line, without control characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return show(" ".join(text.split()))


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "\u2026"


class Skill:
    """One skill's checkpoint, ranked, with what the protocol asks the agent to do."""

    def __init__(self, record: Record, rel: str, level: int, project: str, days: float) -> None:
        from ...oc.output import age

        self.record, self.rel, self.level = record, rel, level
        data = record.data
        self.name = line(record.skill)
        self.project = line(data.get("project")) if isinstance(data.get("project"), str) else ""
        self.project = self.project or project
        self.age = age(record.age) if record.updated is not None else "unknown"
        self.action = line(record.next_action) if record.next_action else None
        self.asks = self._reasons(days)
        version = data.get("protocol_version")
        known = known_versions()
        self.unknown = version is not None and bool(known) and version not in known
        self.version_note = (
            f"note: protocol_version {line(version)} is not one this asimov-hooks knows "
            f"({', '.join(known)}): read the file itself before you rely on this brief"
        )

    def _reasons(self, days: float) -> list[tuple[str, str]]:
        """Why the agent must stop and ask before working on this skill (none: go on),
        each (in full, in short)."""
        record, reasons = self.record, []
        if record.status in ("blocked", "failed"):
            reasons.append((f"status is {record.status}", record.status))
        age = record.age
        if record.status != "complete" and age is not None and age > days * 86400:
            old = int(age // 86400)
            full = f"stale: not updated for more than {days:g} days ({old}d)"
            reasons.append((full, f"stale {old}d"))
        for blocker in record.decisions:
            name = line(blocker.get("id", "?"))
            reasons.append((f"blocker {name} needs a user decision", f"decision {name}"))
        return reasons

    def progress(self) -> str | None:
        rows = self.record.rows
        if not rows:
            return None
        done = sum(1 for r in rows if r.get("status") == "complete")
        return f"{done}/{len(rows)} phases complete"

    def one_line(self, width: int) -> str:
        """The least the agent gets: state, whether to ask first, the first next action."""
        state = [line(self.record.status or "no status")]
        progress = self.progress()
        if progress:
            state.append(progress.replace(" phases complete", ""))
        state.append(self.age)
        if self.asks:
            state.append("ASK FIRST: " + ", ".join(short for _full, short in self.asks))
        text = f"- {clip(self.name, 40)} [{'; '.join(state)}] Next: "
        return clip(text + (self.action or "(no next action)"), width) + "\n"

    def confirm(self) -> str:
        if self.asks:
            return (
                f"Confirm: stop and ask the user before any work on {self.name} "
                f'({"; ".join(full for full, _short in self.asks)}): "{ASK}" (restart: `asimov-hooks oc reset '
                f"{self.name}` archives it; show: `asimov-hooks oc show {self.name}`)"
            )
        if self.record.status == "complete":
            return "Confirm: the skill is complete; tell the user and offer its next steps"
        if self.action:
            return f'Confirm: none needed; say "Resuming from next_actions[0]: {self.action}" and proceed'
        step = line(self.record.data.get("step", "the current step"))
        return f"Confirm: none needed; resume at step {step} and proceed"

    def brief(self) -> str:
        """The whole brief: Orient and Confirm first (a cut keeps them), then Prime."""
        data = self.record.data
        out = [f"RESUMING: {self.name} on {self.project} ({show(self.rel)})"]
        stamp = data.get("updated_at")
        when = f"{line(stamp)} ({self.age})" if isinstance(stamp, str) else "unknown"
        out.append(f"Last session: {when}")
        summary = data.get("progress_summary")
        status = line(self.record.status or "no status")
        out.append(
            f"Status: {status}"
            + (f" \u2014 {clip(line(summary), SUMMARY_WIDTH)}" if summary else "")
        )
        where = ", ".join(
            f"{key} {line(data[key])}" for key in ("phase", "step") if data.get(key) is not None
        )
        progress = self.progress()
        if progress or where:
            out.append("Progress: " + " \u2014 ".join(p for p in (progress, where) if p))
        out.append(f"Next: {self.action or '(no next action)'}")
        out.append(self.confirm())
        if self.unknown:
            out.append(self.version_note)
        out += self._prime()
        return "\n".join(out) + "\n"

    def _prime(self) -> list[str]:
        from ...oc.summary import action_text

        data, out = self.record.data, []
        primer = data.get("context_primer") if isinstance(data.get("context_primer"), dict) else {}
        decisions = [d for d in primer.get("key_decisions") or [] if d] if primer else []
        if isinstance(decisions, list) and decisions:
            out.append("Key decisions (this is your session context):")
            out += [f"  - {_item(d)}" for d in decisions[:LIST_ITEMS]]
            out += self._more(len(decisions), "key decisions")
        files = primer.get("generated_files") if primer else None
        if isinstance(files, list) and files:
            mine, others = self._current_files([f for f in files if isinstance(f, str)])
            if mine:
                out.append("Generated files of the current step (read only these):")
                out += [f"  - {_item(f)}" for f in mine[:LIST_ITEMS]]
                out += self._more(len(mine), "files")
            if others:
                out.append(
                    f"  ({others} generated files of other steps, not needed now: "
                    f"asimov-hooks oc show {self.name})"
                )
        blockers = self.record.blockers
        if blockers:
            out.append("Blockers:")
            for blocker in blockers[:LIST_ITEMS]:
                text = f"  - {line(blocker.get('id', '?'))}"
                tags = [f"{k}: {line(blocker[k])}" for k in ("needs", "blocking") if blocker.get(k)]
                text += f" [{', '.join(tags)}]" if tags else ""
                text += f": {_item(blocker.get('description', '(no description)'))}"
                if blocker.get("proposed_resolution"):
                    text += f"; proposed resolution: {_item(blocker['proposed_resolution'])}"
                out.append(text)
            out += self._more(len(blockers), "blockers")
        actions = [a for a in map(action_text, self.record.actions) if a]
        if len(actions) > 1:
            out.append("Then:")
            out += [f"  - {_item(a)}" for a in actions[1:LIST_ITEMS]]
            out += self._more(len(actions), "next actions")
        return out

    def _more(self, count: int, what: str) -> list[str]:
        if count <= LIST_ITEMS:
            return []
        return [f"  (+{count - LIST_ITEMS} more {what}: asimov-hooks oc show {self.name})"]

    def _current_files(self, files: list[str]) -> tuple[list[str], int]:
        """(the generated files of the current step, how many belong to other steps): a
        file whose path names another progress_table row (sprint-1 while on sprint-2)
        belongs to that step; one that names none (spec.md) belongs to every step."""
        from ...oc.wholewords import WholeWords

        rows = self.record.rows
        ids = tuple(dict.fromkeys(str(r.get("id")) for r in rows if r.get("id")))
        here = {str(r.get("id")) for r in rows if r.get("status") in ("in_progress", "blocked")}
        named = WholeWords(ids)  # every id at once: rows times files would be a square
        for key in ("step", "phase"):
            value = self.record.data.get(key)
            if isinstance(value, str):
                here |= named.found(value.lower())
        other = WholeWords(tuple(i for i in ids if i not in here))
        mine = [f for f in files if not other.search(f.lower())]
        return mine, len(files) - len(mine)


def _item(value: Any) -> str:
    return clip(line(value), ITEM_WIDTH)


def _names(text: str, word: str) -> bool:
    """Whether `text` holds `word` as a whole name (sprint-1 is not in sprint-10)."""
    from ...oc.wholewords import WholeWords

    return WholeWords((word,)).search(text.lower())


_KNOWN: list[str] = []


def known_versions() -> list[str]:
    if not _KNOWN:
        from ...config.packs import load_schema

        spec = load_schema("oc-checkpoint.schema.json").get("properties", {})
        values = spec.get("protocol_version", {}).get("enum", [])
        _KNOWN.extend(v for v in values if isinstance(v, str))
    return _KNOWN


def skills(
    loaded: list[tuple[str, dict[str, Any]]], top: str, days: float, gate_words: list[str]
) -> list[Skill]:
    """The skills of the loaded (rel, data) checkpoints, in `oc next`'s priority order;
    those it does not rank (complete, nothing queued) last, the newest first."""
    from ...oc.priority import rank
    from ...oc.store import skill_of
    from ...oc.summary import Record

    now = datetime.datetime.now(datetime.timezone.utc)
    project = line(os.path.basename(os.path.normpath(top)) or "project")
    out = []
    for rel, data in loaded:
        record = Record.of(skill_of(rel), rel, data, now, days)
        pick = rank(record, gate_words)
        out.append(Skill(record, rel, pick.level if pick else 7, project, days))
    inf = float("inf")
    out.sort(key=lambda s: (s.level, s.record.age if s.record.age is not None else inf, s.name))
    return out


def header(found: list[Skill]) -> str:
    text = "OC skills, most urgent first (as `oc next` ranks them)."
    if any(s.asks for s in found):
        text += f' ASK FIRST: before any work on it, stop and ask the user "{ASK}"'
    else:
        text += ' Say "Resuming from next_actions[0]: ..." and proceed.'
    return text + "\n"


def minimum(found: list[Skill], room: int) -> int:
    """What the one-line form of every skill needs out of `room` characters."""
    if not found:
        return 0
    widths = _widths(found, room)
    return (
        len(header(found))
        + sum(len(s.one_line(w)) for s, w in zip(found, widths, strict=True))
        + LEFT_OUT_ROOM
    )


def _widths(found: list[Skill], room: int) -> list[int]:
    """Each skill's one-line width: an even share of `room`, where a shorter line
    leaves what it does not need to the others (at least LINE_MIN, at most LINE_MAX)."""
    left = room - len(header(found)) - LEFT_OUT_ROOM
    needs = [min(len(s.one_line(LINE_MAX)), LINE_MAX) for s in found]
    widths = [LINE_MIN] * len(found)
    for count, i in enumerate(sorted(range(len(found)), key=lambda i: needs[i])):
        share = left // (len(found) - count)
        widths[i] = max(LINE_MIN, min(needs[i], share))
        left -= widths[i]
    return widths


def section(found: list[Skill], room: int, total: int) -> str:
    """The skills' briefs in at most `room` characters (`total`: the whole budget, named
    when something is left out)."""
    head = header(found)
    widths = _widths(found, room)
    texts: list[str | None] = []
    left = room - len(head) - LEFT_OUT_ROOM
    for skill, width in zip(
        found, widths, strict=True
    ):  # each skill's one line, in order, while they fit
        text = skill.one_line(width)
        texts.append(text if len(text) <= left else None)
        left -= len(text) if len(text) <= left else 0
    left += LEFT_OUT_ROOM
    detailed: list[bool] = [False] * len(found)
    partly = None  # the skill whose brief was cut
    for i, skill in enumerate(found):  # then whole briefs, most urgent first
        if texts[i] is None:
            break
        brief, own = skill.brief(), len(texts[i] or "")
        if len(brief) - own <= left - LEFT_OUT_ROOM * (i < len(found) - 1):
            texts[i], detailed[i] = brief, True
            left -= len(brief) - own
            continue
        cut = _cut(brief, left + own - LEFT_OUT_ROOM, skill)
        if cut is not None:
            texts[i], partly = cut, skill.name
            left -= len(cut) - own
        break
    body = head + "".join(
        ("\n" if i and t.count("\n") > 1 else "") + t for i, t in enumerate(texts) if t
    )
    missing = [s.name for s, t in zip(found, texts, strict=True) if t is None]
    short = [
        s.name for s, t, d in zip(found, texts, detailed, strict=True) if t is not None and not d
    ]
    if missing or short:
        body += _left_out(short, missing, total, partly)
    return body


def _left_out(short: list[str], missing: list[str], total: int, partly: str | None) -> str:
    """One line naming what is not shown (by count when the names do not fit)."""
    rest = [partly] if partly else []
    short = [name for name in short if name != partly]
    for named in (True, False):
        said = []
        for what, names in (("the rest of", rest), ("details of", short), ("skills", missing)):
            if names:
                said.append(f"{what} {', '.join(names) if named else f'{len(names)} skills'}")
        text = (
            f"Not shown ({total}-character re-read budget): {' and '.join(said)}: "
            "`asimov-hooks oc show SKILL`\n"
        )
        if len(text) <= LEFT_OUT_ROOM:
            break
    return text.replace("skills 1 skills", "1 skill").replace("of 1 skills", "of 1 skill")


def _cut(brief: str, room: int, skill: Skill) -> str | None:
    """The brief cut at a line end to `room`, when that keeps at least its Orient and
    Confirm lines; else None (the one line stays)."""
    lines = brief.splitlines(keepends=True)
    confirm = next(i for i, text in enumerate(lines) if text.startswith("Confirm: "))
    note = f"  (... cut: asimov-hooks oc show {skill.name})\n"
    kept, size = [], len(note)
    for i, text in enumerate(lines):
        if size + len(text) > room:
            if i <= confirm:
                return None
            break
        kept.append(text)
        size += len(text)
    return "".join(kept) + note
