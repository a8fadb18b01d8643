"""`oc show` (one checkpoint in full, readable) and `oc list` (one line per checkpoint).

`show` is the protocol's "Show full": every field of the file, the known ones as
sections in the protocol's order, any other field after them as JSON. Nothing is cut;
every value from the file has its control characters made visible.
"""

from __future__ import annotations

from ..fs.access import show as visible
from ..readers.json_loader import dump_text
from .output import Out, age
from .summary import action_text, open_blockers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .summary import Record

HEADER = ("protocol_version", "skill", "project", "project_dir", "created_at", "updated_at")
SHOWN = {
    *HEADER,
    "phase",
    "step",
    "status",
    "progress_summary",
    "progress_table",
    "context_primer",
    "blockers",
    "next_actions",
    "recently_done",
    "pm_refs",
    "skill_state",
}
ROW_MARK = {"complete": "[x]", "in_progress": "[>]", "blocked": "[!]", "failed": "[!]"}


def _text(value: Any) -> str:
    if isinstance(value, str):
        return visible(value)
    return visible(dump_text(value, indent=None))


def _json_lines(value: Any, indent: str) -> list[str]:
    text = dump_text(value)
    return [indent + visible(line) for line in text.split("\n")]


def _items(out: Out, title: str, values: Any) -> None:
    if not isinstance(values, list):
        if values is not None:
            out.line(f"{title}: {_text(values)}")
        return
    out.line(f"{title} ({len(values)}):" if values else f"{title}: none")
    for value in values:
        out.line(f"  - {_text(value)}")


def render(out: Out, rec: Record) -> None:
    """The whole checkpoint of `rec` as text."""
    data = rec.data
    project = data.get("project")
    head = visible(rec.skill) + (f" on {_text(project)}" if project is not None else "")
    out.line(out.paint(head, "bold") + f"  ({visible(rec.file)})")
    if rec.problem is not None:
        out.line(f"  unreadable: {visible(rec.problem)}")
        return
    for key in HEADER[2:]:
        if key in data and key != "project":
            extra = f" ({age(rec.age)})" if key == "updated_at" else ""
            out.line(f"  {key}: {_text(data[key])}{extra}")
    if "protocol_version" in data:
        out.line(f"  protocol_version: {_text(data['protocol_version'])}")
    stale = f"  {out.warn} stale ({rec.stale_days}d)" if rec.stale_days is not None else ""
    out.line(f"status: {_text(data.get('status'))}{stale}")
    for key in ("phase", "step"):
        if key in data:
            out.line(f"{key}: {_text(data[key])}")
    if "progress_summary" in data:
        out.line(f"summary: {_text(data['progress_summary'])}")
    _table(out, rec, data.get("progress_table"))
    primer = data.get("context_primer")
    if isinstance(primer, dict):
        for key, value in primer.items():
            _items(out, key.replace("_", " "), value)
    elif primer is not None:
        out.line(f"context_primer: {_text(primer)}")
    _blockers(out, data)
    _actions(out, data.get("next_actions"))
    _done(out, data.get("recently_done"))
    _refs(out, data.get("pm_refs"))
    if "skill_state" in data:
        out.line("skill_state:")
        for line in _json_lines(data["skill_state"], "  "):
            out.line(line)
    for key, value in data.items():
        if key not in SHOWN:
            lines = _json_lines(value, "  ")
            if len(lines) == 1:
                out.line(f"{visible(key)}: {lines[0].strip()}")
            else:
                out.line(f"{visible(key)}:")
                for line in lines:
                    out.line(line)


def _table(out: Out, rec: Record, table: Any) -> None:
    if table is None:
        return
    if not isinstance(table, list):
        out.line(f"progress_table: {_text(table)}")
        return
    out.line(f"progress ({rec.progress}):" if rec.progress else "progress: no rows")
    width = max((len(_text(r.get("id"))) for r in table if isinstance(r, dict)), default=0)
    for row in table:
        if not isinstance(row, dict):
            out.line(f"  {_text(row)}")
            continue
        status = row.get("status")
        mark = ROW_MARK.get(status, "[ ]") if isinstance(status, str) else "[?]"
        label = _text(row.get("label", ""))
        out.line(f"  {mark} {_text(row.get('id')).ljust(width)}  {label}  ({_text(status)})")


