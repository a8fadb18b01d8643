"""Drift between checkpoints and the repository they describe (the seed's `doctor`).

A checkpoint that points at missing files, at work already merged, or that git does
not track, misleads the next session that resumes from it.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from .engine import Context

_PR_REF = re.compile(r"(?:PR\s*#?|pull/|#)(\d+)\b", re.I)


def _git(cwd: str, *args: str) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(
            ["git", "-C", cwd, *args], capture_output=True, text=True, check=False
        )
    except OSError:
        return None


@lru_cache(maxsize=32)
def git_root(directory: str) -> str | None:
    proc = _git(directory, "rev-parse", "--show-toplevel")
    return proc.stdout.strip() if proc and proc.returncode == 0 else None


def _dir(ctx: Context) -> str:
    return os.path.dirname(os.path.abspath(ctx.path))


def must_be_ignored(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    directory = _dir(ctx)
    if git_root(directory) is None:
        return
    proc = _git(directory, "check-ignore", "-q", os.path.basename(ctx.path))
    if proc is not None and proc.returncode == 1:
        yield (
            None,
            "is not git-ignored (or is tracked): session files are local state and must never be committed",
        )


def checkpoints_tracked(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    directory = _dir(ctx)
    if git_root(directory) is None:
        return
    proc = _git(directory, "check-ignore", "-q", "--no-index", os.path.basename(ctx.path))
    if proc is not None and proc.returncode == 0:
        yield (
            None,
            "is git-ignored: .checkpoints/ must be tracked so checkpoints survive across machines",
        )


def _project_root(ctx: Context) -> str:
    # .checkpoints/<skill>.checkpoint.json -> the project directory above .checkpoints/
    return os.path.dirname(_dir(ctx))


def generated_files_exist(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    primer = ctx.data.get("context_primer") if isinstance(ctx.data, dict) else None
    files = primer.get("generated_files") if isinstance(primer, dict) else None
    if not isinstance(files, list):
        return
    root = _project_root(ctx)
    for i, name in enumerate(files):
        if (
            isinstance(name, str)
            and name
            and not os.path.isabs(name)
            and not os.path.exists(os.path.join(root, name))
        ):
            yield (
                ("context_primer", "generated_files", i),
                f"generated file {name!r} does not exist",
            )


def parse_time(value: Any) -> datetime.datetime | None:
    """A timestamp as an aware datetime (naive ones are taken as UTC), or None."""
    from .merge_core import parse_timestamp

    stamp = parse_timestamp(value)
    if stamp is not None and stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=datetime.timezone.utc)
    return stamp


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


@lru_cache(maxsize=8)
def _merged_refs(root: str) -> frozenset[str]:
    proc = _git(root, "log", "--format=%s", "-n", "5000")
    if proc is None or proc.returncode != 0:
        return frozenset()
    refs: set[str] = set()
    for subject in proc.stdout.splitlines():
        m = re.match(r"Merge pull request #(\d+)", subject)
        if m:
            refs.add(m.group(1))
        refs.update(re.findall(r"\(#(\d+)\)\s*$", subject))
    return frozenset(refs)


def next_action_merged(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[tuple, str]]:
    actions = ctx.data.get("next_actions") if isinstance(ctx.data, dict) else None
    if not isinstance(actions, list):
        return
    root = git_root(_dir(ctx))
    if root is None:
        return
    merged = _merged_refs(root)
    for i, action in enumerate(actions):
        text = action.get("text") if isinstance(action, dict) else action
        if not isinstance(text, str):
            continue
        for number in _PR_REF.findall(text):
            if number in merged:
                yield (
                    ("next_actions", i),
                    f"points at #{number}, which git log shows as merged already",
                )
                break


RULES = {
    "must-be-ignored": must_be_ignored,
    "checkpoints-tracked": checkpoints_tracked,
    "generated-files-exist": generated_files_exist,
    "stale-checkpoint": stale_checkpoint,
    "next-action-merged": next_action_merged,
}
