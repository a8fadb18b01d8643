"""click commands: `asimov-hooks agent install|uninstall`, `agent-event`, `ephemeral`.

`agent-event` and `ephemeral` are normally parsed without click by
`entrypoints.hooks_main`; these commands give them help and usage messages.
"""

from __future__ import annotations

import os
import sys

import click

from ..cli.clickopts import CONTEXT, with_options
from ..cli.options import EPHEMERAL
from .settings import SCOPES


def _top() -> str:
    from ..gitutil import find_toplevel

    return find_toplevel(os.getcwd()) or os.getcwd()


@click.group("agent", context_settings=CONTEXT)
def group() -> None:
    """Claude Code hooks that enforce ADR-007 where checkpoints are written."""


@group.command("install", context_settings=CONTEXT)
@click.option(
    "--scope",
    type=click.Choice(sorted(SCOPES)),
    default="project",
    show_default=True,
    help="project: .claude/settings.json (committed, runs `asimov-hooks` from PATH); "
    "local: .claude/settings.local.json (this clone, absolute path to this installation).",
)
def install_command(scope: str) -> None:
    """Add the asimov-hooks agent hooks to Claude Code's settings (idempotent).

    Every hook runs `asimov-hooks agent-event`: PreToolUse and PostToolUse on
    Write|Edit|MultiEdit, SessionStart on compact|resume, Stop and UserPromptSubmit.
    Every existing key and hook is kept.
    """
    from ..fs.access import FileProblem
    from .settings import SettingsError, install

    top = _top()
    try:
        path, added = install(top, scope)
    except (SettingsError, OSError, FileProblem) as exc:
        sys.stderr.write(f"asimov-hooks agent install: error: {exc}\n")
        sys.exit(2)
    rel = os.path.relpath(path)
    if added:
        click.echo(f"{rel}: added asimov-hooks agent-event for {', '.join(added)}")
    else:
        click.echo(f"{rel}: agent hooks already installed; nothing changed")


@group.command("uninstall", context_settings=CONTEXT)
@click.option(
    "--scope",
    type=click.Choice(sorted(SCOPES)),
    default=None,
    help="Only this settings file [default: both].",
)
def uninstall_command(scope: str | None) -> None:
    """Remove exactly the hooks `agent install` added (and a file it created, if empty)."""
    from ..fs.access import FileProblem
    from .settings import SettingsError, uninstall

    try:
        done = uninstall(_top(), [scope] if scope else None)
    except (SettingsError, OSError, FileProblem) as exc:
        sys.stderr.write(f"asimov-hooks agent uninstall: error: {exc}\n")
        sys.exit(2)
    if not done:
        click.echo("no asimov-hooks agent hooks installed; nothing changed")
    for path, removed in done:
        click.echo(
            f"{os.path.relpath(path)}: removed asimov-hooks agent-event for {', '.join(removed)}"
        )


@click.command(
    "agent-event",
    context_settings={**CONTEXT, "ignore_unknown_options": True},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def event_command(args: tuple[str, ...]) -> None:
    """Handle one Claude Code hook event (JSON on stdin); see docs/agent.md."""
    from .event import main

    sys.exit(main(list(args)))


@click.command("ephemeral", context_settings=CONTEXT)
@with_options(EPHEMERAL)
def ephemeral_command(
    paths: tuple[str, ...], strict: bool, no_trim: bool, config_path: str | None, quiet: bool
) -> None:
    """Trim and check the git-ignored (ephemeral) checkpoints in the work tree.

    They are not part of any commit, so findings are reported and the exit code is 0
    unless --strict. Run by the `asimov-ephemeral` pre-commit hook on every commit.
    """
    from .ephemeral import run

    sys.exit(run(list(paths), strict=strict, no_trim=no_trim, quiet=quiet, config_path=config_path))
