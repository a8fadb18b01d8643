"""Cursor: hook JSON on stdin, its JSON on stdout, always exit 0.

Events (cursor.com/docs/hooks, `.cursor/hooks.json` version 1; project hooks run
from the project root):
- preToolUse (matcher `Write|StrReplace`: Cursor's file-editing tool type, and the
  tool name a replacement comes with): `tool_name`,
  `tool_input`, `tool_use_id`, `cwd`. A deny is `{"permission": "deny",
  "agent_message": ..., "user_message": ...}`: the tool does not run and the agent
  reads why. The documentation gives no field list for the Write tool's input, so
  two forms are read: the whole new content (`file_path` or `path`, with `content`
  or `contents`) and an exact replacement (`old_string`, `new_string`,
  `replace_all`). Any other form is not judged before the write; the repair after
  it still runs. A write whose input names no file at all (`ApplyPatch`, whose
  input Cursor does not document: projects report a free-form patch, or one under
  `patch` or `diff`) is watched as a command is: the protocol files' state before
  it, compared after it. A write is never rewritten (`updated_input` would need the
  tool's input shape).
- postToolUse (same matcher): `additional_context` goes to the agent: the file is
  repaired (the trim) and what is still wrong is said to the agent.
- preToolUse / postToolUse on `Shell` (`tool_input.command`): the protocol files' state
  before the command, compared after it (`agent.runtime.shellwatch`); what it changed
  is trimmed, checked and reported to the agent (`additional_context`).
- afterFileEdit: `file_path` (absolute), `edits`; no output is documented: the
  file is repaired and what is still wrong goes to stderr (Cursor's Hooks output
  channel). Installed before postToolUse existed; still read when a setting runs it.
- stop: `status` (completed, aborted, error), `loop_count`. `{"followup_message":
  ...}` is submitted as the next user message (it reaches beforeSubmitPrompt, where
  it changes no turn state). Only a completed loop is continued. `loop_count` is not
  read: the turn timer never asks twice without the threshold of work in between,
  and at most FOLLOWUP_CAP requests follow one real prompt (counted in our state,
  reset by beforeSubmitPrompt), whatever Cursor counts. The stop entry is installed
  with `loop_limit: null` so that Cursor's own per-script cap does not end the
  requests of a long conversation.
- beforeSubmitPrompt: `prompt`; the answer is always `{"continue": true}`.
- sessionStart: `additional_context` is added to the conversation. The documented
  payload (`session_id`, `is_background_agent`, `composer_mode`) carries no source;
  a `source` field, when a version sends one, is read like Claude Code's (resume and
  compact re-read the checkpoint); without one it is a plain start: nothing to say.
- Every event carries `conversation_id` and `workspace_roots` (preToolUse and
  postToolUse also `cwd`): the project is the workspace root holding the file (else
  the first root).
"""

