"""The `asimov-hooks` command group and the `asimov-validate` shortcut.

Exit codes everywhere: 0 clean (warnings allowed), 1 findings that fail or files a
fixer modified, 2 usage error or a failure of the tool itself.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from .. import __version__
from ..options import CHECK_SIZE, VALIDATE
from ..options.clickopts import CONTEXT, with_options

_validate_options = with_options(VALIDATE)


def _run_validate(**opts) -> int:  # type: ignore[no-untyped-def]
    from ..validation.run import run_options

    return run_options(**opts)


# Subcommands live in their own modules and are imported only when invoked, so a
# merge-driver call does not pay for the validator and vice versa.
LAZY_COMMANDS = {
    "trim": "asimov_hooks.trim.command:command",
    "merge-driver": "asimov_hooks.merge.driver:command",
    "install": "asimov_hooks.merge.install:install_command",
    "uninstall": "asimov_hooks.merge.install:uninstall_command",
    "doctor": "asimov_hooks.doctor.diagnosis:command",
    "agent": "asimov_hooks.agent.cli:group",
    "agent-event": "asimov_hooks.agent.cli:event_command",
    "ephemeral": "asimov_hooks.agent.cli:ephemeral_command",
    "rules": "asimov_hooks.cli.info:rules_command",
    "schema": "asimov_hooks.cli.info:schema_command",
    "oc": "asimov_hooks.oc.cli:group",
    "init": "asimov_hooks.adoption.command:command",
    "checkpoint": "asimov_hooks.cli.checkpoint:command",
    "stats": "asimov_hooks.stats.command:command",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS:
            import importlib

            module, _, attr = LAZY_COMMANDS[name].partition(":")
            # an import error here is a broken installation: let _guarded report it
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command names the closest one, as an unknown option does."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            import difflib

            close = difflib.get_close_matches(args[0] if args else "", self.list_commands(ctx))
            shown = getattr(exc, "possibilities", None)  # click 8.4+ says it itself
            if close and not shown and "did you mean" not in exc.message.lower():
                exc.message = f"{exc.message} Did you mean {close[0]!r}?"
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command's first sentence whole (click cuts it at the terminal width
        with "..."); the formatter wraps long ones onto the next lines instead."""
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="asimov-hooks")
def cli() -> None:
    """Keep AI-agent context files small, mergeable and honest."""


@cli.command("validate", context_settings=CONTEXT)
@_validate_options
def validate_cmd(**kwargs) -> None:  # type: ignore[no-untyped-def]
    """Check files and directories against ADR-007 limits and the protocol schemas.

    PATHS are files or directories (default: the current directory); directories are
    searched by file name, honouring .gitignore inside a git repository.
    """
    sys.exit(_run_validate(**kwargs))


@click.command("asimov-validate", context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="asimov-validate")
@_validate_options
def validate_standalone(**kwargs) -> None:  # type: ignore[no-untyped-def]
    """Check files and directories against ADR-007 limits and the protocol schemas."""
    sys.exit(_run_validate(**kwargs))


@click.command("asimov-check-size", context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="asimov-check-size")
@with_options(CHECK_SIZE)
def check_size_command(**kwargs) -> None:  # type: ignore[no-untyped-def]
    """ADR-007 size limits only (lines, estimated tokens, bytes); no YAML parsing."""
    from ..validation.run import run_size_options

    sys.exit(run_size_options(**kwargs))


def _guarded(command: click.Command, argv: Sequence[str] | None, prog: str) -> int:
    """Run a click command; turn any unexpected exception into one line and exit 2."""
    try:
        command.main(
            args=list(argv) if argv is not None else None, prog_name=prog, standalone_mode=False
        )
    except SystemExit as exc:
        from .guard import broken_pipe, flushed, reader_gone

        if reader_gone():  # click met a closed stdout (`... | head`)
            return broken_pipe()
        return flushed(exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2))
    except click.exceptions.Abort:
        sys.stderr.write(f"{prog}: aborted\n")
        return 2
    except click.ClickException as exc:
        from ..options.clickopts import show_error

        show_error(exc, prog)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug or an environment failure: one line, no traceback
        from .guard import internal_error

        return internal_error(prog, exc)
    from .guard import flushed

    return flushed(0)


def main(argv: Sequence[str] | None = None) -> int:
    return _guarded(cli, argv, "asimov-hooks")


def validate_main(argv: Sequence[str] | None = None) -> int:
    """`asimov-validate` through click (help, version and usage errors)."""
    return _guarded(validate_standalone, argv, "asimov-validate")
