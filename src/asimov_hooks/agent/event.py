"""`asimov-hooks agent-event`: one Claude Code hook event, its JSON on stdin.

Claude Code runs this on every Write, Edit and MultiEdit the agent makes, so the path
to "not a protocol file, nothing to do" imports no parser, no click, no sqlite3: the
stdin JSON goes through the C scanner, the file name is matched against the rule
packs' patterns, and only a name that can be a protocol file loads the full
configuration and the checks (agent.handlers).

It must never break the agent: every problem is one line on stderr and exit 1
(Claude Code shows it and carries on), never exit 2 (a refusal) and never a
traceback; refusals and messages to the agent are the documented JSON on stdout.
"""

from __future__ import annotations

import os
import sys

from .payload import FILE_TOOLS, EventError, tool_path

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence
    from typing import Any

__all__ = ["FILE_TOOLS", "EventError", "main", "protocol_target", "tool_path"]

PROG = "asimov-hooks agent-event"
EVENTS = ("PreToolUse", "PostToolUse", "SessionStart", "Stop", "UserPromptSubmit")
EXIT_OK, EXIT_FAIL = 0, 1
USAGE = f"""Usage: {PROG} < HOOK-JSON

Handle one Claude Code hook event (the JSON Claude Code writes on stdin) and answer
with the documented JSON on stdout. Installed by `asimov-hooks agent install` for
{", ".join(EVENTS)}. Exit 0, or 1 with one line on stderr when the event cannot be
handled (never 2: a hook's exit 2 is a refusal). See docs/agent.md.
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[2:] if argv is None else argv)
    try:
        return _main(args)
    except EventError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return EXIT_FAIL
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAIL
    except Exception as exc:  # a bug or an environment failure: one line, not a traceback
        if os.environ.get("ASIMOV_HOOKS_DEBUG"):  # the traceback, and the same exit code
            import traceback

            traceback.print_exc()
        return _fail(
            f"internal error: {type(exc).__name__}: {exc} (set ASIMOV_HOOKS_DEBUG=1 for a traceback)"
        )


def _fail(message: str) -> int:
    sys.stderr.write(f"{PROG}: {' '.join(message.split())}\n")
    return EXIT_FAIL


def _main(args: list[str]) -> int:
    if args in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return EXIT_OK
    if args:
        raise EventError(f"takes no arguments (got {args[0]!r}); the event comes on stdin")
    payload = read_payload()
    event = payload.get("hook_event_name")
    if event in ("PreToolUse", "PostToolUse"):
        target = protocol_target(payload)
        if target is None:
            return EXIT_OK
    elif event not in EVENTS:
        # another event routed here by a hand-written setting: nothing to do, say so once
        sys.stderr.write(f"{PROG}: event {event!r} is not handled; nothing done\n")
        return EXIT_OK
    from . import handlers

    answer = handlers.handle(event, payload)
    if answer is not None:
        import json

        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return EXIT_OK


def read_payload() -> dict[str, Any]:
    if sys.stdin is None or sys.stdin.isatty():
        raise EventError("expects a Claude Code hook event as JSON on stdin")
    raw = sys.stdin.buffer.read()
    if not raw.strip():
        raise EventError("empty stdin; expected a Claude Code hook event as JSON")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EventError(f"stdin is not UTF-8 (byte 0x{raw[exc.start]:02x})") from None
    from ..readers.fastjson import loads

    try:
        payload = loads(text)
    except ValueError as exc:
        raise EventError(f"stdin is not valid JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise EventError("stdin JSON is not an object; expected a Claude Code hook event")
    if not isinstance(payload.get("hook_event_name"), str):
        raise EventError("stdin JSON has no hook_event_name")
    return payload


def protocol_target(payload: dict[str, Any]) -> str | None:
    """The tool's target when it may be a protocol file, else None (cheaply)."""
    path = tool_path(payload)
    if path is None or not may_be_protocol_file(path):
        return None
    return path


def may_be_protocol_file(path: str) -> bool:
    """False only when no configuration can make `path` a protocol file.

    The file name is matched against the default rule pack's kinds. A repository
    config can add kinds or change their patterns only through `kinds` (or a file it
    `extends`), so a config that mentions neither leaves the default answer standing;
    any other config is loaded in full by the handler.
    """
    from ..config import ENV_CONFIG, find_config, load_rule_file
    from ..gitutil import find_toplevel
    from ..globs import match_any

    directory = os.path.dirname(path)
    if os.environ.get(ENV_CONFIG):
        return True
    config_file = find_config(directory)
    if config_file is not None:
        from ..fs.access import FileProblem, read_bytes
        from ..readers.guards import limits

        try:  # bounded before a byte is read: an oversized config is the handler's to report
            text = read_bytes(config_file, limits()["max-config-bytes"], confined=False)
        except FileProblem:
            return True  # the handler's config load reports it
        if b"kinds" in text or b"extends" in text:
            return True
    top = find_toplevel(directory) or os.path.realpath(directory)
    rel = os.path.relpath(path, top).replace(os.sep, "/")
    return any(
        match_any(rel, spec.get("files", ()))
        for spec in load_rule_file("kinds.json").get("kinds", {}).values()
    )
