"""`oc new`, `oc show`, `oc list`, `oc reset`: the protocol's `/checkpoint` commands that
start, display and restart a checkpoint (added to the group in `cli`)."""

from __future__ import annotations

import sys

import click

from ..fs.access import show
from ..options import COLOR
from ..options.clickopts import CONTEXT, click_option
from .cliutil import _fail, _finding_lines, _project, dir_options, format_option
from .store import OcError, Refused

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .store import Project


def fresh_options(func):  # type: ignore[no-untyped-def]
    for name, text in (
        ("--next", "A first next action (repeat for more, in priority order)."),
        ("--summary", "progress_summary [default: 'New checkpoint: nothing done yet.']."),
        ("--step", "Current step within the phase [default: start]."),
        ("--phase", "Current phase (skill-defined) [default: start]."),
    ):
        dest = "actions" if name == "--next" else name[2:]
        func = click.option(name, dest, multiple=name == "--next", metavar="TEXT", help=text)(func)
    return func


def _fields(phase, step, summary, actions) -> dict:  # type: ignore[no-untyped-def]
    return {"phase": phase, "step": step, "summary": summary, "actions": tuple(actions)}


def _report(project: Project, path: str, what: str, result) -> None:  # type: ignore[no-untyped-def]
    click.echo(f"{project.show(path)}: {show(what)}")
    for line in _finding_lines(result):
        click.echo(show(line))


def _refused(refused: Refused) -> None:
    click.echo(f"not written: the {refused.what} would have errors")
    for line in _finding_lines(refused.result):
        click.echo(show(line))
    sys.exit(1)


@click.command("new", context_settings=CONTEXT)
@click.argument("skill")
@fresh_options
@dir_options
def new_command(skill: str, phase, step, summary, actions, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """Start SKILL's checkpoint: a valid in_progress file, ready for update and done.

    Refused when SKILL already has one (`oc reset` archives it and starts afresh).
    """
    from .fresh import create

    project = _project(directory, config_path)
    try:
        path, result = create(project, skill, **_fields(phase, step, summary, actions))
    except OcError as exc:
        _fail(str(exc))
    except Refused as refused:
        _refused(refused)
    _report(project, path, "created (in_progress)", result)
    sys.exit(0)


@click.command("reset", context_settings=CONTEXT)
@click.argument("skill", required=False)
@fresh_options
@dir_options
def reset_command(skill: str, phase, step, summary, actions, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """Restart SKILL: archive its checkpoint to .checkpoints/history/ and start afresh.

    The archive is the file byte for byte, named with the UTC time
    (history/<skill>.<time>.checkpoint.json.bak), so every reset keeps its own.
    Without SKILL: the project's only checkpoint.
    """
    from .fresh import reset
    from .store import skill_of

    project = _project(directory, config_path)
    if skill is None:
        files = project.files()
        if len(files) != 1:
            known = ", ".join(skill_of(p) for p in files) or "none"
            _fail(f"name the skill to reset (the project's checkpoints: {known})")
        skill = skill_of(files[0])
    try:
        path, archive, result = reset(project, skill, **_fields(phase, step, summary, actions))
    except OcError as exc:
        _fail(str(exc))
    except Refused as refused:
        _refused(refused)
    _report(project, path, f"archived to {project.show(archive)}; started afresh", result)
    sys.exit(0)


@click.command("show", context_settings=CONTEXT)
@click.argument("skill", required=False)
@click.option("--json", "as_json", is_flag=True, help="The checkpoint as JSON, for scripts.")
@click_option(COLOR)
@dir_options
def show_command(skill, as_json: bool, color: str, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """The full checkpoint of SKILL, readable (without SKILL: every checkpoint, in the
    order of `oc status`). Exit 1 when a checkpoint shown does not parse."""
    from .output import Out, dump_json
    from .priority import order
    from .show import render
    from .store import Checkpoint, now
    from .summary import Record, records

    project = _project(directory, config_path)
    if skill is not None:
        try:
            recs = [
                Record(project, Checkpoint(project.path_for(skill), project.config.limits), now())
            ]
        except OcError as exc:
            _fail(str(exc))
    else:
        recs = order(records(project, now()), list(project.settings.get("gate-words", [])))
    broken = any(r.problem is not None for r in recs)
    if as_json:
        if skill is not None:
            rec = recs[0]
            if rec.problem is None:
                dump_json(rec.data)
            else:  # the reason on stdout for a script, and one line on stderr for a person
                dump_json({"skill": rec.skill, "file": rec.file, "problem": rec.problem})
                click.echo(f"{project.show(rec.cp.path)}: {show(rec.problem)}", err=True)
        else:
            docs = [
                {"skill": r.skill, "file": r.file, "problem": r.problem, "checkpoint": r.cp.data}
                for r in recs
            ]
            dump_json({"directory": project.rel(project.dir), "checkpoints": docs})
        sys.exit(1 if broken else 0)
    out = Out(color=color)
    if not recs:
        out.line(f"no checkpoints in {project.show(project.dir)}/")
    for i, rec in enumerate(recs):
        if i:
            out.line()
        render(out, rec)
    sys.exit(1 if broken else 0)


@click.command("list", context_settings=CONTEXT)
@format_option
@dir_options
def list_command(fmt: str, color: str, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """Every checkpoint of the project, one line each: skill, status, age, file."""
    from .output import Out, dump_json
    from .show import list_line
    from .store import now
    from .summary import records

    project = _project(directory, config_path)
    recs = records(project, now())
    if fmt == "json":
        rows = [
            {
                "skill": r.skill,
                "status": r.status if r.problem is None else None,
                "problem": r.problem,
                "updated_at": r.data.get("updated_at") if r.problem is None else None,
                "age_seconds": None if r.age is None else int(r.age),
                "stale_days": r.stale_days,
                "file": r.file,
            }
            for r in recs
        ]
        dump_json({"directory": project.rel(project.dir), "checkpoints": rows})
        sys.exit(0)
    out = Out(color=color)
    if not recs:
        out.line(f"no checkpoints in {project.show(project.dir)}/")
    width = max((len(r.skill) for r in recs), default=0)
    for rec in recs:
        out.line(list_line(out, rec, width))
    sys.exit(0)


COMMANDS = (new_command, show_command, list_command, reset_command)