def _blockers(out: Out, data: dict[str, Any]) -> None:
    blockers = data.get("blockers")
    if blockers is None:
        return
    if not isinstance(blockers, list):
        out.line(f"blockers: {_text(blockers)}")
        return
    still_open = [id(b) for b in open_blockers(data)]
    out.line(f"blockers ({len(still_open)} open):" if blockers else "blockers: none")
    for blocker in blockers:
        if not isinstance(blocker, dict):
            out.line(f"  {_text(blocker)}")
            continue
        is_open = id(blocker) in still_open
        mark = out.stop if is_open and blocker.get("needs") == "user_decision" else "-"
        facts = [_text(blocker["needs"])] if blocker.get("needs") is not None else []
        if blocker.get("blocking"):
            facts.append(f"blocking {_text(blocker['blocking'])}")
        if not is_open:
            facts.append("resolved")
        tail = f" ({', '.join(facts)})" if facts else ""
        out.line(
            f"  {mark} {_text(blocker.get('id'))}{tail}: {_text(blocker.get('description', ''))}"
        )
        for key, value in blocker.items():
            if key not in ("id", "needs", "blocking", "description"):
                out.line(f"      {visible(key)}: {_text(value)}")


def _actions(out: Out, actions: Any) -> None:
    if actions is None:
        return
    if not isinstance(actions, list):
        out.line(f"next_actions: {_text(actions)}")
        return
    out.line(f"next actions ({len(actions)}):" if actions else "next actions: none")
    for i, action in enumerate(actions, 1):
        text = action_text(action)
        out.line(f"  {i}. {_text(text if text is not None else action)}")
        if isinstance(action, dict) and action.get("done_when") is not None:
            out.line(f"     done when: {_text(action['done_when'])}")


def _done(out: Out, done: Any) -> None:
    if done is None:
        return
    if not isinstance(done, list):
        out.line(f"recently_done: {_text(done)}")
        return
    out.line(f"recently done ({len(done)}):" if done else "recently done: none")
    for item in done:
        if isinstance(item, dict) and isinstance(item.get("action"), str):
            at = f"{_text(item['at'])}  " if item.get("at") is not None else ""
            out.line(f"  - {at}{_text(item['action'])}")
        else:
            out.line(f"  - {_text(item)}")


def _refs(out: Out, refs: Any) -> None:
    if refs is None:
        return
    if not isinstance(refs, list):
        out.line(f"pm_refs: {_text(refs)}")
        return
    out.line(f"PM refs ({len(refs)}):" if refs else "PM refs: none")
    for ref in refs:
        if not isinstance(ref, dict):
            out.line(f"  - {_text(ref)}")
            continue
        facts = ", ".join(_text(ref[k]) for k in ("role", "provider") if ref.get(k) is not None)
        line = f"  - {_text(ref.get('id'))}" + (f" ({facts})" if facts else "")
        if ref.get("url") is not None:
            line += f"  {_text(ref['url'])}"
        out.line(line)
        rest = [k for k in ref if k not in ("id", "role", "provider", "url")]
        if rest:
            out.line("      " + "; ".join(f"{visible(k)}: {_text(ref[k])}" for k in rest))


def list_line(out: Out, rec: Record, width: int) -> str:
    """skill, status, age, file: one line."""
    if rec.problem is not None:
        status = "unreadable"
    else:
        status = rec.status or "?"
        if rec.stale_days is not None:
            status += f" {out.warn}"
    return "  ".join(
        [
            visible(rec.skill).ljust(width),
            visible(status).ljust(13),
            age(rec.age).ljust(10),
            visible(rec.file),
        ]
    ).rstrip()
