"""What `asimov-hooks agent-event` does for each Claude Code hook event.

- PreToolUse (Write/Edit/MultiEdit of a protocol file): work out the content the tool
  would leave, trim it as the trimmer would, check what remains; errors the trim
  cannot fix deny the tool call with the findings as the reason.
- PostToolUse (same tools): trim the written file (with its archive), check it, and
  tell the agent what changed and what is still wrong (`additionalContext`).
- SessionStart (`compact` or `resume`): re-inject the checkpoint (ADR-007's
  self-healing re-read), within a size budget; it counts as a checkpoint delivered.
- Stop: seed 003's unified turn timer asks for a checkpoint (`decision: block`).
- UserPromptSubmit: a real prompt starts a turn; the checkpoint message itself is
  invisible to the session state.
"""

from __future__ import annotations

import os
import time

from ..config import ConfigError, load_config
from ..gitutil import find_toplevel
from .payload import EventError, tool_path

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..config import Config
    from ..findings import Finding

PROG = "asimov-hooks agent-event"
REINJECT_SOURCES = ("compact", "resume")


def handle(event: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON answer for Claude Code, or None for no output."""
    try:
        return HANDLERS[event](payload)
    except ConfigError as exc:
        raise EventError(f"configuration: {exc}") from None


# ------------------------------------------------------------------ settings
def agent_settings(config: Config) -> dict[str, Any]:
    """The `agent` section (rules/agent.json merged with the repository's config)."""
    section = config.section("agent")
    threshold = section.get("turn-threshold", 30)
    message = section.get("checkpoint-message")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or threshold < 1:
        # below the time an agent takes to answer, every checkpoint would ask for the next
        raise ConfigError(f"agent.turn-threshold must be at least 1 second, not {threshold!r}")
    if not isinstance(message, str) or not message.strip():
        raise ConfigError("agent.checkpoint-message must be a non-empty text")
    return {
        "turn-threshold": float(threshold),
        "checkpoint-message": message,
        "checkpoint-kinds": list(section.get("checkpoint-kinds", ["asimov-checkpoint"])),
        "context-budget": int(section.get("context-budget", 3000)),
    }


def _cwd(payload: dict[str, Any]) -> str:
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd and os.path.isdir(cwd):
        return cwd
    return os.getcwd()


def _session(payload: dict[str, Any]) -> str:
    session = payload.get("session_id")
    if not isinstance(session, str) or not session:
        raise EventError(f"{payload.get('hook_event_name')} event without a session_id")
    return session


def _existing_dir(path: str) -> str:
    directory = os.path.dirname(path)
    while directory and not os.path.isdir(directory):
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return directory or os.getcwd()


def _protocol_file(path: str) -> tuple[Config, str, str] | None:
    """(config, kind, path relative to the config's base) for a protocol file."""
    config = load_config(None, start=_existing_dir(path))
    rel = config.relpath(path)
    kind = config.kind_for(rel)
    if kind is None or config.excluded(rel):
        return None
    return config, kind, rel


def _line(rel: str, finding: Finding) -> str:
    text = f"{rel}:{finding.line}:{finding.col}: {finding.level} {finding.rule} {finding.message}"
    return f"{text} (suggestion: {finding.suggestion})" if finding.suggestion else text


def _checker(config: Config) -> Any:
    from ..engine import PATH_RULES, Checker

    # where a file lives (must-be-ignored, checkpoints-tracked) is the commit's business
    return Checker(config, None, set(PATH_RULES))


def _trim_settings(config: Config) -> Any:
    from ..trim.trimmer import Settings

    return Settings.from_config(config)


# ------------------------------------------------------------------ PreToolUse
def pre_tool_use(payload: dict[str, Any]) -> dict[str, Any] | None:
    path = tool_path(payload)
    found = _protocol_file(path) if path else None
    if found is None:
        return None
    config, kind, rel = found
    from .simulate import CannotSimulate, Unreadable, content_after

    tool = payload["tool_name"]
    try:
        content = content_after(tool, payload["tool_input"], path)
    except CannotSimulate:
        return None  # the tool fails by itself and tells the agent why
    except Unreadable as exc:
        raise EventError(str(exc)) from None
    checked, trimmed = _as_trimmed(content, config, kind, rel)
    try:
        data = checked.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate from the JSON: not writable text
        problems = [
            f"{rel}:1:1: error encoding the content is not valid Unicode text ({exc.reason})"
        ]
    else:
        result = _checker(config).check(path, data)
        problems = [_line(rel, f) for f in result.findings if f.level == "error"]
    if not problems:
        return None
    description = config.kinds[kind].get("description", kind)
    after = " even after asimov-hooks trims its lists" if trimmed else ""
    advice = (
        "Write it again with current state only (milestone, status, in_progress, the last "
        "few completed items, the first few next_steps); history belongs in sprint.yaml."
        if kind in _trim_settings(config).kinds
        else "Fix these and write the file again."
    )
    reason = (
        f"asimov-hooks refused this {tool} of {rel} ({description}): the file it would "
        f"leave has errors{after}:\n" + "\n".join(f"- {p}" for p in problems) + f"\n{advice}"
    )
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


def _as_trimmed(content: str, config: Config, kind: str, rel: str) -> tuple[str, bool]:
    """The content as the trimmer would leave it (PostToolUse will trim it), and
    whether the trim changes it; the content itself when it cannot be trimmed."""
    settings = _trim_settings(config)
    if kind not in settings.kinds:
        return content, False
    from ..trim.layout import Refused
    from ..trim.trimmer import trim_text

    spec = config.kinds[kind]
    rules = config.rules_for(kind, rel)
    bom = "\ufeff" if content.startswith("\ufeff") else ""
    try:
        result = trim_text(
            content[len(bom) :],
            settings,
            rules.get("max-lines-soft", {}).get("max"),
            rules.get("max-lines-hard", {}).get("max"),
            identify=spec if spec.get("identify") else None,
            max_nodes=rules.get("yaml-aliases", {}).get("max-nodes", 100_000),
        )
    except Refused:
        return content, False  # the checks report what makes it untrimmable
    if result.skipped or result.text == content[len(bom) :]:
        return content, False
    return bom + result.text, True


# ------------------------------------------------------------------ PostToolUse
def post_tool_use(payload: dict[str, Any]) -> dict[str, Any] | None:
    path = tool_path(payload)
    found = _protocol_file(path) if path else None
    if found is None or not os.path.lexists(path):
        return None
    config, kind, rel = found
    tool = payload["tool_name"]
    notes: list[str] = []
    if kind in _trim_settings(config).kinds:
        from ..trim.trimmer import fix_file

        outcome = fix_file(path, config)
        if outcome.written:
            notes.append(
                f"asimov-hooks trimmed {rel} after your {tool} (ADR-007 rolling window): "
                + "; ".join(outcome.messages)
                + ". The file on disk changed: read it again before editing it."
            )
        if outcome.error:
            notes.append(f"asimov-hooks could not bring {rel} within its limits: {outcome.error}")
    result = _checker(config).check(path)
    findings = [_line(rel, f) for f in result.findings if f.level in ("error", "warning")]
    if findings:
        notes.append(f"asimov-hooks checked {rel}:\n" + "\n".join(f"- {f}" for f in findings))
    if not notes:
        return None
    return {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": "\n".join(notes),
        }
    }


# ------------------------------------------------------------------ SessionStart
def checkpoint_files(config: Config, kinds: list[str], top: str) -> list[str]:
    """The checkpoint files of `kinds` at the project root (literal names only)."""
    found = []
    for kind in kinds:
        for pattern in config.kinds.get(kind, {}).get("files", []):
            if any(ch in pattern for ch in "*?["):
                continue
            candidate = os.path.join(top, pattern.lstrip("/"))
            if os.path.isfile(candidate) and candidate not in found:
                found.append(candidate)
    return found


def session_start(payload: dict[str, Any]) -> dict[str, Any] | None:
    source = payload.get("source")
    if source not in REINJECT_SOURCES:
        return None
    cwd = _cwd(payload)
    config = load_config(None, start=cwd)
    settings = agent_settings(config)
    top = find_toplevel(cwd) or os.path.realpath(cwd)
    files = checkpoint_files(config, settings["checkpoint-kinds"], top)
    if not files:
        import sys

        sys.stderr.write(f"{PROG}: no checkpoint file in {top}; nothing re-injected\n")
        return None
    budget = settings["context-budget"]
    parts = []
    for path in files:
        rel = os.path.relpath(path, top).replace(os.sep, "/")
        from ..fs.access import FileProblem, read_bytes

        try:  # confined: a checkpoint linked to ../secret or /proc/self/environ is not read
            text = read_bytes(path, root=top).decode("utf-8-sig")
        except FileProblem as exc:
            raise EventError(f"{path}: cannot read the checkpoint: {exc.message}") from None
        except UnicodeDecodeError as exc:
            raise EventError(f"{path}: cannot read the checkpoint: {exc}") from None
        if len(text) > budget:
            cut = text.rfind("\n", 0, budget) + 1 or budget
            lines = text.count("\n", cut) + (not text.endswith("\n"))
            text = (
                text[:cut] + f"# ... {lines} more lines not shown: over the {budget}-character "
                "re-read budget; run `asimov-hooks trim` and keep current state only\n"
            )
        budget = max(0, budget - len(text))
        parts.append(f"--- {rel} ---\n{text}")
    session = payload.get("session_id")
    if isinstance(session, str) and session:
        from .state import StateError, Store, state_dir

        try:
            with Store(state_dir(cwd)) as store:
                store.checkpoint_delivered(session, top, time.time())
        except StateError as exc:
            raise EventError(str(exc)) from None
    context = (
        f"Session {source}: your checkpoint, re-read for you (ADR-007 self-healing). "
        "It says where the work stands; continue from it.\n" + "\n".join(parts)
    )
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}}


