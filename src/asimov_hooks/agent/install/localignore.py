"""Keep a local-scope settings file out of commits.

`.claude/settings.local.json` holds this clone's absolute path to asimov-hooks; it must
never be committed. When git does not already ignore it (`git check-ignore`), install
adds it to `.git/info/exclude`: git's per-clone ignore list, so no committed file
changes. The two lines (a comment naming us, then the pattern) go again when uninstall
deletes the local file. The exclude file is git's own: it is written through fs.access
as a git-internal file, at the path git names for it, under the lock.
"""

from __future__ import annotations

import os

from ...fs.access import FileProblem, atomic_write, confine, locked, make_dirs, read_bytes
from ...gitutil import GitError, git

COMMENT = "# asimov-hooks agent install --scope local (this clone's hook command)"


def _pattern(rel: str) -> str:
    return "/" + rel


def ensure_ignored(top: str, path: str) -> str | None:
    """Make git ignore `path`; a sentence saying what was done or what is wrong, or
    None when git already ignores it (or `top` is not a git work tree)."""
    rel = os.path.relpath(path, top).replace(os.sep, "/")
    try:
        if git("rev-parse", "--is-inside-work-tree", cwd=top, check=False).returncode != 0:
            return None
        if git("check-ignore", "-q", "--", rel, cwd=top, check=False).returncode == 0:
            return None
        if git("ls-files", "--error-unmatch", "--", rel, cwd=top, check=False).returncode == 0:
            return (
                f"warning: {rel} is tracked by git, so ignoring it has no effect; "
                f"stop tracking it with `git rm --cached {rel}`"
            )
        exclude = _exclude_path(top)
        with locked(exclude):
            text = _read(exclude, top)
            if _pattern(rel) not in text.splitlines():
                if text and not text.endswith("\n"):
                    text += "\n"
                text += f"{COMMENT}\n{_pattern(rel)}\n"
                _write(exclude, top, text)
    except (GitError, FileProblem, OSError) as exc:
        message = exc.message if isinstance(exc, FileProblem) else str(exc)
        return f"warning: could not make git ignore {rel}: {message}; add it to .gitignore"
    return f"{rel}: added to .git/info/exclude, so git ignores it (this clone only)"


def forget(top: str, path: str) -> bool:
    """Take out the lines `ensure_ignored` added; whether there were any."""
    rel = os.path.relpath(path, top).replace(os.sep, "/")
    try:
        if _still_used(top, rel):
            return False  # another worktree of this clone shares the exclude file
        exclude = _exclude_path(top)
        with locked(exclude):
            text = _read(exclude, top)
            lines = text.splitlines(keepends=True)
            for at in range(len(lines) - 1):
                if lines[at].rstrip("\r\n") == COMMENT and lines[at + 1].rstrip("\r\n") == _pattern(
                    rel
                ):
                    del lines[at : at + 2]
                    _write(exclude, top, "".join(lines))
                    return True
    except (GitError, FileProblem, OSError):
        return False
    return False


def _still_used(top: str, rel: str) -> bool:
    """Whether another worktree of the repository has its own local settings file."""
    listing = git("worktree", "list", "--porcelain", cwd=top, check=False).stdout
    here = os.path.realpath(top)
    for line in listing.splitlines():
        if line.startswith("worktree "):
            other = os.path.realpath(line[len("worktree ") :])
            if other != here and os.path.lexists(os.path.join(other, rel)):
                return True
    return False


def _exclude_path(top: str) -> str:
    out = git("rev-parse", "--git-path", "info/exclude", cwd=top).stdout.strip()
    path = os.path.join(top, out)
    make_dirs(os.path.dirname(path), top, git_internal=True)
    return path


def _read(path: str, top: str) -> str:
    if not os.path.lexists(path):
        return ""
    confine(path, top, git_internal=True)
    raw = read_bytes(path, 1 << 20, root=top, git_internal=True)  # by descriptor, checked
    return raw.decode("utf-8", "surrogateescape")


def _write(path: str, top: str, text: str) -> None:
    atomic_write(path, text.encode("utf-8", "surrogateescape"), root=top, git_internal=True)
