"""The agent-neutral event and answer that adapters (`agent.agents.*`) and the core
(`agent.runtime.core`) exchange; see `agent.agents` for the contract.

Plain classes with slots, not dataclasses: this module is on the path of every file
edit an agent makes, and `dataclasses` imports `re` and `inspect`.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable, Iterable
    from typing import Any, Protocol

    class Change(Protocol):
        """What a tool will do to one file: the text it leaves, worked out from the
        current text (None: no such file). Returns None when the file is deleted;
        raises simulate.CannotSimulate when the tool would fail by itself."""

        def apply(self, current: str | None, limit: int) -> str | None: ...

    Rewriter = Callable[
        [dict[str, tuple[str | None, str]]], tuple[dict[str, Any], Iterable[str]] | None
    ]


# the kinds of event the core handles
PRE_WRITE = "pre_write"  # a tool is about to write file(s): may be denied
POST_WRITE = "post_write"  # a tool wrote file(s): trim, check, report
STOP = "stop"  # the agent's turn ends: the unified turn timer
PROMPT = "prompt"  # a prompt reaches the agent: a real one starts a turn
SESSION_START = "session_start"  # a session starts (or restarts: see RESTART_SOURCES)
PRE_SHELL = "pre_shell"  # a shell command is about to run: note the protocol files' state
POST_SHELL = "post_shell"  # a shell command ran: trim, check, report what it changed
PRE_COMPACT = "pre_compact"  # the conversation is about to be compacted
KINDS = (PRE_WRITE, POST_WRITE, STOP, PROMPT, SESSION_START, PRE_SHELL, POST_SHELL, PRE_COMPACT)

# session-start sources, as adapters name them (each maps its agent's own words)
STARTUP, RESUME, CLEAR, COMPACT, FORK = "startup", "resume", "clear", "compact", "fork"
# a conversation that continues with less in context than it had: re-read the
# checkpoint for the agent and ask it for a fresh one
RESTART_SOURCES = frozenset({RESUME, COMPACT, FORK})


class Edit:
    """One file a pre_write will change: `path` gets what `change` leaves when applied
    to the text of `source` (the same file, or the file a move takes it from)."""

    __slots__ = ("change", "path", "source")

    def __init__(self, path: str, change: "Change", source: str | None = None) -> None:
        self.path, self.change, self.source = path, change, source or path


class Event:
    """One hook event, as the core sees it. Adapters fill what their event carries."""

    __slots__ = (
        "aborted",
        "agent",
        "cap",
        "cwd",
        "edits",
        "handback",
        "kind",
        "name",
        "project",
        "prompt",
        "rewriter",
        "session",
        "shell",
        "source",
        "targets",
        "tool",
        "tool_input",
        "tool_use",
        "turns",
    )

    def __init__(self, agent: str, name: str, kind: str | None, cwd: str) -> None:
        self.agent = agent  # adapter name: claude, codex, ...
        self.name = name  # the agent's own event name, for messages
        self.kind = kind  # one of KINDS; None: an event asimov-hooks does not handle
        self.cwd = cwd  # the agent's working directory (an existing directory)
        self.project = cwd  # the project root: the git top level of cwd (governed files)
        self.turns = cwd  # where the session's turn state is kept (the declared root)
        self.session: str | None = None  # the agent's session (conversation) id
        self.tool = ""  # the tool's name, for messages ("Write", "apply_patch")
        self.targets: list[str] = []  # absolute paths a write event touches
        self.edits: list[Edit] = []  # pre_write: what each target will hold
        self.aborted = False  # stop: the user aborted the turn (or it failed): never continue it
        # stop: at most this many checkpoint requests after one real prompt (None: the
        # turn timer alone), for an agent whose own loop count cannot be relied on
        self.cap: int | None = None
        self.source: str | None = None  # session_start: STARTUP, RESUME, ... or the agent's word
        # pre_compact: where the re-read after the compaction is handed back when no
        # session start after it does: "prompt" (the next prompt hook's context) or
        # "stop" (the agent's prompt hook cannot add context: the next stop asks for
        # a checkpoint instead), or None (the event does not say a compaction happens);
        # pre_compact's own `source` is its trigger (manual, auto)
        self.handback: str | None = "prompt"
        # prompt: the text submitted; None where no one typed one (an adapter says which
        # prompts its agent makes itself)
        self.prompt: str | None = None
        self.shell: str | None = None  # pre_shell / post_shell: the command's text
        self.tool_input: dict[str, Any] = {}  # the tool's input as the agent sent it
        # pre_write, where the agent takes a changed tool input: given {path: (its
        # current text or None, the content it should get instead)}, the input that
        # leaves exactly that and the paths it carries, or None when this call cannot
        # (a trim before the write: `agent.runtime.pretrim`, `Answer.updated`)
        self.rewriter: Rewriter | None = None
        self.tool_use: str | None = None  # the tool call's id, when the agent gives one


class Answer:
    """What the core wants the agent told. `decision`: "allow" (go on; `context`, if
    any, is for the agent to read), "deny" (refuse the write; `reason` says why), or
    "block" (do not end the turn; `reason` is the agent's next instruction)."""

    __slots__ = ("context", "decision", "reason", "updated")

    def __init__(
        self,
        decision: str = "allow",
        reason: str = "",
        context: str = "",
        updated: "dict[str, Any] | None" = None,
    ) -> None:
        self.decision, self.reason, self.context = decision, reason, context
        # "allow" on a pre_write: the tool input the agent runs instead (its result
        # trimmed before the write), as `Event.rewriter` built it
        self.updated = updated

    def __repr__(self) -> str:
        return f"Answer({self.decision!r}, reason={self.reason!r}, context={self.context!r})"


def as_text(value: "Any") -> str | None:
    """A non-empty string from a payload field, else None."""
    return value if isinstance(value, str) and value else None


class ToolChange:
    """What one call of a file tool leaves (a `Change`), for the agents whose write tool
    takes `content` and whose edit tool takes `old_string` / `new_string` (Gemini CLI
    write_file / replace, Qwen Code write_file / edit): `writer` names the write tool,
    `replace_all` the edit tool's flag for replacing every occurrence. The simulation is
    imported only when a protocol file's change is worked out, not on every edit."""

    __slots__ = ("replace_all", "tool", "tool_input", "writer")

    def __init__(
        self, tool: str, tool_input: "dict[str, Any]", *, writer: str, replace_all: str
    ) -> None:
        self.tool, self.tool_input = tool, tool_input
        self.writer, self.replace_all = writer, replace_all

    def apply(self, current: str | None, limit: int) -> str | None:
        from .simulate import Replace, Write

        if self.tool == self.writer:
            return Write(self.tool_input.get("content")).apply(current, limit)
        edit = {
            "old_string": self.tool_input.get("old_string"),
            "new_string": self.tool_input.get("new_string"),
            "replace_all": self.tool_input.get(self.replace_all) is True,
        }
        return Replace([edit]).apply(current, limit)
