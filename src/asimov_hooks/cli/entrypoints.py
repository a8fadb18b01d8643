"""Console-script entry points for the hook hot path (no click import).

`asimov-validate`, `asimov-check-size` and `asimov-hooks trim` run on every commit,
and importing click costs more than checking or trimming a checkpoint. Their usual
command lines are parsed here; help, version and usage errors go through click.
"""

from __future__ import annotations

import os
import sys

from .fastargs import parse, scan

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable, Sequence

SIZE_OPTIONS = frozenset({"--config", "--strict", "-q", "--quiet", "--format", "--color"})


def _internal_error(prog: str, exc: Exception) -> int:
    if isinstance(exc, BrokenPipeError):  # `... | head`: the reader left, nothing to say
        return broken_pipe()
    if os.environ.get("ASIMOV_HOOKS_DEBUG"):
        raise exc
    sys.stderr.write(
        f"{prog}: internal error: {type(exc).__name__}: {exc} "
        "(set ASIMOV_HOOKS_DEBUG=1 for a traceback)\n"
    )
    return 2


def _run_hook(prog: str, call: Callable[[], int]) -> int:
    """A hook's work past its command line, failing as the click path fails: Ctrl-C is
    exit 130 and quiet, anything unexpected (an import included) one line and exit 2."""
    try:
        return call()
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        return _internal_error(prog, exc)


def broken_pipe() -> int:
    """Silence the interpreter's own flush of a stdout whose reader has gone."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


def validate_main(argv: Sequence[str] | None = None) -> int:
    """`asimov-validate`."""
    args = sys.argv[1:] if argv is None else list(argv)
    opts = parse(args)
    if opts is None:
        from .commands import validate_main as click_main

        return click_main(args)

    def call() -> int:
        from ..run import run_options

        return run_options(**opts)  # type: ignore[arg-type]

    return _run_hook("asimov-validate", call)


def check_size_main(argv: Sequence[str] | None = None) -> int:
    """`asimov-check-size`: ADR-007 size limits only; never imports a YAML parser."""
    args = sys.argv[1:] if argv is None else list(argv)
    opts = parse(args, SIZE_OPTIONS)
    if opts is None:
        from .commands import _guarded, check_size_command

        return _guarded(check_size_command, args, "asimov-check-size")

    def call() -> int:
        from ..engine import SIZE_RULES
        from ..run import run_options

        opts["select"] = [",".join(sorted(SIZE_RULES))]
        opts["jobs"] = 1  # reading and counting: a worker would cost more than it saves
        return run_options(**opts)  # type: ignore[arg-type]

    return _run_hook("asimov-check-size", call)


TRIM_FLAGS = {
    "-q": "quiet",
    "--quiet": "quiet",
    "--dry-run": "dry_run",
    "--diff": "diff",
    "--no-archive": "no_archive",
}
TRIM_VALUES = {"--config": "config_path", "--archive": "archive_path"}


def _trim_options(args: Sequence[str]) -> dict[str, object] | None:
    """`trim`'s options and files, or None to let click parse (and explain) them."""
    scanned = scan(args, TRIM_FLAGS, TRIM_VALUES)
    if scanned is None:
        return None
    found, files = scanned
    opts: dict[str, object] = {"files": files, "archive": None}
    for key, value in found.items():
        if key == "no_archive":
            opts["archive"] = False
        elif value is True:
            opts[key] = True
        elif any(os.path.isdir(v) for v in value):  # type: ignore[attr-defined]
            return None  # click says it must be a file
        else:
            opts[key] = value[-1]  # type: ignore[index]
    if opts["archive"] is False and opts.get("archive_path"):
        return None  # click's usage error says why
    return opts


def hooks_main(argv: Sequence[str] | None = None) -> int:
    """`asimov-hooks`: the command group; `trim FILE...`, `ephemeral` and `agent-event`
    (run by the agent on every file edit) skip click."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["agent-event"]:
        from ..agent.event import main as agent_event

        return agent_event(args[1:])
    if args[:1] == ["ephemeral"]:
        from ..agent.ephemeral import fast_main

        code = fast_main(args[1:])
        if code is not None:
            return code
    opts = _trim_options(args[1:]) if args[:1] == ["trim"] else None
    if opts is None:
        from .commands import main

        return main(args)

    def call() -> int:
        from ..trim.trimmer import run

        return run(**opts)  # type: ignore[arg-type]

    return _run_hook("asimov-hooks", call)
