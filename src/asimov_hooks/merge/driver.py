"""`asimov-hooks merge-driver -- %O %A %B %L %P`: git's custom merge driver for checkpoints.

Git hands us three temporary files and expects the result in %A: exit 0 for a clean
merge, 1 for a conflict (above 128 makes recent git abort the whole merge, so an
expected failure never goes there). The driver resolves what has an obviously right
answer under the field policies in rules/merge.json and fails closed on the rest:
every clean result is re-parsed, compared with the computed merge and checked against
the kind's schema before it is written; anything it cannot vouch for becomes a
conflict, and a side it cannot read goes to git's own line merge.

This module is the git-facing command (files in, exit status out, git's line merge as
the fallback); the merge of the contents is `file_merge`, its settings `settings`.
"""

from __future__ import annotations

import os
import sys

from .file_merge import Outcome, merge_bytes
from .settings import DISABLE_VALUES, Settings, disabled, settings_for

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

# re-exported for callers of the old single module; `run` calls `merge_bytes` through
# this module's globals, so a test can replace it here
__all__ = [
    "DISABLE_VALUES",
    "PROG",
    "Outcome",
    "Settings",
    "disabled",
    "line_merge",
    "main",
    "merge_bytes",
    "run",
    "settings_for",
]

PROG = "asimov-hooks merge-driver"


# ---------------------------------------------------------------- git's line merge
def line_merge(base: str, ours: str, theirs: str, size: int, labels: tuple[str, str]) -> int:
    """git merge-file into `ours`; its exit status folded to 0 (clean) or 1."""
    import subprocess

    cmd = [
        "git",
        "merge-file",
        f"--marker-size={size}",
        "-L",
        labels[0],
        "-L",
        "base",
        "-L",
        labels[1],
        ours,
        base,
        theirs,
    ]
    try:
        done = subprocess.run(cmd, capture_output=True, check=False)
    except OSError:
        done = None
    if done is not None and 0 <= done.returncode < 128:
        return 0 if done.returncode == 0 else 1
    from ..fs.access import atomic_write
    from .text_merge import whole_file_conflict

    def read(path: str) -> str:
        return (_read(path) or b"").decode("utf-8", "replace")

    atomic_write(ours, whole_file_conflict(read(ours), read(theirs), size, labels).encode())
    return 1


# ---------------------------------------------------------------- the command
def _read(path: str) -> bytes | None:
    """A version git gave (%O %A %B: git's temporary files, at the top of the work tree
    or where `git merge-file` was pointed): a regular file, read without blocking."""
    from ..fs.access import FileProblem, read_bytes

    try:
        return read_bytes(path, confined=False)
    except FileProblem:
        return None


def run(base: str, ours: str, theirs: str, size: int, relpath: str) -> int:
    """The driver end to end; never raises for a problem it can describe."""
    labels = ("ours", "theirs")
    where = relpath or ours
    if not os.path.isfile(ours):
        _say(f"{where}: %A ({ours}) is not a file git gave the driver; nothing merged")
        return 2
    if disabled():
        return line_merge(base, ours, theirs, size, labels)
    try:
        from ..config.config import ConfigError

        try:
            settings = settings_for(relpath, size)
        except ConfigError as exc:
            _say(f"{where}: {exc}; fell back to a line merge")
            line_merge(base, ours, theirs, size, labels)
            return 1
        if isinstance(settings, str):
            return line_merge(base, ours, theirs, size, labels)
        labels = settings.labels
        ours_raw, theirs_raw = _read(ours), _read(theirs)
        if ours_raw is None or theirs_raw is None:
            _say(f"{where}: cannot read the versions git gave; fell back to a line merge")
            line_merge(base, ours, theirs, size, labels)
            return 1
        outcome = merge_bytes(_read(base), ours_raw, theirs_raw, settings)
    except Exception as exc:  # never leave git with an untouched %A and a bare exit code
        if os.environ.get("ASIMOV_HOOKS_DEBUG"):  # the traceback; the fallback still runs
            import traceback

            traceback.print_exc()
        _say(f"{where}: internal error ({type(exc).__name__}: {exc}); fell back to a line merge")
        line_merge(base, ours, theirs, size, labels)
        return 1
    if outcome.how == "line-merge":
        _say(f"{where}: {outcome.reason}; fell back to git's line merge")
        line_merge(base, ours, theirs, size, labels)
        return 1
    if outcome.cut and not _keep_cut(outcome, settings, relpath, where):
        line_merge(base, ours, theirs, size, labels)  # nothing cut, nothing lost
        return 1
    from ..fs.access import atomic_write

    if outcome.data is not None and outcome.data != ours_raw:
        atomic_write(ours, outcome.data)
    if outcome.how == "conflict":
        count = len(outcome.conflicts)
        _say(
            f"CONFLICT in {where}: "
            + (f"{count} fields need" if count != 1 else "1 field needs")
            + " a decision (everything else is merged):"
        )
        from ..fs.access import show

        for line in outcome.conflicts:
            sys.stderr.write(f"  {show(line)}\n")
    return outcome.status


