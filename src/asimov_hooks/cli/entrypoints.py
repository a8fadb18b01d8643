"""Console-script entry points for the hook hot path (no click import).

`asimov-validate`, `asimov-check-size` and `asimov-hooks trim` run on every commit,
and importing click costs more than checking or trimming a checkpoint. Their usual
command lines are parsed here; help, version and usage errors go through click.
"""

from __future__ import annotations

import os
import sys

from .fastargs import parse, scan
from .guard import broken_pipe, run_guarded

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence

__all__ = ["broken_pipe", "check_size_main", "hooks_main", "validate_main"]

SIZE_OPTIONS = frozenset({"--config", "--strict", "-q", "--quiet", "--format", "--color"})


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

    return run_guarded("asimov-validate", call)


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
        return run_options(**opts, prog="asimov-check-size")  # type: ignore[arg-type]

    return run_guarded("asimov-check-size", call)


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
    if args[:3] == ["oc", "rotate", "--over-limit"]:  # the asimov-oc-rotate hook
        from ..oc.quick import rotate_over_limit

        code = run_guarded("asimov-hooks", lambda: rotate_over_limit(args[3:]))
        if code is not None:
            return code
    opts = _trim_options(args[1:]) if args[:1] == ["trim"] else None
    if opts is None:
        from .commands import main

        return main(args)

    def call() -> int:
        from ..trim.trimmer import run

        return run(**opts)  # type: ignore[arg-type]

    return run_guarded("asimov-hooks", call)
