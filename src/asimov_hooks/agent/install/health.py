"""`asimov-hooks doctor`, agent part: for each agent's settings file, are our hooks there
for every event, does each hook command resolve, is the /checkpoint command there, and
are Claude Code's hooks in both scopes (every event would run twice), does Codex CLI
trust the project and our hooks (it skips an untrusted hook without a word), and do
Cursor's hooks sit beside Claude Code's (Cursor runs both; the Claude Code hook stands
aside for Cursor's events)."""

from __future__ import annotations

import os
import shlex
import shutil

from .settings import SettingsError, installed, settings_path
from .targets import AGENTS


def _rel(path: str, top: str) -> str:
    return os.path.relpath(path, top).replace(os.sep, "/")


def command_resolves(command: str, top: str) -> bool:
    from .guard import unguarded

    try:
        words = shlex.split(unguarded(command))
    except ValueError:
        return False
    exe = words[0] if words else ""
    if os.sep in exe:
        return os.access(os.path.join(top, exe), os.X_OK)
    return shutil.which(exe) is not None


def path_fix(agent: str | set[str]) -> str:
    """How to put `asimov-hooks` where the agent finds it: a tool install, which puts
    one command on PATH for every shell the agent starts (Claude Code: or the local
    scope, which writes this installation's absolute path)."""
    from ...release import published_url, release_tag

    url = published_url()
    spec = f"git+{url}@{release_tag()}" if url else "asimov-hooks"
    fix = f"install it with `pipx install {spec}` or `uv tool install {spec}`"
    if "claude" in ({agent} if isinstance(agent, str) else agent):
        fix += (
            ", or run `asimov-hooks agent install --scope local` (this clone only: "
            "the absolute path of this installation)"
        )
    return fix


def unresolved_warning(command: str, title: str, agent: str | set[str]) -> str:
    """What `agent install` says when the command it wrote does not resolve here."""
    from .guard import unguarded

    exe = unguarded(command).split(" ", 1)[0]
    skipped = unguarded(command) != command
    return (
        f"warning: `{exe}` is not on PATH, so {title} cannot run the hooks just installed "
        + (
            "(each is skipped with a note until it is)"
            if skipped
            else "(every one fails until it is)"
        )
        + f": {path_fix(agent)}, then start {title} again"
    )


def _command_lines(top: str, agent: str) -> list[tuple[str, str, str | None]]:
    from . import commands

    found = commands.state(top, agent)
    if found is None:
        return []
    rel = _rel(commands.path_for(top, agent) or "", top)
    install = f"run `asimov-hooks agent install --agent {agent}`"
    lines: list[tuple[str, str, str | None]]
    if found in ("ours", "edited", "foreign"):
        whose = {"ours": "", "edited": " (edited since install)", "foreign": " (your own)"}
        lines = [("ok", f"{rel}: {commands.label(agent)} present{whose[found]}", None)]
    elif found == "old":
        lines = [("warn", f"{rel}: {commands.label(agent)} of an earlier version", install)]
    else:
        lines = [
            (
                "warn",
                f"{rel}: no {commands.label(agent)}"
                + (" (cannot be used)" if found == "unusable" else ""),
                install,
            )
        ]
    retired = commands.retired_path(top, agent)
    if retired is not None and os.path.lexists(retired):
        lines.append(
            (
                "warn",
                f"{_rel(retired, top)}: a second /checkpoint beside {commands.SHARED}, "
                f"which {AGENTS[agent].title} also lists",
                f"{install} (it removes ours), or rename or remove it",
            )
        )
    return lines


def diagnose(top: str) -> list[tuple[str, str, str | None]]:
    """(level, message, fix) lines for `asimov-hooks doctor`: ok, warn or FAIL."""
    lines: list[tuple[str, str, str | None]] = []
    installed_any = False
    where: dict[str, list[str]] = {}  # agent -> the files holding our hooks
    for agent in AGENTS.values():
        scopes = []
        for scope in agent.files:
            path = settings_path(top, agent, scope)
            try:
                found = installed(top, agent, scope)
            except SettingsError as exc:
                lines.append(
                    ("FAIL", str(exc), f"fix the file by hand; {agent.title} cannot use it")
                )
                continue
            if not found:
                continue
            installed_any = True
            scopes.append(scope)
            where.setdefault(agent.name, []).append(agent.files[scope])
            if len(scopes) == 2:
                lines.append(
                    (
                        "warn",
                        f"{agent.title} hooks are in both {agent.files['project']} and "
                        f"{agent.files['local']}: every event runs twice",
                        f"run `asimov-hooks agent uninstall --agent {agent.name} "
                        "--scope project|local`",
                    )
                )
            rel = _rel(path, top)
            option = f"--agent {agent.name}" + (f" --scope {scope}" if scope != "project" else "")
            missing = [event for event, _ in agent.events if event not in found]
            if missing:
                lines.append(
                    (
                        "warn",
                        f"{rel}: {agent.title} hooks missing for {', '.join(missing)}",
                        f"run `asimov-hooks agent install {option}`",
                    )
                )
            else:
                lines.append(("ok", f"{rel}: {agent.title} hooks installed for every event", None))
            if scope == "project":
                lines.extend(_command_lines(top, agent.name))
            if agent.name == "codex":
                from .codextrust import lines as trust_lines

                lines.extend(trust_lines(top))
            for command in sorted({c for commands in found.values() for c in commands}):
                from .guard import unguarded

                shown = unguarded(command)
                if command_resolves(command, top):
                    lines.append(("ok", f"hook command resolves: {shown}", None))
                else:
                    what = "is skipped" if shown != command else "fails"
                    lines.append(
                        (
                            "FAIL",
                            f"hook command does not resolve: {shown} (every hook {what})",
                            _unresolved_fix(command, agent.name, option),
                        )
                    )
    if "claude" in where and "cursor" in where:
        lines.append(_overlap(where))
    if not installed_any:
        lines.append(
            (
                "warn",
                "agent hooks not installed: checkpoints are only checked at commit time",
                "run `asimov-hooks agent install --agent claude|codex|gemini|cursor|all` "
                "(see docs/agent.md)",
            )
        )
    return lines


def _overlap(where: dict[str, list[str]]) -> tuple[str, str, str | None]:
    """Cursor runs Claude Code's hooks as well as its own (its third-party hooks)."""
    claude = " and ".join(where["claude"])
    return (
        "ok",
        f"Cursor also runs the Claude Code hooks in {claude} (its third-party hooks, on "
        "by default): each Cursor event reaches asimov-hooks twice, and the Claude Code "
        f"hook recognises Cursor's payload and answers nothing, so {where['cursor'][0]} "
        "alone answers Cursor (one refusal, one checkpoint request)",
        None,
    )


def _unresolved_fix(command: str, agent: str, option: str) -> str:
    from .guard import unguarded

    try:
        exe = (shlex.split(unguarded(command)) or [""])[0]
    except ValueError:
        exe = ""
    if exe and os.sep not in exe:  # a command looked up on PATH
        return f"`{exe}` is not on PATH: {path_fix(agent)}"
    return f"run `asimov-hooks agent install {option}` again"
