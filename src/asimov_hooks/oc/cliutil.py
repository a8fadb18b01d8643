"""What the `oc` commands share: one-line failures, the project options, validated writes.

Kept apart from the click group (`cli`) so the commands of `session_cli` use them too
without an import cycle.
"""

from __future__ import annotations

import sys

import click

from ..fs.access import show
from ..options import COLOR
from ..options.clickopts import Choice, click_option
from .store import OcError, Project


def _fail(message: str) -> None:
    sys.stderr.write(f"asimov-hooks oc: error: {show(message)}\n")
    sys.exit(2)


def _project(directory: str | None, config: str | None) -> Project:
    try:
        return Project(directory, config)
    except OcError as exc:
        _fail(str(exc))
        raise  # not reached


def dir_options(func):  # type: ignore[no-untyped-def]
    func = click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False),
        help="Config file (default: the project's .asimov-hooks.yaml or pyproject.toml).",
    )(func)
    return click.option(
        "--dir",
        "directory",
        type=click.Path(file_okay=False),
        help="Project directory (or its .checkpoints/) [default: the nearest .checkpoints/ "
        "up to the top of the git work tree you stand in].",
    )(func)


def format_option(func):  # type: ignore[no-untyped-def]
    func = click_option(COLOR)(func)  # declared once, with validate's (options)
    return click.option(
        "--format",
        "fmt",
        type=Choice(("text", "json")),
        default="text",
        show_default=True,
        help="json: one JSON document for scripts.",
    )(func)


def _finding_lines(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{f.path}:{f.line}:{f.col}: {f.level} {f.rule} {f.message}" for f in result.findings]


def write_checkpoint(project: Project, cp, data: dict, what: str) -> int:  # type: ignore[no-untyped-def]
    """Validate and write; print what happened. Exit code 0 written, 1 refused."""
    from .store import Refused, save

    shown = project.show(cp.path)
    try:
        result = save(project, cp, data, what)
    except Refused as refused:
        click.echo(f"{shown}: not written: the result would have errors ({show(what)})")
        for line in _finding_lines(refused.result):
            click.echo(show(line))
        click.echo("(lines refer to the refused result; the file is unchanged)")
        return 1
    except OcError as exc:
        _fail(str(exc))
    click.echo(f"{shown}: {show(what)}")  # `what` quotes values (oc done: the action)
    for line in _finding_lines(result):
        click.echo(show(line))
    return 0
