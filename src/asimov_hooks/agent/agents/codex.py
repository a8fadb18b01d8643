"""Codex CLI: hook JSON on stdin, Claude-style JSON on stdout, always exit 0.

Events (developers.openai.com/codex/hooks; openai/codex hook schemas):
- PreToolUse / PostToolUse on `apply_patch`: `tool_input.command` is the raw patch
  (`*** Begin Patch` ... `*** End Patch`), its paths relative to `cwd`. A deny is
  `hookSpecificOutput.permissionDecision: "deny"` with `permissionDecisionReason`;
  `hookSpecificOutput.additionalContext` reaches the model (PreToolUse, PostToolUse,
  SessionStart). Shell calls arrive as `Bash` and are not governed here.
- Stop: `{"decision": "block", "reason": ...}` continues the turn with the reason
  as the next instruction. Codex does not cap continuations itself; the turn timer
  does (`stop_hook_active` is not read).
- SessionStart `source`: startup, resume, clear, compact.
- UserPromptSubmit `prompt`.
- No project directory variable: the project is the git top level of `cwd`.
"""

from __future__ import annotations

from ..model import (
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
from ..payload import EventError, absolute, begin

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..model import Answer

NAME = "codex"
USAGE = "Codex CLI: PreToolUse, PostToolUse (apply_patch), SessionStart, Stop, UserPromptSubmit"
PATCH_TOOL = "apply_patch"
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
        if payload.get("tool_name") != PATCH_TOOL:
            return event  # a shell command or another tool: nothing to govern
        tool_input = payload.get("tool_input")
        patch = tool_input.get("command") if isinstance(tool_input, dict) else None
        if not isinstance(patch, str):
            raise EventError(f"{PATCH_TOOL} event without a string tool_input.command")
        event.tool = PATCH_TOOL
        _patch_targets(event, patch, cwd)
    elif event.kind == SESSION_START:
        source = as_text(payload.get("source"))
        event.source = SOURCES.get(source, source) if source else None
    else:
        event.prompt = payload.get("prompt") if isinstance(payload.get("prompt"), str) else None
    return event


def _patch_targets(event: Event, patch: str, cwd: str) -> None:
    """Every file the patch names; before the write, what each would hold."""
    import os

    from ..apply_patch import PatchError, parse_patch, patch_paths

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
    for name in names:
        path = absolute(name, cwd, f"{PATCH_TOOL} path")
        if path not in seen:
            seen.append(path)
    if event.kind == POST_WRITE:  # deleted and moved-away files are gone: nothing to trim
        event.targets = [path for path in seen if os.path.lexists(path)]
        return
    event.targets = seen
    resolved = {absolute(t, cwd, "path"): absolute(s, cwd, "path") for t, s in sources.items()}
    event.edits = [
        Edit(
            path, PatchChange(patch, path, resolved.get(path, path), cwd, error), resolved.get(path)
        )
        for path in seen
    ]


class PatchChange:
    """What an apply_patch leaves in one file (`agent.model.Change`)."""

    __slots__ = ("cwd", "error", "patch", "source", "target")

    def __init__(
        self, patch: str, target: str, source: str, cwd: str, error: Exception | None
    ) -> None:
        self.patch, self.target, self.source, self.cwd, self.error = (
            patch,
            target,
            source,
            cwd,
            error,
        )

    def apply(self, current: str | None, limit: int) -> str | None:
        from ..apply_patch import PatchError, apply_patch
        from ..simulate import CannotSimulate, TooBig, utf8_len

        if self.error is not None:
            raise CannotSimulate(str(self.error))

        def where(name: str) -> str:
            return absolute(name, self.cwd, f"{PATCH_TOOL} path")

        def read(name: str) -> str | None:
            path = where(name)
            return current if path == self.source else _read_other(path, limit)

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


def _read_other(path: str, limit: int) -> str | None:
    """A file a patch reads besides the target's own source (a chain of moves)."""
    import os

    from ...fs.access import FileProblem, read_bytes
    from ..simulate import CannotSimulate

    if not os.path.lexists(path):
        return None
    try:
        raw = read_bytes(path, limit, bound="limit")
    except FileProblem as exc:
        raise CannotSimulate(exc.message) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CannotSimulate(f"{path} is not UTF-8 text") from None


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
