"""The `asimov-hooks oc` command group (registered lazily in asimov_hooks.cli).

Exit codes as everywhere in asimov-hooks: 0 done, 1 findings (a refused write, a
fixer that changed files, doctor errors), 2 usage error or tool failure.
"""

from __future__ import annotations

import json
import sys

import click

from .store import OcError, Project

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _fail(message: str) -> None:
    sys.stderr.write(f"asimov-hooks oc: error: {message}\n")
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
        help="Project directory (or its .checkpoints/) [default: the git work tree you stand in].",
    )(func)


def format_option(func):  # type: ignore[no-untyped-def]
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(("text", "json")),
        default="text",
        show_default=True,
        help="json: one JSON document for scripts.",
    )(func)


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
def status_command(brief: bool, since: str | None, fmt: str, directory, config_path) -> None:  # type: ignore[no-untyped-def]
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
        sys.exit(render.since(project, when, moment, fmt))
    sys.exit(render.status(project, moment, fmt, brief))


@group.command("next", context_settings=CONTEXT)
@format_option
@dir_options
def next_command(fmt: str, directory, config_path) -> None:  # type: ignore[no-untyped-def]
    """The single highest-priority action across all checkpoints."""
    from . import render
    from .store import now

    project = _project(directory, config_path)
    sys.exit(render.next_action(project, now(), fmt))


def dump_json(doc: object) -> None:
    json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
