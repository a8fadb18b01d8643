"""The validate run shared by the click CLI and the light-weight hook entry points."""

from __future__ import annotations

import sys

from ..config.config import ConfigError, load_config
from ..config.discovery import discover, ensure_exists
from ..config.packs import error_lines
from ..findings import FileResult
from ..fs.access import FileProblem, show
from ..output.report import write
from .engine import Checker

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Sequence
    from typing import Any

    from ..config.discovery import FileRecord

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def validate(
    paths: Sequence[str],
    *,
    config_path: str | None = None,
    strict: bool = False,
    fmt: str = "text",
    quiet: bool = False,
    verbose: bool = False,
    select: set[str] | None = None,
    ignore: set[str] | None = None,
    fix: bool = False,
    prog: str = "asimov-validate",
    jobs: int = 1,
    color: str = "auto",
    format_assertion: bool = False,
) -> int:
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        sys.stderr.write(error_lines(prog, exc))
        return EXIT_USAGE
    config.format_assertion = format_assertion
    from ..config.check import known_rule_ids, unknown_rule_ids

    known = known_rule_ids()
    problems = [
        f"{option}: {text}"
        for option, ids in (("--select", select), ("--ignore", ignore))
        for text in unknown_rule_ids(ids or (), known)
    ]
    if problems:  # a typo must not switch every check off and pass the commit
        sys.stderr.write("".join(show(f"{prog}: error: {problem}") + "\n" for problem in problems))
        return EXIT_USAGE
    known_files = set()
    for path in paths:
        try:
            if ensure_exists(path):
                known_files.add(path)
        except FileProblem as problem:
            # a dangling symlink is there (git commits it): a finding, as trim says
            if problem.message == "no such file or directory":
                sys.stderr.write(show(f"{prog}: error: {path}: {problem.message}") + "\n")
                return EXIT_USAGE
    checker = Checker(config, select, ignore)
    results: list[FileResult] = []
    from ..fs.trees import remembered_trees

    with remembered_trees():  # files share their directories' ancestors
        try:
            # one record per file, made here and carried to the report (docs/architecture.md)
            files = list(discover(paths or ["."], config, known_files))
            checker.prefetch(files)
            parsed = sum(1 for r in files if checker.parses(r.kind))
            with _Batch(parsed):
                if fix:  # fixers write files: one at a time, each checked after its fix
                    for record in files:
                        fixed, fix_error = _fix(record, checker)
                        result = checker.check(record)
                        result.fixed = fixed
                        result.fix_error = fix_error
                        results.append(result)
                elif len(files) < 2 or jobs == 1:  # nothing to spread: no worker machinery
                    results = [checker.check(record) for record in files]
                else:
                    from .parallel import check_files, plan_jobs

                    workers = plan_jobs(jobs, len(files), parsed)
                    if workers > 1:
                        checker.warm_up(r.kind for r in files if r.kind is not None)
                    results = check_files(checker, files, workers)
        except ConfigError as exc:
            sys.stderr.write(error_lines(prog, exc))
            return EXIT_USAGE
        except FileProblem as problem:  # a directory that cannot be searched
            sys.stderr.write(show(f"{prog}: error: {problem.message}") + "\n")
            return EXIT_USAGE
    write(results, fmt, sys.stdout, quiet, color, verbose)
    if not results and fmt == "text":
        sys.stdout.write(show(_nothing_found(paths or ["."], config)) + "\n")
    if fmt == "text" and not quiet:  # which limits CLAUDE.md got, beside its findings
        flagged = {r.path for r in results if r.findings}
        profiled = [
            r
            for r in files
            if r.kind and config.kinds[r.kind].get("profiles") and (verbose or r.path in flagged)
        ]
        if profiled:
            from ..config.profiles import AUTO, chosen_profile, describe

            profiled = profiled if chosen_profile(config) == AUTO else []

            for record in profiled:
                sys.stdout.write(
                    show(describe(config, record.kind, record.rel, record.path)) + "\n"
                )
    return EXIT_FAIL if any(r.fails(strict) for r in results) else EXIT_OK


# from this many parsed files a run is read as a batch (readers.loaders.batch_reading)
BATCH_FILES = 32


class _Batch:  # a statement: `with _Batch(files, checker):`
    """`readers.loaders.batch_reading()` around a run of `parsed` files when they are
    many; nothing (and no reader imported) around fewer."""

    def __init__(self, parsed: int) -> None:
        self.inner: Any = None
        if parsed >= BATCH_FILES:
            from ..readers.loaders import batch_reading

            self.inner = batch_reading()

    def __enter__(self) -> None:
        if self.inner is not None:
            self.inner.__enter__()

    def __exit__(self, *exc: object) -> None:
        if self.inner is not None:
            self.inner.__exit__()


def _nothing_found(paths: Sequence[str], config: Any) -> str:
    """What an empty search looked at and for, so "0 files" is not a mystery."""
    names: list[str] = []
    for spec in config.kinds.values():
        names += [p for p in spec.get("files", []) if p not in names]
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    where = ", ".join(paths)
    return (
        f"nothing to check under {where}: no file there has a name asimov-hooks checks "
        f"({shown}; `asimov-hooks rules` lists them all). Directories are searched by file "
        "name, honouring .gitignore and the config's `exclude`; name a file to check it anyway"
    )


def _ids(values: Sequence[str]) -> set[str] | None:
    ids = {part.strip() for value in values for part in value.split(",") if part.strip()}
    return ids or None


def run_options(
    paths: Sequence[str],
    fix: bool,
    strict: bool,
    fmt: str | None,
    config_path: str | None,
    select: Sequence[str],
    ignore: Sequence[str],
    quiet: bool,
    verbose: bool = False,
    jobs: int = 0,
    color: str = "auto",
    prog: str = "asimov-validate",
    format_assertion: bool = False,
) -> int:
    """Run validate from parsed command-line options (click's or options.parse_command's)."""
    from ..output.report import default_format

    fmt = fmt or default_format()
    code = validate(
        list(paths) or ["."],
        config_path=config_path,
        strict=strict,
        fmt=fmt,
        quiet=quiet,
        verbose=verbose,
        select=_ids(select),
        ignore=_ids(ignore) or set(),
        fix=fix,
        jobs=jobs,
        color=color,
        prog=prog,
        format_assertion=format_assertion,
    )
    if prog == "asimov-validate" and fmt == "text" and not select and code in (0, 1):
        from .hooktypes import warn  # a clone whose git hooks predate the config

        warn("asimov-validate", passing=code == 0)
    return code


def run_size_options(**opts: Any) -> int:
    """`asimov-check-size` from its parsed options (click's or options.parse_command's): validate with
    the size rules only, no fixes, in this process (reading and counting: a worker
    process would cost more than it saves)."""
    from ..config.registry import SIZE_RULES

    select = [",".join(sorted(SIZE_RULES))]
    return run_options(
        **opts, fix=False, select=select, ignore=[], jobs=1, prog="asimov-check-size"
    )


def _fix(record: FileRecord, checker: Checker) -> tuple[list[str], str | None]:
    """Apply the safe fixers that apply to this file: (what changed, why it could not)."""
    if record.kind not in checker.config.section("trim").get("kinds", []):
        return [], None
    from ..trim.trimmer import fix_file

    outcome = fix_file(record.path, checker.config)
    return (outcome.messages if outcome.changed else []), outcome.error
