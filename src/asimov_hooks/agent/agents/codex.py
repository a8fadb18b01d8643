"""Codex CLI: hook JSON on stdin, Claude-style JSON on stdout, always exit 0.

Events (developers.openai.com/codex/hooks; openai/codex hook schemas):
- PreToolUse / PostToolUse on `apply_patch`: `tool_input.command` is the raw patch
  (`*** Begin Patch` ... `*** End Patch`), its paths relative to `cwd`. A deny is
  `hookSpecificOutput.permissionDecision: "deny"` with `permissionDecisionReason`;
  `hookSpecificOutput.additionalContext` reaches the model (PreToolUse, PostToolUse,
  SessionStart). Shell calls arrive as `Bash` with `tool_input.command`: a patch run
  through `apply_patch`/`applypatch` in a heredoc (Codex applies it itself when the
  model has no apply_patch tool) is judged as the tool's; any other command is
  watched for the protocol files it changes (`agent.runtime.shellwatch`).
- Stop: `{"decision": "block", "reason": ...}` continues the turn with the reason
  as the next instruction. Codex does not cap continuations itself; the turn timer
  does (`stop_hook_active` is not read).
- SessionStart `source`: startup, resume, clear, compact.
- UserPromptSubmit `prompt`.
- No project directory variable: the project is the git top level of `cwd`.
"""

from __future__ import annotations