from ..runtime.model import (
    CLEAR,
    COMPACT,
    POST_WRITE,
    PRE_SHELL,
    PRE_WRITE,
    PROMPT,
    RESUME,
    SESSION_START,
    STARTUP,
    STOP,
    Edit,
    Event,
    as_text,
)
from ..runtime.payload import (
    EventError,
    absolute,
    answer_line,
    inside,
    log_context,
    project_dir,
    shell_event,
    working_dir,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..runtime.model import Answer

NAME = "cursor"
USAGE = (
    "Cursor: preToolUse, postToolUse (Write, StrReplace, Shell), afterFileEdit, stop, "
    "beforeSubmitPrompt, sessionStart"
)
# a failed hook that does not stop the agent: an exit other than 0 and 2 fails open
# (exit 0 with output that is not JSON would block a permission hook; 2 denies)
EXIT_FAILED = 1
KINDS = {
    "preToolUse": PRE_WRITE,
    "postToolUse": POST_WRITE,
    "afterFileEdit": POST_WRITE,
    "stop": STOP,
    "beforeSubmitPrompt": PROMPT,
    "sessionStart": SESSION_START,
}
SOURCES = {"startup": STARTUP, "resume": RESUME, "clear": CLEAR, "compact": COMPACT}
# tools that run commands or read: never a file write to judge
NOT_WRITES = frozenset({"Read", "Grep", "Task", "Glob", "LS"})
SHELL_TOOL = "Shell"
FOLLOWUP_CAP = 3  # checkpoint requests after one real prompt, at most
CONTINUE = '{"continue": true}\n'


def normalize(payload: "dict[str, Any]") -> "Event":
    name = payload.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise EventError("stdin JSON has no hook_event_name")
    kind = KINDS.get(name)
    roots = _roots(payload.get("workspace_roots"))
    # a relative path is the tool's working directory's, else the workspace root's
    declared = as_text(payload.get("cwd"))
    base = working_dir(declared if declared else (roots[0] if roots else None))
    path = None
    tool_input: dict[str, Any] = {}
    if name == "afterFileEdit":
        path = absolute(payload.get("file_path"), base, "file_path")
    elif kind in (PRE_WRITE, POST_WRITE):
        tool_input = _tool_input(payload)
        target = _path_of(tool_input)
        if target is not None:
            path = absolute(target, base, "tool_input path")
    if path is not None:
        roots = [root for root in roots if inside(path, root)] or roots
    cwd = working_dir(roots[0] if roots else None)
    event = Event(NAME, name, kind, cwd)
    if event.kind is None:
        return event
    event.session = as_text(payload.get("conversation_id")) or as_text(payload.get("session_id"))
    event.project = event.turns = project_dir(None, cwd)
    if event.kind in (PRE_WRITE, POST_WRITE):
        event.tool = as_text(payload.get("tool_name")) or "edit"
        event.tool_use = as_text(payload.get("tool_use_id"))
        if event.tool == SHELL_TOOL:  # what the command changes is caught after it
            return shell_event(event, payload, tool_input.get("command"))
        if event.tool in NOT_WRITES:
            return event  # not a file write: nothing
        if path is None:  # a write whose input names no file (an ApplyPatch patch: its
            # input is not documented): the protocol files compared before and after it
            return shell_event(event, payload, None)
        event.targets = [path]
        if event.kind == PRE_WRITE:
            change = _change(tool_input)
            if change is None:  # an input form we cannot work out: judged after the write
                event.targets = []
                return event
            event.edits = [Edit(path, change)]
            event.tool_input = tool_input
    elif event.kind == STOP:
        # a follow-up after the user aborted (or an error) would override the user
        event.aborted = payload.get("status", "completed") != "completed"
        event.cap = FOLLOWUP_CAP
    elif event.kind == PROMPT:
        event.prompt = payload.get("prompt") if isinstance(payload.get("prompt"), str) else None
    else:
        source = as_text(payload.get("source"))
        event.source = SOURCES.get(source, source) if source else STARTUP
    return event


def _roots(value: object) -> list[str]:
    import os

    if not isinstance(value, list):
        return []
    return [os.path.realpath(v) for v in value if isinstance(v, str) and v and os.path.isdir(v)]


def _tool_input(payload: "dict[str, Any]") -> "dict[str, Any]":
    """The tool's input, an object (also read when a version sends it as JSON text)."""
    value = payload.get("tool_input")
    if isinstance(value, str):
        from ...readers.fastjson import loads  # strict and depth-bounded, as the event

        try:
            value = loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def _path_of(tool_input: "dict[str, Any]") -> str | None:
    for key in ("file_path", "path"):
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _change(tool_input: "dict[str, Any]") -> "Change | None":
    """What the write does to the file: the whole content or one exact replacement;
    None for a form not worked out before the write."""
    for key in ("content", "contents"):
        if isinstance(tool_input.get(key), str):
            return Change(tool_input[key], None)
    old, new = tool_input.get("old_string"), tool_input.get("new_string")
    if isinstance(old, str) and isinstance(new, str):
        return Change(None, tool_input)
    return None


class Change:
    """The write's effect, worked out only when the file is a protocol file (the
    simulation is not imported on the path of every other edit)."""

    __slots__ = ("content", "replace")

    def __init__(self, content: str | None, replace: "dict[str, Any] | None") -> None:
        self.content, self.replace = content, replace

    def apply(self, current: str | None, limit: int) -> str | None:
        from ..runtime.simulate import Replace, Write

        if self.replace is not None:
            return Replace([self.replace]).apply(current, limit)
        return Write(self.content).apply(current, limit)


def render(event: "Event", answer: "Answer | None") -> tuple[str | None, int]:
    if event.kind == PROMPT:
        return CONTINUE, 0  # never hold a prompt back
    if answer is None:
        return None, 0
    out: dict[str, Any] | None = None
    if answer.decision == "deny" and event.kind == PRE_WRITE:
        out = {
            "permission": "deny",
            "user_message": f"asimov-hooks refused the write: {answer.reason}",
            "agent_message": answer.reason,
        }
    elif answer.decision == "block" and event.kind == STOP:
        out = {"followup_message": answer.reason}
    elif event.kind in (PRE_WRITE, PRE_SHELL):
        return None, 0  # no explicit allow: the user's own approval stays in charge
    elif answer.context and event.name == "afterFileEdit":
        # no channel to the agent here: the user's Hooks output channel
        log_context(answer.context)
    elif answer.context:  # postToolUse, sessionStart
        out = {"additional_context": answer.context}
    return answer_line(out)
