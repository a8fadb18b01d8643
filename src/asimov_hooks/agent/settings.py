"""`asimov-hooks agent install / uninstall`: our entries in Claude Code's settings.

Claude Code reads hooks from `.claude/settings.json` (project, committed: a team
shares it) and `.claude/settings.local.json` (local, not committed), shaped as

    {"hooks": {"<Event>": [{"matcher": "<tool regex>", "hooks":
        [{"type": "command", "command": "<shell command>"}]}]}}

Install appends one matcher group per event whose only hook is ours, and touches
nothing else: every other key, event, group and hook stays as it was, in its order.
It is idempotent (an event that already runs our command is left alone). Uninstall
removes exactly our hook entries, then the groups and events that only held them, and
a settings file (and `.claude/` directory) only when install created it and nothing
else is left in it; what install created is recorded (absolute paths) next to the agent
state (`.git/asimov-hooks/agent-install.json`, or the user's state directory outside git). A settings file that is not valid JSON, or
whose `hooks` is not shaped as above, is an error naming the file; nothing is
written then. Writes are atomic and keep the file's permissions.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys

from ..fs.access import FileProblem, make_dirs, read_bytes, remove, remove_dir
from ..readers.fileio import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

FILE_MATCHER = "Write|Edit|MultiEdit"
# (event, matcher or None): what `agent-event` handles, and for which tools/sources
EVENTS: tuple[tuple[str, str | None], ...] = (
    ("PreToolUse", FILE_MATCHER),
    ("PostToolUse", FILE_MATCHER),
    ("SessionStart", "compact|resume"),
    ("Stop", None),
    ("UserPromptSubmit", None),
)
SCOPES = {"project": ".claude/settings.json", "local": ".claude/settings.local.json"}
PORTABLE_COMMAND = "asimov-hooks agent-event"
RECORD = "agent-install.json"


class SettingsError(Exception):
    """A settings file we must not touch; the message names it. Exit 2."""


def is_ours(command: Any) -> bool:
    """A hook command that runs `asimov-hooks agent-event` (any path to the script)."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if len(words) < 2 or words[-1] != "agent-event":
        return False
    name = os.path.basename(words[-2])
    return name in ("asimov-hooks", "asimov-hooks.exe") or words[-2] == "asimov_hooks"


def command_for(scope: str) -> str:
    """project: the portable command a team commits (asimov-hooks on PATH); local:
    the absolute path of this installation's script, so it works without PATH."""
    if scope == "project":
        return PORTABLE_COMMAND
    script = os.path.join(os.path.dirname(sys.executable), "asimov-hooks")
    found = script if os.access(script, os.X_OK) else shutil.which("asimov-hooks")
    return f"{shlex.quote(os.path.abspath(found))} agent-event" if found else PORTABLE_COMMAND


def settings_path(top: str, scope: str) -> str:
    return os.path.join(top, *SCOPES[scope].split("/"))


# ------------------------------------------------------------------ reading
def load(path: str) -> tuple[dict[str, Any] | None, str | None]:
    """(document, text) of a settings file; (None, None) when it does not exist."""
    if not os.path.lexists(path):
        return None, None
    try:  # confined: a settings file linked out of the repository is refused
        text = read_bytes(path).decode("utf-8")
    except FileProblem as exc:
        raise SettingsError(f"{path}: {exc.message}; nothing changed") from None
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path}: cannot read: {exc}; nothing changed") from None
    if not text.strip():
        return {}, text
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SettingsError(f"{path}: invalid JSON: {exc}; nothing changed") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: expected a JSON object at the top; nothing changed")
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f"{path}: `hooks` is not an object; nothing changed")
    for event, groups in hooks.items():
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise SettingsError(
                f"{path}: hooks.{event} is not a list of matcher groups; nothing changed"
            )
        for group in groups:
            if not isinstance(group.get("hooks", []), list):
                raise SettingsError(f"{path}: hooks.{event}[].hooks is not a list; nothing changed")
    return data, text


def our_events(data: dict[str, Any] | None) -> dict[str, list[str]]:
    """Event -> our commands installed for it."""
    found: dict[str, list[str]] = {}
    for event, groups in ((data or {}).get("hooks") or {}).items():
        for group in groups:
            for hook in group.get("hooks", []):
                if isinstance(hook, dict) and is_ours(hook.get("command")):
                    found.setdefault(event, []).append(hook["command"])
    return found


def _indent(text: str | None) -> int | str:
    """The indentation the file already uses (2 when new or flat)."""
    for line in (text or "").splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    return 2


def _dump(data: dict[str, Any], text: str | None) -> bytes:
    out = json.dumps(data, indent=_indent(text), ensure_ascii=False) + "\n"
    return out.encode("utf-8")


# ------------------------------------------------------------------ the record
def _record_path(top: str) -> str:
    from .state import state_dir

    return os.path.join(state_dir(top), RECORD)


