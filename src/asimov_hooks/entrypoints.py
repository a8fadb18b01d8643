"""Console-script entry points for the hook hot path (no click import).

`asimov-validate` and `asimov-check-size` run on every commit. Their usual command
lines are parsed by fastargs; help, version and usage errors go through click.
"""

from __future__ import annotations

import os
import sys

from .fastargs import parse

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence

SIZE_OPTIONS = frozenset({"--config", "--strict", "-q", "--quiet", "--format"})


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
        from .cli import validate_main as click_main

        return click_main(args)
    try:
        from .run import run_options

        return run_options(**opts)  # type: ignore[arg-type]
    except KeyboardInterrupt:  # Ctrl-C: quiet, the shell's code, as on the click path
        return 130
    except Exception as exc:  # one line, exit 2, as on the click path
        return _internal_error("asimov-validate", exc)


def check_size_main(argv: Sequence[str] | None = None) -> int:
    """`asimov-check-size`: ADR-007 size limits only; never imports a YAML parser."""
    args = sys.argv[1:] if argv is None else list(argv)
    opts = parse(args, SIZE_OPTIONS)
    if opts is None:
        from .cli import _guarded, check_size_command

        return _guarded(check_size_command, args, "asimov-check-size")
    try:
        from .engine import SIZE_RULES
        from .run import run_options

        opts["select"] = [",".join(sorted(SIZE_RULES))]
        opts["jobs"] = 1  # reading and counting: a worker would cost more than it saves
        return run_options(**opts)  # type: ignore[arg-type]
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        return _internal_error("asimov-check-size", exc)
