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
parsing the result before anything is written.
"""

from __future__ import annotations

import os
import sys

from ..checks.measure import count_lines
from ..config import Config, ConfigError, load_config
from .cut import expected_data, lines_phrase, plan_cut, removed_comments, render
from .settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing and dataclasses cost every commit ~10 ms
    from typing import Any

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
PROG = "asimov-hooks trim"


# ------------------------------------------------------------------ the algorithm
class TrimResult:
    __slots__ = (
        "after",
        "before",
        "comments",
        "messages",
        "over_hard",
        "removed",
        "skipped",
        "step",
        "text",
    )

    def __init__(self, text: str, before: int, after: int) -> None:
        self.text, self.before, self.after = text, before, after
        self.step = 0  # 0 nothing removed, 1 caps, 2 soft-limit trim
        self.removed: dict[str, Any] = {}
        self.comments: list[str] = []
        self.messages: list[str] = []
        self.over_hard: str | None = None
        self.skipped: str | None = None


def _check_shapes(layout: Any, settings: Settings) -> None:
    from .layout import Refused, shape_name

    for name in settings.caps:
        fld = layout.fields.get(name)
        if fld is None or fld.value is None:
            continue
        if not isinstance(fld.value, list):
            raise Refused(
                f"{name} is {shape_name(fld.value)}, expected a list of strings", fld.key_line + 1
            )
        for index, item in enumerate(fld.items):
            if not isinstance(item.value, str):
                raise Refused(
                    f"{name}[{index}] is {shape_name(item.value)}; lists of non-strings are not trimmed",
                    item.node.start_mark.line + 1,
                )


def trim_text(
    text: str,
    settings: Settings,
    soft: int | None,
    hard: int | None,
    *,
    identify: dict[str, Any] | None = None,
    max_nodes: int = 100_000,
    limits: dict[str, int] | None = None,
) -> TrimResult:
    """Apply the algorithm to a checkpoint's text; raises Refused when it cannot."""
    from .layout import Refused, analyze

    layout = analyze(text, settings.list_fields(), max_nodes, limits)
    before = count_lines(text)
    result = TrimResult(text, before, before)
    if not layout.fields:
        return result
    if identify is not None:
        from ..checks.foreign import foreign_reason

        reason = foreign_reason(layout.fields.keys(), identify)
        if reason:
            result.skipped = reason
            return result
    _check_shapes(layout, settings)
    caps = {name: (cap.keep, cap.max) for name, cap in settings.caps.items()}
    cut = plan_cut(layout, caps, [], "cap")
    new_text = render(layout, cut)
    step = 1 if cut.removed else 0
    after = count_lines(new_text)
    if soft is not None and after > soft:
        windows = {
            name: (cap.keep, min(cap.max, settings.window.get(name, cap.max)))
            for name, cap in settings.caps.items()
        }
        drop = [k for k in layout.fields if k in settings.optional and k not in settings.keep]
        if len(drop) == len(layout.fields):
            drop = []  # never leave an empty document
        soft_cut = plan_cut(layout, windows, drop, "window")
        if soft_cut.removed:
            result.messages.append(
                f"{after} lines after capping the lists, over the soft limit of {soft}: "
                "cutting the lists to their windows and removing optional fields"
            )
            cut, new_text, step = soft_cut, render(layout, soft_cut), 2
            after = count_lines(new_text)
    result.messages += cut.messages
    result.step, result.after = step, after
    if cut.removed:
        expected = expected_data(layout, cut)
        checked = _verified(new_text, expected, settings, max_nodes, limits)
        if checked is None and not text.endswith("\n"):
            new_text = render(layout, cut, final_newline_as_before=False)
            checked = _verified(new_text, expected, settings, max_nodes, limits)
        if checked is None:
            raise Refused(
                "the trimmed text would not hold exactly the kept data (anchors, aliases or "
                "unusual layout in a removed part?); file left untouched"
            )
        result.text = new_text
        result.removed = cut.removed
        result.comments = removed_comments(layout, cut)
        layout = checked
    if hard is not None and after > hard:
        result.over_hard = _too_large(layout, after, hard)
    return result


def _verified(
    text: str, expected: Any, settings: Settings, max_nodes: int, limits: Any = None
) -> Any:
    """The layout of `text` if it parses to exactly `expected`, else None."""
    from .layout import Refused, analyze, same

    try:
        checked = analyze(text, settings.list_fields(), max_nodes, limits)
    except Refused as exc:
        raise Refused(
            f"the trimmed text would not parse ({exc}); an anchor in a removed part? "
            "file left untouched"
        ) from None
    return checked if same(checked.data, expected) else None


def _too_large(layout: Any, lines: int, hard: int) -> str:
    parts = sorted(layout.fields.values(), key=lambda f: (-f.line_count, f.key_line))
    shown = [f"{f.key} ({lines_phrase(f.line_count)})" for f in parts[:3]]
    outside = lines - sum(f.line_count for f in parts)
    if outside > 0:
        shown.append(f"comments and blank lines outside the fields ({lines_phrase(outside)})")
    return (
        f"still {lines} lines after trimming, over the hard limit of {hard}: the checkpoint "
        f"structure itself is too large; taking the space: {', '.join(shown)}. Shorten these "
        "or move detail to sprint.yaml"
    )


