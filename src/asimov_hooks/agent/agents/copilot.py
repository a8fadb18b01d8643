"""GitHub Copilot CLI: hook JSON on stdin, its JSON on stdout, always exit 0.

Events (docs.github.com: "Hooks configuration" and "GitHub Copilot CLI hooks
reference"; `.github/hooks/*.json`, `"version": 1`, command hooks with `bash`):
- The payload names no event: each event's documented fields tell them apart
  (`toolResult`: postToolUse; `toolName`: preToolUse; `prompt`: userPromptSubmitted;
  `source`: sessionStart; `error`: errorOccurred; `reason`: sessionEnd; none of
  these: agentStop). A `hookEventName` / `hook_event_name`, when a version sends
  one, wins. Every payload carries `timestamp` and `cwd`; `sessionId` where given.
- preToolUse / postToolUse: `toolName` and `toolArgs`, a JSON string as documented
  (Copilot CLI 1.0.102 sends an object: both are read). `create` (`path`,
  `file_text`), `edit` (`path`, `old_str`, `new_str`: exactly one occurrence), `bash` (`command`: the protocol files' state before the
  command, compared after it). A deny is `{"permissionDecision": "deny",
  "permissionDecisionReason": ...}`. A create or edit whose result the rolling window
  would trim gets `modifiedArgs` (the hooks reference: "substitute tool arguments"):
  the trimmed `file_text`, or `old_str` the whole current file and `new_str` the
  trimmed file, with no decision (the user's own permission flow goes on). What is
  still wrong after the write goes as postToolUse's `additionalContext` (the hooks
  reference calls this output ignored; 1.0.102 appends it to the tool's result) and to
  stderr (the hook log).
- agentStop: `{"decision": "block", "reason": ...}` keeps the agent working with
  the reason as its next instruction; the turn timer is the loop guard.
- sessionStart `source`: new, startup, resume (`additionalContext`, the SDK's field,
  carries the re-read checkpoint after a resume).
- userPromptSubmitted `prompt` (its output is ignored: nothing is written).
- preCompact (`trigger`: manual, auto), before the conversation is compacted: its
  output is not read, no sessionStart follows, and userPromptSubmitted's output is
  ignored, so nothing can hand the checkpoint back. The compaction is recorded and the
  next agentStop asks for a fresh checkpoint, whatever the turn timer says.
- sessionEnd, errorOccurred: nothing to do.
- The project is the git top level of `cwd` (1.0.102 also sets `COPILOT_PROJECT_DIR`,
  which the documentation does not name).
"""

