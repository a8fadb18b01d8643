"""Drift between checkpoints and the repository they describe (what the OC Checkpoint Protocol's `doctor` checks).

A checkpoint that points at missing files, at work already merged, or that git does
not track, misleads the next session that resumes from it.
"""

from __future__ import annotations

import datetime
import os
import re
from functools import lru_cache

from ..gitutil import find_toplevel
from ..timestamps import parse_time
from .entry_notes import entry_path as entry_path  # the path a generated_files entry names

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterator
    from typing import Any

    from .context import Context

_PR_REF = re.compile(r"(?:PR\s*#?|pull/|#)(\d+)\b", re.I)


def _git(cwd: str, *args: str, stdin: str | None = None) -> Any:
    import subprocess  # only rules that ask git pay for it

    from ..gitutil import would_block

    if would_block(args, cwd, stdin):
        return None  # git would wait for ever on a FIFO: no answer, as without git
    try:
        return subprocess.run(
            ["git", "-C", cwd, *args],
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
            encoding="utf-8",
            errors="surrogateescape",
        )
    except OSError:
        return None


@lru_cache(maxsize=256)
def git_root(directory: str) -> str | None:
    """The work tree holding `directory` (physical path), as the git calls below will
    see it; kept per directory for the run (prefetch clears it)."""
    return find_toplevel(directory, for_git=True)


class IgnoredFiles:
    """Which files git ignores, asked once per repository for every file of a run.

    A hook gets hundreds of files; one `git check-ignore` each would cost more than
    checking them. `prefetch` asks for all of them through one `--stdin` call per work
    tree; `ignored` answers from that (or asks for one file it was not told about).
    """

    def __init__(self) -> None:
        self._known: dict[tuple[str, bool], bool | None] = {}

    @staticmethod
    def _where(path: str) -> tuple[str | None, str]:
        directory = os.path.realpath(os.path.dirname(os.path.abspath(path)))
        root = git_root(directory)
        full = os.path.join(directory, os.path.basename(path))
        return root, (os.path.relpath(full, root) if root else full)

    def prefetch(self, paths: list[str], no_index: bool) -> None:
        by_root: dict[str, list[tuple[str, str]]] = {}
        for path in paths:
            root, rel = self._where(path)
            if root is None:
                self._known[(path, no_index)] = None
            else:
                by_root.setdefault(root, []).append((path, rel))
        for root, items in by_root.items():
            args = ["check-ignore", "--stdin", "-z"] + (["--no-index"] if no_index else [])
            stdin = "".join(rel + "\0" for _, rel in items)
            proc = _git(root, *args, stdin=stdin)
            if proc is None or proc.returncode not in (0, 1):
                answer: set[str] | None = None  # git could not say: report nothing
            else:
                answer = set(proc.stdout.split("\0"))
            for path, rel in items:
                self._known[(path, no_index)] = None if answer is None else rel in answer

    def clear(self) -> None:
        self._known.clear()

    def ignored(self, path: str, no_index: bool) -> bool | None:
        if (path, no_index) not in self._known:
            self.prefetch([path], no_index)
        return self._known[(path, no_index)]


IGNORED = IgnoredFiles()


