"""click commands: `asimov-hooks agent install|uninstall`, `agent-event`, `ephemeral`.

`agent-event` and `ephemeral` are normally parsed without click by
`entrypoints.hooks_main`; these commands give them help and usage messages.
"""

from __future__ import annotations

import os
import sys

import click

from ..fs.access import show
from ..options import EPHEMERAL
from ..options.clickopts import CONTEXT, Choice, with_options
from .install.targets import NAMES, SCOPES

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from .install.install import Report


def _top() -> str:
    from ..gitutil import find_toplevel

    return find_toplevel(os.getcwd()) or os.getcwd()


AGENT_HELP = "Which agent's project file: claude, codex, gemini, cursor, or all."


@click.group("agent", context_settings=CONTEXT)
def group() -> None:
    """Agent hooks (Claude Code, Codex CLI, Gemini CLI, Cursor) that enforce ADR-007
    where checkpoints are written."""


def _report(report: Report, command: str) -> None:
    """Print what was done, then warnings and errors; exit 2 if a file could not be
    used, 1 if something asked for was left alone (install), else 0."""
    for line in report.lines:  # file names and settings keys are the checkout's
        click.echo(show(line))
    for line in report.warnings:
        sys.stderr.write(show(line) + "\n")
    for line in report.errors:
        sys.stderr.write(f"asimov-hooks agent {command}: error: {show(line)}\n")
    sys.exit(2 if report.errors else 1 if report.failed else 0)


@group.command("install", context_settings=CONTEXT)
@click.option(
    "--agent",
    "agent_name",
    type=Choice([*NAMES, "all"]),
    default="claude",
    show_default=True,
    help=AGENT_HELP,
)
@click.option(
    "--scope",
    type=Choice(SCOPES),
    default="project",
    show_default=True,
    help="Claude Code only. project: .claude/settings.json (committed, runs `asimov-hooks` "
    "from PATH); local: .claude/settings.local.json (this clone, absolute path to this "
    "installation, kept out of git).",
)
def install_command(agent_name: str, scope: str) -> None:
    """Add the asimov-hooks agent hooks to the agent's project settings (idempotent).

    Every hook runs `asimov-hooks agent-event --agent NAME`. Only our entries are
    added or brought up to date; everything else in the file stays byte for byte.
    Also adds the /checkpoint command (Codex: the $checkpoint skill), never over a
    file of your own. Exit 0 done, 1 a /checkpoint file left alone, 2 a settings
    file that cannot be used (see docs/agent.md).
    """
    from .install.install import UsageError, install

    try:
        report = install(_top(), agent_name, scope)
    except UsageError as exc:
        sys.stderr.write(f"asimov-hooks agent install: {show(str(exc))}\n")
        sys.exit(2)
    _report(report, "install")


@group.command("uninstall", context_settings=CONTEXT)
@click.option(
    "--agent",
    "agent_name",
    type=Choice([*NAMES, "all"]),
    default="claude",
    show_default=True,
    help=AGENT_HELP,
)
@click.option(
    "--scope",
    type=Choice(SCOPES),
    default=None,
    help="Claude Code: only this settings file [default: both].",
)
def uninstall_command(agent_name: str, scope: str | None) -> None:
    """Remove exactly what `agent install` added: our hook entries, the /checkpoint
    command while unchanged, and a file or directory it created once empty."""
    from .install.install import uninstall

    _report(uninstall(_top(), agent_name, scope), "uninstall")


@click.command(
    "agent-event",
    context_settings={**CONTEXT, "ignore_unknown_options": True},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def event_command(args: tuple[str, ...]) -> None:
    """Handle one agent hook event (JSON on stdin; --agent NAME); see docs/agent.md."""
    from .runtime.event import main

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
