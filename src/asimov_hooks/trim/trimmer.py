"""`asimov-hooks trim`: ADR-007's rolling-window trim as a pre-commit fixer.

ADR-007 describes a trim that its own tool never ran, so checkpoints outgrow their
budget unnoticed. This fixer applies it, in the ADR's order, with every number and
field list taken from `rules/trim.json` (overridable in the `trim:` config section)
and the line limits from the checkpoint kind's own rules:

1. always cap the capped lists (`completed` keeps its last items, `next_steps` its
   first) at their maximum;
2. if the file is still over the soft line limit, cut the lists to their windows and
   remove the optional fields;
3. if it is still over the hard limit, write the best trim and report that the
   checkpoint's structure itself is too large, naming what takes the space.

Everything removed is appended to an archive first (trim_archive). The edit is a
deletion of line ranges from the original text (trim_layout explains why), checked by
parsing the result before anything is written. The algorithm on a text is
`algorithm.trim_text` (re-exported here); this module trims files and runs the command.
"""

from __future__ import annotations

import os
import sys

from ..config.config import Config, ConfigError, load_config
from ..config.packs import error_lines
from ..fs.access import UnsafePath, confine
from .algorithm import TrimResult, trim_text
from .settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing and dataclasses cost every commit ~10 ms
    from typing import Any

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
PROG = "asimov-hooks trim"


# ------------------------------------------------------------------ one file
class Outcome:
    """What fix_file did to one file (the contract with `asimov-validate --fix`)."""

    __slots__ = (
        "after",
        "archive",
        "before",
        "changed",
        "conflicted",
        "error",
        "messages",
        "path",
        "removed",
        "skipped",
        "warning",
        "written",
    )

    def __init__(self, path: str) -> None:
        self.path = path
        self.changed = False
        self.messages: list[str] = []
        self.error: str | None = None
        self.warning: str | None = None  # over a hard limit whose rule is only a warning
        self.skipped: str | None = None
        self.conflicted = False
        self.written = False
        self.archive: str | None = None
        self.before: str | None = None
        self.after: str | None = None
        self.removed: dict[str, object] = {}  # what the trim removed, by key


def fix_file(
    path: str,
    config: Config,
    *,
    settings: Settings | None = None,
    dry_run: bool = False,
) -> Outcome:
    """Trim one checkpoint in place. Bad input becomes `.error`; the file is then untouched.

    `settings`: the config's with the command line over it (`Settings.overridden`);
    by default the config's. ConfigError (an unusable `trim` section) propagates: it
    is the caller's exit 2.
    """
    from ..fs.access import locked as DirectoryLocks
    from . import archive as trim_archive

    outcome = Outcome(path)
    if settings is None:
        settings = Settings.from_config(config)
    rel = config.relpath(path)
    kind = config.kind_for(rel)
    if kind not in settings.kinds:
        listed = ", ".join(settings.kinds) or "none"
        outcome.skipped = f"not a file kind that is trimmed (trim.kinds: {listed})"
        return outcome
    spec = config.kinds[kind]
    if spec.get("format") != "yaml":
        raise ConfigError(
            f"trim.kinds: {kind} is not a YAML kind; only YAML checkpoints are trimmed"
        )
    rules = config.rules_for(kind, rel)
    target = trim_archive.archive_target(path, settings) if settings.archive else None
    root = trim_archive.root_of(path)
    try:
        confine(path, root, what="checkpoint")
    except UnsafePath as refused:
        outcome.error = f"not trimmed: {refused.message}"
        return outcome
    # the lock spans reading the checkpoint to writing it: concurrent trims of one file
    # archive each removed item once, and trims sharing an archive keep every entry
    with DirectoryLocks([path] if target is None or dry_run else [path, target]):
        done = _fix_locked(path, config, outcome, settings, spec, rules, target, dry_run)
        if target is not None and not done.error:
            _flush_merge_cuts(done, config, target, dry_run)
        return done


