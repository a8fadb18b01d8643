"""Helpers shared by the merge-driver tests."""

from __future__ import annotations

import json
import re

from asimov_hooks.config.config import load_config
from asimov_hooks.merge.driver import Outcome, Settings, merge_bytes, settings_for
from asimov_hooks.merge.yaml_merge import load as yaml_load

YAML_PATH = ".claude_checkpoint.yaml"
JSON_PATH = ".checkpoints/oc-app-architect.checkpoint.json"

ASIMOV_BASE = """\
# Session checkpoint (ADR-007)
timestamp: "2026-01-01T10:00:00Z"
tool_calls: 10
milestone: "Add feature X"
status: in_progress

# rolling window
completed:
  - "Task 1"
  - "Task 2"
  # older tasks trimmed

in_progress: "Task 3"   # current
next_steps:
  - "Task 4"
on_confusion: "cat warmup.yaml"
"""

OC_BASE_DATA = {
    "protocol_version": "1.0",
    "skill": "oc-app-architect",
    "project": "gtrack",
    "project_dir": "/home/claude/gtrack",
    "created_at": "2026-03-31T14:00:00Z",
    "updated_at": "2026-03-31T15:30:00Z",
    "phase": "build-loop",
    "step": "sprint-2",
    "status": "in_progress",
    "progress_summary": "Sprint 1 passed.",
    "progress_table": [
        {"id": "planning", "label": "Planner", "status": "complete"},
        {"id": "sprint-1", "label": "Sprint 1", "status": "complete"},
        {"id": "sprint-2", "label": "Sprint 2", "status": "in_progress"},
    ],
    "context_primer": {"key_decisions": ["Stack: Hono"], "generated_files": ["spec.md"]},
    "blockers": [{"id": "b1", "description": "rate limiting", "needs": "user_decision"}],
    "next_actions": ["Read the report"],
    "pm_refs": [{"provider": "linear", "id": "PLAT-1", "role": "source"}],
    "skill_state": {"current_sprint": 2, "merged_prs": [101]},
}

_SETTINGS: dict[str, Settings] = {}


def settings(path: str, marker_size: int = 7) -> Settings:
    key = f"{path}:{marker_size}"
    if key not in _SETTINGS:
        found = settings_for(path, marker_size, load_config(None, start="/"))
        assert isinstance(found, Settings), found
        _SETTINGS[key] = found
    return _SETTINGS[key]


def merge(
    base: str | bytes | None,
    ours: str | bytes,
    theirs: str | bytes,
    path: str,
    marker_size: int = 7,
) -> Outcome:
    def enc(x: str | bytes | None) -> bytes | None:
        return x.encode() if isinstance(x, str) else x

    return merge_bytes(enc(base), enc(ours), enc(theirs), settings(path, marker_size))  # type: ignore[arg-type]


def oc(**changes: object) -> dict:
    doc = json.loads(json.dumps(OC_BASE_DATA))
    for key, value in changes.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def dump(doc: dict, indent: int | str = 2, newline: bool = True) -> str:
    return json.dumps(doc, indent=indent, ensure_ascii=False) + ("\n" if newline else "")


def parse(text: str | bytes, path: str) -> object:
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig").replace("\r\n", "\n")
    if path.endswith(".json"):
        return json.loads(text)
    from asimov_hooks.readers.loaders import to_plain

    return to_plain(yaml_load(text))


_HUNK = re.compile(
    r"^<{7,} [^\n]*\n(?P<ours>.*?)^={7,}\n(?P<theirs>.*?)^>{7,} [^\n]*\n", re.S | re.M
)


def take(text: str | bytes, side: str) -> str:
    """Resolve every conflict hunk to one side."""
    if isinstance(text, bytes):
        text = text.decode()
    return _HUNK.sub(lambda m: m.group(side), text)


def hunks(text: str | bytes) -> list[tuple[str, str]]:
    if isinstance(text, bytes):
        text = text.decode()
    return [(m.group("ours"), m.group("theirs")) for m in _HUNK.finditer(text)]
