"""`asimov-hooks init`: set a repository up for the agent files it already has."""

from __future__ import annotations

import os
import subprocess
import sys

import click

from ..agent.install.targets import NAMES
from ..fs.access import FileProblem, read_bytes, show
from ..options.clickopts import CONTEXT, Choice
from ..release import published_url, release_tag
from . import families as fam
from .plan import hooks_for, ignores_for, install_types
from .precommit import PRE_COMMIT_CONFIG, SpliceError, extend, newline_of
from .source import LOCAL, hook_entries, is_remote

GITIGNORE = ".gitignore"
IGNORE_HEADER = "# agent session files (asimov-hooks init)"


def _read(top: str, rel: str) -> str | None:
    path = os.path.join(top, rel)
    if not os.path.lexists(path):
        return None
    try:
        return read_bytes(path, root=top, bound="resource").decode("utf-8")
    except FileProblem as exc:
        raise FileProblem(exc.rule, f"{rel}: {exc.message}") from None


def _tracked(top: str, pattern: str) -> bool:
    from ..gitutil import git

    done = git("ls-files", "--", f"*{pattern}" if "/" not in pattern else pattern, cwd=top)
    return bool(done.stdout.strip())


def _kept(top: str, wanted: list[tuple[str, str]]) -> list[str]:
    """The notes for files of the ignore lines that git tracks all the same."""
    return [
        f"note: {p} is tracked, so git keeps committing it: `git rm -r --cached {p}` "
        f"makes it local to each clone ({why})"
        if "*" not in p
        else f"note: files matching {p} are tracked, so git keeps committing them: "
        f"`git rm --cached '{p}'` makes them local to each clone ({why})"
        for p, why in wanted
        if _tracked(top, p)
    ]


def _probe(pattern: str) -> str:
    """A path the ignore line is for: a file in a directory line's directory, the
    second volume for an archive's volumes line (`*` is the volume's number)."""
    return pattern + "x.json" if pattern.endswith("/") else pattern.replace("*", "2")


def _ignored(top: str, pattern: str) -> bool:
    from ..gitutil import git

    probe = _probe(pattern)
    done = git("check-ignore", "-q", "--no-index", "--", probe, cwd=top, check=False)
    return done.returncode == 0


def _gitignore(top: str, text: str | None, wanted: list[tuple[str, str]]) -> str:
    """The .gitignore text with the lines git does not already follow. What git's index
    holds changes nothing here, so a new project gets the lines its committed twin gets
    (a file already tracked stays tracked: an ignore line never untracks one; `_kept`
    names those)."""
    lines = [p for p, _ in wanted if not _ignored(top, p)]
    if not lines:
        return text or ""
    base = text or ""
    newline = newline_of(base)
    if base and not base.endswith("\n"):
        base += newline
    if base.strip():
        base += newline
    return base + IGNORE_HEADER + newline + "".join(f"{p}{newline}" for p in lines)


def _diff(rel: str, old: str | None, new: str) -> str:
    """The unified diff, each line escaped (fs.access.show): the lines are the
    checkout's, and a diff is printed to a terminal or a CI log."""
    import difflib

    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"a/{rel}" if old is not None else "/dev/null",
        tofile=f"b/{rel}",
    )
    return "".join(show(line.rstrip("\n")) + "\n" for line in lines)


def _run(args: list[str], top: str) -> int:
    click.echo(f"$ asimov-hooks {' '.join(args)}")
    return subprocess.run([sys.executable, "-m", "asimov_hooks", *args], cwd=top).returncode