def _fix_locked(
    path: str,
    config: Config,
    outcome: Outcome,
    settings: Settings,
    spec: dict[str, Any],
    rules: dict[str, Any],
    target: str | None,
    dry_run: bool,
) -> Outcome:
    from ..conflict_markers import find_conflict_marker
    from ..fs.textio import BOM, FileProblem, read_text
    from .parsing import Refused

    soft = rules.get("max-lines-soft", {}).get("max")
    hard = rules.get("max-lines-hard", {}).get("max")
    try:
        source = read_text(path, rules.get("max-bytes-hard", {}).get("max"))
    except FileProblem as problem:
        outcome.error = f"not trimmed: {problem.message}"
        return outcome
    marker = find_conflict_marker(source.text)
    if marker is not None:
        outcome.error = f"not trimmed: unresolved merge conflict markers (line {marker})"
        outcome.conflicted = True
        return outcome
    try:
        result = trim_text(
            source.text,
            settings,
            soft,
            hard,
            identify=spec if spec.get("identify") else None,
            max_nodes=rules.get("yaml-aliases", {}).get("max-nodes", 100_000),
            limits=config.limits,
        )
    except Refused as refused:
        outcome.error = f"not trimmed: {refused}"
        return outcome
    if result.skipped:
        outcome.skipped = result.skipped
        return outcome
    outcome.before, outcome.after = source.text, result.text
    outcome.removed = result.removed
    outcome.messages = list(result.messages)
    outcome.changed = result.text != source.text
    if outcome.changed:
        outcome.messages.append(f"{result.before} -> {result.after} lines")
        if not dry_run and not os.access(os.path.realpath(path), os.W_OK):
            outcome.error = "not trimmed: the file is read-only"
            outcome.changed = False
            return outcome
        if target is not None:
            # the command line's archive is the user's to place; the config's is confined
            # to the checkpoint's repository
            from .archive import root_of

            where = None if settings.archive_file else root_of(path)
            error = _archive(outcome, result, config, source.newline, target, dry_run, where)
            if error:
                outcome.error, outcome.changed = error, False
                return outcome
        else:
            outcome.messages.append("removed content not archived (archive disabled)")
        if not dry_run:
            from ..fs.access import atomic_write

            data = (BOM if source.bom else b"") + result.text.encode("utf-8")
            try:
                atomic_write(path, data)
            except OSError as exc:
                outcome.error = f"cannot write: {exc.strerror or exc}" + (
                    " (what it would remove is already archived; a second run archives it again)"
                    if outcome.archive
                    else ""
                )
                outcome.changed = False
                return outcome
            outcome.written = True
    if result.over_hard:
        if rules.get("max-lines-hard", {}).get("level", "error") == "error":
            outcome.error = result.over_hard
        else:  # the repository made the hard limit a warning (as ADR-007's own CLI)
            outcome.warning = result.over_hard
    return outcome


def _flush_merge_cuts(outcome: Outcome, config: Config, target: str, dry_run: bool) -> None:
    """Append what the merge driver cut from this checkpoint's capped lists (kept in the
    git directory meanwhile: trim/pending) to its archive, one entry per merge."""
    from . import archive as trim_archive
    from .pending import Unreadable, done, take

    try:
        pending, entries = take(outcome.path)
    except Unreadable as exc:
        outcome.error = str(exc)
        return
    if pending is None or not entries:
        return
    items = sum(
        len(v) if isinstance(v, list) else 1
        for e in entries
        for v in e["entry"].get("removed", {}).values()
    )
    shown = os.path.relpath(target) if not os.path.isabs(outcome.path) else target
    if dry_run:
        outcome.messages.append(f"would archive {items} items the merge driver cut to {shown}")
        return
    cap = trim_archive.archive_cap(config, target)
    try:
        for entry in entries:
            written, data = trim_archive.build_capped(
                target, entry["entry"], "\n", config.limits, cap=cap
            )
            trim_archive.write(written, data)
            done(pending, [entry])
    except (trim_archive.ArchiveError, OSError, ValueError) as exc:
        outcome.error = f"the items the merge driver cut stay in {pending}: {exc}"
        return
    outcome.changed = True
    outcome.archive = written
    if written != target:
        shown = os.path.relpath(written) if not os.path.isabs(outcome.path) else written
        outcome.messages.append(f"the archive is full ({cap:,} bytes at most): started {shown}")
    outcome.messages.append(
        f"archived {items} item{'s' if items != 1 else ''} the merge driver cut to {shown}"
    )