def _keep_cut(outcome: Outcome, settings: Settings, relpath: str, where: str) -> bool:
    """Record what the union cut from lists over their trim caps for the archive (see
    `pending`), before the merged file is written; say what happened. False when it
    cannot be recorded (the caller then falls back to git's line merge)."""
    import datetime
    import json

    counts = ", ".join(
        f"{len(items)} of {name}" if isinstance(items, list) else name
        for name, items in outcome.cut.items()
    )
    if outcome.reason:  # the merged file passed a hard limit: trimmed by the trim rules
        what = f"the merged file would be {outcome.reason}: trimmed as `asimov-hooks trim` would,"
        why = "merge: the merged file passed its hard limit; trimmed"
    else:
        what, why = (
            "the union passed the list caps:",
            "merge: the union of both sides passed the list caps",
        )
    if not settings.archive:
        _say(f"{where}: {what} cut {counts} (archive disabled)")
        return True
    from ..fs.access import FileProblem
    from ..trim.pending import record

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    entry = {
        "trimmed_at": now,
        "source": relpath,
        "reason": why,
        "removed": json.loads(json.dumps(outcome.cut, default=str)),
    }
    try:
        pending = record(os.getcwd(), relpath, entry)
    except (OSError, ValueError, FileProblem) as exc:
        _say(f"{where}: {what} and what it cuts cannot be kept ({exc})")
        return False
    kept = " kept the newest," if not outcome.reason else ""
    _say(
        f"{where}: {what}{kept} cut {counts}; they wait "
        f"in {os.path.relpath(pending)} for the trim archive (`asimov-hooks trim {where}` "
        "or the asimov-trim hook appends them)"
    )
    return True


def _say(message: str) -> None:
    from ..fs.access import show  # the path is the repository's: one line, no escapes

    sys.stderr.write(f"{PROG}: {show(message)}\n")


MODULE_PROG = "python -m asimov_hooks.merge.driver"


def _build_command() -> Any:
    import click

    from ..options import MERGE_DRIVER
    from ..options.clickopts import with_arguments

    @click.command("merge-driver", context_settings={"help_option_names": ["-h", "--help"]})
    @with_arguments(MERGE_DRIVER)
    def command(base: str, ours: str, theirs: str, marker_size: int, relpath: str) -> None:
        """Merge checkpoint files for git (merge.asimov-checkpoint.driver).

        Writes the result into %A; exit 0 when clean, 1 on a conflict. Field policies
        come from rules/merge.json and the repository's config. Set
        ASIMOV_HOOKS_MERGE_DRIVER=0 to fall back to git's own line merge.
        """
        sys.exit(run(base, ours, theirs, marker_size, relpath.replace(os.sep, "/")))

    return command


def __getattr__(name: str) -> Any:
    """`command` is built on first use: git's fast path (`main`) never imports click."""
    if name == "command":
        built = _build_command()
        globals()["command"] = built
        return built
    raise AttributeError(name)


def main(argv: list[str] | None = None) -> int:
    """`python -m asimov_hooks.merge.driver -- %O %A %B %L %P`, the command install writes.

    The same driver as `asimov-hooks merge-driver`, read from the same argument list
    (`options.MERGE_DRIVER`) without loading click (most of a merge's start-up
    time); anything unusual (help, a missing or bad value) goes to click for its usage
    message and exit status 2.
    """
    from ..options import MERGE_DRIVER, parse_arguments

    args = list(sys.argv[1:] if argv is None else argv)
    given = parse_arguments(MERGE_DRIVER, args)
    if given is None:
        import click

        from ..options.clickopts import show_error

        try:
            code = __getattr__("command").main(args, prog_name=MODULE_PROG, standalone_mode=False)
        except click.ClickException as exc:
            show_error(exc, MODULE_PROG)
            return 2
        except SystemExit as done:
            return done.code if isinstance(done.code, int) else 2
        return code if isinstance(code, int) else 2
    try:
        return run(
            str(given["base"]),
            str(given["ours"]),
            str(given["theirs"]),
            int(given["marker_size"]),  # type: ignore[call-overload]
            str(given["relpath"]).replace(os.sep, "/"),
        )
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
