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

from ..fs.access import show
from ..gitutil import (
    GitError,
    command_paths,
    config_get,
    driver_command,
    git,
    git_path,
    global_attributes_file,
    read_lines,
    routed_patterns,
    scope_args,
    split_block,
    toplevel,
    write_block,
)
from ..options.clickopts import Choice

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

CONTEXT = {"help_option_names": ["-h", "--help"]}
ATTRIBUTE_CHOICES = ("auto", "local", "none")


def merge_settings(config: Any = None) -> dict[str, Any]:
    """The merge section of the configuration (driver name, attribute patterns)."""
    if config is None:
        from ..config.config import load_config

        config = load_config(None)
    section = config.section("merge")
    archives = [
        pattern
        for spec in config.kinds.values()
        if spec.get("archive")
        for pattern in spec.get("files", [])
    ]
    return {
        "archive-driver": section.get("archive-driver")
        or section.get("driver-name", "asimov-checkpoint"),
        "archive-patterns": archives,
        "name": section.get("driver-name", "asimov-checkpoint"),
        "description": section.get("description", "asimov-hooks checkpoint merge driver"),
        "patterns": list(section.get("gitattributes", [])),
        "kinds": sorted(section.get("kinds", {})),
    }


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


OPT_OUT = "asimov-hooks.merge-driver"  # git config key `uninstall` leaves behind
OPT_OUT_VALUE = "uninstalled"
OUR_DRIVER_MARKS = (
    "asimov_hooks.merge.driver",
    "asimov_hooks.merge_driver",
    "merge-driver %O",
    "merge-driver -- %O",
)


class Installed:
    """What install did: changes (one line each), notes, and whether the committed
    .gitattributes changed (only then is there something to commit)."""

    def __init__(self) -> None:
        self.changes: list[str] = []
        self.notes: list[str] = []
        self.attributes_changed = False

    def __iter__(self):  # type: ignore[no-untyped-def]
        """The changes, then the notes: what callers that list lines want."""
        yield from self.changes
        yield from (f"note: {note}" for note in self.notes)


def opted_out(cwd: str | None) -> bool:
    """`asimov-hooks uninstall` was run here (or globally) and install not run since."""
    return config_get(OPT_OUT, None, cwd=cwd) == OPT_OUT_VALUE


def _clear_opt_out(scope: list[str], top: str | None) -> None:
    if config_get(OPT_OUT, scope, cwd=top) is not None:
        git("config", *scope, "--unset-all", OPT_OUT, cwd=top, check=False)
        _remove_section_if_empty(scope, "asimov-hooks", top)


def _remove_section_if_empty(scope: list[str], section: str, top: str | None) -> None:
    left = git("config", *scope, "--get-regexp", rf"^{_regex(section)}\.", cwd=top, check=False)
    if left.returncode != 0:
        git("config", *scope, "--remove-section", section, cwd=top, check=False)


def _old_driver_sections(scope: list[str], name: str, top: str | None) -> list[str]:
    """merge.<other>.* sections an earlier install wrote under another driver name."""
    done = git("config", *scope, "--get-regexp", r"^merge\..*\.driver$", cwd=top, check=False)
    found = []
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        other = key[len("merge.") : -len(".driver")]
        if other != name and any(mark in value for mark in OUR_DRIVER_MARKS):
            found.append(other)
    return found


