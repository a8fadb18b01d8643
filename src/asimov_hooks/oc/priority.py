"""`oc next`: the single highest-priority action, by the protocol's hierarchy.

blocked on a decision > failed > in progress at a gate > in progress > complete with
queued work > not started. How each level is read from a checkpoint is in
docs/oc-toolkit.md; the levels are tried in order on every checkpoint and the first
that applies is the checkpoint's level. Within a level the most recently updated
checkpoint wins (the work you were last on), then the skill name.
"""

from __future__ import annotations

from .summary import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

LEVELS = {
    1: "blocked on a decision",
    2: "failed",
    3: "in progress at a gate",
    4: "in progress",
    5: "complete with queued work",
    6: "not started",
}


class Pick:
    """A checkpoint's place in the hierarchy and the action it asks for."""

    def __init__(
        self,
        record: Record,
        level: int,
        action: str,
        why: str,
        blocker: str | None = None,
        done_when: str | None = None,
    ) -> None:
        self.record, self.level, self.action, self.why = record, level, action, why
        self.blocker, self.done_when = blocker, done_when

    def sort_key(self) -> tuple:
        age = self.record.age if self.record.age is not None else float("inf")
        return (self.level, age, self.record.skill)

    def as_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "reason": LEVELS[self.level],
            "why": self.why,
            "skill": self.record.skill,
            "file": self.record.file,
            "status": self.record.status,
            "action": self.action,
            "done_when": self.done_when,
            "blocker": self.blocker,
            "updated_at": self.record.data.get("updated_at"),
            "age_seconds": None if self.record.age is None else int(self.record.age),
            "stale_days": self.record.stale_days,
        }


def _gate(record: Record, words: Sequence[str]) -> str | None:
    """The phase, step or current progress row that names a gate, or None."""
    if not words:
        return None
    from .wholewords import whole_words

    gates = whole_words(tuple(words))
    places = [("step", record.data.get("step")), ("phase", record.data.get("phase"))]
    for row in record.rows:
        if row.get("status") in ("in_progress", "blocked"):
            places += [
                ("progress_table row", row.get("id")),
                ("progress_table row", row.get("label")),
            ]
    for where, value in places:
        if isinstance(value, str) and gates.search(value.lower()):
            return f"{where} {value!r}"
    return None


def rank(record: Record, gate_words: Sequence[str]) -> Pick | None:
    """The level of one checkpoint, or None when it asks for nothing."""
    if record.problem is not None:
        return None
    if record.decisions:
        blocker = record.decisions[0]
        text = f"decide: {blocker.get('description', '(no description)')}"
        if blocker.get("proposed_resolution"):
            text += f" (proposed: {blocker['proposed_resolution']})"
        waiting = len(record.decisions)
        why = f"blocker {blocker.get('id')} needs a user decision" + (
            f" ({waiting} waiting)" if waiting > 1 else ""
        )
        return Pick(record, 1, text, why, blocker=str(blocker.get("id")))
    status, action = record.status, record.next_action
    if status == "failed":
        summary = record.data.get("progress_summary") or "no progress_summary"
        return Pick(
            record,
            2,
            action or f"look at the failure: {summary}",
            "status is failed",
            done_when=record.done_when if action else None,
        )
    if status == "in_progress" or (
        status == "blocked" and any(b.get("needs") == "code_fix" for b in record.blockers)
    ):
        gate = _gate(record, gate_words) if status == "in_progress" else None
        if gate:
            text = action or f"pass the gate at {gate}"
            return Pick(record, 3, text, f"in progress, at a gate ({gate})", None, record.done_when)
        if status == "blocked":
            fix = next(b for b in record.blockers if b.get("needs") == "code_fix")
            text = action or f"fix: {fix.get('description')}"
            return Pick(record, 4, text, f"blocked on a code fix ({fix.get('id')})", fix.get("id"))
        if action:
            return Pick(record, 4, action, "in progress: next_actions[0]", None, record.done_when)
        return Pick(
            record, 4, f"continue {record.data.get('step')}", "in progress, no next_actions"
        )
    if status == "complete" and action:
        return Pick(
            record, 5, action, "complete, next_actions still queued", None, record.done_when
        )
    for row in record.rows:
        if row.get("status") == "not_started":
            label = row.get("label") or row.get("id")
            return Pick(
                record, 6, f"start {label} ({row.get('id')})", "progress_table row not started"
            )
    return None


def ranked(records: Sequence[Record], gate_words: Sequence[str]) -> list[Pick]:
    picks = [p for p in (rank(r, gate_words) for r in records) if p is not None]
    return sorted(picks, key=Pick.sort_key)


def order(records: Sequence[Record], gate_words: Sequence[str]) -> list[Record]:
    """Records in priority order: ranked ones first, then the rest by recency."""
    picks = ranked(records, gate_words)
    first = [p.record for p in picks]
    rest = [r for r in records if r not in first]
    rest.sort(key=lambda r: (r.problem is not None, r.age if r.age is not None else 1e18))
    return first + rest
