"""The click command for `asimov-hooks trim`: help, usage errors and every option.

The pre-commit hook's usual command line (`asimov-hooks trim FILE...`) is parsed by
`entrypoints.hooks_main` without importing click, which costs a commit more than the
trim itself; anything else comes here.
"""

from __future__ import annotations

import sys

import click

from .trimmer import run


@click.command(
    "trim", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}
)
@click.argument("files", nargs=-1, type=click.Path())
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    help="Config file (default: nearest .asimov-hooks.yaml or pyproject.toml with "
    "[tool.asimov-hooks]; $ASIMOV_HOOKS_CONFIG).",
)
@click.option(
    "--archive",
    "archive_path",
    type=click.Path(dir_okay=False),
    help="Append what is removed to this file (default: trim.archive.path, "
    "next to each checkpoint).",
)
@click.option("--no-archive", is_flag=True, help="Do not keep what is removed.")
@click.option("--dry-run", is_flag=True, help="Report what would be removed; write nothing.")
@click.option("--diff", is_flag=True, help="Also print a unified diff of each change.")
@click.option("-q", "--quiet", is_flag=True, help="Do not mention skipped files.")
def command(
    files: tuple[str, ...],
    config_path: str | None,
    archive_path: str | None,
    no_archive: bool,
    dry_run: bool,
    diff: bool,
    quiet: bool,
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
            archive=False if no_archive else None,
            archive_path=archive_path,
            dry_run=dry_run,
            diff=diff,
            quiet=quiet,
        )
    )
