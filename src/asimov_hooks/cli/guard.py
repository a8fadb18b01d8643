"""How every command fails: Ctrl-C is exit 130 and quiet, a closed stdout (`... | head`)
is quiet and exit 141, as for git or grep (a process ended by SIGPIPE, as a shell reports
it), and anything unexpected is one line and exit 2 (a traceback only with
ASIMOV_HOOKS_DEBUG=1).

Shared by the click commands and the click-free hook entry points.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable


EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


def broken_pipe() -> int:
    """Silence the interpreter's own flush of a stdout whose reader has gone."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no descriptor behind stdout: nothing left to flush
        pass
    return EXIT_BROKEN_PIPE


def reader_gone() -> bool:
    """Whether click met a closed stdout and swallowed it (it then exits 1)."""
    return "PacifyFlushWrapper" in type(sys.stdout).__name__


def flushed(code: int) -> int:
    """`code`, once what is left in stdout's buffer is out; a reader that has gone makes
    it the broken pipe's exit, quiet (not the interpreter's "Exception ignored", 120)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return broken_pipe()
    except (OSError, ValueError):
        pass
    return code


def internal_error(prog: str, exc: BaseException) -> int:
    if isinstance(exc, BrokenPipeError):  # `... | head`: the reader left, nothing to say
        return broken_pipe()
    from ..fs.access import show  # the message may quote what a file held
    from ..gitutil import GitError

    if isinstance(exc, GitError):  # git missing, failing, or a file it would wait on
        sys.stderr.write(show(f"{prog}: error: {exc}") + "\n")
        return 2
    if os.environ.get("ASIMOV_HOOKS_DEBUG"):  # the traceback, and the same exit code
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__)
    sys.stderr.write(
        show(f"{prog}: internal error: {type(exc).__name__}: {exc} ")
        + "(set ASIMOV_HOOKS_DEBUG=1 for a traceback)\n"
    )
    return 2


def run_guarded(prog: str, call: Callable[[], int]) -> int:
    """A command's work, failing as described above."""
    try:
        return call()
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        return internal_error(prog, exc)
