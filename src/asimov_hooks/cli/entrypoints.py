"""Console-script entry points for the hook hot path (no click import).

`asimov-validate`, `asimov-check-size` and `asimov-hooks trim` run on every commit,
and importing click costs more than checking or trimming a checkpoint. Their usual
command lines are parsed here; help, version and usage errors go through click.
"""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable, Sequence

__all__ = ["broken_pipe", "check_size_main", "hooks_main", "validate_main"]


def run_guarded(prog: str, call: "Callable[[], int]") -> int:
    """`guard.run_guarded`, imported when a command runs (agent-event has its own)."""
    from .guard import run_guarded as guarded

    return guarded(prog, call)


def broken_pipe() -> int:
    from .guard import broken_pipe as handler

    return handler()


def validate_main(argv: "Sequence[str] | None" = None) -> int:
    """`asimov-validate`."""
    from ..options import VALIDATE, parse_command

    args = sys.argv[1:] if argv is None else list(argv)
    opts = parse_command(VALIDATE, args)
    if opts is None:
        from .commands import validate_main as click_main

        return click_main(args)

    def call() -> int:
        from ..validation.run import run_options

        return run_options(**opts)  # type: ignore[arg-type]

    return _done(run_guarded("asimov-validate", call), argv)


def check_size_main(argv: "Sequence[str] | None" = None) -> int:
    """`asimov-check-size`: ADR-007 size limits only; never imports a YAML parser. The
    hook's usual command line (file names only) is first offered to the slim check,
    which answers when every file is plainly within its limits (validation/slim.py)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args and not any(arg.startswith("-") for arg in args):

        def slim() -> int:
            from ..validation.slim import check_size

            code = check_size(args)
            return -1 if code is None else code

        code = run_guarded("asimov-check-size", slim)
        if code != -1:
            return _done(code, argv)
    from ..options import CHECK_SIZE, parse_command

    opts = parse_command(CHECK_SIZE, args)
    if opts is None:
        from .commands import _guarded, check_size_command

        return _guarded(check_size_command, args, "asimov-check-size")

    def call() -> int:
        from ..validation.run import run_size_options

        return run_size_options(**opts)

    return run_guarded("asimov-check-size", call)


def _trim_options(args: "Sequence[str]") -> dict[str, object] | None:
    """`trim`'s arguments (`trimmer.run` takes the table's keywords as they are), or
    None to let click parse (and explain) them, as when --archive and --no-archive are
    both given."""
    from ..options import TRIM, parse_command

    opts = parse_command(TRIM, args)
    if opts is None or (opts["no_archive"] and opts["archive_path"]):
        return None
    return opts


def hooks_main(argv: "Sequence[str] | None" = None) -> int:
    """`asimov-hooks`: the command group; `trim FILE...`, `ephemeral` and `agent-event`
    (run by the agent on every file edit) skip click."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["agent-event"]:
        from ..agent.runtime.event import main as agent_event

        return _done(agent_event(args[1:]), argv)
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

    return _done(run_guarded("asimov-hooks", call), argv)


def _done(code: int, argv: "Sequence[str] | None") -> int:
    """A command's exit code, returned to an in-process caller (`argv` given); for the
    console script (a process of its own) the end of the process, once its output is
    out, without the interpreter's tear-down of every module it imported, which costs a
    one-file hook a sixth of Python's own start-up. Only called once the command has
    returned: every file it wrote is closed and renamed into place by then, its forked
    workers are waited for, and nothing on these paths registers an exit handler."""
    if argv is not None:
        return code
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # `... | head`: the reader left, nothing to say
        return broken_pipe()
    except (OSError, ValueError):  # a closed or broken stream: as the normal exit would say
        return code
    os._exit(code)
