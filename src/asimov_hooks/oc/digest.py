"""`oc status --since=ISO`: the momentum digest, what changed in each checkpoint since then.

The baseline is the checkpoint as git last committed it before that moment (`git log
--before`), so the digest is exact for everything the file holds: actions done,
decisions added, blockers raised and resolved, phases that moved, files generated,
tickets linked, a status change. A checkpoint git has no commit of from before then is
compared with nothing when it was created after that moment (all of it is new), and
otherwise read from its timestamps alone (recently_done items with an `at` after it).
"""

from __future__ import annotations

import json
import os
import subprocess

from ..checks.drift import git_root, parse_time
from .jsonfmt import JSONProblem, loads
from .summary import Record, open_blockers

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime
    from typing import Any


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _added(old: Any, new: Any) -> list[Any]:
    before = {_canon(v) for v in old} if isinstance(old, list) else set()
    return [v for v in new if _canon(v) not in before] if isinstance(new, list) else []


def baseline(path: str, since: datetime.datetime) -> tuple[dict[str, Any] | None, str | None]:
    """(the file's content as committed before `since`, the commit), or (None, None)."""
    root = git_root(os.path.dirname(os.path.realpath(path)))
    if root is None:
        return None, None
    rel = os.path.relpath(os.path.realpath(path), root).replace(os.sep, "/")
    when = since.strftime("%Y-%m-%dT%H:%M:%SZ")
    from ..gitutil import would_block

    if would_block(("log",), root, None):
        return None, None  # git would wait for ever on a file it opens: as without git
    try:
        proc = subprocess.run(
            ["git", "-C", root, "log", "-1", "--format=%H", f"--before={when}", "--", rel],
            capture_output=True,
            text=True,
            check=False,
        )
        commit = proc.stdout.strip()
        if proc.returncode != 0 or not commit:
            return None, None
        show = subprocess.run(
            ["git", "-C", root, "show", f"{commit}:{rel}"], capture_output=True, check=False
        )
    except OSError:
        return None, None
    if show.returncode != 0:
        return None, None
    try:
        data = loads(show.stdout.decode("utf-8", "replace"))
    except JSONProblem:
        return None, commit
    return (data if isinstance(data, dict) else None), commit


def _done_item(item: Any) -> str:
    if isinstance(item, dict):
        text = item.get("action") or item.get("text") or _canon(item)
        return f"{text} ({item['at']})" if item.get("at") else str(text)
    return str(item)


def changes(record: Record, since: datetime.datetime) -> dict[str, Any] | None:
    """What changed in one checkpoint since `since`, or None when nothing did."""
    data = record.data
    if record.problem is not None:
        return None
    old, commit = baseline(record.cp.path, since)
    created = parse_time(data.get("created_at"))
    updated = record.updated
    new_file = old is None and created is not None and created >= since
    if old is None and not new_file:
        # no committed baseline: timestamps only
        if updated is None or updated < since:
            return None
        done = [
            _done_item(i)
            for i in data.get("recently_done") or []
            if isinstance(i, dict) and (parse_time(i.get("at")) or since) > since
        ]
        return {
            "skill": record.skill,
            "file": record.file,
            "baseline": "timestamps",
            "status": record.status,
            "updated_at": data.get("updated_at"),
            "done": done,
            "decisions": [],
            "blockers_added": [],
            "blockers_resolved": [],
            "phases": [],
            "generated_files": [],
            "pm_refs": [],
            "status_change": None,
        }
    if old is not None and _canon(old) == _canon(data):
        return None  # as committed before then: nothing changed since
    old = old or {}
    old_primer = old.get("context_primer") if isinstance(old.get("context_primer"), dict) else {}
    primer = data.get("context_primer") if isinstance(data.get("context_primer"), dict) else {}
    old_blockers = {str(b.get("id")): b for b in open_blockers(old)}
    now_blockers = {str(b.get("id")): b for b in record.blockers}
    old_rows = {
        r.get("id"): r.get("status") for r in old.get("progress_table") or [] if isinstance(r, dict)
    }
    phases = [
        {"id": r.get("id"), "from": old_rows.get(r.get("id")), "to": r.get("status")}
        for r in record.rows
        if old_rows.get(r.get("id")) != r.get("status")
    ]
    done = [_done_item(i) for i in _added(old.get("recently_done"), data.get("recently_done"))]
    out = {
        "skill": record.skill,
        "file": record.file,
        "baseline": f"git {commit[:12]}" if commit else "new since then",
        "status": record.status,
        "updated_at": data.get("updated_at"),
        "done": done,
        "decisions": _added(old_primer.get("key_decisions"), primer.get("key_decisions")),
        "blockers_added": [
            f"{i}: {b.get('description')}" for i, b in now_blockers.items() if i not in old_blockers
        ],
        "blockers_resolved": [
            f"{i}: {b.get('description')}" for i, b in old_blockers.items() if i not in now_blockers
        ],
        "phases": phases,
        "generated_files": _added(old_primer.get("generated_files"), primer.get("generated_files")),
        "pm_refs": [
            r.get("id")
            for r in _added(old.get("pm_refs"), data.get("pm_refs"))
            if isinstance(r, dict)
        ],
        "status_change": (
            {"from": old.get("status"), "to": record.status}
            if old.get("status") != record.status
            else None
        ),
    }
    keys = (
        "done",
        "decisions",
        "blockers_added",
        "blockers_resolved",
        "phases",
        "generated_files",
        "pm_refs",
        "status_change",
    )
    if not any(out[k] for k in keys) and (updated is None or updated < since):
        return None
    return out
