"""The `asimov-hooks oc` command group (registered lazily in asimov_hooks.cli).

Exit codes as everywhere in asimov-hooks: 0 done, 1 findings (a refused write, a
fixer that changed files, doctor errors), 2 usage error or tool failure.
"""

from __future__ import annotations

import os
import sys

import click

from ..fs.access import FileProblem, locked, show
from ..options import (
    ALLOW_COMMITTED_URL,
    COLOR,
    FORMAT,
    HEALTH_COMMIT_KEY,
    HEALTH_URL,
    ONLINE,
    QUIET,
    STRICT,
    VERBOSE,
)
from ..options.clickopts import CONTEXT, click_option
from .cliutil import (
    _fail,
    _finding_lines,
    _project,
    dir_options,
    format_option,
    write_checkpoint,
)
from .session_cli import COMMANDS as SESSION_COMMANDS
from .store import OcError, Project


@click.group("oc", context_settings=CONTEXT)
def group() -> None:
    """The OC Checkpoint Protocol toolkit for .checkpoints/<skill>.checkpoint.json.

    Read: status, next. Write (validated, atomic, refused when the result has errors):
    update, done, rotate, init. Drift: doctor. See docs/oc-toolkit.md.
    """


@group.command("status", context_settings=CONTEXT)
@click.option("--brief", is_flag=True, help="Only the top skill, its next action and blockers.")
@click.option("--since", metavar="ISO", help="Momentum digest: what changed since then.")
@format_option
@dir_options
def status_command(
    brief: bool, since: str | None, fmt: str, color: str, directory, config_path
) -> None:  # type: ignore[no-untyped-def]
    """Where did I leave off? Every skill's status, age, summary, next action, blockers."""
    from . import render
    from .store import now

    project = _project(directory, config_path)
    moment = now()
    if since is not None:
        from ..checks.drift import parse_time

        when = parse_time(since)
        if when is None:
            _fail(f"--since {since!r} is not an ISO 8601 time (e.g. 2026-06-01T00:00:00Z)")
        if brief:
            _fail("--brief and --since do not go together")
        sys.exit(render.since(project, when, moment, fmt, color))
    sys.exit(render.status(project, moment, fmt, brief, color))