from ..runtime.model import (
    POST_WRITE,
    PRE_COMPACT,
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
    log_context,
    project_dir,
    shell_event,
    tool_name,
    turn_root,
    working_dir,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..runtime.model import Answer

NAME = "copilot"
USAGE = (
    "GitHub Copilot CLI: preToolUse, postToolUse (create, edit, bash), agentStop, "
    "userPromptSubmitted, sessionStart, preCompact"
)
# a failed hook that does not stop the agent: 0. A command preToolUse hook fails
# closed: any non-zero exit (a crash, exit 1 or 2) denies the tool call
EXIT_FAILED = 0
FILE_TOOLS = frozenset({"create", "edit"})
SHELL_TOOL = "bash"
KINDS = {
    "preToolUse": PRE_WRITE,
    "postToolUse": POST_WRITE,
    "agentStop": STOP,
    "userPromptSubmitted": PROMPT,
    "sessionStart": SESSION_START,
    "preCompact": PRE_COMPACT,
    "sessionEnd": None,
    "errorOccurred": None,
}
SOURCES = {"new": STARTUP, "startup": STARTUP, "resume": RESUME}


def event_name(payload: "dict[str, Any]") -> str:
    """The event a payload belongs to, from its documented fields."""
    for key in ("hookEventName", "hook_event_name"):
        named = payload.get(key)
        if isinstance(named, str) and named:
            return named
    if "toolResult" in payload:
        return "postToolUse"
    if "toolName" in payload:
        return "preToolUse"
    if "prompt" in payload:
        return "userPromptSubmitted"
    if "source" in payload:
        return "sessionStart"
    if "trigger" in payload:
        return "preCompact"
    if "error" in payload:
        return "errorOccurred"
    if "reason" in payload:
        return "sessionEnd"
    if "cwd" in payload or "timestamp" in payload:
        return "agentStop"
    raise EventError("stdin JSON is not a GitHub Copilot CLI hook event (no cwd, no timestamp)")


def normalize(payload: "dict[str, Any]") -> "Event":
    name = event_name(payload)
    cwd = working_dir(payload.get("cwd"))
    event = Event(NAME, name, KINDS.get(name), cwd)
    if event.kind is None:
        return event
    event.session = as_text(payload.get("sessionId")) or as_text(payload.get("session_id"))
    event.project = project_dir(None, cwd)
    event.turns = turn_root(None, event.project)
    if event.kind in (PRE_WRITE, POST_WRITE):
        tool = tool_name(payload, "toolName")
        args = _args(payload.get("toolArgs"), tool)
        if tool == SHELL_TOOL:
            return shell_event(event, payload, args.get("command"))
        if tool not in FILE_TOOLS:
            return event  # another tool: nothing to govern
        path = absolute(args.get("path"), cwd, f"{tool} toolArgs.path")
        event.tool, event.targets = tool, [path]
        if event.kind == PRE_WRITE:
            event.edits = [Edit(path, _ToolChange(tool, args))]
            event.tool_input = args
            event.rewriter = _rewriter(tool, args, path)
    elif event.kind == SESSION_START:
        source = as_text(payload.get("source"))
        event.source = SOURCES.get(source, source) if source else None
    elif event.kind == PRE_COMPACT:
        event.source = as_text(payload.get("trigger"))
        event.handback = "stop"  # userPromptSubmitted's output is ignored
    elif event.kind == PROMPT:
        event.prompt = payload.get("prompt") if isinstance(payload.get("prompt"), str) else None
    return event


def _args(value: object, tool: object) -> "dict[str, Any]":
    """`toolArgs`: a JSON string as documented (an object is taken as it is)."""
    if isinstance(value, dict):
        return value
    if value is None or (tool not in FILE_TOOLS and tool != SHELL_TOOL):
        return {}
    if not isinstance(value, str):
        raise EventError(f"{tool} event whose toolArgs is neither a JSON string nor an object")
    from ...readers.fastjson import loads  # strict and depth-bounded, as the event itself

    try:
        parsed = loads(value)
    except ValueError:
        raise EventError(f"{tool} event whose toolArgs is not valid JSON") from None
    if not isinstance(parsed, dict):
        raise EventError(f"{tool} event whose toolArgs is not a JSON object")
    return parsed


def _rewriter(tool: str, args: "dict[str, Any]", path: str) -> "Any":
    """The same tool leaving the content the core asks for (`modifiedArgs`): create
    carries it, edit replaces the whole current text (of an existing file)."""

    def build(plans: dict[str, tuple[str | None, str]]) -> "Any":
        from ..runtime import rewrite

        if tool == "create":  # of a new file only: create does not overwrite one
            if path in plans and plans[path][0] is not None:
                return None
            return rewrite.whole(args, path, plans, "file_text")
        # keeps_newline: exact whichever way edit treats a final newline (unverified)
        keys = ("old_str", "new_str")
        return rewrite.replace(args, path, plans, keys, create=False, keeps_newline=True)

    return build


class _ToolChange:
    """What create or edit leaves (`agent.runtime.model.Change`)."""

    __slots__ = ("args", "tool")

    def __init__(self, tool: str, args: "dict[str, Any]") -> None:
        self.tool, self.args = tool, args

    def apply(self, current: str | None, limit: int) -> str | None:
        from ..runtime.simulate import Replace, Write

        if self.tool == "create":
            return Write(self.args.get("file_text")).apply(current, limit)
        edit = {"old_string": self.args.get("old_str"), "new_string": self.args.get("new_str")}
        return Replace([edit]).apply(current, limit)


def render(event: "Event", answer: "Answer | None") -> tuple[str | None, int]:
    if answer is None:
        return None, 0
    if event.kind == PRE_COMPACT:
        return None, 0  # no field of this event's output reaches the model or the summary
    out: dict[str, Any] | None = None
    if answer.decision == "deny" and event.kind == PRE_WRITE:
        out = {"permissionDecision": "deny", "permissionDecisionReason": answer.reason}
    elif answer.updated is not None and event.kind == PRE_WRITE:
        # the same tool leaving the trimmed content; no permissionDecision with it:
        # the user's own permission flow goes on
        out = {"modifiedArgs": answer.updated}
        if answer.context:
            out["additionalContext"] = answer.context
    elif answer.decision == "block" and event.kind == STOP:
        out = {"decision": "block", "reason": answer.reason}
    elif answer.context and event.kind != PROMPT:
        if event.kind != SESSION_START:  # the hook log too (a version may ignore the output)
            log_context(answer.context)
        out = {"additionalContext": answer.context}
    return answer_line(out)