def must_be_ignored(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    if IGNORED.ignored(ctx.path, no_index=False) is False:
        yield (
            None,
            "is not git-ignored (or is tracked): session files are local state and must never be committed",
        )


def checkpoints_tracked(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    if IGNORED.ignored(ctx.path, no_index=True):
        yield (
            None,
            "is git-ignored: .checkpoints/ must be tracked so checkpoints survive across machines",
        )


def prefetch(checks: dict[str, list[str]]) -> None:
    """Ask git about every file the path rules will look at, in one go per rule.

    Called at the start of each run, so answers never outlive the run that asked.
    """
    IGNORED.clear()
    git_root.cache_clear()
    if checks.get("must-be-ignored"):
        IGNORED.prefetch(checks["must-be-ignored"], no_index=False)
    if checks.get("checkpoints-tracked"):
        IGNORED.prefetch(checks["checkpoints-tracked"], no_index=True)


def _dir(ctx: Context) -> str:
    return os.path.dirname(os.path.abspath(ctx.path))


def _project_root(ctx: Context) -> str:
    # .checkpoints/<skill>.checkpoint.json -> the project directory above .checkpoints/
    return os.path.dirname(_dir(ctx))


def generated_files_exist(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    root = _project_root(ctx)
    for i, name in _generated(ctx):
        if not os.path.exists(os.path.join(root, name)):
            yield (
                ("context_primer", "generated_files", i),
                f"generated file {name!r} does not exist",
            )


def _generated(ctx: Context) -> list[tuple[int, str]]:
    """(index, path) of each relative path in context_primer.generated_files, a note
    after the path left out."""
    primer = ctx.data.get("context_primer") if isinstance(ctx.data, dict) else None
    files = primer.get("generated_files") if isinstance(primer, dict) else None
    if not isinstance(files, list):
        return []
    root = _project_root(ctx)
    return [
        (i, entry_path(name.strip(), root))
        for i, name in enumerate(files)
        if isinstance(name, str) and name.strip() and not os.path.isabs(name.strip())
    ]


def _changed_since(root: str, own: str, paths: list[str], since: float) -> dict[str, str]:
    """path -> how git shows it changed after `since` (a POSIX time): a commit authored
    later that does not also change the checkpoint `own` (the commit that recorded the
    session is not drift), or, while the checkpoint itself is as committed, changes not
    committed yet. Paths are relative to the work tree `root`."""
    import time

    after = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(since - 86400))  # committer >= author
    log = _git(
        root,
        "-c",
        "core.quotePath=false",
        "--literal-pathspecs",
        "log",
        "--no-merges",
        f"--since={after}",
        "--format=%x1e%h%x1f%at%x1f%as",
        "--name-only",
        "--",
        own,
        *paths,
    )
    found: dict[str, str] = {}
    if log is None or log.returncode != 0:
        return found
    for record in log.stdout.split("\x1e")[1:]:
        head, _, names = record.partition("\n")
        short, stamp, day = [*head.split("\x1f"), "", "", ""][:3]
        touched = [n for n in names.splitlines() if n]
        if not stamp.isdigit() or int(stamp) <= since or own in touched:
            continue
        for name in touched:
            found.setdefault(name, f"in commit {short} of {day}")
    status = _git(root, "--literal-pathspecs", "status", "--porcelain", "-z", "--", own, *paths)
    if status is None or status.returncode != 0:
        return found
    entries = [e for e in status.stdout.split("\0") if len(e) > 3 and e[2] == " "]
    if own not in [e[3:] for e in entries]:
        for entry in entries:
            if not entry.startswith("??"):  # never committed: not a change since
                found.setdefault(entry[3:], "in changes not committed yet")
    return found


def generated_files_changed(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    """The protocol's "modified since the last session", read from git history."""
    stamp = parse_time(ctx.data.get("updated_at")) if isinstance(ctx.data, dict) else None
    entries = _generated(ctx)
    if stamp is None or not entries:
        return
    root = git_root(os.path.realpath(_dir(ctx)))
    if root is None:
        return
    project = os.path.realpath(_project_root(ctx))
    rels: dict[str, list[tuple[int, str]]] = {}
    for i, name in entries:
        full = os.path.normpath(os.path.join(project, name))
        rel = os.path.relpath(full, root)
        # a file that is gone is generated-files-exist's to report
        if rel != ".." and not rel.startswith(".." + os.sep) and os.path.lexists(full):
            rels.setdefault(rel.replace(os.sep, "/"), []).append((i, name))
    own = os.path.relpath(os.path.realpath(ctx.path), root).replace(os.sep, "/")
    if not rels or own.startswith(".."):
        return
    changed = _changed_since(root, own, sorted(rels), stamp.timestamp())
    for rel, how in changed.items():
        for i, name in rels.get(rel, []):
            yield (
                ("context_primer", "generated_files", i),
                f"generated file {name!r} changed after the checkpoint's updated_at ({how})",
            )


def stale_checkpoint(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    if not isinstance(ctx.data, dict) or ctx.data.get("status") != "in_progress":
        return
    stamp = parse_time(ctx.data.get("updated_at"))
    if stamp is None:
        return
    days = opts.get("days", 7)
    age = datetime.datetime.now(datetime.timezone.utc) - stamp
    if age > datetime.timedelta(days=days):
        yield (
            ("updated_at",),
            f"in_progress but last updated {age.days} days ago (stale after {days})",
        )


_TICKET = re.compile(r"\b([A-Z][A-Z0-9]{1,9}-[0-9]+)\b")
_CLOSES = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)\b", re.I)


@lru_cache(maxsize=8)
def merged_refs(root: str) -> frozenset[str]:
    """What the branch's history shows as merged: PR numbers (`12`) and ticket ids
    (`PLAT-4471`, `#14` closed by a commit).

    A PR is merged when a merge commit says `Merge pull request #N` or a squash merge's
    subject ends in `(#N)`. A ticket is merged when a merge (a merge commit or a squash
    merge) names it, or any commit closes it (`Fixes #14`, `closes #14`). A commit that
    only mentions a ticket ("PLAT-1: first half") does not make it merged.
    """
    proc = _git(root, "log", "--format=%P%x1f%s%x1f%b%x1e", "-n", "5000")
    if proc is None or proc.returncode != 0:
        return frozenset()
    refs: set[str] = set()
    for record in proc.stdout.split("\x1e"):
        parts = record.strip("\n").split("\x1f")
        if len(parts) < 3:
            continue
        parents, subject, body = parts[0], parts[1], parts[2]
        m = re.match(r"Merge pull request #(\d+)", subject)
        if m:
            refs.add(m.group(1))
        squash = re.findall(r"\(#(\d+)\)\s*$", subject)
        refs.update(squash)
        if m or squash or len(parents.split()) > 1:
            refs.update(_TICKET.findall(subject))
            refs.update(_TICKET.findall(body))
        refs.update(f"#{n}" for n in _CLOSES.findall(subject + "\n" + body))
    return frozenset(refs)


def _action_refs(text: str) -> list[tuple[str, str]]:
    """(key in merged_refs, how to name it) for each PR, issue or ticket `text` names."""
    found = []
    for number in _PR_REF.findall(text):
        found.append((number, f"#{number}"))
        found.append((f"#{number}", f"#{number}"))
    found.extend((ticket, ticket) for ticket in _TICKET.findall(text))
    return found


def next_action_merged(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    actions = ctx.data.get("next_actions") if isinstance(ctx.data, dict) else None
    if not isinstance(actions, list):
        return
    root = git_root(os.path.realpath(_dir(ctx)))
    if root is None:
        return
    merged = merged_refs(root)
    for i, action in enumerate(actions):
        text = action.get("text") if isinstance(action, dict) else action
        if not isinstance(text, str):
            continue
        for key, name in _action_refs(text):
            if key in merged:
                what = "closed" if key.startswith("#") else "merged"
                yield (
                    ("next_actions", i),
                    f"points at {name}, which git log shows as {what} already",
                )
                break


def project_dir_exists(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    """The OC protocol's doctor: a project_dir that does not exist on this machine."""
    value = ctx.data.get("project_dir") if isinstance(ctx.data, dict) else None
    if not isinstance(value, str) or not value:
        return
    if not os.path.isabs(value):
        yield ("project_dir",), f"project_dir {value!r} is not an absolute path"
    elif not os.path.isdir(value):
        yield ("project_dir",), f"project_dir {value!r} does not exist on this machine"


RULES = {
    "must-be-ignored": must_be_ignored,
    "checkpoints-tracked": checkpoints_tracked,
    "generated-files-exist": generated_files_exist,
    "stale-checkpoint": stale_checkpoint,
    "next-action-merged": next_action_merged,
    "project-dir-exists": project_dir_exists,
    "generated-files-changed": generated_files_changed,
}
