"""`asimov-hooks agent install / uninstall` for one agent or all: what to write where,
and what to tell the user about it (one line per file; warnings on stderr)."""

from __future__ import annotations

import os

from . import settings as hooks_file
from .targets import AGENTS, selected

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from .targets import Agent


class UsageError(Exception):
    """A combination of options that cannot be honoured; exit 2."""


class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.warnings: list[str] = []
        self.failed = False  # something asked for was left undone (exit 1)
        self.errors: list[str] = []  # a file that could not be used (exit 2)
        self.unresolved: list[tuple[str, Agent]] = []  # hook commands not on PATH here


def _rel(path: str, top: str) -> str:
    return os.path.relpath(path, top).replace(os.sep, "/")


def _line(exc: Exception, top: str) -> str:
    """One line for a refusal or a system error: the file (relative, escaped) and the
    reason, never Python's `[Errno N] ...` with a temporary file's name."""
    if not isinstance(exc, OSError):
        return str(exc)
    from ...fs.access import show

    where = _rel(os.fsdecode(exc.filename), top) if exc.filename else "agent files"
    return f"{show(where)}: {exc.strerror or 'cannot be written'}; nothing changed"


def _scopes_for(agent: Agent, scope: str | None) -> list[str]:
    if scope is None:
        return list(agent.files)
    return [scope] if scope in agent.files else []


def install(top: str, agent_name: str, scope: str = "project") -> Report:
    """Install the hooks (and the /checkpoint command) for `agent_name` or all."""
    agents = selected(agent_name)
    if scope != "project" and not any(scope in a.files for a in agents):
        raise UsageError(f"--scope {scope} is only for Claude Code (--agent claude)")
    report = Report()
    for agent in agents:
        chosen = scope if scope in agent.files else "project"
        if chosen != scope and agent_name != "all":
            raise UsageError(f"--scope {scope} is only for Claude Code (--agent claude)")
        try:
            _install_one(top, agent, chosen, report)
        except (hooks_file.SettingsError, OSError) as exc:
            report.errors.append(_line(exc, top))  # the other agents' files still get done
    if report.unresolved:
        from .health import unresolved_warning

        command = report.unresolved[0][0]
        titles = [agent.title for _, agent in report.unresolved]
        names = {agent.name for _, agent in report.unresolved}
        report.warnings.append(unresolved_warning(command, " and ".join(titles), names))
    return report


def _install_one(top: str, agent: Agent, chosen: str, report: Report) -> None:
    outcome = hooks_file.install(top, agent, chosen)
    rel = _rel(outcome.path, top)
    command = hooks_file.command_for(agent.name, chosen)
    if outcome.added:
        from .guard import unguarded

        shown = unguarded(command)  # the guard's hint is the agent's, not this report's
        report.lines.append(f"{rel}: added `{shown}` for {', '.join(outcome.added)}")
    if outcome.repaired:
        report.lines.append(
            f"{rel}: brought the asimov-hooks entries up to date for {', '.join(outcome.repaired)}"
        )
    if not outcome.added and not outcome.repaired:
        report.lines.append(f"{rel}: {agent.title} hooks already installed; nothing changed")
    from .health import command_resolves

    if not command_resolves(command, top):
        report.unresolved.append((command, agent))
    if chosen == "local":
        from .localignore import ensure_ignored

        said = ensure_ignored(top, outcome.path)
        if said:
            (report.warnings if said.startswith("warning") else report.lines).append(said)
    _warn_both_scopes(top, agent, report)
    if agent.name == "codex":
        _codex_trust(top, report)
    _install_command(top, agent.name, chosen, report)


def _codex_trust(top: str, report: Report) -> None:
    """Codex skips a hook it has not been told to trust: say so, and whether ours is."""
    from .codextrust import lines

    for level, message, fix in lines(top):
        report.lines.append(message + (f"; {fix}" if fix and level != "ok" else ""))


def _install_command(top: str, agent: str, scope: str, report: Report) -> None:
    from . import commands

    if agent not in commands.FILES:
        return
    if scope != "project":
        report.lines.append(
            "the /checkpoint command is a project file: `asimov-hooks agent install` "
            "(project scope) adds it"
        )
        return
    created: list[str] = []
    status, message = commands.install(top, agent, created)
    hooks_file.note_created(top, created)
    rel = commands.FILES[agent]
    if not any(
        line.startswith((f"{rel}: ", f"warning: {rel}")) for line in report.lines + report.warnings
    ):
        # the shared skill: said once for all the agents that read it
        (report.warnings if status in ("kept", "refused") else report.lines).append(message)
    if status in ("kept", "refused"):
        report.failed = True
    _retire_command(top, agent, report)


