"""Where each agent reads its project hooks, and which of its events we install.

One row per agent with command hooks: its settings file (per scope), the events with
the matcher each takes (None: the event has no matcher, or we want all of them), and
the shape of a hook entry. Claude Code, Codex CLI, Gemini CLI and Qwen Code nest
entries in matcher groups (`{"matcher": …, "hooks": [entry]}`); Cursor and GitHub
Copilot CLI list entries directly under the event (Copilot's command is in `bash`,
not `command`; a Cursor entry carries its own `matcher`, and fields of one event such
as the stop's `loop_limit`). The installed command is `asimov-hooks agent-event
--agent NAME`. `retired`: events an earlier version installed and this one does not;
install takes our entries out of them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any


class Agent:
    """One agent's hook contract as the install sees it."""

    def __init__(
        self,
        name: str,
        title: str,
        files: dict[str, str],
        events: tuple[tuple[str, str | None], ...],
        *,
        grouped: bool = True,
        entry_extra: dict[str, Any] | None = None,
        new_file: dict[str, Any] | None = None,
        comments: bool = False,
        key: str = "command",
        extras: dict[str, dict[str, Any]] | None = None,
        retired: tuple[str, ...] = (),
    ) -> None:
        self.name, self.title, self.files, self.events = name, title, files, events
        self.extras = extras or {}  # event -> fields of our entry for that event
        self.retired = retired
        self.grouped = grouped
        self.entry_extra = entry_extra or {}
        self.new_file = new_file or {}
        self.comments = comments  # the agent reads its file as JSON with comments
        self.key = key  # the entry's field holding the command line

    def entry(self, command: str) -> dict[str, Any]:
        """Our hook entry, keys in the order the agent's documentation shows them."""
        if not self.grouped:
            if self.key == "command":
                return {"command": command}
            return {"type": "command", self.key: command, **self.entry_extra}
        return {**self.entry_extra, "type": "command", "command": command}

    def group(self, matcher: str | None, command: str, event: str = "") -> dict[str, Any]:
        """What goes into the event's list: a matcher group, or the bare entry (with
        its matcher and the event's own fields)."""
        if not self.grouped:
            entry = self.entry(command)
            if matcher is not None:
                entry["matcher"] = matcher
            entry.update(self.extras.get(event, {}))
            return entry
        group: dict[str, Any] = {"matcher": matcher} if matcher is not None else {}
        group["hooks"] = [self.entry(command)]
        return group


# the file tools, and the shell tool (what its commands change is watched)
CLAUDE_FILES = "Write|Edit|Bash"  # Claude Code's file tools (MultiEdit is gone from its tool list)
CODEX_FILES = "apply_patch|Bash"
GEMINI_FILES = "write_file|replace|run_shell_command"
QWEN_FILES = "write_file|edit|run_shell_command"
# Cursor's tool type of its file-editing tools, the tool name its payloads give an
# exact replacement (a matcher that reads the name still takes it), and the shell tool
CURSOR_FILES = "Write|StrReplace|Shell"

AGENTS: dict[str, Agent] = {
    agent.name: agent
    for agent in (
        Agent(
            "claude",
            "Claude Code",
            {"project": ".claude/settings.json", "local": ".claude/settings.local.json"},
            (
                ("PreToolUse", CLAUDE_FILES),
                ("PostToolUse", CLAUDE_FILES),
                ("SessionStart", "compact|resume|fork"),
                ("Stop", None),
                ("UserPromptSubmit", None),
                ("PreCompact", None),
            ),
        ),
        Agent(
            "codex",
            "Codex CLI",
            {"project": ".codex/hooks.json"},
            (
                ("PreToolUse", CODEX_FILES),
                ("PostToolUse", CODEX_FILES),
                ("SessionStart", "resume|compact"),
                ("Stop", None),
                ("UserPromptSubmit", None),
                ("PreCompact", None),
            ),
        ),
        Agent(
            "gemini",
            "Gemini CLI",
            {"project": ".gemini/settings.json"},
            (
                ("BeforeTool", GEMINI_FILES),
                ("AfterTool", GEMINI_FILES),
                ("SessionStart", "resume"),
                ("AfterAgent", None),
                ("BeforeAgent", None),
                # Gemini CLI fires `auto` before every model request, compressing or not;
                # its matcher is the trigger, compared exactly: only /compress runs it
                ("PreCompress", "manual"),
            ),
            entry_extra={"name": "asimov-hooks"},
            comments=True,
        ),
        Agent(
            "cursor",
            "Cursor",
            {"project": ".cursor/hooks.json"},
            (
                ("preToolUse", CURSOR_FILES),
                ("postToolUse", CURSOR_FILES),
                ("stop", None),
                ("beforeSubmitPrompt", None),
                ("sessionStart", None),
            ),
            grouped=False,
            new_file={"version": 1},
            # Cursor's own cap on a script's follow-ups (5 by default, counted per
            # conversation) would end the checkpoint requests of a long conversation;
            # the turn timer and our cap per prompt guard the loop instead
            extras={"stop": {"loop_limit": None}},
            retired=("afterFileEdit",),  # postToolUse says the same to the agent
        ),
        Agent(
            "copilot",
            "GitHub Copilot CLI",
            {"project": ".github/hooks/asimov-hooks.json"},
            (
                ("preToolUse", None),
                ("postToolUse", None),
                ("agentStop", None),
                ("userPromptSubmitted", None),
                ("sessionStart", None),
                ("preCompact", None),
            ),
            grouped=False,
            # hooks run from the repository root; a hook over the timeout is dropped
            entry_extra={"cwd": ".", "timeoutSec": 30},
            new_file={"version": 1},
            key="bash",
        ),
        Agent(
            "qwen",
            "Qwen Code",
            {"project": ".qwen/settings.json"},
            (
                ("PreToolUse", QWEN_FILES),
                ("PostToolUse", QWEN_FILES),
                ("SessionStart", None),
                ("Stop", None),
                ("UserPromptSubmit", None),
                ("PreCompact", None),
            ),
            comments=True,
        ),
    )
}
NAMES = tuple(AGENTS)
SCOPES = ("project", "local")


def selected(name: str) -> list[Agent]:
    """`--agent NAME` or `all`."""
    return list(AGENTS.values()) if name == "all" else [AGENTS[name]]