from ..runtime.model import (
    CLEAR,
    COMPACT,
    POST_WRITE,
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
from ..runtime.payload import EventError, absolute, begin, shell_event

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..runtime.model import Answer

NAME = "codex"
USAGE = (
    "Codex CLI: PreToolUse, PostToolUse (apply_patch; Bash, with apply_patch heredocs), "
    "SessionStart, Stop, UserPromptSubmit"
)
PATCH_TOOL = "apply_patch"
# shell-like tools reach the hooks as "Bash" with `tool_input.command`; older names too
SHELL_TOOLS = frozenset({"Bash", "exec_command", "shell", "local_shell", "shell_command"})
KINDS = {
    "PreToolUse": PRE_WRITE,
    "PostToolUse": POST_WRITE,
    "Stop": STOP,
    "UserPromptSubmit": PROMPT,
    "SessionStart": SESSION_START,
}
SOURCES = {"startup": STARTUP, "resume": RESUME, "clear": CLEAR, "compact": COMPACT}


def normalize(payload: dict[str, Any]) -> Event:
    event = begin(payload, NAME, KINDS, None)
    if event.kind is None:
        return event
    cwd = event.cwd
    if event.kind in (PRE_WRITE, POST_WRITE):
        tool = payload.get("tool_name")
        tool_input = payload.get("tool_input")
        command = tool_input.get("command") if isinstance(tool_input, dict) else None
        if tool in SHELL_TOOLS:
            return _shell(event, payload, command, cwd)
        if tool != PATCH_TOOL:
            return event  # another tool: nothing to govern
        if not isinstance(command, str):
            raise EventError(f"{PATCH_TOOL} event without a string tool_input.command")
        event.tool = PATCH_TOOL
        _patch_targets(event, command, cwd)
        if event.kind == PRE_WRITE and len(event.edits) == 1:
            edit = event.edits[0]
            # one file, no move: a whole-file patch can carry the trimmed content
            event.rewritable = edit.source == edit.path
            event.tool_input = tool_input if isinstance(tool_input, dict) else {}
    elif event.kind == SESSION_START:
        source = as_text(payload.get("source"))
        event.source = SOURCES.get(source, source) if source else None
    else:
        event.prompt = payload.get("prompt") if isinstance(payload.get("prompt"), str) else None
    return event


def _shell(event: Event, payload: dict[str, Any], command: object, cwd: str) -> Event:
    """A shell command: the patches it runs through `apply_patch`/`applypatch` (Codex
    applies them itself) are judged as the apply_patch tool's; any other command is
    watched for what it changes (`agent.runtime.shellwatch`)."""
    import os

    from ..runtime.shellcmd import command_text, patches

    text = command_text(command)
    found = patches(text) if text is not None else []
    if not found:
        return shell_event(event, payload, command)
    event.tool = PATCH_TOOL
    for directory, patch in found:
        where = os.path.normpath(os.path.join(cwd, directory)) if directory else cwd
        _patch_targets(event, patch, where)
    return event


def _patch_targets(event: Event, patch: str, cwd: str) -> None:
    """Every file the patch names (added to the event's); before the write, what each
    would hold."""
    import os

    from .apply_patch import PatchError, parse_patch, patch_paths

    try:
        ops = parse_patch(patch)
    except PatchError as exc:
        # Codex refuses the patch itself; keep the paths so a malformed patch of a
        # protocol file is seen (the change says it cannot be worked out)
        names, sources, error = patch_paths(patch), {}, exc
    else:
        names, sources, error = [], {}, None
        for op in ops:
            names.append(op.path)
            if op.move_to is not None:
                names.append(op.move_to)
                sources[op.move_to] = op.path
    seen: list[str] = []
    known = set(event.targets)
    for name in names:
        path = absolute(name, cwd, f"{PATCH_TOOL} path")
        if path not in seen and path not in known:
            seen.append(path)
    if event.kind == POST_WRITE:  # deleted and moved-away files are gone: nothing to trim
        event.targets += [path for path in seen if os.path.lexists(path)]
        return
    event.targets += seen
    resolved = {absolute(t, cwd, "path"): absolute(s, cwd, "path") for t, s in sources.items()}
    event.edits += [
        Edit(
            path,
            PatchChange(patch, path, resolved.get(path, path), cwd, error, event.project),
            resolved.get(path),
        )
        for path in seen
    ]


class PatchChange:
    """What an apply_patch leaves in one file (`agent.runtime.model.Change`). Every file the
    patch reads on the way (a chain of moves onto the target) is read inside `project`
    only: a source outside it is never opened, and the change is then not worked out."""

    __slots__ = ("cwd", "error", "patch", "project", "source", "target")

    def __init__(
        self,
        patch: str,
        target: str,
        source: str,
        cwd: str,
        error: Exception | None,
        project: str | None = None,
    ) -> None:
        self.patch, self.target, self.source, self.cwd, self.error = (
            patch,
            target,
            source,
            cwd,
            error,
        )
        self.project = project or cwd

    def apply(self, current: str | None, limit: int) -> str | None:
        from ..runtime.simulate import CannotSimulate, TooBig, utf8_len
        from .apply_patch import PatchError, apply_patch

        if self.error is not None:
            raise CannotSimulate(str(self.error))

        def where(name: str) -> str:
            return absolute(name, self.cwd, f"{PATCH_TOOL} path")

        def read(name: str) -> str | None:
            path = where(name)
            return current if path == self.source else _read_other(path, limit, self.project)

        try:
            results = apply_patch(
                self.patch,
                read,
                select=lambda name: where(name) == self.target,
                max_result_chars=limit,
            )
        except PatchError as exc:
            raise CannotSimulate(str(exc)) from None
        for name, content in results.items():
            if where(name) == self.target:
                if content is not None and utf8_len(content) > limit:
                    raise TooBig(utf8_len(content), limit)
                return content
        raise CannotSimulate(f"the patch leaves {self.target} unchanged")


def _read_other(path: str, limit: int, project: str) -> str | None:
    """A file a patch reads besides the target's own source (a chain of moves), held
    to the project: one outside it (by its path or through a link) or in `.git/` is
    neither opened nor looked for, and nothing about it is said."""
    import os

    from ...fs.access import FileProblem, confine, read_bytes
    from ..runtime.simulate import CannotSimulate

    try:
        confine(path, project)
    except FileProblem:
        raise CannotSimulate("the patch moves a file from outside the repository") from None
    if not os.path.lexists(path):
        return None
    try:
        raw = read_bytes(path, limit, root=project, bound="limit")
    except FileProblem:
        raise CannotSimulate("a file the patch moves cannot be read as text") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CannotSimulate("a file the patch moves is not UTF-8 text") from None


def render(event: Event, answer: Answer | None) -> tuple[str | None, int]:
    if answer is None:
        return None, 0
    out: dict[str, Any] | None = None
    if answer.decision == "deny" and event.kind == PRE_WRITE:
        out = {
            "hookSpecificOutput": {
                "hookEventName": event.name,
                "permissionDecision": "deny",
                "permissionDecisionReason": answer.reason,
            }
        }
    elif answer.rewrites and event.kind == PRE_WRITE and _whole_file(event, answer):
        out = {
            "hookSpecificOutput": {
                "hookEventName": event.name,
                "permissionDecision": "allow",
                "updatedInput": {**event.tool_input, "command": _whole_file(event, answer)},
                **({"additionalContext": answer.context} if answer.context else {}),
            }
        }
    elif answer.decision == "block" and event.kind == STOP:
        out = {"decision": "block", "reason": answer.reason}
    elif answer.context and event.kind != PROMPT:
        out = {
            "hookSpecificOutput": {"hookEventName": event.name, "additionalContext": answer.context}
        }
    if out is None:
        return None, 0
    import json

    return json.dumps(out, ensure_ascii=False) + "\n", 0


def _whole_file(event: Event, answer: Answer) -> str | None:
    """The patch that leaves the file with the trimmed content (ADR-007's trim before
    the write): Add File for a new one, else one hunk replacing every line."""
    import os

    from ..runtime.writes import current_text

    path = event.targets[0]
    new = answer.rewrites.get(path)
    if new is None:
        return None
    try:
        current = current_text(path, event.project)[0]
    except Exception:  # CannotSimulate: the tool fails by itself; trimmed after, if at all
        return None
    name = os.path.relpath(path, event.cwd).replace(os.sep, "/")
    added = "".join(f"+{line}\n" for line in new.splitlines())
    if current is None:
        return f"*** Begin Patch\n*** Add File: {name}\n{added}*** End Patch\n"
    if not current.strip():
        return None
    removed = "".join(f"-{line}\n" for line in current.splitlines())
    return f"*** Begin Patch\n*** Update File: {name}\n@@\n{removed}{added}*** End Patch\n"
