"""Finding the files to check: paths named on the command line, and directories
searched by file name (honouring .gitignore through one `git ls-files`).

Each file found becomes one `FileRecord` (path, relative path, kind, and later its
selected rules), made here once and carried through the git prefetch, the worker plan,
the checks and the fixer, so no stage asks the configuration about the file again.
Split from engine.py (which re-exports these names); the checker itself stays there.
"""

from __future__ import annotations

import os

from ..fs.textio import FileProblem, check_regular_file
from .config import Config

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterable, Iterator
    from typing import Any

__all__ = [
    "FileRecord",
    "discover",
    "ensure_exists",
    "ephemeral_kinds",
    "ignored_ephemeral",
    "iter_files",
]


class FileRecord:
    """One file on its way from discovery to the report: where it is (`path`, as found
    or named), where it is for matching (`rel`, relative to the config's directory), its
    `kind` (None: no kind matches) and whether it was named on the command line. The
    checker fills `rules` (the file's selected rules) the first time it needs them, and
    `chooser` (which checker chose them: another checker selects again)."""

    __slots__ = ("chooser", "explicit", "kind", "path", "rel", "rules")

    def __init__(self, path: str, rel: str, kind: str | None, explicit: bool = True) -> None:
        self.path, self.rel, self.kind, self.explicit = path, rel, kind, explicit
        self.rules: dict[str, dict[str, Any]] | None = None
        self.chooser: object = None

    @classmethod
    def of(cls, path: str, config: Config, explicit: bool = True) -> FileRecord:
        """The record of one path (a file named outside a search)."""
        rel = config.relpath(path)
        return cls(path, rel, config.kind_for(rel), explicit)

    def __repr__(self) -> str:
        return f"FileRecord({self.path!r}, kind={self.kind!r})"


def iter_files(paths: Iterable[str], config: Config) -> Iterator[tuple[str, bool]]:
    """(path, explicit) for every file `discover` finds."""
    for record in discover(paths, config):
        yield record.path, record.explicit


def discover(
    paths: Iterable[str], config: Config, files: set[str] | frozenset[str] = frozenset()
) -> Iterator[FileRecord]:
    """A record for every file to check; directories are searched by name.

    Inside a git work tree a directory search honours .gitignore (tracked files and
    untracked files that are not ignored), except for files of the kinds marked
    `ephemeral` (local by design, so always ignored: the session checkpoints), which
    it finds ignored or not; elsewhere it walks the tree. `files`: paths known to be
    files already (`ensure_exists` looked), not asked again.
    """
    seen: set[str] = set()
    for raw in paths:
        if raw not in files and os.path.isdir(raw):
            for found in sorted(_with_named_dirs(raw, _walk(raw, config), config)):
                if found in seen:
                    continue
                rel = config.relpath(found)
                kind = config.kind_for(rel)
                if kind and not config.excluded(rel):
                    seen.add(found)
                    yield FileRecord(found, rel, kind, False)
        elif raw not in seen:
            rel = config.relpath(raw)
            if not config.excluded(rel):
                seen.add(raw)
                yield FileRecord(raw, rel, config.kind_for(rel), True)


def _with_named_dirs(directory: str, found: Iterable[str], config: Config) -> set[str]:
    """The files found, plus every directory below `directory` whose path a file kind
    matches (`.claude_checkpoint.yaml/`): checked, it is reported as a directory where a
    file was expected instead of being passed over in silence."""
    out = set(found)
    top = os.path.normpath(directory)
    looked: set[str] = set()  # each directory once: many files share their parents
    for path in list(out):
        parent = os.path.dirname(path)
        while parent and os.path.normpath(parent) != top and parent not in looked:
            looked.add(parent)
            if config.kind_for(config.relpath(parent)):
                out.add(parent)
            parent = os.path.dirname(parent)
    return out


def _unreadable(exc: OSError) -> None:
    raise FileProblem(
        "io-error", f"{exc.filename}: cannot read directory: {exc.strerror or exc}"
    ) from None