@click.command("init", context_settings=CONTEXT)
@click.option(
    "--repo",
    help="Where pre-commit gets the hooks (a git URL or path). Default: the project's "
    "published repository.",
)
@click.option(
    "--rev",
    help="The tag or commit of --repo. Default: the tag of this installation's version "
    f"({release_tag()}).",
)
@click.option(
    "--local",
    is_flag=True,
    help="Write `repo: local` hooks that run the asimov-hooks installed on this machine "
    "(every clone then needs it on PATH) instead of the published repository.",
)
@click.option(
    "--merge-driver",
    is_flag=True,
    help="Also register the checkpoint merge driver (`asimov-hooks install`).",
)
@click.option(
    "--agent",
    "agents",
    multiple=True,
    type=Choice([*NAMES, "all"]),
    help="Also install the agent hooks (`asimov-hooks agent install --agent NAME`); repeatable.",
)
@click.option(
    "--no-example",
    is_flag=True,
    help="Write no example session checkpoint (by default, an Asimov repository without "
    "one gets a git-ignored example in ADR-007's shape).",
)
@click.option("--dry-run", is_flag=True, help="Print the changes as a diff; write nothing.")
def command(
    repo: str | None,
    rev: str | None,
    local: bool,
    merge_driver: bool,
    agents: tuple[str, ...],
    no_example: bool,
    dry_run: bool,
) -> None:
    """Set this repository up: the pre-commit hooks its agent files need, and .gitignore
    lines for the files agents keep locally.

    Finds which families the repository uses (Asimov protocol files, OC checkpoints,
    code-intel sessions, other agents' instruction files), then adds the missing hooks to
    .pre-commit-config.yaml, keeping every line of an existing one, and the hook types
    they run at to default_install_hook_types. The hooks come from the published
    repository at the tag of this version, a config every clone can use. Running it
    again changes nothing.
    """
    from ..gitutil import GitError, toplevel

    top = toplevel(os.getcwd())
    if top is None:
        raise click.UsageError("not inside a git work tree (run `git init` first)")
    repo, rev, binding = _source(repo, rev, local)
    try:
        found = fam.detect(top)
    except GitError as exc:  # git cannot list the files (a FIFO where it reads .gitignore)
        raise click.ClickException(show(str(exc))) from None
    oc = fam.OC in found
    hooks = hooks_for(set(found), merge_driver=merge_driver)
    types = install_types(hooks)
    try:
        old_config = _read(top, PRE_COMMIT_CONFIG)
        new_config, notes = extend(old_config or "", repo, rev, hook_entries(repo, hooks), types)
        claude = os.path.isdir(os.path.join(top, ".claude")) or bool(
            {"claude", "all"} & set(agents)
        )
        old_ignore = _read(top, GITIGNORE)
        ignores = ignores_for(set(found), claude, os.path.isdir(os.path.join(top, ".asimov")))
        new_ignore = _gitignore(top, old_ignore, ignores)
        notes += _kept(top, ignores)
    except (SpliceError, UnicodeDecodeError, OSError) as exc:
        raise click.ClickException(show(str(exc))) from None
    except FileProblem as exc:  # a FIFO, a device or a link out of the repository
        raise click.ClickException(show(exc.message)) from None
    except GitError as exc:  # git cannot answer (a FIFO where it reads .gitattributes)
        raise click.ClickException(show(str(exc))) from None
    for family, evidence in found.items():
        click.echo(f"found {fam.DESCRIPTION[family]}: {show(fam.listing(evidence))}")
    if not found:
        click.echo(
            "found no agent files yet: adding asimov-validate, which checks them once they exist"
        )
    changes = [(PRE_COMMIT_CONFIG, old_config, new_config), (GITIGNORE, old_ignore, new_ignore)]
    changes = [(rel, old, new) for rel, old, new in changes if new != (old or "")]
    example = None
    if fam.ASIMOV in found and not no_example:
        example = _example(top, new_ignore, notes)
    if example is not None:
        changes.append((example[0], None, example[1]))
    if dry_run:
        for rel, old, new in changes:
            click.echo(_diff(rel, old, new), nl=False)
        if binding and any(rel == PRE_COMMIT_CONFIG for rel, _, _ in changes):
            click.echo(binding, err=True)
        if merge_driver:
            click.echo("would run: asimov-hooks install")
        for agent in agents:
            click.echo(f"would run: asimov-hooks agent install --agent {agent}")
        return
    from ..fs.access import atomic_write

    for rel, _old, new in changes:
        if example is not None and rel == example[0]:
            _write_example(top, rel, new, notes)
            continue
        atomic_write(os.path.join(top, rel), new.encode("utf-8"), root=top)
        click.echo(f"{rel}: updated")
    if not changes:
        click.echo(f"{PRE_COMMIT_CONFIG} and {GITIGNORE}: nothing to add")
    for note in notes:
        click.echo(show(note), err=True)
    if binding and any(rel == PRE_COMMIT_CONFIG for rel, _, _ in changes):
        click.echo(binding, err=True)
    status = 0
    if merge_driver:
        status = _run(["install"], top) or status
    for agent in agents:
        status = _run(["agent", "install", "--agent", agent], top) or status
    if oc and not merge_driver:
        click.echo(
            "OC checkpoints are committed: `asimov-hooks init --merge-driver` (or "
            "`asimov-hooks install`) merges their telemetry without conflicts"
        )
    if changes:
        click.echo("next: `pre-commit install` (and commit the changed files)")
        if _which("pre-commit") is None:
            click.echo(
                "note: pre-commit is not on PATH: install it first (`pipx install pre-commit` "
                "or `uv tool install pre-commit`)",
                err=True,
            )
    sys.exit(status)


