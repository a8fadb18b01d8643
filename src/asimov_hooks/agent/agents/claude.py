"""Claude Code: hook JSON on stdin, the documented JSON on stdout, always exit 0.

Events (Claude Code hooks reference, code.claude.com/docs/en/hooks):
- PreToolUse / PostToolUse on Bash (`tool_input.command`): the protocol files' state
  before the command, compared after it (`agent.runtime.shellwatch`).
- PreToolUse / PostToolUse on Write (`tool_input.content`), Edit (`old_string`,
  `new_string`, `replace_all`) and MultiEdit (`edits`), `tool_input.file_path`
  absolute. A deny is `hookSpecificOutput.permissionDecision: "deny"` with
  `permissionDecisionReason` (shown to Claude); context for Claude is
  `hookSpecificOutput.additionalContext` (PreToolUse, PostToolUse, SessionStart).
  Exit 2 would refuse too, but the JSON keeps the refusal to this one tool call.
  A Write, Edit or MultiEdit whose result the rolling window would trim gets
  `updatedInput`, the same tool leaving the trimmed content (a Write carries it; an
  Edit replaces the whole current file, which occurs once, with it; a MultiEdit
  becomes one such edit), with no `permissionDecision`: Claude Code then runs the
  changed call through the user's own permission rules and mode, exactly as it would
  have run the model's (allowed where a rule or the mode allows the tool, asked where
  it would ask, refused where it would refuse: default, acceptEdits, plan, dontAsk,
  bypassPermissions alike). "allow" would skip the user's rules and prompts; "ask"
  is a refusal in a headless session. The items the trim cuts are archived only when
  the PostToolUse of the write finds the trimmed content on disk (`runtime.held`).
- Stop: `hookSpecificOutput.additionalContext` is "non-error feedback delivered to
  the model; the conversation continues so the model can act on it" (Claude Code
  2.1.163 and later). `{"decision": "block", "reason": ...}` also continues the turn,
  but Claude is shown it as "Stop hook blocking error from command ...": an error,
  not a request. `stop_hook_active` is not read: the turn timer guards against loops.
- SessionStart `source`: startup, resume, clear, compact, and fork (a session that
  begins as a fork of another, reported as resume before Claude Code 2.1.214).
- UserPromptSubmit `prompt`. Claude Code also runs it for what no one typed: the
  `<task-notification>...</task-notification>` message that tells Claude a background
  task (a background command, a subagent) has finished. Such a prompt, the whole
  prompt one envelope, is not a new turn: it is read as no prompt at all.
- $CLAUDE_PROJECT_DIR: the project root, set for every hook command.
- Cursor runs the hooks of `.claude/settings.json` too (cursor.com/docs/reference/
  third-party-hooks), with its own payload. Such an event carries Cursor's documented
  common fields (`cursor_version`; `conversation_id` with `workspace_roots`), which
  Claude Code never sends: the Claude Code hook stands aside and answers nothing, so
  that the Cursor hooks (`.cursor/hooks.json`) answer each event once. The
  environment (`CURSOR_VERSION`) is not used: Claude Code started from a Cursor
  terminal may inherit it.
"""

from ..runtime.model import (
    CLEAR,
    COMPACT,
    FORK,
    POST_WRITE,
    PRE_COMPACT,
    PRE_WRITE,
    PROMPT,
    RESUME,
    SESSION_START,
    STARTUP,
    STOP,
    Event,
)
from ..runtime.payload import answer_line, specific, tool_event

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..runtime.model import Answer

NAME = "claude"
USAGE = (
    "Claude Code: PreToolUse, PostToolUse (Write, Edit, MultiEdit, Bash), SessionStart, Stop, "
    "UserPromptSubmit, PreCompact"
)
# a failed hook that does not stop the agent: any exit but 0 and 2 is a "non-blocking
# error" (stderr shown to the user, the tool call goes on); 2 would block it
EXIT_FAILED = 1
PROJECT_ENV = "CLAUDE_PROJECT_DIR"
FILE_TOOLS = frozenset({"Write", "Edit", "MultiEdit"})
SHELL_TOOL = "Bash"
KINDS = {
    "PreToolUse": PRE_WRITE,
    "PostToolUse": POST_WRITE,
    "Stop": STOP,
    "UserPromptSubmit": PROMPT,
    "SessionStart": SESSION_START,
    "PreCompact": PRE_COMPACT,
}
SOURCES = {"startup": STARTUP, "resume": RESUME, "clear": CLEAR, "compact": COMPACT, "fork": FORK}


