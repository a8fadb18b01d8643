"""A trim before the write, held until the write has landed: the archive gains only
what actually left the file.

The hook before a write hands the agent a changed input that leaves the trimmed
content (`pretrim`), but it cannot know whether the write will happen: the user's
permission rules, a permission mode that refuses edits (plan, or a headless session
with no rule allowing the tool), the user's own answer, or another hook may still
refuse it. So nothing is archived then. What the write would have left and the
trimmed content are kept beside the turn state (one record per file, in the state
directory's `trims/`), and the hook after the write, which the agent runs only for a
write that happened, compares the file on disk with the trimmed content: when they
are the same, the items the trim cut are appended to the archive, once (the record is
claimed under a lock and removed). A refused write leaves a record that nothing
claims: the next write of that file replaces it, and a record older than a day is
dropped unread.

Where the archive cannot be written after all (it changed in between), the file gets
back what the model's write would have left, so nothing is lost, and the trim after
the write says why it cannot trim it.
"""

from __future__ import annotations

import os
import time

from ...fs.access import FileProblem

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from ...validation.config import Config
    from .model import Event
    from .pretrim import Cut

DIR_NAME = "trims"
TTL = 24 * 3600  # a record no write claimed within a day: its write did not happen
MAX_BYTES = 64 * 1024 * 1024  # two copies of a checkpoint within its byte limit


def _record_path(event: Event, path: str) -> str:
    import hashlib

    from .turnlog import state_dir

    name = hashlib.sha256(os.fsencode(path)).hexdigest()[:32] + ".json"
    return os.path.join(state_dir(event.turns), DIR_NAME, name)


def hold(event: Event, cut: Cut) -> bool:
    """Keep what the archive gains once the write of `cut` lands; False (nothing kept)
    when the archive would refuse it, or the state directory cannot be used: the write
    is then not rewritten, and the file is trimmed right after it instead."""
    if _archive_refuses(cut):
        return False
    import json

    from ...fs.access import atomic_write, make_dirs
    from .turnlog import StateError

    record = {
        "path": cut.path,
        "session": event.session,
        "tool_use": event.tool_use,
        "after": cut.after,
        "text": cut.text,
        "at": time.time(),
    }
    try:
        target = _record_path(event, cut.path)
        # the state directory is the git directory's (walked from it), or one of ours
        # outside every work tree (an override, the user's state directory)
        make_dirs(os.path.dirname(target), git_internal=True)
        data = json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogatepass")
        atomic_write(target, data, mode=0o600, git_internal=True)
    except (OSError, FileProblem, StateError, UnicodeError):
        return False
    return True


def _archive_refuses(cut: Cut) -> bool:
    """Whether appending the cut items to the archive would fail now (nothing written)."""
    from ...trim import archive as trim_archive
    from ...trim.settings import Settings
    from ...trim.trimmer import Outcome, _archive
    from ...validation.config import ConfigError

    settings = Settings.from_config(cut.config)
    if not settings.archive:
        return False
    try:
        target = trim_archive.archive_target(cut.path, settings)
    except ConfigError:
        return True
    newline = "\r\n" if "\r\n" in cut.after else "\n"
    root = None if settings.archive_file else trim_archive.root_of(cut.path)
    outcome = Outcome(cut.path)
    return _archive(outcome, cut.result, cut.config, newline, target, True, root) is not None


def release(event: Event, path: str, config: Config, kind: str, rel: str) -> str | None:
    """After a write of `path`: when a trim was held for it and the file holds the
    trimmed content, archive what the trim cut and say so; None otherwise."""
    target = _record_path(event, path)
    if not os.path.lexists(target):
        return None
    record = _claim(event, target)
    if record is None or record.get("path") != path:
        return None
    after, text = record.get("after"), record.get("text")
    if not isinstance(after, str) or not isinstance(text, str):
        return None
    from ...fs.access import DEFAULT_MAX_BYTES, read_bytes

    try:
        landed = read_bytes(path, DEFAULT_MAX_BYTES, root=event.project, bound="resource bound")
    except FileProblem:  # not a file any more: the trim after the write says why
        return None
    # (a tool may give the text the line ends of the file it replaces)
    if landed.replace(b"\r\n", b"\n") != text.encode("utf-8", "surrogatepass").replace(
        b"\r\n", b"\n"
    ):
        return None  # not the trimmed write: the trim after the write judges what is there
    from .pretrim import archive, plan

    cut = plan(path, config, kind, rel, None, after)
    messages = archive(cut) if cut is not None and cut.text == text else None
    if messages is None:
        _restore(path, event.project, after, text)
        return None
    return (
        f"asimov-hooks trimmed your {event.tool} of {rel} before it was written "
        f"(ADR-007 rolling window): {'; '.join(messages)}. The file holds the trimmed "
        "content: read it again before editing it."
    )


def _claim(event: Event, target: str) -> dict[str, object] | None:
    """The record, removed under the lock so that one hook alone archives it; None
    when it is gone, unreadable, expired, or another tool call's."""
    import json

    from ...fs.access import locked, read_bytes, remove

    with locked(target):
        try:
            raw = read_bytes(target, MAX_BYTES, git_internal=True)
        except FileProblem:
            return None
        try:
            record = json.loads(raw.decode("utf-8", "surrogatepass"))
        except (ValueError, UnicodeError):
            record = None
        if isinstance(record, dict):
            held_by, ours = record.get("tool_use"), event.tool_use
            if held_by and ours and held_by != ours:
                return None  # another call's write of this file: it claims it itself
        try:
            remove(target, git_internal=True)
        except (OSError, FileProblem):
            return None
    if not isinstance(record, dict):
        return None
    at = record.get("at")
    if not isinstance(at, (int, float)) or not 0 <= time.time() - at < TTL:
        return None
    return record


def _restore(path: str, project: str, after: str, text: str) -> None:
    """The archive refused the cut items after all: the file gets back what the
    model's write would have left (only if it still holds the trimmed content)."""
    from ...fs.access import atomic_write

    try:
        atomic_write(path, after.encode("utf-8"), root=project, expect=text.encode("utf-8"))
    except (OSError, FileProblem, UnicodeError) as exc:
        from .common import warn

        warn(f"{path}: the trimmed items could not be archived nor the write undone: {exc}")