def foreign_routes(lines: list[str], patterns: list[str], ours: set[str]) -> dict[str, tuple]:
    """{pattern: (driver, line number)} for each of our patterns that these attribute
    lines send to another merge driver (the last matching line wins, as in git)."""
    from ..config.globs import match_any

    found: dict[str, tuple] = {}
    for pattern in patterns:
        sample = pattern.replace("**/", "").replace("*", "example").lstrip("/")
        effective: tuple | None = None
        for number, line in enumerate(lines, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if not match_any(sample, [words[0]]) and words[0] != pattern:
                continue
            for attr in words[1:]:
                if attr.startswith("merge="):
                    effective = (attr[len("merge=") :], number)
                elif attr in ("-merge", "!merge", "merge"):
                    effective = None
        if effective is not None and effective[0] not in ours:
            found[pattern] = effective
    return found


def install(global_: bool, attributes: str, replace: bool = False) -> Installed:
    """Do the install; returns what changed."""
    top = _where(global_)
    settings = merge_settings()
    name = settings["name"]
    scope = scope_args(global_)
    where = "global" if global_ else "local"
    done = Installed()
    _clear_opt_out(scope, top)
    for old in _old_driver_sections(scope, name, top):
        git("config", *scope, "--remove-section", f"merge.{old}", cwd=top, check=False)
        done.changes.append(f"removed merge.{old}.* ({where} git config; the driver is now {name})")
    wanted = {
        f"merge.{name}.name": settings["description"],
        f"merge.{name}.driver": driver_command(),
        f"merge.{name}.recursive": "binary",
    }
    for key, value in wanted.items():
        current = config_get(key, scope, cwd=top)
        if current != value:
            git("config", *scope, key, value, cwd=top)
            verb = "set" if current is None else "updated"
            done.changes.append(f"{verb} {key} ({where} git config)")
    path = attributes_path(attributes, global_, top)
    if path is None:
        return done
    internal = attributes == "local" and not global_
    lines, _ = read_lines(path, internal)
    outside, inside, _ = split_block(lines)
    shown = _display(path, top)
    routes = [(p, name) for p in settings["patterns"]]
    routes += [(p, settings["archive-driver"]) for p in settings["archive-patterns"]]
    foreign = foreign_routes(outside, [p for p, _ in routes], {name, settings["archive-driver"]})
    block = []
    for pattern, driver in routes:
        line = f"{pattern} merge={driver}"
        if pattern in routed_patterns(outside, driver) and pattern not in foreign:
            continue  # a line of the user's own already does it
        if pattern in foreign and not replace and line not in inside:
            other, number = foreign[pattern]
            done.notes.append(
                f"{pattern} is routed to merge={other} by {shown} line {number}; left as it "
                f"is (`asimov-hooks install --replace` routes it to {driver} instead)"
            )
            continue
        if pattern in foreign and line not in inside:
            other, number = foreign[pattern]
            done.notes.append(
                f"{pattern}: merge={driver} replaces merge={other} ({shown} line {number} "
                "stays, overridden by the later line; `asimov-hooks uninstall` restores it)"
            )
        block.append(line)
    added, removed = write_block(path, block, git_internal=internal)
    done.changes += [f"added to {shown}: {line}" for line in added]
    done.changes += [f"removed from {shown}: {line}" for line in removed]
    done.attributes_changed = bool(added or removed) and attributes == "auto" and not global_
    return done


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
    if changes:
        _remove_section_if_empty(scope, f"merge.{name}", top)
    paths = (
        [global_attributes_file()]
        if global_
        else [
            os.path.join(top or ".", ".gitattributes"),
            git_path("info/attributes", cwd=top),
        ]
    )
    for number, path in enumerate(paths):
        existed = os.path.exists(path)
        _, removed = write_block(path, [], git_internal=number == 1 and not global_)
        changes += [f"removed from {_display(path, top)}: {line}" for line in removed]
        if existed and not os.path.exists(path):
            changes.append(f"deleted {_display(path, top)} (it held only what install added)")
    if top is not None and not global_ and _registering_hook(top):
        if config_get(OPT_OUT, scope, cwd=top) != OPT_OUT_VALUE:
            git("config", *scope, OPT_OUT, OPT_OUT_VALUE, cwd=top)
        changes.append(
            f"remembered in local git config ({OPT_OUT}={OPT_OUT_VALUE}): the "
            "asimov-merge-driver hook of this clone will not register the driver again; "
            "`asimov-hooks install` undoes this"
        )
    return changes


def _registering_hook(top: str) -> bool:
    """Whether this clone has a hook that would register the driver again (the
    asimov-merge-driver pre-commit hook runs on post-checkout / post-merge)."""
    from ..fs.access import FileProblem, read_bytes

    try:
        if b"asimov-merge-driver" in read_bytes(os.path.join(top, ".pre-commit-config.yaml")):
            return True
    except FileProblem:
        pass
    for stage in ("post-checkout", "post-merge"):
        try:  # a hook is git's own file, at the path git gives (core.hooksPath may be anywhere)
            if b"asimov-hooks" in read_bytes(git_path(f"hooks/{stage}", cwd=top), confined=False):
                return True
        except FileProblem:
            continue
    return False


def _regex(name: str) -> str:
    import re

    return re.escape(name)


def _fail(command: str, message: str) -> None:
    sys.stderr.write(f"asimov-hooks {command}: {show(message)}\n")
    sys.exit(2)


@click.command("install", context_settings=CONTEXT)
@click.option(
    "--global", "global_", is_flag=True, help="Register in ~/.gitconfig for every repository."
)
@click.option(
    "--attributes",
    type=Choice(ATTRIBUTE_CHOICES),
    default="auto",
    show_default=True,
    help="Where the merge=asimov-checkpoint lines go: auto = .gitattributes (committed; "
    "with --global the global attributes file), local = .git/info/attributes (this clone "
    "only), none = git config only.",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Route checkpoints to this driver even where .gitattributes sends them to another "
    "merge driver (its line stays, overridden; uninstall restores it).",
)
@click.option(
    "--unless-uninstalled",
    is_flag=True,
    help="Do nothing if `asimov-hooks uninstall` was run in this clone (the "
    "asimov-merge-driver pre-commit hook uses this).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing unless something fails.")
def install_command(
    global_: bool, attributes: str, replace: bool, unless_uninstalled: bool, quiet: bool
) -> None:
    """Register the checkpoint merge driver with git (idempotent).

    Sets merge.asimov-checkpoint.name, .driver (this interpreter, so it works from a
    venv or pre-commit's environment) and .recursive=binary, and routes the checkpoint
    files and their trim archives to it in .gitattributes: it merges a checkpoint
    field by field (real conflicts stay conflicts) and an archive by keeping both
    branches' entries. Disable it for one command with ASIMOV_HOOKS_MERGE_DRIVER=0.
    """
    from ..config.config import ConfigError
    from ..fs.access import FileProblem

    try:
        if unless_uninstalled and opted_out(toplevel()):
            return
        done = install(global_, attributes, replace)
    except (SetupError, GitError, ConfigError, OSError, FileProblem) as exc:
        _fail("install", str(exc))
        return
    if done.notes:  # another driver kept its files: say so even with --quiet
        for line in done.notes:
            click.echo(f"note: {show(line)}", err=True)
    if not quiet:
        for line in done.changes or ["merge driver already installed; nothing to do"]:
            click.echo(show(line))
        if done.attributes_changed:
            click.echo("commit .gitattributes so that every clone routes checkpoints to the driver")


@click.command("uninstall", context_settings=CONTEXT)
@click.option(
    "--global", "global_", is_flag=True, help="Remove the registration from ~/.gitconfig."
)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing unless something fails.")
def uninstall_command(global_: bool, quiet: bool) -> None:
    """Remove exactly what `asimov-hooks install` added (git config and attribute lines)."""
    from ..config.config import ConfigError
    from ..fs.access import FileProblem

    try:
        changes = uninstall(global_)
    except (SetupError, GitError, ConfigError, OSError, FileProblem) as exc:
        _fail("uninstall", str(exc))
        return
    if not quiet:
        for line in changes or ["merge driver not installed; nothing to do"]:
            click.echo(show(line))


__all__ = ["command_paths", "install_command", "uninstall_command"]