def stands_aside(payload: "dict[str, Any]") -> bool:
    """Whether the event is Cursor's (it runs Claude Code's hooks too): then nothing
    is said, the Cursor hooks answer it."""
    if payload.get("cursor_version") is not None:
        return True
    return "conversation_id" in payload and "workspace_roots" in payload


def normalize(payload: "dict[str, Any]") -> "Event":
    tools = (SHELL_TOOL, FILE_TOOLS)
    event = tool_event(payload, NAME, KINDS, PROJECT_ENV, tools, SOURCES, _change)
    if event.edits:  # a file tool's write, before it runs
        event.rewriter = _rewriter(event.tool, event.tool_input, event.targets[0])
    elif event.kind == PROMPT and event.prompt is not None and _notification(event.prompt):
        event.prompt = None  # a background task's report, not a prompt anyone typed
    return event


def _notification(prompt: str) -> bool:
    """Whether the prompt is one task notification, nothing around it."""
    text = prompt.strip()
    head, tail = "<task-notification>", "</task-notification>"
    return text.startswith(head) and text.endswith(tail) and text.count(head) == 1


def _change(tool: str, tool_input: "dict[str, Any]") -> "Any":
    return _Change(tool, tool_input)


class _Change:
    """A Write's, Edit's or MultiEdit's effect, worked out only when the file is a
    protocol file (the simulation is not imported on the path of every other edit)."""

    __slots__ = ("tool", "tool_input")

    def __init__(self, tool: str, tool_input: "dict[str, Any]") -> None:
        self.tool, self.tool_input = tool, tool_input

    def apply(self, current: str | None, limit: int) -> str | None:
        from ..runtime.simulate import Replace, Write

        if self.tool == "Write":
            change: Any = Write(self.tool_input.get("content"))
        elif self.tool == "Edit":
            change = Replace([self.tool_input])
        else:
            change = Replace(self.tool_input.get("edits"), multi=True)
        return change.apply(current, limit)


def _rewriter(tool: str, tool_input: "dict[str, Any]", path: str) -> "Any":
    """The same tool leaving the content the core asks for (`updatedInput` keeps the
    tool): a Write carries it, an Edit or MultiEdit replaces the whole current text.
    Nothing is imported until a protocol file is trimmed."""

    def build(plans: dict[str, tuple[str | None, str]]) -> "Any":
        from ..runtime import rewrite

        if tool == "Write":
            return rewrite.whole(tool_input, path, plans, "content")
        if tool == "Edit":
            keys = ("old_string", "new_string")
            return rewrite.replace(tool_input, path, plans, keys, reset={"replace_all": False})
        return rewrite.edits(tool_input, path, plans)

    return build


def render(event: "Event", answer: "Answer | None") -> tuple[str | None, int]:
    if answer is None:
        return None, 0
    if event.kind == PRE_COMPACT:
        # a PreCompact hook's plain stdout becomes custom instructions of the summary
        # (Claude Code 2.1.332: `newCustomInstructions`); no JSON, no exit 2 (a block
        # would stop the compaction the conversation needs)
        return (answer.context + "\n" if answer.context else None), 0
    out: dict[str, Any] | None = None
    if answer.decision == "deny" and event.kind == PRE_WRITE:
        out = specific(event, permissionDecision="deny", permissionDecisionReason=answer.reason)
    elif answer.updated is not None and event.kind == PRE_WRITE:
        # the same tool leaving the trimmed content (ADR-007: trim before the write),
        # with no permissionDecision: the user's own rules and mode judge the changed
        # call as they would have judged the model's
        extra = {"additionalContext": answer.context} if answer.context else {}
        out = specific(event, updatedInput=answer.updated, **extra)
    elif answer.decision == "block" and event.kind == STOP:
        # non-error feedback that keeps the turn going (Claude Code 2.1.163 and later);
        # `decision: "block"` would reach Claude as "Stop hook blocking error from command"
        out = specific(event, additionalContext=answer.reason)
    elif answer.context:
        # no permissionDecision with it: the user's own permission flow goes on
        out = specific(event, additionalContext=answer.context)
    return answer_line(out)