def _walk(directory: str, config: Config | None = None) -> Iterator[str]:
    listed = _git_ls_files(directory)
    if listed is not None:
        yield from listed
        if config is not None:
            yield from ignored_ephemeral(directory, config)
        return
    for root, dirs, files in os.walk(directory, onerror=_unreadable):
        dirs[:] = [d for d in dirs if d not in (".git", ".hg", ".svn")]
        for name in dirs:
            path = os.path.normpath(os.path.join(root, name))
            if config is not None and config.kind_for(config.relpath(path)):
                yield path  # a directory named like a protocol file
        for name in files:
            yield os.path.normpath(os.path.join(root, name))


def ephemeral_kinds(config: Config) -> list[str]:
    """Kinds that are local by design (rules/kinds.json `ephemeral: true`)."""
    return [name for name, spec in config.kinds.items() if spec.get("ephemeral")]


def ignored_ephemeral(directory: str, config: Config, untracked: bool = False) -> list[str]:
    """Git-ignored files under `directory` whose kind is ephemeral (one git call);
    `untracked`: every file of those kinds that is not in the index, ignored or not."""
    specs = []
    for kind in ephemeral_kinds(config):
        for pattern in config.kinds[kind].get("files", []):
            glob = pattern[1:] if pattern.startswith("/") else "**/" + pattern
            # from the top: searched from inside `.asimov/` or `.code-intel/`, the
            # patterns still name `.asimov/checkpoint.yaml` and `.code-intel/sessions/`
            specs.append(":(top,glob)" + glob)
    if not specs:
        return []
    which = ["--others"] if untracked else ["--others", "--ignored", "--exclude-standard"]
    listed = _git_ls_files(directory, which, specs) or []
    below = os.path.realpath(directory).rstrip(os.sep) + os.sep
    return [
        path
        for path in listed
        if os.path.realpath(path).startswith(below)
        and config.kinds.get(config.kind_for(config.relpath(path)) or "", {}).get("ephemeral")
    ]


def _git_ls_files(
    directory: str,
    which: tuple | list = ("--cached", "--others", "--exclude-standard"),
    specs: tuple | list = (".",),
) -> list[str] | None:
    """Files git lists under `directory` (paths as `directory` is given: relative or
    absolute), or None outside a work tree or without git."""
    import subprocess

    from ..gitutil import GitError, toplevel, would_block

    here = directory if os.path.isdir(directory) else None
    blocked = would_block(("ls-files", *which, "--", *specs), here, None)
    if blocked:  # git would open it and never return
        raise FileProblem("io-error", blocked)
    try:
        proc = subprocess.run(
            ["git", "-C", directory, "ls-files", "-z", *which, "--full-name", "--", *specs],
            capture_output=True,
            check=False,
        )
        # --full-name paths are relative to the top git works in (GIT_DIR honoured)
        root = toplevel(directory) if proc.returncode == 0 else None
    except (OSError, GitError):
        return None
    if root is None:
        return None
    for line in proc.stderr.decode("utf-8", "replace").splitlines():
        if "could not open directory" in line:  # files below it would go unchecked
            detail = line.split(":", 1)[-1].strip()
            raise FileProblem("io-error", f"cannot read directory: {detail}")
    out = []
    for name in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if name:
            full = os.path.join(root, name)
            if os.path.lexists(full):
                out.append(os.path.relpath(full) if not os.path.isabs(directory) else full)
    return out


def ensure_exists(path: str) -> bool:
    """Raise FileProblem for a path argument that names nothing; True when it is a
    regular file (so a search need not ask whether it is a directory)."""
    import stat

    try:  # the common case in one call: a file or a directory that is there
        mode = stat.S_IFMT(os.stat(path).st_mode)
        if mode in (stat.S_IFREG, stat.S_IFDIR):
            return mode == stat.S_IFREG
    except OSError:
        pass
    if not os.path.lexists(path):
        raise FileProblem("io-error", "no such file or directory")
    if os.path.isdir(path):
        return False
    check_regular_file(path)
    return False