# ------------------------------------------------------------------ one file
class Outcome:
    """What fix_file did to one file (the contract with `asimov-validate --fix`)."""

    __slots__ = (
        "after",
        "archive",
        "before",
        "changed",
        "error",
        "messages",
        "path",
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
        self.written = False
        self.archive: str | None = None
        self.before: str | None = None
        self.after: str | None = None


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
    from ..readers.fileio import DirectoryLocks
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
    target = _archive_target(path, settings) if settings.archive else None
    root = trim_archive.root_of(path)
    if not trim_archive.inside_root(path, root):
        outcome.error = f"not trimmed: a symbolic link to a file outside {root}"
        return outcome
    # the lock spans reading the checkpoint to writing it: concurrent trims of one file
    # archive each removed item once, and trims sharing an archive keep every entry
    with DirectoryLocks([path] if target is None or dry_run else [path, target]):
        return _fix_locked(path, config, outcome, settings, spec, rules, target, dry_run)


def _archive_target(path: str, settings: Settings) -> str:
    """The archive file for `path`: the command line's (trusted) or the config's, which
    a pull request can change and so must stay inside the checkpoint's repository."""
    from . import archive as trim_archive

    if settings.archive_file:
        return settings.archive_file
    target = trim_archive.archive_path_for(path, settings.archive_path)
    root = trim_archive.root_of(path)
    if not trim_archive.inside_root(target, root):
        where = os.path.realpath(target)
        raise ConfigError(
            f"trim.archive.path: {settings.archive_path!r} puts the archive of {path} at "
            f"{where}, outside {root}; the archive must live inside the checkpoint's "
            "repository (or its directory, outside git)"
        )
    return target


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
    from ..readers.fileio import BOM, FileProblem, read_text
    from ..readers.markers import find_conflict_marker
    from .layout import Refused

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
    outcome.messages = list(result.messages)
    outcome.changed = result.text != source.text
    if outcome.changed:
        outcome.messages.append(f"{result.before} -> {result.after} lines")
        if not dry_run and not os.access(os.path.realpath(path), os.W_OK):
            outcome.error = "not trimmed: the file is read-only"
            outcome.changed = False
            return outcome
        if target is not None:
            error = _archive(outcome, result, config, source.newline, target, dry_run)
            if error:
                outcome.error, outcome.changed = error, False
                return outcome
        else:
            outcome.messages.append("removed content not archived (archive disabled)")
        if not dry_run:
            from ..readers.fileio import atomic_write

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


def _archive(
    outcome: Outcome,
    result: TrimResult,
    config: Config,
    newline: str,
    target: str,
    dry_run: bool,
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
        data, _ = trim_archive.build(target, entry, newline, config.limits)
        if not dry_run:
            trim_archive.write(target, data)
    except trim_archive.ArchiveError as exc:
        return f"not trimmed: {exc}"
    outcome.archive = target
    shown = os.path.relpath(target) if not os.path.isabs(path) else target
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
) -> int:
    out, err = sys.stdout, sys.stderr
    try:
        config = load_config(config_path)
        settings = Settings.from_config(config).overridden(no_archive, archive_path)
    except ConfigError as exc:
        err.write(f"{PROG}: error: {exc}\n")
        return EXIT_USAGE
    paths = files or ["."]
    for path in paths:
        if not os.path.lexists(path):
            err.write(f"{PROG}: error: {path}: no such file or directory\n")
            return EXIT_USAGE
    from ..engine import iter_files
    from ..readers.fileio import FileProblem

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
            status = max(status, _report(outcome, dry_run, diff, quiet, out, err))
    except ConfigError as exc:
        err.write(f"{PROG}: error: {exc}\n")
        return EXIT_USAGE
    except FileProblem as problem:  # a directory that cannot be searched
        err.write(f"{PROG}: error: {problem.message}\n")
        return EXIT_USAGE
    return status


def _report(outcome: Outcome, dry_run: bool, diff: bool, quiet: bool, out: Any, err: Any) -> int:
    path = outcome.path
    if outcome.skipped:
        if not quiet:
            out.write(f"{path}: skipped: {outcome.skipped}\n")
        return EXIT_OK
    if outcome.changed:
        out.write(f"{'Would fix' if dry_run else 'Fixing'} {path}\n")
        for message in outcome.messages:
            out.write(f"  {message}\n")
        if diff and outcome.before is not None and outcome.after is not None:
            import difflib

            out.writelines(
                difflib.unified_diff(
                    outcome.before.splitlines(keepends=True),
                    outcome.after.splitlines(keepends=True),
                    fromfile=f"a/{path}",
                    tofile=f"b/{path}",
                )
            )
    if outcome.warning:
        out.flush()
        err.write(f"{path}: warning: {outcome.warning}\n")
    if outcome.error:
        out.flush()
        err.write(f"{path}: error: {outcome.error}\n")
    return EXIT_FAIL if outcome.changed or outcome.error else EXIT_OK
