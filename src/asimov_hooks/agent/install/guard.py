"""The committed hook command, guarded for a machine without asimov-hooks.

A team commits the portable command (`asimov-hooks agent-event --agent NAME`); on a
clone whose machine has no asimov-hooks on PATH, the shell would answer every hook with
"asimov-hooks: not found" (exit 127). The guard says instead, in one line on stderr, how
to install the CLI, and exits with a status the agent reads as "the hook did nothing,
go on": 1 (a non-blocking hook error, shown to the user) for Claude Code, Codex CLI,
Gemini CLI, Qwen Code and Cursor, where 2 would block the tool; 0 for GitHub Copilot
CLI, which denies the tool call when a preToolUse hook errors (exit 127 too). It reads
the payload first, so the agent never writes into a closed pipe. POSIX sh, as every
agent runs hooks.

The hint names the source repository without a release tag, so the committed command
stays the same from one release to the next (Codex CLI and Gemini CLI ask the user to
trust a project hook again whenever its command changes).
"""

from __future__ import annotations

HEAD = "command -v asimov-hooks >/dev/null 2>&1 || { cat >/dev/null; echo '"
MIDDLE = "' >&2; exit {code}; }}; exec "
# the exit status each agent reads as a non-blocking failure (never 2: a refusal)
EXIT_NOT_INSTALLED = {"copilot": 0}  # Copilot CLI denies the tool on any other
DEFAULT_EXIT = 1


def _quotable(text: str) -> bool:
    """Printable ASCII without a single quote: literal between the guard's quotes."""
    return all(" " <= c <= "~" and c != "'" for c in text)


def hint() -> str:
    """The one line a machine without the CLI gets: how to install it."""
    from ...release import published_url

    url = published_url()
    spec = f"git+{url}" if url and _quotable(url) else "asimov-hooks"
    return (
        f"asimov-hooks is not on PATH, its hooks are skipped: pipx install {spec} "
        f"(or: uv tool install {spec})"
    )


def guarded(command: str, agent: str) -> str:
    """`command` run only where asimov-hooks is on PATH; elsewhere the hint, and the
    exit status `agent` takes as a hook that did nothing."""
    code = EXIT_NOT_INSTALLED.get(agent, DEFAULT_EXIT)
    return f"{HEAD}{hint()}{MIDDLE.format(code=code)}{command}"


def unguarded(command: str) -> str:
    """The command a guarded one runs (`command` itself when it is not guarded)."""
    if not command.startswith(HEAD):
        return command
    rest = command[len(HEAD) :]
    for code in {DEFAULT_EXIT, *EXIT_NOT_INSTALLED.values()}:
        text, sep, inner = rest.partition(MIDDLE.format(code=code))
        if sep and _quotable(text):
            return inner
    return command  # not our guard's shape: the user's own command