@group.command("next", context_settings=CONTEXT)
@format_option
@dir_options
def next_command(fmt: str, color: str, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """The single highest-priority action across all checkpoints."""
    from . import render
    from .store import now

    project = _project(directory, config_path)
    sys.exit(render.next_action(project, now(), fmt, color))


# ------------------------------------------------------------------ writes
WRITE_CONTEXT = {**CONTEXT, "ignore_unknown_options": True}


def _apply_ops(project: Project, data: dict, ops: tuple[str, ...], new_keys: bool) -> list[str]:
    from ..config.config import load_schema
    from .edit import OpError, apply, parse

    try:
        parsed = parse(ops)
        schema = load_schema("oc-checkpoint.schema.json")
        for op in parsed:
            apply(data, op, schema, new_keys)
    except OpError as exc:
        _fail(str(exc))
    return [op.describe() for op in parsed]


def _explicit_stamp(ops: tuple[str, ...]) -> str | None:
    """The time an explicit `--updated_at=X` gives (the last one wins), else None."""
    from .edit import Op, OpError

    found = None
    for raw in ops:
        try:
            op = Op(raw)
        except OpError:
            continue  # reported, with the others, when the operations are applied
        if op.path == ["updated_at"] and not op.append and isinstance(op.value, str):
            found = op.value
    return found


def _restamp(data: dict, ops: tuple[str, ...]) -> None:
    from .jsonfmt import insert_key
    from .store import stamp

    if not any(op.split("=")[0].rstrip("+").removesuffix(":json") == "--updated_at" for op in ops):
        insert_key(data, "updated_at", stamp(data.get("updated_at")))


@group.command("update", context_settings=WRITE_CONTEXT)
@click.argument("skill")
@click.argument("ops", nargs=-1, type=click.UNPROCESSED)
@click.option("--new-key", is_flag=True, help="Allow adding keys the schema does not name.")
@dir_options
def update_command(skill: str, ops: tuple[str, ...], new_key: bool, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """Apply --PATH=VALUE, --PATH+=VALUE, --PATH:json=VALUE to SKILL's checkpoint.

    PATH is dotted (context_primer.key_decisions, progress_table.sprint-2.status);
    updated_at is stamped. The result is validated and written atomically, or refused
    (exit 1, file unchanged).
    """
    from .store import Checkpoint

    if not ops:
        _fail("nothing to update: give --PATH=VALUE, --PATH+=VALUE or --PATH:json=VALUE")
    project = _project(directory, config_path)
    path = _path_for(project, skill)
    with locked(path):  # read, change and write under one lock: no update is lost
        try:
            cp = Checkpoint(path, project.config.limits)
            data = cp.require(project)
        except OcError as exc:
            _fail(str(exc))
        changes = _apply_ops(project, data, ops, new_key)
        _restamp(data, ops)
        status = write_checkpoint(project, cp, data, "updated " + "; ".join(changes))
    sys.exit(status)


def _path_for(project: Project, skill: str) -> str:
    try:
        return project.path_for(skill)
    except OcError as exc:
        _fail(str(exc))
        raise  # not reached


@group.command("done", context_settings=WRITE_CONTEXT)
@click.argument("skill")
@click.argument("ops", nargs=-1, type=click.UNPROCESSED)
@click.option("--new-key", is_flag=True, help="Allow adding keys the schema does not name.")
@dir_options
def done_command(skill: str, ops: tuple[str, ...], new_key: bool, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """Move SKILL's next_actions[0] to recently_done and stamp updated_at.

    Takes the same --PATH=VALUE operations as update, applied in the same write
    (e.g. `oc done SKILL --status=complete` for the last action).
    """
    from .edit import OpError, pop_done
    from .store import Checkpoint, stamp

    project = _project(directory, config_path)
    path = _path_for(project, skill)
    with locked(path):  # read, change and write under one lock: no update is lost
        try:
            cp = Checkpoint(path, project.config.limits)
            data = cp.require(project)
        except OcError as exc:
            _fail(str(exc))
        # an explicit --updated_at=X is the time of everything this write stamps
        when = _explicit_stamp(ops) or stamp(data.get("updated_at"))
        try:
            text = pop_done(data, when)
        except OpError as exc:
            _fail(f"{project.show(cp.path)}: {exc}")
        changes = _apply_ops(project, data, ops, new_key) if ops else []
        _restamp(data, ops)
        what = f"done: {text}" + (f"; updated {'; '.join(changes)}" if changes else "")
        status = write_checkpoint(project, cp, data, what)
    sys.exit(status)


@group.command("init", context_settings=CONTEXT)
@click.option(
    "--no-merge-driver",
    is_flag=True,
    help="Do not register the asimov-checkpoint merge driver (git config, .gitattributes).",
)
@dir_options
def init_command(no_merge_driver: bool, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """Scaffold .checkpoints/ (README, merge driver); never replaces an existing file."""
    from ..gitutil import GitError
    from .scaffold import init

    project = _project(directory, config_path)
    name = os.path.relpath(project.dir, project.root)
    try:
        done, problems = init(project.root, name, not no_merge_driver)
    except FileProblem as exc:
        _fail(f"init: {exc.message}")
    except (OSError, GitError) as exc:
        _fail(f"init: {exc}")
    for line in done or [f"{name}/ already set up; nothing to do"]:
        click.echo(show(line))
    for line in problems:
        click.echo(f"warning: {show(line)}")
    sys.exit(1 if problems else 0)


@group.command("rotate", context_settings=CONTEXT)
@click.argument("skills", nargs=-1, metavar="[SKILL|FILE]...")
@click.option(
    "--over-limit",
    is_flag=True,
    help="Only checkpoints over their max-bytes-soft guideline (~32 KB); the pre-commit hook.",
)
@click.option(
    "--keep",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Items to leave at the end of each rotated array.",
)
@dir_options
def rotate_command(skills, over_limit: bool, keep: int, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """Move SKILL's append-only skill_state telemetry to .checkpoints/history/.

    Arrays whose merge policy is union (skill_state.merged_prs, reconciliation_log, ...)
    are appended to history/<skill>.<date>.json. With --over-limit and no names: every
    checkpoint of the project over the guideline. Exit 1 when a file was changed (as
    every fixer), 0 when there was nothing to move.
    """
    from .rotate import over_limit as size_of
    from .rotate import rotate
    from .store import Checkpoint, Refused

    if not skills and not over_limit:
        _fail("name the skills (or checkpoint files) to rotate, or give --over-limit for all")
    project = _project(directory, config_path)
    if not skills:
        skills = tuple(project.files())
    status = 0
    for skill in skills:
        try:
            path = project.path_for(skill)
        except OcError as exc:
            _fail(str(exc))
        shown = project.show(path)
        if over_limit:
            size, limit = size_of(project, path)
            if limit is None or size <= limit:
                continue
        cp = Checkpoint(path, project.config.limits)
        try:
            done = rotate(project, cp, keep)
        except OcError as exc:
            _fail(str(exc))
        except Refused as refused:
            click.echo(f"{shown}: not rotated: the {refused.what} would have errors")
            for line in _finding_lines(refused.result):
                click.echo(show(line))
            status = max(status, 1)
            continue
        if done is None:
            if over_limit:
                click.echo(
                    f"{shown}: over {limit:,} bytes but holds no append-only skill_state "
                    "telemetry to rotate; shorten it by hand"
                )
                status = max(status, 1)
            else:
                click.echo(f"{shown}: no append-only skill_state telemetry to rotate")
            continue
        targets, fields, count = done
        where = show(project.show(targets[0]))
        if len(targets) > 1:  # bigger than one volume of the history archive
            where += f" through {show(project.show(targets[-1]))} ({len(targets)} volumes)"
        click.echo(
            f"{shown}: rotated {count} item{'s' if count != 1 else ''} of "
            f"{show(', '.join(fields))} to {where}"
        )
        if over_limit:
            size, limit = size_of(project, path)
            if limit is not None and size > limit:
                click.echo(f"{shown}: still {size:,} bytes, over the {limit:,}-byte guideline")
        status = max(status, 1)
    sys.exit(status)


@group.command("doctor", context_settings=CONTEXT)
@click_option(STRICT)  # validate's options, as validate declares them (options)
@click_option(FORMAT)
@click_option(COLOR)
@click_option(QUIET)
@click_option(VERBOSE)
@click_option(ONLINE)
@click_option(HEALTH_URL)
@click_option(ALLOW_COMMITTED_URL)
@click_option(HEALTH_COMMIT_KEY)
@dir_options
def doctor_command(
    strict: bool,
    fmt,
    color: str,
    quiet: bool,
    verbose: bool,
    online: bool,
    url: str | None,
    allow_committed_url: bool,
    commit_keys: tuple[str, ...],
    directory,
    config_path,  # type: ignore[no-untyped-def]
) -> None:
    """Cross-check every checkpoint against git and the file system (drift).

    project_dir missing on this machine, stale in_progress checkpoints, generated_files
    that do not exist or that git shows changed since the checkpoint's updated_at,
    next_actions at PRs or tickets already merged, .checkpoints/ ignored by git. With
    --online, the deployed health endpoint's commit against the local HEAD: the URL of
    --url, else of `git config asimov-hooks.healthUrl`; the repository's own oc.health-url
    only with --allow-committed-url. The answer's commit is read from the fields
    docs/oc-toolkit.md names, or those of --commit-key (else of `git config
    asimov-hooks.healthCommitKeys`); never from one a config file adds. Exit codes as asimov-validate: 1 on errors (or
    warnings with --strict).
    """
    from ..output.report import default_format, write
    from .drift_report import check, health_url

    if url is not None and not online:
        _fail("--url is the health endpoint of --online; give both")
    if allow_committed_url and not online:
        _fail("--allow-committed-url is about the URL --online fetches; give both")
    if commit_keys and not online:
        _fail("--commit-key names a field of the answer --online fetches; give both")
    project = _project(directory, config_path)
    try:
        target = health_url(project, url, allow_committed_url, commit_keys) if online else None
    except OcError as exc:
        _fail(str(exc))
    if not project.files() and not online and (fmt or default_format()) == "text":
        # the machine formats say it their way: a report with no results
        click.echo(f"no checkpoints in {project.show(project.dir)}/; nothing to check")
        sys.exit(0)
    results = check(project)
    if target is not None:
        results.append(target)
    write(results, fmt or default_format(), sys.stdout, quiet, color, verbose)
    sys.exit(1 if any(r.fails(strict) for r in results) else 0)


for _command in SESSION_COMMANDS:  # new, show, list, reset
    group.add_command(_command)