def _retire_command(top: str, agent: str, report: Report) -> None:
    """An older per-agent form beside the shared skill is a second /checkpoint: out."""
    from . import commands

    status, message = commands.retire(top, agent)
    if status == "removed":
        report.lines.append(message)
        path = commands.retired_path(top, agent)
        assert path is not None
        _remove_made_dirs(top, os.path.dirname(path))
    elif message:
        report.warnings.append(message)
        report.failed = True


def _remove_made_dirs(top: str, directory: str) -> None:
    """The directories install made for a command file, bottom up, while empty."""
    while directory != top and hooks_file.remove_created_dir(top, directory):
        directory = os.path.dirname(directory)


def _warn_both_scopes(top: str, agent: Agent, report: Report) -> None:
    if len(agent.files) < 2:
        return
    try:
        present = [s for s in agent.files if hooks_file.installed(top, agent, s)]
    except hooks_file.SettingsError:
        return  # the other file is unusable: doctor says so; this install is done
    if len(present) > 1:
        files = " and ".join(_rel(hooks_file.settings_path(top, agent, s), top) for s in present)
        report.warnings.append(
            f"warning: {agent.title} hooks are installed in both {files}: every event runs "
            "twice; remove one with `asimov-hooks agent uninstall --agent "
            f"{agent.name} --scope project|local`"
        )


def uninstall(top: str, agent_name: str, scope: str | None = None) -> Report:
    """Remove what install added for `agent_name` or all (every scope unless `scope`)."""
    report = Report()
    leaving = {agent.name for agent in selected(agent_name)}
    for agent in selected(agent_name):
        try:
            for chosen in _scopes_for(agent, scope):
                hooks_file.installed(top, agent, chosen)  # every file usable, or none is touched
            _uninstall_one(top, agent, scope, report, leaving)
        except (hooks_file.SettingsError, OSError) as exc:
            report.errors.append(_line(exc, top))
    if not report.lines and not report.warnings and not report.errors:
        report.lines.append("no asimov-hooks agent hooks installed; nothing changed")
    return report


def _uninstall_one(
    top: str, agent: Agent, scope: str | None, report: Report, leaving: set[str]
) -> None:
    if scope in (None, "project"):
        _uninstall_command(top, agent.name, report, leaving)
    for chosen in _scopes_for(agent, scope):
        outcome = hooks_file.uninstall(top, agent, chosen)
        if outcome is None:
            continue
        rel = _rel(outcome.path, top)
        done = f"{rel}: removed asimov-hooks for {', '.join(outcome.removed)}"
        report.lines.append(done + (" (file removed)" if outcome.file_removed else ""))
        if chosen == "local" and outcome.file_removed:
            from .localignore import forget

            if forget(top, outcome.path):
                report.lines.append(f"{rel}: taken out of .git/info/exclude again")


def _uninstall_command(top: str, agent: str, report: Report, leaving: set[str]) -> None:
    from . import commands

    users = _still_reading(top, agent, leaving)
    status, message = commands.uninstall(top, agent, users)
    if message and message not in report.lines:
        (
            report.lines
            if status in ("removed", "kept") and not message.startswith("warning")
            else report.warnings
        ).append(message)
    if status == "removed":
        path = commands.path_for(top, agent)
        assert path is not None
        _remove_made_dirs(top, os.path.dirname(path))  # `.agents/skills/checkpoint` and up
    status, message = commands.retire(top, agent)
    if status == "removed":
        path = commands.retired_path(top, agent)
        assert path is not None
        rel = _rel(path, top)
        report.lines.append(f"{rel}: removed the /checkpoint command an earlier version installed")
        _remove_made_dirs(top, os.path.dirname(path))
    elif status == "refused":  # a link out of the work tree where it would be: said
        report.warnings.append(message)


def _still_reading(top: str, agent: str, leaving: set[str]) -> tuple[str, ...]:
    """The other agents that read `agent`'s command file and keep their project hooks
    (one whose settings cannot be read counts as keeping them)."""
    from . import commands

    mine = commands.FILES.get(agent)
    others = [name for name, rel in commands.FILES.items() if rel == mine and name not in leaving]
    users = []
    for name in others:
        try:
            if hooks_file.installed(top, AGENTS[name], "project"):
                users.append(name)
        except hooks_file.SettingsError:
            users.append(name)
    return tuple(users)


__all__ = ["AGENTS", "Report", "UsageError", "install", "uninstall"]
