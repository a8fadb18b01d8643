"""Qwen Code: hook JSON on stdin, Claude-style JSON on stdout, always exit 0.

Events (Qwen Code hooks, `.qwen/settings.json`: its hooks page,
docs/users/features/hooks.md, and @qwen-code/qwen-code's bundled source):
- PreToolUse / PostToolUse on `write_file` (`tool_input.file_path`, `content`) and
  `edit` (`file_path`, `old_string`, `new_string`, `replace_all`: exactly one
  occurrence unless set). A deny is `hookSpecificOutput.permissionDecision: "deny"`
  with `permissionDecisionReason` (the tool call fails with it, the turn goes on);
  `hookSpecificOutput.additionalContext` reaches the model (PreToolUse, PostToolUse,
  SessionStart, UserPromptSubmit). The hooks page lists a PreToolUse
  `updatedInput`, but Qwen Code does not apply it (its PreToolUse trigger returns
  only proceed, block and context, in 0.15.10 and 0.24.4; only
  PermissionRequest's is applied, where the user would be asked): a changed input
  would be dropped, and the trim's cut items archived twice. So a write is never
  rewritten: it is trimmed right after.
- PreToolUse / PostToolUse on `run_shell_command` (`tool_input.command`): the
  protocol files' state before the command, compared after it (`agent.runtime.shellwatch`).
- Stop: `{"decision": "block", "reason": ...}` sends the reason as the next message
  and the turn goes on. `stop_hook_active` is not read: the turn timer guards.
- SessionStart `source`: startup, resume, clear, compact, branch. Qwen Code 0.24.4
  adds this event's `additionalContext` to the conversation when it starts or resumes
  a chat (`qwen -p --continue` fires `resume`) and after a compression (`compact`,
  not awaited: it joins the conversation when the hook answers); 0.15.10 discarded it.
- UserPromptSubmit `prompt`.
- PreCompact `trigger` (manual, auto): `hookSpecificOutput.additionalContext` is
  "context to include before compaction" (0.24.4). The compaction is recorded; a
  SessionStart `compact` after it gives the re-read, and where none comes, the next
  UserPromptSubmit hands the checkpoint back, once. A SessionStart `compact` with no
  PreCompact before it is an older Qwen Code's (0.15.10 has no PreCompact and drops
  SessionStart's output): the next UserPromptSubmit hands the checkpoint back, once.
- $QWEN_PROJECT_DIR (also $GEMINI_PROJECT_DIR, $CLAUDE_PROJECT_DIR): the session's
  `cwd`, set for every hook command. $QWEN_CODE_PROJECT_DIR, which hook commands
  inherit too, is Qwen Code's own runtime directory for the project, under
  `~/.qwen/projects/`: never read as the project.
"""

from ..runtime.compaction import UNLESS_PRE_COMPACT
from ..runtime.model import (
    CLEAR,
    COMPACT,
    FORK,
    POST_SHELL,
    POST_WRITE,
    PRE_COMPACT,
    PRE_SHELL,
    PRE_WRITE,
    PROMPT,
    RESUME,
    SESSION_START,
    STARTUP,
    STOP,
    Event,
    ToolChange,
)
from ..runtime.payload import answer_line, specific, tool_event

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..runtime.model import Answer

NAME = "qwen"
USAGE = (
    "Qwen Code: PreToolUse, PostToolUse (write_file, edit, run_shell_command), "
    "SessionStart, Stop, UserPromptSubmit, PreCompact"
)
# a failed hook that does not stop the agent: exit 1 (and any other but 0 and 2) is a
# non-blocking error; 2 blocks
EXIT_FAILED = 1
PROJECT_ENV = "QWEN_PROJECT_DIR"
FILE_TOOLS = frozenset({"write_file", "edit"})
SHELL_TOOL = "run_shell_command"
KINDS = {
    "PreToolUse": PRE_WRITE,
    "PostToolUse": POST_WRITE,
    "Stop": STOP,
    "UserPromptSubmit": PROMPT,
    "SessionStart": SESSION_START,
    "PreCompact": PRE_COMPACT,
}
SOURCES = {
    "startup": STARTUP,
    "resume": RESUME,
    "clear": CLEAR,
    "compact": COMPACT,
    "branch": FORK,
}
CONTEXT_EVENTS = frozenset(
    {PRE_WRITE, POST_WRITE, PRE_SHELL, POST_SHELL, SESSION_START, PROMPT, PRE_COMPACT}
)


def normalize(payload: "dict[str, Any]") -> "Event":
    tools = (SHELL_TOOL, FILE_TOOLS)
    event = tool_event(payload, NAME, KINDS, PROJECT_ENV, tools, SOURCES, _change)
    if event.kind == SESSION_START and event.source == COMPACT:
        # a version that fires PreCompact (0.24.4) adds this answer to the conversation;
        # one that does not (0.15.10) drops it: then the next prompt hands it back
        event.handback = UNLESS_PRE_COMPACT
    return event


def _change(tool: str, tool_input: "dict[str, Any]") -> "ToolChange":
    return ToolChange(tool, tool_input, writer="write_file", replace_all="replace_all")


def render(event: "Event", answer: "Answer | None") -> tuple[str | None, int]:
    if answer is None:
        return None, 0
    out: dict[str, Any] | None = None
    if answer.decision == "deny" and event.kind == PRE_WRITE:
        out = specific(event, permissionDecision="deny", permissionDecisionReason=answer.reason)
    elif answer.decision == "block" and event.kind == STOP:
        out = {"decision": "block", "reason": answer.reason}
    elif answer.context and event.kind in CONTEXT_EVENTS:
        out = specific(event, additionalContext=answer.context)
    return answer_line(out)
