"""The click command for `asimov-hooks trim`: help, usage errors and every option.

The pre-commit hook's usual command line (`asimov-hooks trim FILE...`) is parsed by
`entrypoints.hooks_main` without importing click, which costs a commit more than the
trim itself; anything else comes here.
"""

from __future__ import annotations

import sys

import click

from ..options import TRIM
from ..options.clickopts import CONTEXT, with_options
from .trimmer import run


@click.command("trim", context_settings=CONTEXT)
@with_options(TRIM)
def command(
    files: tuple[str, ...],
    config_path: str | None,
    archive_path: str | None,
    no_archive: bool,
    dry_run: bool,
    diff: bool,
    quiet: bool,
    skip_conflicts: bool = False,
) -> None:
    """Trim checkpoints to their ADR-007 windows, archiving what is removed.

    FILES are checkpoint files or directories (default: the current directory).
    Exit 1 when a file was changed (or would be, with --dry-run) or is still over
    its hard line limit or cannot be trimmed; 0 when nothing needed doing.
    """
    if no_archive and archive_path:
        raise click.UsageError("--archive and --no-archive cannot be used together")
    sys.exit(
        run(
            list(files),
            config_path=config_path,
            archive_path=archive_path,
            no_archive=no_archive,
            dry_run=dry_run,
            diff=diff,
            quiet=quiet,
            skip_conflicts=skip_conflicts,
        )
    )
