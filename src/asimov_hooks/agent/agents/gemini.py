"""Gemini CLI: hook JSON on stdin, its JSON on stdout, always exit 0.

Events (geminicli.com/docs/hooks and /docs/hooks/reference; google-gemini/gemini-cli):
- BeforeTool / AfterTool on `write_file` (`tool_input.file_path`, `content`) and
  `replace` (`file_path`, `old_string`, `new_string`, `allow_multiple`: exactly one
  occurrence unless set). A relative `file_path` is relative to the directory the
  session started in (Gemini CLI's project root is that directory).
  A deny is `{"decision": "deny", "reason": ...}`: the reason reaches the agent as the
  tool's error and the turn goes on. A write_file or replace whose result the rolling
  window would trim gets `hookSpecificOutput.tool_input`: all of the model's arguments
  (Gemini CLI 0.61.0 validates the object as the whole set of arguments), with the
  trimmed content, or replace's old_string the whole current file and new_string the
  trimmed file. AfterTool's `hookSpecificOutput.additionalContext`
  is appended to the tool result; BeforeTool has no context field.
- BeforeTool / AfterTool on `run_shell_command` (`tool_input.command`): the protocol
  files' state before the command, compared after it (`agent.runtime.shellwatch`).
- AfterAgent (once per turn, after the final response): `{"decision": "deny",
  "reason": ...}` rejects the response and sends the reason to the agent as a new
  prompt (which runs BeforeAgent again with that prompt). `stop_hook_active` is not
  read: the turn timer guards against loops.
- BeforeAgent `prompt`.
- SessionStart `source`: startup, resume, clear (no compaction source);
  `hookSpecificOutput.additionalContext` is added to the session.
- PreCompress `trigger` (manual, auto): advisory, its output is ignored, and no
  SessionStart follows a compression. Gemini CLI 0.61.0 fires it with `auto` before
  every model request, before it checks whether the history needs compressing, so
  only `manual` (/compress, which always compresses) says a compression happens: that
  one is recorded, and the next BeforeAgent hands the checkpoint back (its
  `additionalContext` reaches the model), once.
- $GEMINI_PROJECT_DIR (and $GEMINI_CWD, $CLAUDE_PROJECT_DIR): the session's working
  directory, the payload's `cwd` (not the repository's top level), set for every
  hook command.
"""

from ..runtime.model import (
    CLEAR,
    POST_SHELL,
    POST_WRITE,
    PRE_COMPACT,
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

NAME = "gemini"
USAGE = (
    "Gemini CLI: BeforeTool, AfterTool (write_file, replace, run_shell_command), BeforeAgent, "
    "AfterAgent, SessionStart, PreCompress"
)
# a failed hook that does not stop the agent: exit 1 is a non-blocking warning; any
# other non-zero status denies the tool call
EXIT_FAILED = 1
PROJECT_ENV = "GEMINI_PROJECT_DIR"
FILE_TOOLS = frozenset({"write_file", "replace"})
SHELL_TOOL = "run_shell_command"
KINDS = {
    "BeforeTool": PRE_WRITE,
    "AfterTool": POST_WRITE,
    "AfterAgent": STOP,
    "BeforeAgent": PROMPT,
    "SessionStart": SESSION_START,
    "PreCompress": PRE_COMPACT,
}
SOURCES = {"startup": STARTUP, "resume": RESUME, "clear": CLEAR}
CONTEXT_EVENTS = frozenset(
    {POST_WRITE, POST_SHELL, SESSION_START, PROMPT}
)  # where additionalContext is read


def normalize(payload: "dict[str, Any]") -> "Event":
    tools = (SHELL_TOOL, FILE_TOOLS)
    # the file tools resolve a relative path against the session's start directory
    # (Gemini CLI's project root), not the hook's cwd
    event = tool_event(
        payload, NAME, KINDS, PROJECT_ENV, tools, SOURCES, _change, paths_from_project=True
    )
    if event.edits:  # a file tool's write, before it runs
        event.rewriter = _rewriter(event.tool, event.tool_input, event.targets[0])
    elif event.kind == PRE_COMPACT and event.source != "manual":
        event.handback = None  # `auto` comes before every model request: not a compression
    return event


def _change(tool: str, tool_input: "dict[str, Any]") -> "ToolChange":
    return ToolChange(tool, tool_input, writer="write_file", replace_all="allow_multiple")


def _rewriter(tool: str, tool_input: "dict[str, Any]", path: str) -> "Any":
    """The same tool leaving the content the core asks for: write_file carries it,
    replace replaces the whole current text (which keeps the current final newline,
    or its lack, as replace does). Nothing is imported until a file is trimmed."""

    def build(plans: dict[str, tuple[str | None, str]]) -> "Any":
        from ..runtime import rewrite

        if tool == "write_file":
            return rewrite.whole(tool_input, path, plans, "content")
        keys = ("old_string", "new_string")
        return rewrite.replace(tool_input, path, plans, keys, keeps_newline=True)

    return build


def render(event: "Event", answer: "Answer | None") -> tuple[str | None, int]:
    if answer is None:
        return None, 0
    out: dict[str, Any] | None = None
    if (answer.decision == "deny" and event.kind == PRE_WRITE) or (
        answer.decision == "block" and event.kind == STOP
    ):
        out = {"decision": "deny", "reason": answer.reason}
    elif answer.updated is not None and event.kind == PRE_WRITE:
        # all of the model's arguments, changed: the documentation says the object is
        # merged over them, but Gemini CLI 0.61.0 validates it as the whole set of
        # arguments ("params must have required property 'file_path'")
        out = specific(event, tool_input=answer.updated)
    elif answer.context and event.kind in CONTEXT_EVENTS:
        out = specific(event, additionalContext=answer.context)
    return answer_line(out)
