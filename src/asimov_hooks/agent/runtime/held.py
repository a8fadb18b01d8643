"""A trim before the write, held until the write has happened: the archive gains only
what actually left the file.

The hook before a write hands the agent a changed input that leaves the trimmed
content (`pretrim`), but it cannot know whether the write will happen: the user's
permission rules, a permission mode that refuses edits (plan, or a headless session
with no rule allowing the tool), the user's own answer, or another hook may still
refuse it. So nothing is archived then. What the write would have left and the
trimmed content are kept beside the turn state (one record per file, in the state
directory's `trims/`), and the hook after the write, which the agent runs only for a
write that happened, compares the file on disk with the trimmed content: when they
are the same (and the file held something else before), the items the trim cut are
appended to the archive, once (the record is claimed under a lock and removed). An
agent that runs no hook after some writes (Codex CLI after a patch it runs from a
shell command) has its records settled at the end of the turn (`sweep`, at the stop)
or by the next trim of the same file (`hold`), by the same comparison. A refused
write leaves a record that nothing claims: the stop of its turn drops it, and a
record older than a day is dropped unread.

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
    from collections.abc import Callable

    from ...config.config import Config
    from .model import Event
    from .pretrim import Cut

DIR_NAME = "trims"
TTL = 24 * 3600  # a record no write claimed within a day: its write did not happen
MAX_BYTES = 64 * 1024 * 1024  # two copies of a checkpoint within its byte limit

Record = dict[str, object]


def _trims_dir(event: Event) -> str:
    from .turnlog import state_dir

    return os.path.join(state_dir(event.turns), DIR_NAME)


def _record_path(event: Event, path: str) -> str:
    from .turnlog import keyed_path

    return keyed_path(event.turns, DIR_NAME, path, ".json")


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
        "before": cut.before,
        "after": cut.after,
        "text": cut.text,
        "at": time.time(),
    }
    try:
        target = _record_path(event, cut.path)
        if os.path.lexists(target):  # an earlier trim of this file that no hook settled
            _settle(event, target, lambda held: _landed(held, event.project))
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
    from ...config.config import ConfigError
    from .pretrim import append_cut

    try:
        done = append_cut(cut, dry_run=True)
    except ConfigError:
        return True
    return done is not None and done[1] is not None


def release(event: Event, path: str, config: Config, kind: str, rel: str) -> str | None:
    """After a write of `path`: when a trim was held for it and the file holds the
    trimmed content, archive what the trim cut and say so; None otherwise."""
    try:  # no trim held anywhere (the common case): no record name to work out
        if not os.listdir(_trims_dir(event)):
            return None
    except OSError:
        return None
    target = _record_path(event, path)
    if not os.path.lexists(target):
        return None

    def ours(record: Record) -> bool | None:
        held_by, call = record.get("tool_use"), event.tool_use
        if held_by and call and held_by != call:
            return None  # another call's write of this file: its own hook settles it
        return _landed(record, event.project)

    messages = _settle(event, target, ours, (config, kind, rel))
    if messages is None:
        return None
    return (
        f"asimov-hooks trimmed your {event.tool} of {rel} before it was written "
        f"(ADR-007 rolling window): {'; '.join(messages)}. The file holds the trimmed "
        "content: read it again before editing it."
    )


def sweep(event: Event) -> None:
    """At the end of a turn: archive the held trims whose write happened without a hook
    after it, and drop the others of the same session (refused writes). Another session's
    record whose write has not happened is left alone: that write may be under way."""
    directory = _trims_dir(event)
    if not os.path.isdir(directory):
        return

    def settled(record: Record) -> bool | None:
        if _landed(record, event.project):
            return True
        return False if record.get("session") == event.session else None

    for name in sorted(os.listdir(directory)):
        if name.endswith(".json"):
            _settle(event, os.path.join(directory, name), settled)


def _landed(record: Record, project: str) -> bool:
    """Whether the file holds the record's trimmed content, and held something else
    when the trim was held (a write that changed nothing moved nothing out of it)."""
    from ...fs.access import DEFAULT_MAX_BYTES, read_bytes

    path, text, before = record.get("path"), record.get("text"), record.get("before")
    if not isinstance(path, str) or not isinstance(text, str):
        return False
    try:
        landed = read_bytes(path, DEFAULT_MAX_BYTES, root=project, bound="resource bound")
    except FileProblem:  # no file, or not one any more
        return False

    def plain(data: bytes) -> bytes:  # a tool may give the text the file's line ends
        return data.replace(b"\r\n", b"\n")

    wanted = plain(text.encode("utf-8", "surrogatepass"))
    if before is not None and plain(str(before).encode("utf-8", "surrogatepass")) == wanted:
        return False
    return plain(landed) == wanted


def _settle(
    event: Event,
    target: str,
    decide: Callable[[Record], bool | None],
    found: tuple[Config, str, str] | None = None,
) -> list[str] | None:
    """Under the lock, the record at `target` is decided: True (its write happened:
    archived, and what was done returned), False (dropped), None (left for later).
    An unreadable or expired record is dropped."""
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
        at = record.get("at") if isinstance(record, dict) else None
        fresh = isinstance(at, (int, float)) and 0 <= time.time() - at < TTL
        verdict = decide(record) if fresh and isinstance(record, dict) else False
        if verdict is None:
            return None
        try:
            remove(target, git_internal=True)
        except (OSError, FileProblem):
            return None
        if not verdict or not isinstance(record, dict):
            return None
        return _archive_record(event, record, found)


def _archive_record(
    event: Event, record: Record, found: tuple[Config, str, str] | None
) -> list[str] | None:
    """Append what the held trim cut to the archive (what was done); where the archive
    refuses it now, the file gets back what the model's write would have left."""
    from .pretrim import archive, plan

    path, after, text = record.get("path"), record.get("after"), record.get("text")
    if not isinstance(path, str) or not isinstance(after, str) or not isinstance(text, str):
        return None
    if found is None:
        from .common import protocol_file

        found = protocol_file(path, event.project)
        if found is None:
            return None
    cut = plan(path, *found, None, after)
    messages = archive(cut) if cut is not None and cut.text == text else None
    if messages is None:
        _restore(path, event.project, after, text)
    return messages


def _restore(path: str, project: str, after: str, text: str) -> None:
    """The archive refused the cut items after all: the file gets back what the
    model's write would have left (only if it still holds the trimmed content)."""
    from ...fs.access import atomic_write

    try:
        atomic_write(path, after.encode("utf-8"), root=project, expect=text.encode("utf-8"))
    except (OSError, FileProblem, UnicodeError) as exc:
        from .common import warn

        warn(f"{path}: the trimmed items could not be archived nor the write undone: {exc}")
