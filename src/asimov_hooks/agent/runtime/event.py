"""`asimov-hooks agent-event [--agent NAME]`: one hook event, its JSON on stdin.

The agent runs this on every file write it makes, so the path to "not a protocol
file, nothing to do" imports no parser, no click, no sqlite3: the stdin JSON goes
through the C scanner, the adapter (`agent.agents.NAME`) turns it into an event, the
file name is matched against the rule packs' patterns (`agent.runtime.prefilter`), and only a
name that can be a protocol file inside the project loads the configuration and the
core (`agent.runtime.core`). The core's answer goes back through the adapter, in the agent's
documented form.

It must never break the agent: every problem (stdin it cannot read, a payload
without the fields it needs, a broken config) is one line on stderr and the exit
status the agent reads as "this hook failed, go on" (the adapter's EXIT_FAILED: 1,
or 0 for GitHub Copilot CLI, which refuses the tool call on any other), never a
traceback; refusals and messages to the agent are the adapter's documented output.
"""

import gc
import os
import sys

from ..agents import AGENTS, DEFAULT, load
from .model import POST_WRITE, PRE_WRITE
from .payload import EventError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence
    from typing import Any

__all__ = ["EventError", "main", "read_payload"]

PROG = "asimov-hooks agent-event"
EXIT_OK, EXIT_FAIL = 0, 1  # EXIT_FAIL: before the agent is known (an unknown --agent)
GOES_ON = "not checked, the agent goes on"
MAX_STDIN = 64 * 1024 * 1024  # a hook payload carries one tool call; refuse more
USAGE = f"""Usage: {PROG} [--agent {"|".join(AGENTS)}] < HOOK-JSON

Handle one hook event of the agent (the JSON it writes on stdin; default agent:
{DEFAULT}) and answer in the agent's documented form on stdout. Installed by
`asimov-hooks agent install`. An event it cannot handle (stdin that is not a hook
event, a payload missing fields) is one line on stderr and the exit status the agent
reads as a failed hook that does not stop it: 1, or 0 for copilot (GitHub Copilot CLI
refuses the tool call when a hook exits non-zero). See docs/agent.md and docs/agents.md.
"""


def main(argv: "Sequence[str] | None" = None) -> int:
    args = list(sys.argv[2:] if argv is None else argv)
    # One short process: what it allocates is freed by reference counting or at exit;
    # the cycle collector's passes over the imported modules would cost an event on a
    # checkpoint a tenth of its time. Restored for a caller running it in-process.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _guarded(args)
    finally:
        if collecting:
            gc.enable()


def _guarded(args: list[str]) -> int:
    failed: list[int] = []  # the agent's EXIT_FAILED, once its adapter is loaded
    try:
        return _main(args, failed)
    except EventError as exc:
        return _fail(str(exc), failed)
    except KeyboardInterrupt:
        return failed[0] if failed else EXIT_FAIL
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return failed[0] if failed else EXIT_FAIL
    except Exception as exc:  # a bug or an environment failure: one line, not a traceback
        if os.environ.get("ASIMOV_HOOKS_DEBUG"):  # the traceback, and the same exit code
            import traceback

            traceback.print_exc()
        return _fail(
            f"internal error: {type(exc).__name__}: {exc} "
            "(set ASIMOV_HOOKS_DEBUG=1 for a traceback)",
            failed,
        )


def _fail(message: str, failed: list[int]) -> int:
    """One line on stderr; the exit status the agent reads as a failed hook that does
    not stop it (1 until the agent is known)."""
    from ...fs.access import show

    said = " ".join(message.split())
    if failed:  # the agent is known, and this status lets it go on
        said += f"; {GOES_ON}"
    sys.stderr.write(f"{PROG}: {show(said)}\n")
    return failed[0] if failed else EXIT_FAIL


def parse_args(args: list[str]) -> str | None:
    """The agent's name; None for --help."""
    name = DEFAULT
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in ("-h", "--help"):
            return None
        if arg == "--agent":
            if not rest:
                raise EventError("--agent needs a name: " + ", ".join(AGENTS))
            name = rest.pop(0)
        elif arg.startswith("--agent="):
            name = arg[len("--agent=") :]
        else:
            raise EventError(
                f"unexpected argument {arg!r}; the only option is --agent NAME "
                "(the event comes on stdin)"
            )
    return name


def _main(args: list[str], failed: list[int]) -> int:
    name = parse_args(args)
    if name is None:
        sys.stdout.write(USAGE + "\nEvents handled, per agent:\n")
        for agent in AGENTS:
            try:
                sys.stdout.write(f"  {agent:<7} {load(agent).USAGE}\n")
            except EventError:
                continue
        return EXIT_OK
    adapter = load(name)
    failed.append(adapter.EXIT_FAILED)
    payload = read_payload()
    aside = getattr(adapter, "stands_aside", None)
    if aside is not None and aside(payload):
        return EXIT_OK  # another agent's event, answered by that agent's own hooks
    event = adapter.normalize(payload)
    if event.session is not None:
        from .payload import check_session

        check_session(event)
    if event.kind is None:
        # another event routed here by a hand-written setting: nothing to do, say so once
        from ...fs.access import show

        said = show(f"{name} event {event.name!r} is not handled; nothing done")
        sys.stderr.write(f"{PROG}: {said}\n")
        return EXIT_OK
    if event.kind in (PRE_WRITE, POST_WRITE):
        from .prefilter import governed

        event.targets = [path for path in event.targets if governed(path, event.project)]
        kept = set(event.targets)  # a set: linear in the files a patch names
        event.edits = [edit for edit in event.edits if edit.path in kept]
        if not event.targets:
            return EXIT_OK
    from .core import handle

    out, code = adapter.render(event, handle(event))
    if out:
        sys.stdout.write(out)
    return code


def read_payload() -> "dict[str, Any]":
    """The hook JSON on stdin: UTF-8, strict JSON (no NaN or Infinity), an object."""
    if sys.stdin is None or sys.stdin.isatty():
        raise EventError("expects the agent's hook event as JSON on stdin")
    raw = sys.stdin.buffer.read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        raise EventError(f"stdin holds more than {MAX_STDIN:,} bytes; not a hook event")
    if not raw.strip():
        raise EventError("empty stdin; expected a hook event as JSON")
    if raw.startswith(b"\xef\xbb\xbf"):  # a byte-order mark (the utf-8-sig codec costs an import)
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EventError(f"stdin is not UTF-8 (byte 0x{raw[exc.start]:02x})") from None
    from ...readers.fastjson import loads

    try:
        payload = loads(text)
    except RecursionError:
        raise EventError("stdin JSON nests too deeply; not a hook event") from None
    except ValueError as exc:
        raise EventError(f"stdin is not valid JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise EventError("stdin JSON is not an object; expected a hook event")
    return payload