# ------------------------------------------------------------------ the turn timer
def _store_and_settings(payload: dict[str, Any]) -> tuple[Any, dict[str, Any], str]:
    from .state import StateError, Store, state_dir

    cwd = _cwd(payload)
    settings = agent_settings(load_config(None, start=cwd))
    top = find_toplevel(cwd) or os.path.realpath(cwd)
    try:
        return Store(state_dir(cwd)), settings, top
    except StateError as exc:
        raise EventError(str(exc)) from None


def stop(payload: dict[str, Any]) -> dict[str, Any] | None:
    from .state import StateError

    session = _session(payload)
    store, settings, top = _store_and_settings(payload)
    try:
        with store:
            due = store.checkpoint_due(session, top, time.time(), settings["turn-threshold"])
    except StateError as exc:
        raise EventError(str(exc)) from None
    if not due:
        return None
    return {"decision": "block", "reason": settings["checkpoint-message"]}


def user_prompt_submit(payload: dict[str, Any]) -> dict[str, Any] | None:
    from .state import StateError

    session = _session(payload)
    store, settings, top = _store_and_settings(payload)
    prompt = payload.get("prompt")
    try:
        with store:
            if isinstance(prompt, str) and prompt.strip() == settings["checkpoint-message"].strip():
                return None  # checkpoint messages are invisible to session state
            store.message_sent(session, top, time.time())
    except StateError as exc:
        raise EventError(str(exc)) from None
    return None


HANDLERS = {
    "PreToolUse": pre_tool_use,
    "PostToolUse": post_tool_use,
    "SessionStart": session_start,
    "Stop": stop,
    "UserPromptSubmit": user_prompt_submit,
}
