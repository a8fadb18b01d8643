"""Text and JSON for `oc status` (full, --brief, --since) and `oc next`."""

from __future__ import annotations

import os

from ..fs.access import show as visible
from .output import Out, age
from .priority import LEVELS, order, rank, ranked
from .summary import project_names, records

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime

    from .store import Project
    from .summary import Record

STATUS_STYLE = {
    "in_progress": ("yellow",),
    "blocked": ("red",),
    "failed": ("red", "bold"),
    "complete": ("green",),
}


def _gate_words(project: Project) -> list[str]:
    return list(project.settings.get("gate-words", []))


def _no_checkpoints(project: Project, out: Out, fmt: str) -> int:
    from .output import dump_json

    where = project.show(project.dir)
    if fmt == "json":
        dump_json({"directory": where, "decisions_waiting": 0, "checkpoints": []})
    elif os.path.isdir(project.dir):
        out.line(f"no checkpoints in {where}/")
    else:
        out.line(f"no {where}/ directory; `asimov-hooks oc init` creates one")
    return 0


def _banner(out: Out, decisions: int) -> None:
    if decisions:
        word = "decision" if decisions == 1 else "decisions"
        out.line(out.paint(f"{out.stop} {decisions} {word} waiting on you", "red", "bold"))


def _blocker_line(out: Out, blocker: dict) -> str:
    mark = out.stop if blocker.get("needs") == "user_decision" else "-"
    needs = f" ({blocker['needs']})" if blocker.get("needs") else ""
    text = f"{mark} {blocker.get('id')}{needs}: {blocker.get('description', '')}"
    styled = out.fit(text, 4)
    return "    " + (out.paint(styled, "red") if mark == out.stop else styled)


def _head(out: Out, rec: Record, width: int) -> str:
    if rec.problem is not None:
        return out.fit(f"{rec.skill.ljust(width)}  unreadable: {rec.problem}")
    status = rec.status or "?"
    parts = [rec.skill.ljust(width), status.ljust(11), age(rec.age).ljust(8)]
    stale = f"{out.warn} stale ({rec.stale_days}d)" if rec.stale_days is not None else None
    if stale:
        parts.append(stale)
    where = "/".join(
        str(rec.data.get(k)) for k in ("phase", "step") if isinstance(rec.data.get(k), str)
    )
    if where:
        parts.append(where)
    if rec.progress:
        parts.append(f"({rec.progress})")
    text = out.fit("  ".join(parts))
    if out.color:
        pad = status.ljust(11)
        text = text.replace(
            pad, out.paint(status, *STATUS_STYLE.get(status, ())) + pad[len(status) :], 1
        )
        if stale and stale in text:
            text = text.replace(stale, out.paint(stale, "yellow"), 1)
    return text


def _body(out: Out, rec: Record) -> None:
    if rec.problem is not None:
        return
    summary = rec.data.get("progress_summary")
    if isinstance(summary, str) and summary:
        for line in out.wrap(summary, 4):
            out.line("    " + line)
    if rec.next_action:
        out.line("    " + out.fit("next: " + rec.next_action, 4))
    for blocker in rec.blockers:
        out.line(_blocker_line(out, blocker))
    if rec.pm:
        out.line("    " + out.fit("PM: " + rec.pm, 4))


def status(
    project: Project, moment: datetime.datetime, fmt: str, brief: bool, color: str = "auto"
) -> int:
    from .output import dump_json

    out = Out(color=color)
    recs = records(project, moment)
    if not recs:
        return _no_checkpoints(project, out, fmt)
    ordered = order(recs, _gate_words(project))
    decisions = sum(len(r.decisions) for r in recs)
    if brief:
        ordered = ordered[:1]
    names = project_names(recs, project.root)
    shown = ", ".join(visible(n) for n in names)
    if fmt == "json":
        dump_json(
            {
                "project": names[0],
                "directory": project.rel(project.dir),
                "decisions_waiting": decisions,
                "checkpoints": [r.as_dict() for r in ordered],
            }
        )
        return 0
    _banner(out, decisions)
    width = max(len(r.skill) for r in ordered)
    for rec in ordered:
        if brief:
            out.line(_head(out, rec, width))
            if rec.next_action:
                out.line("    " + out.fit("next: " + rec.next_action, 4))
            for blocker in rec.blockers:
                out.line(_blocker_line(out, blocker))
            continue
        out.line(_head(out, rec, width))
        _body(out, rec)
    if not brief:
        stale = sum(r.stale_days is not None for r in recs)
        broken = sum(r.problem is not None for r in recs)
        tail = f"{shown}: {len(recs)} checkpoint{'s' if len(recs) != 1 else ''}"
        if stale:
            tail += f", {stale} stale"
        if broken:
            tail += f", {broken} unreadable (asimov-validate says why)"
        out.line(out.paint(out.fit(tail), "dim"))
    return 0