def _example(top: str, ignore: str, notes: list[str]) -> tuple[str, str] | None:
    """(path, text) of the example checkpoint to write, or None: the repository has a
    checkpoint already, or git would not ignore the example (it would be committed)."""
    from . import example

    if example.existing(top) is not None:
        return None
    rel = example.path_for(top)
    if not _ignored_with(top, rel, ignore):
        notes.append(f"note: no example checkpoint written: git would not ignore {rel}")
        return None
    return rel, example.text(top)


def _write_example(top: str, rel: str, text: str, notes: list[str]) -> None:
    """Write the example, only where git ignores it now and no file is there."""
    from ..fs.access import Changed, atomic_write

    if not _ignored(top, rel):
        notes.append(f"note: no example checkpoint written: git does not ignore {rel}")
        return
    try:
        atomic_write(os.path.join(top, rel), text.encode("utf-8"), root=top, expect=None)
    except Changed:
        return  # one appeared meanwhile: it is never written over
    click.echo(
        f"{show(rel)}: written, an example session checkpoint in ADR-007's shape (git ignores it; "
        "replace its values; `--no-example` leaves it out)"
    )


def _ignored_with(top: str, rel: str, ignore: str) -> bool:
    """Whether git ignores `rel` once .gitignore holds `ignore` (the text init writes,
    or would write with --dry-run): the lines of it init adds are ignore lines."""
    if _ignored(top, rel):
        return True
    added = ignore.split(IGNORE_HEADER, 1)[1] if IGNORE_HEADER in ignore else ""
    return rel in [line.strip() for line in added.splitlines()]


def _which(name: str) -> str | None:
    import shutil

    return shutil.which(name)


def _source(repo: str | None, rev: str | None, local: bool) -> tuple[str, str | None, str]:
    """(repo, rev, a note when the config is bound to this machine)."""
    if local or repo == LOCAL:
        if rev is not None:
            raise click.UsageError("--local hooks run the installed commands: they take no --rev")
        return (
            LOCAL,
            None,
            (
                "note: `repo: local` binds this config to machines where asimov-hooks is installed "
                "on PATH (every clone, CI included); without --local, init writes the published "
                "repository at a release tag, which pre-commit installs for everyone"
            ),
        )
    if repo is None:
        repo = published_url()
        if repo is None:
            raise click.UsageError(
                "this installation names no published repository (its metadata has no "
                "Repository URL): pass --repo URL, or --local"
            )
    rev = rev or release_tag()
    if is_remote(repo):
        return repo, rev, ""
    return (
        repo,
        rev,
        (
            f"note: {repo} is a path on this machine: the config works only where that path "
            "exists; commit it with a git URL (the default) for the rest of the team"
        ),
    )
