"""What the merge driver cut from a list over its trim cap, on its way to the archive.

A union can take a capped list (`completed`, at most 5 items) past its cap; the driver
then keeps what `asimov-hooks trim` keeps (the newest items) so that the merged file
validates, and the items it cut must reach the checkpoint's trim archive. The driver
cannot write the archive itself: git is in the middle of a merge, rebase or cherry-pick,
and when that operation also changes the archive, git's checkout of the result silently
replaces whatever the driver wrote there (and a rebase stops on a file changed under it).
So the driver records the cut items here, in the git directory where no checkout
reaches (`<git dir>/asimov-hooks/merge-archive.json`), before it writes the merged
checkpoint; `asimov-hooks trim` (the asimov-trim hook, `asimov-validate --fix`) appends
them to the archive as one entry each and drops them from this file. Until then they
are kept here, never lost.
"""

from __future__ import annotations

import os

from ..fs.access import FileProblem, atomic_write, confine, locked, make_dirs, read_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

NAME = "asimov-hooks/merge-archive.json"
MAX_BYTES = 16 * 1024 * 1024


def pending_file(cwd: str) -> str | None:
    """The pending file of the repository at `cwd` (its linked worktree's own git
    directory in a worktree), or None outside a repository."""
    from ..gitutil import GitError, git

    try:
        done = git("rev-parse", "--git-path", NAME, cwd=cwd, check=False)
    except GitError:
        return None
    if done.returncode != 0 or not done.stdout.strip():
        return None
    return os.path.join(cwd, done.stdout.strip())


def _load(path: str) -> list[dict[str, Any]]:
    if not os.path.lexists(path):
        return []
    import json

    confine(path, git_internal=True, what="merge archive")
    raw = read_bytes(path, MAX_BYTES, git_internal=True)  # by descriptor, as checked
    doc = json.loads(raw.decode("utf-8"))
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f"{path}: not a merge archive (no `entries` list)")
    return entries


def _save(path: str, entries: list[dict[str, Any]]) -> None:
    import json

    doc = {
        "$comment": "Items the asimov-checkpoint merge driver cut from lists over their trim "
        "cap; `asimov-hooks trim` appends them to each checkpoint's trim archive.",
        "entries": entries,
    }
    data = (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    atomic_write(path, data, git_internal=True)


def record(cwd: str, checkpoint: str, entry: dict[str, Any]) -> str:
    """Keep `entry` (an archive entry) for the checkpoint at `checkpoint` (relative to
    the work tree's top, `cwd`); returns the pending file. Raises OSError, ValueError
    or FileProblem when it cannot: the driver then merges nothing away."""
    path = pending_file(cwd)
    if path is None:
        raise ValueError("not in a git repository")
    make_dirs(os.path.dirname(path), git_internal=True)
    with locked(path):
        entries = _load(path)
        entries.append({"checkpoint": checkpoint.replace(os.sep, "/"), "entry": entry})
        _save(path, entries)
    return path


class Unreadable(Exception):
    """The pending file is there but cannot be read (damaged, over MAX_BYTES): its items
    are not archived until a person looks at it, and that is said, never skipped."""

    def __init__(self, path: str, why: str) -> None:
        from ..fs.access import show

        super().__init__(
            f"the pending merge archive {show(path)} is {why}: the items the merge driver "
            "cut and parked there are not archived until it is fixed; move it away, copy "
            "its entries into the trim archive by hand if you want them, then run "
            "`asimov-hooks trim` again"
        )


def take(checkpoint: str) -> tuple[str | None, list[dict[str, Any]]]:
    """(pending file, the entries waiting for the checkpoint at path `checkpoint`).
    Call `done` once they are in the archive. `Unreadable` when the file is there but
    cannot be read; it is then left as it is, never overwritten."""
    from ..gitutil import find_git_dir, find_toplevel

    # without starting git: the trim hook asks on every commit, and almost never finds any
    top = find_toplevel(os.path.dirname(os.path.abspath(checkpoint)))
    git_dir = find_git_dir(top) if top is not None else None
    if top is None or git_dir is None:
        return None, []
    path = os.path.join(git_dir, NAME)
    if not os.path.lexists(path):
        return path, []
    try:
        entries = _load(path)
    except FileProblem as problem:  # over MAX_BYTES, not a regular file, a link out
        raise Unreadable(path, problem.message) from None
    except UnicodeDecodeError:
        raise Unreadable(path, "not UTF-8 text") from None
    except ValueError as exc:  # not JSON, or no `entries` list
        message = str(exc).replace(path + ": ", "")
        why = message.splitlines()[0] if message else "not JSON"
        raise Unreadable(path, f"damaged ({why})") from None
    except OSError as exc:
        raise Unreadable(path, exc.strerror or str(exc)) from None
    real = os.path.realpath(checkpoint)
    mine = [
        e
        for e in entries
        if isinstance(e, dict)
        and isinstance(e.get("checkpoint"), str)
        and os.path.realpath(os.path.join(top, e["checkpoint"])) == real
        and isinstance(e.get("entry"), dict)
    ]
    return path, mine


def done(path: str, archived: list[dict[str, Any]]) -> None:
    """Drop the entries now in the archive from the pending file."""
    with locked(path):
        entries = _load(path)
        left = [e for e in entries if e not in archived]
        _save(path, left)