def next_action(project: Project, moment: datetime.datetime, fmt: str, color: str = "auto") -> int:
    from .output import dump_json

    out = Out(color=color)
    recs = records(project, moment)
    picks = ranked(recs, _gate_words(project))
    best = picks[0] if picks else None
    if fmt == "json":
        doc = best.as_dict() if best else {"level": None, "action": None}
        doc["candidates"] = len(picks)
        dump_json(doc)
        return 0
    if not recs:
        return _no_checkpoints(project, out, fmt)
    if best is None:
        waiting = [r for r in recs if r.status == "blocked"]
        text = "nothing to do: every checkpoint is complete with no queued work"
        if waiting:
            text = f"nothing actionable: {len(waiting)} blocked on external dependencies"
        out.line(out.fit(text))
        return 0
    rec = best.record
    for i, line in enumerate(out.wrap(f"{rec.skill}: {best.action}", 4, 4)):
        out.line(("    " if i else "") + out.paint(line, "bold"))
    out.line(
        "    " + out.fit(f"why: {LEVELS[best.level]} (level {best.level} of 6); {best.why}", 4)
    )
    if best.done_when:
        out.line("    " + out.fit(f"done when: {best.done_when}", 4))
    when = f"updated {age(rec.age)}" + (
        f" {out.warn} stale ({rec.stale_days}d)" if rec.stale_days is not None else ""
    )
    out.line("    " + out.fit(f"{when}; file {rec.file}", 4))
    if len(picks) > 1:
        out.line(out.paint(f"    then {len(picks) - 1} more: asimov-hooks oc status", "dim"))
    return 0


def since(
    project: Project,
    when: datetime.datetime,
    moment: datetime.datetime,
    fmt: str,
    color: str = "auto",
) -> int:
    from .digest import changes
    from .output import dump_json

    out = Out(color=color)
    recs = records(project, moment)
    found = [c for c in (changes(r, when) for r in recs) if c is not None]
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    if fmt == "json":
        dump_json(
            {
                "since": stamp,
                "directory": project.rel(project.dir),
                "changed": found,
                "unchanged": len(recs) - len(found),
            }
        )
        return 0
    if not recs:
        return _no_checkpoints(project, out, fmt)
    out.line(out.paint(f"since {stamp}: {len(found)} of {len(recs)} checkpoints changed", "bold"))
    labels = (
        ("done", "done"),
        ("decisions", "decided"),
        ("blockers_added", "new blocker"),
        ("blockers_resolved", "resolved"),
        ("generated_files", "new file"),
        ("pm_refs", "linked"),
    )
    for change in found:
        line = f"{change['skill']}  {change['status']}  ({change['baseline']})"
        out.line(out.fit(line))
        if change["status_change"]:
            sc = change["status_change"]
            moved = f"{sc['from']} {out.arrow} {sc['to']}" if sc["from"] else f"new, {sc['to']}"
            out.line("    " + out.fit(f"status: {moved}", 4))
        for row in change["phases"]:
            moved = f"{row['from']} {out.arrow} {row['to']}" if row["from"] else str(row["to"])
            out.line("    " + out.fit(f"phase {row['id']}: {moved}", 4))
        for key, label in labels:
            for item in change[key]:
                out.line("    " + out.fit(f"{label}: {item}", 4))
    return 0


__all__ = ["next_action", "rank", "since", "status"]
