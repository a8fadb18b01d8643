"""Cursor: hook JSON on stdin, its JSON on stdout, always exit 0.

Events (cursor.com/docs/hooks, `.cursor/hooks.json` version 1):
- afterFileEdit: `file_path` (absolute), `edits`. Cursor documents no pre-edit event
  with the edit's content and no answer to afterFileEdit: the file is repaired after
  the edit (the trim) and what is still wrong goes to stderr, which Cursor shows in
  its Hooks output channel; the agent has no channel here.
- stop: `status` (completed, aborted, error), `loop_count` (automatic follow-ups the
  stop hook already triggered in this conversation). `{"followup_message": ...}` is
  submitted as the next user message (it reaches beforeSubmitPrompt); Cursor allows
  at most 5 in a row. Only a completed loop is continued, under the turn timer.
- beforeSubmitPrompt: `prompt`; the answer is `{"continue": true}`.
- sessionStart: `additional_context` is added to the new conversation. Its payload
  carries no source: a resumed conversation cannot be told from a new one.
- Every event carries `conversation_id` and `workspace_roots` (there is no `cwd`):
  the project is the workspace root holding the file (else the first root).
"""

from __future__ import annotations

from ..runtime.model import POST_WRITE, PROMPT, SESSION_START, STOP, Event, as_text
from ..runtime.payload import EventError, absolute, inside, project_dir, working_dir

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..runtime.model import Answer

NAME = "cursor"
USAGE = "Cursor: afterFileEdit, stop, beforeSubmitPrompt, sessionStart"
KINDS = {
    "afterFileEdit": POST_WRITE,
    "stop": STOP,
    "beforeSubmitPrompt": PROMPT,
    "sessionStart": SESSION_START,
}
CONTINUE = '{"continue": true}\n'


def normalize(payload: dict[str, Any]) -> Event:
    name = payload.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise EventError("stdin JSON has no hook_event_name")
    roots = _roots(payload.get("workspace_roots"))
    path = None
    if KINDS.get(name) == POST_WRITE:
        path = absolute(
            payload.get("file_path"), working_dir(roots[0] if roots else None), "file_path"
        )
        roots = [root for root in roots if inside(path, root)] or roots
    cwd = working_dir(roots[0] if roots else None)
    event = Event(NAME, name, KINDS.get(name), cwd)
    if event.kind is None:
        return event
    event.session = as_text(payload.get("conversation_id")) or as_text(payload.get("session_id"))
    event.project = event.turns = project_dir(None, cwd)
    if event.kind == POST_WRITE:
        event.tool, event.targets = "edit", [path]
    elif event.kind == STOP:
        # a follow-up after the user aborted (or an error) would override the user;
        # `loop_count` is not a guard: the turn timer never asks twice without the
        # threshold of work in between
        event.aborted = payload.get("status", "completed") != "completed"
    elif event.kind == PROMPT:
        event.prompt = payload.get("prompt") if isinstance(payload.get("prompt"), str) else None
    return event


def _roots(value: object) -> list[str]:
    import os

    if not isinstance(value, list):
        return []
    return [os.path.realpath(v) for v in value if isinstance(v, str) and v and os.path.isdir(v)]


def render(event: Event, answer: Answer | None) -> tuple[str | None, int]:
    if event.kind == PROMPT:
        return CONTINUE, 0  # never hold a prompt back
    if answer is None:
        return None, 0
    out: dict[str, Any] | None = None
    if answer.decision == "block" and event.kind == STOP:
        out = {"followup_message": answer.reason}
    elif answer.context and event.kind == SESSION_START:
        out = {"additional_context": answer.context}
    elif answer.context:  # afterFileEdit: no channel to the agent; the user sees stderr
        import sys

        from ...fs.access import show

        text = "\n".join(map(show, answer.context.rstrip().splitlines()))
        sys.stderr.write(f"asimov-hooks agent-event: {text}\n")
    if out is None:
        return None, 0
    import json

    return json.dumps(out, ensure_ascii=False) + "\n", 0
