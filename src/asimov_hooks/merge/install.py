"""`asimov-hooks install` / `uninstall`: register the checkpoint merge driver with git.

Git config is not committed, so every clone needs the registration once (the
`asimov-merge-driver` pre-commit hook re-runs `install --quiet` after checkouts and
merges). The `.gitattributes` lines are committed; install adds only the ones no
existing line already provides, inside a marked block, so uninstall can remove exactly
what install added. Both commands are idempotent.
"""

from __future__ import annotations

import os
import sys

import click

from ..gitutil import (
    GitError,
    command_paths,
    config_get,
    driver_command,
    git,
    git_path,
    global_attributes_file,
    merge_settings,
    read_lines,
    routed_patterns,
    scope_args,
    split_block,
    toplevel,
    write_block,
)

CONTEXT = {"help_option_names": ["-h", "--help"]}
ATTRIBUTE_CHOICES = ("auto", "local", "none")


class SetupError(Exception):
    """A one-line reason the set-up could not be done (exit 2)."""


def _where(global_: bool) -> str | None:
    if global_:
        return None
    top = toplevel()
    if top is None:
        raise SetupError(
            "not inside a git work tree (use --global to install for every repository)"
        )
    return top


def attributes_path(mode: str, global_: bool, top: str | None) -> str | None:
    if mode == "none":
        return None
    if global_:
        if mode == "local":
            raise SetupError("--attributes local needs a repository, not --global")
        return global_attributes_file()
    assert top is not None
    if mode == "local":
        return git_path("info/attributes", cwd=top)
    return os.path.join(top, ".gitattributes")


def _display(path: str, top: str | None) -> str:
    if top and os.path.abspath(path).startswith(os.path.abspath(top) + os.sep):
        return os.path.relpath(path, top)
    return path


def install(global_: bool, attributes: str) -> list[str]:
    """Do the install; returns what changed (one line each)."""
    top = _where(global_)
    settings = merge_settings()
    name = settings["name"]
    scope = scope_args(global_)
    wanted = {
        f"merge.{name}.name": settings["description"],
        f"merge.{name}.driver": driver_command(),
        f"merge.{name}.recursive": "binary",
    }
    changes = []
    for key, value in wanted.items():
        current = config_get(key, scope, cwd=top)
        if current != value:
            git("config", *scope, key, value, cwd=top)
            verb = "set" if current is None else "updated"
            changes.append(f"{verb} {key} ({'global' if global_ else 'local'} git config)")
    path = attributes_path(attributes, global_, top)
    if path is not None:
        lines, _ = read_lines(path)
        outside, _, _ = split_block(lines)
        present = routed_patterns(outside, name)
        block = [f"{p} merge={name}" for p in settings["patterns"] if p not in present]
        added, removed = write_block(path, block)
        shown = _display(path, top)
        changes += [f"added to {shown}: {line}" for line in added]
        changes += [f"removed from {shown}: {line}" for line in removed]
    return changes


def uninstall(global_: bool) -> list[str]:
    top = _where(global_)
    settings = merge_settings()
    name = settings["name"]
    scope = scope_args(global_)
    changes = []
    for key in ("name", "driver", "recursive"):
        full = f"merge.{name}.{key}"
        if config_get(full, scope, cwd=top) is not None:
            git("config", *scope, "--unset-all", full, cwd=top)
            changes.append(f"removed {full} ({'global' if global_ else 'local'} git config)")
    left = git("config", *scope, "--get-regexp", rf"^merge\.{_regex(name)}\.", cwd=top, check=False)
    if changes and left.returncode != 0:
        git("config", *scope, "--remove-section", f"merge.{name}", cwd=top, check=False)
    paths = (
        [global_attributes_file()]
        if global_
        else [
            os.path.join(top or ".", ".gitattributes"),
            git_path("info/attributes", cwd=top),
        ]
    )
    for path in paths:
        _, removed = write_block(path, [])
        changes += [f"removed from {_display(path, top)}: {line}" for line in removed]
    return changes


def _regex(name: str) -> str:
    import re

    return re.escape(name)


def _fail(command: str, message: str) -> None:
    sys.stderr.write(f"asimov-hooks {command}: {message}\n")
    sys.exit(2)


@click.command("install", context_settings=CONTEXT)
@click.option(
    "--global", "global_", is_flag=True, help="Register in ~/.gitconfig for every repository."
)
@click.option(
    "--attributes",
    type=click.Choice(ATTRIBUTE_CHOICES),
    default="auto",
    show_default=True,
    help="Where the merge=asimov-checkpoint lines go: auto = .gitattributes (committed; "
    "with --global the global attributes file), local = .git/info/attributes (this clone "
    "only), none = git config only.",
)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing unless something fails.")
def install_command(global_: bool, attributes: str, quiet: bool) -> None:
    """Register the checkpoint merge driver with git (idempotent).

    Sets merge.asimov-checkpoint.name, .driver (this interpreter, so it works from a
    venv or pre-commit's environment) and .recursive=binary, and routes the checkpoint
    files to it in .gitattributes. Disable it for one command with
    ASIMOV_HOOKS_MERGE_DRIVER=0.
    """
    from ..config import ConfigError

    try:
        changes = install(global_, attributes)
    except (SetupError, GitError, ConfigError, OSError) as exc:
        _fail("install", str(exc))
        return
    if not quiet:
        for line in changes or ["merge driver already installed; nothing to do"]:
            click.echo(line)
        if changes and attributes == "auto" and not global_:
            click.echo("commit .gitattributes so that every clone routes checkpoints to the driver")


@click.command("uninstall", context_settings=CONTEXT)
@click.option(
    "--global", "global_", is_flag=True, help="Remove the registration from ~/.gitconfig."
)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing unless something fails.")
def uninstall_command(global_: bool, quiet: bool) -> None:
    """Remove exactly what `asimov-hooks install` added (git config and attribute lines)."""
    from ..config import ConfigError

    try:
        changes = uninstall(global_)
    except (SetupError, GitError, ConfigError, OSError) as exc:
        _fail("uninstall", str(exc))
        return
    if not quiet:
        for line in changes or ["merge driver not installed; nothing to do"]:
            click.echo(line)


__all__ = ["command_paths", "install_command", "uninstall_command"]
