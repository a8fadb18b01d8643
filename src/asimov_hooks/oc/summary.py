"""What `oc status` says about each checkpoint, read from the file alone."""

from __future__ import annotations

from ..checks.drift import parse_time
from .output import seconds_since
from .store import Checkpoint, Project

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime
    from typing import Any

RESOLVED = ("resolved", "done", "closed", "fixed")


def action_text(action: Any) -> str | None:
    """A next action's text (a string, or {text, done_when})."""
    if isinstance(action, str):
        return action
    if isinstance(action, dict) and isinstance(action.get("text"), str):
        return action["text"]
    return None


def open_blockers(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Blockers not marked resolved (`resolved: true`, `resolved_at`, or a status
    of resolved / done / closed / fixed): the protocol allows either removing a
    resolved blocker or marking it."""
    out = []
    for blocker in data.get("blockers") or []:
        if not isinstance(blocker, dict):
            continue
        if blocker.get("resolved") is True or blocker.get("resolved_at"):
            continue
        if str(blocker.get("status", "")).lower() in RESOLVED:
            continue
        out.append(blocker)
    return out


def _upstream(lead: dict[str, Any], refs: list[dict[str, Any]], keys: Any) -> Any:
    """The ticket a deploy or incident ref links to: its own link field (`upstream`,
    `parent`: the `oc.pm-upstream-keys` setting), else the checkpoint's source ref,
    else its first linked ref (an incident: else its deploy ref)."""
    for key in keys:
        value = lead.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return str(value)
    roles = ("source", "linked") + (("deploy",) if lead.get("role") == "incident" else ())
    for role in roles:
        found = next((r for r in refs if r is not lead and r.get("role") == role), None)
        if found is not None:
            return found
    return None


def pm_line(refs: Any, upstream_keys: Any = ("upstream", "parent")) -> str | None:
    """The protocol's one-line PM summary: `PLAT-4471 (source) + 3 children`, or for
    a skill whose deploy (or incident) ticket links to an upstream ticket,
    `PLAT-4485 (deploy) → PLAT-4471`."""
    if not isinstance(refs, list):
        return None
    refs = [r for r in refs if isinstance(r, dict) and r.get("id")]
    if not refs:
        return None
    lead = next((r for r in refs if r.get("role") == "source"), refs[0])
    up = None
    for role in ("deploy", "incident"):
        linking = next((r for r in refs if r.get("role") == role), None)
        up = _upstream(linking, refs, upstream_keys) if linking is not None else None
        if up is not None:
            lead = linking  # type: ignore[assignment]
            break
    text = f"{lead['id']}" + (f" ({lead['role']})" if lead.get("role") else "")
    if up is not None:
        text += f" \u2192 {up if isinstance(up, str) else up['id']}"
    counts: dict[str, int] = {}
    for ref in refs:
        if ref is not lead and ref is not up:
            role = str(ref.get("role") or "linked")
            counts[role] = counts.get(role, 0) + 1
    plural = {"child": "children"}
    for role, n in counts.items():
        text += f" + {n} {plural.get(role, role + 's') if n > 1 else role}"
    return text


class Record:
    """One checkpoint as the read commands see it."""

    def __init__(self, project: Project, cp: Checkpoint, now: datetime.datetime) -> None:
        self.cp = cp
        # the file printed through Out (escaped), JSON as is
        self._fill(cp.skill, project.rel(cp.path), cp.data, cp.problem, now, project.stale_days())
        self.pm = pm_line(self.data.get("pm_refs"), project.settings.get("pm-upstream-keys", ()))

    @classmethod
    def of(
        cls, skill: str, file: str, data: dict[str, Any], now: datetime.datetime, days: float
    ) -> Record:
        """A record of checkpoint data read elsewhere (the agent's re-read), without
        a project: no file behind it, no PM line."""
        record = cls.__new__(cls)
        record.cp = None  # type: ignore[assignment]
        record._fill(skill, file, data, None, now, days)
        record.pm = None
        return record

    def _fill(
        self,
        skill: str,
        file: str,
        data: dict[str, Any] | None,
        problem: str | None,
        now: datetime.datetime,
        days: float,
    ) -> None:
        self.skill, self.file, self.problem = skill, file, problem
        data = data or {}
        self.data = data
        self.status = data.get("status") if isinstance(data.get("status"), str) else None
        self.updated = parse_time(data.get("updated_at"))
        self.age = seconds_since(self.updated, now)
        self.stale_days = (
            int(self.age // 86400)
            if self.status == "in_progress" and self.age is not None and self.age > days * 86400
            else None
        )
        actions = data.get("next_actions")
        self.actions = actions if isinstance(actions, list) else []
        self.next_action = action_text(self.actions[0]) if self.actions else None
        first = self.actions[0] if self.actions else None
        self.done_when = first.get("done_when") if isinstance(first, dict) else None
        self.blockers = open_blockers(data) if not problem else []
        self.decisions = [b for b in self.blockers if b.get("needs") == "user_decision"]
        table = data.get("progress_table")
        self.rows = [r for r in table if isinstance(r, dict)] if isinstance(table, list) else []

    @property
    def progress(self) -> str | None:
        if not self.rows:
            return None
        done = sum(1 for r in self.rows if r.get("status") == "complete")
        return f"{done}/{len(self.rows)} complete"

    def as_dict(self) -> dict[str, Any]:
        def text(key: str) -> Any:
            value = self.data.get(key)
            return value if isinstance(value, str) else None

        return {
            "skill": self.skill,
            "file": self.file,
            "problem": self.problem,
            "status": self.status,
            "phase": text("phase"),
            "step": text("step"),
            "updated_at": text("updated_at"),
            "age_seconds": None if self.age is None else int(self.age),
            "stale_days": self.stale_days,
            "progress": self.progress,
            "progress_summary": text("progress_summary"),
            "next_action": self.next_action,
            "done_when": self.done_when,
            "next_actions": len(self.actions),
            "blockers": [
                {k: b.get(k) for k in ("id", "description", "needs", "blocking")}
                for b in self.blockers
            ],
            "decisions_waiting": len(self.decisions),
            "pm": self.pm,
        }


def records(project: Project, now: datetime.datetime) -> list[Record]:
    return [
        Record(project, Checkpoint(path, project.config.limits), now) for path in project.files()
    ]


def project_names(recs: list[Record], root: str) -> list[str]:
    """The `project` names the checkpoints give, the most used first; else the name of
    the project directory."""
    import os

    counts: dict[str, int] = {}
    for rec in recs:
        name = rec.data.get("project")
        if isinstance(name, str) and name.strip():
            counts[name] = counts.get(name, 0) + 1
    names = sorted(counts, key=lambda n: (-counts[n], n))
    return names or [os.path.basename(os.path.normpath(root)) or "project"]