def _read_record(top: str) -> dict[str, list[str]]:
    try:  # our own record, in the state directory
        data = json.loads(read_bytes(_record_path(top), confined=False))
    except (FileProblem, ValueError):
        return {"created": []}
    created = data.get("created") if isinstance(data, dict) else None
    return {"created": [p for p in created or [] if isinstance(p, str)]}


def _write_record(top: str, record: dict[str, list[str]]) -> None:
    path = _record_path(top)
    if not record["created"]:
        if os.path.exists(path):
            remove(path, git_internal=True)
        return
    make_dirs(os.path.dirname(path), git_internal=True)
    atomic_write(path, (json.dumps(record, indent=2) + "\n").encode("utf-8"), git_internal=True)


# ------------------------------------------------------------------ install
def install(top: str, scope: str = "project") -> tuple[str, list[str]]:
    """Add our hooks; (settings file, events added). Raises SettingsError."""
    path = settings_path(top, scope)
    data, text = load(path)
    existed = data is not None
    data = data if data is not None else {}
    present = our_events(data)
    missing = [(event, matcher) for event, matcher in EVENTS if event not in present]
    if not missing:
        return path, []
    command = command_for(scope)
    hooks = data.setdefault("hooks", {})
    for event, matcher in missing:
        group: dict[str, Any] = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": command}]
        hooks.setdefault(event, []).append(group)
    record = _read_record(top)
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        make_dirs(directory)
        record["created"].append(os.path.abspath(directory))
    atomic_write(path, _dump(data, text))
    if not existed:
        record["created"].append(os.path.abspath(path))
    _write_record(top, record)
    return path, [event for event, _ in missing]


def uninstall(top: str, scopes: list[str] | None = None) -> list[tuple[str, list[str]]]:
    """Remove our hooks; [(settings file, events removed or ["(file removed)"])]."""
    done = []
    record = _read_record(top)
    for scope in scopes or list(SCOPES):
        path = settings_path(top, scope)
        data, text = load(path)
        if data is None or not our_events(data):
            continue
        removed = sorted(our_events(data))
        hooks = data["hooks"]
        for event in list(hooks):
            groups = []
            for group in hooks[event]:
                kept = [
                    h
                    for h in group.get("hooks", [])
                    if not (isinstance(h, dict) and is_ours(h.get("command")))
                ]
                if len(kept) == len(group.get("hooks", [])):
                    groups.append(group)
                elif kept:
                    groups.append({**group, "hooks": kept})
            if groups:
                hooks[event] = groups
            else:
                del hooks[event]
        if not hooks:
            del data["hooks"]
        absolute = os.path.abspath(path)
        if not data and absolute in record["created"]:
            remove(path)
            record["created"].remove(absolute)
            removed.append("(file removed)")
            directory = os.path.dirname(absolute)
            if directory in record["created"]:
                try:
                    remove_dir(directory)
                    record["created"].remove(directory)
                except OSError:
                    pass  # something else lives there now
        else:
            atomic_write(path, _dump(data, text))
        done.append((path, removed))
    _write_record(top, record)
    return done


# ------------------------------------------------------------------ doctor
def command_resolves(command: str, top: str) -> bool:
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    exe = words[0] if words else ""
    if os.sep in exe:
        return os.access(os.path.join(top, exe), os.X_OK)
    return shutil.which(exe) is not None


def diagnose(top: str) -> list[tuple[str, str, str | None]]:
    """(level, message, fix) lines for `asimov-hooks doctor`: ok, warn or FAIL."""
    lines: list[tuple[str, str, str | None]] = []
    installed_any = False
    for scope in SCOPES:
        path = settings_path(top, scope)
        try:
            data, _ = load(path)
        except SettingsError as exc:
            lines.append(("FAIL", str(exc), "fix the file by hand; Claude Code cannot read it"))
            continue
        found = our_events(data)
        if not found:
            continue
        installed_any = True
        rel = os.path.relpath(path, top)
        missing = [event for event, _ in EVENTS if event not in found]
        if missing:
            lines.append(
                (
                    "warn",
                    f"{rel}: agent hooks missing for {', '.join(missing)}",
                    f"run `asimov-hooks agent install --scope {scope}`",
                )
            )
        else:
            lines.append(("ok", f"{rel}: agent hooks installed for every event", None))
        for command in sorted({c for commands in found.values() for c in commands}):
            if command_resolves(command, top):
                lines.append(("ok", f"hook command resolves: {command}", None))
            else:
                lines.append(
                    (
                        "FAIL",
                        f"hook command does not resolve: {command} (every Write/Edit hook fails)",
                        "install asimov-hooks where Claude Code's shell finds it (PATH), or "
                        f"run `asimov-hooks agent install --scope {scope}` again",
                    )
                )
    if not installed_any:
        lines.append(
            (
                "warn",
                "agent hooks not installed: checkpoints are only checked at commit time",
                "run `asimov-hooks agent install` (see docs/agent.md)",
            )
        )
    return lines