def _archive(
    outcome: Outcome,
    result: TrimResult,
    config: Config,
    newline: str,
    target: str,
    dry_run: bool,
    root: str | None = None,
) -> str | None:
    """Append the removed data to the archive; an error message when that is unsafe."""
    import datetime

    from . import archive as trim_archive

    path = outcome.path
    if os.path.realpath(target) == os.path.realpath(path):
        return "not trimmed: the archive path is the checkpoint itself"
    other = config.kind_for(config.relpath(target))
    if other is not None and not config.kinds[other].get("archive"):
        return (
            f"not trimmed: the archive {target} would itself be checked as {other}; "
            "choose another trim.archive.path"
        )
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    entry: dict[str, Any] = {
        "trimmed_at": now,
        "source": config.relpath(path),
        "reason": "over the soft line limit" if result.step == 2 else "list caps",
        "removed": result.removed,
    }
    if result.comments:
        entry["comments"] = result.comments
    try:
        cap = trim_archive.archive_cap(config, target)
        written, data = trim_archive.build_capped(target, entry, newline, config.limits, root, cap)
        if not dry_run:
            trim_archive.write(written, data, root)
    except trim_archive.ArchiveError as exc:
        return f"not trimmed: {exc}"
    full = written != target
    outcome.archive = target = written
    shown = os.path.relpath(target) if not os.path.isabs(path) else target
    if full:
        start = "would start" if dry_run else "started"
        outcome.messages.append(f"the archive is full ({cap:,} bytes at most): {start} {shown}")
    if dry_run:
        outcome.messages.append(
            f"would archive what it removes to {shown} (dry run: nothing written)"
        )
    else:
        outcome.messages.append(f"archived what was removed to {shown}")
    return None


# ------------------------------------------------------------------ command line
def run(
    files: list[str],
    *,
    config_path: str | None = None,
    archive_path: str | None = None,
    no_archive: bool = False,
    dry_run: bool = False,
    diff: bool = False,
    quiet: bool = False,
    skip_conflicts: bool = False,
) -> int:
    out, err = sys.stdout, sys.stderr
    try:
        config = load_config(config_path)
        settings = Settings.from_config(config).overridden(no_archive, archive_path)
    except ConfigError as exc:
        err.write(error_lines(PROG, exc))
        return EXIT_USAGE
    paths = files or ["."]
    for path in paths:
        if not os.path.lexists(path):
            err.write(f"{PROG}: error: {path}: no such file or directory\n")
            return EXIT_USAGE
    from ..config.discovery import iter_files
    from ..fs.access import FileProblem

    status = EXIT_OK
    try:
        for path, explicit in iter_files(paths, config):
            if not explicit and config.kind_for(config.relpath(path)) not in settings.kinds:
                continue
            try:
                outcome = fix_file(path, config, settings=settings, dry_run=dry_run)
            except (ConfigError, KeyboardInterrupt):
                raise
            except Exception as exc:  # a bug on one file: say so, and trim the others
                if os.environ.get("ASIMOV_HOOKS_DEBUG"):
                    import traceback

                    traceback.print_exc()
                err.write(
                    f"{path}: error: not trimmed: internal error: {type(exc).__name__}: {exc}\n"
                )
                status = EXIT_USAGE
                continue
            if skip_conflicts and outcome.conflicted:
                continue  # asimov-validate reports it: once per problem
            status = max(status, _report(outcome, dry_run, diff, quiet, out, err))
    except ConfigError as exc:
        err.write(error_lines(PROG, exc))
        return EXIT_USAGE
    except FileProblem as problem:  # a directory that cannot be searched
        err.write(f"{PROG}: error: {problem.message}\n")
        return EXIT_USAGE
    return status


def _report(outcome: Outcome, dry_run: bool, diff: bool, quiet: bool, out: Any, err: Any) -> int:
    from ..fs.access import show  # paths and values from the repository, one line each

    path = show(outcome.path)
    if outcome.skipped:
        if not quiet:
            out.write(f"{path}: skipped: {show(outcome.skipped)}\n")
        return EXIT_OK
    if outcome.changed:
        out.write(f"{'Would fix' if dry_run else 'Fixing'} {path}\n")
        for message in outcome.messages:
            out.write(f"  {show(message)}\n")
        if diff and outcome.before is not None and outcome.after is not None:
            import difflib

            out.writelines(
                show(line.rstrip("\n")) + "\n"
                for line in difflib.unified_diff(
                    outcome.before.splitlines(keepends=True),
                    outcome.after.splitlines(keepends=True),
                    fromfile=f"a/{path}",
                    tofile=f"b/{path}",
                )
            )
    if outcome.warning:
        out.flush()
        err.write(f"{path}: warning: {show(outcome.warning)}\n")
    if outcome.error:
        out.flush()
        err.write(f"{path}: error: {show(outcome.error)}\n")
    return EXIT_FAIL if outcome.changed or outcome.error else EXIT_OK
