"""Before a compaction: keep what the checkpoint does not hold yet, and make sure the
checkpoint comes back after it (ADR-007's self-healing re-read), as far as each agent's
contract allows.

- pre_compact: where the agent hands a hook's words to the summary (Claude Code's
  PreCompact stdout becomes the summary's custom instructions; Qwen Code's
  additionalContext goes in before the compaction), they ask the summary to keep what
  the work since the last checkpoint changed, decided and left in progress, so that a
  fresh checkpoint can be written from it (`agent.compact-message`). Every agent's
  compaction is recorded for the session (one small file in the state directory).
- The record is for an agent that gives the re-read no session start after the
  compaction (Gemini CLI fires none; a Qwen Code that fires none): the next prompt hook
  hands the checkpoint back, once (`turns.prompt`); a session start after the
  compaction gives it itself and drops the record (`turns.session_start`). Where no
  prompt hook can add context (Copilot CLI), the next stop asks for a fresh
  checkpoint instead, whatever the turn timer says (`turns.stop`).
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from .model import Answer, Event

DIR_NAME = "compactions"
TTL = 7 * 24 * 3600  # a record no later event claimed within a week is dropped
PROMPT, STOP = "prompt", "stop"
# a session start after a compaction whose answer reaches the model only where the agent
# fired a pre-compaction hook first (Qwen Code: the versions that drop it have none)
UNLESS_PRE_COMPACT = "unless-pre-compact"


def pre_compact(event: Event) -> Answer | None:
    from . import protocols
    from .common import project_config, warn
    from .model import Answer

    if event.handback is None:
        return None  # the event does not say a compaction happens (Gemini CLI's `auto`)
    config, settings = project_config(event)
    used = protocols.used(config, settings, event.project)
    if not used:
        return None
    if event.session is not None:
        try:
            record(event, event.handback)
        except OSError as exc:
            warn(f"the compaction was not recorded: {exc}")
    texts = settings["checkpoint-files"]
    files = " and ".join(texts[p] for p in used if p in texts) or "your checkpoint"
    if "{path}" in files:
        files = files.replace("{path}", protocols.asimov_path(config, settings, event.project))
    text = settings["compact-message"].replace("{since}", _since(event))
    return Answer(context=text.replace("{files}", files))


def _since(event: Event) -> str:
    """When the checkpoint was last written in this session, in words."""
    from .common import open_store
    from .payload import EventError
    from .state import StateError

    if event.session is None:
        return "at an unknown time"
    try:
        with open_store(event.turns) as store:
            row = store.get(event.session, event.turns)
    except (StateError, EventError):
        return "at an unknown time"
    stamp = row.get("last_checkpoint_at") if row else None
    if not isinstance(stamp, (int, float)):
        return "before this session"
    minutes = int((time.time() - stamp) // 60)
    return "less than a minute ago" if minutes < 1 else f"{minutes} minutes ago"


def _path(event: Event) -> str:
    from .turnlog import keyed_path

    return keyed_path(event.turns, DIR_NAME, f"{event.session}\0{os.path.realpath(event.turns)}")


def record(event: Event, handback: str) -> None:
    """The session was compacted: the next `claim` of `handback` gets it."""
    from ...fs.access import FileProblem, atomic_write, make_dirs

    target = _path(event)
    try:
        make_dirs(os.path.dirname(target), git_internal=True)
        data = f"{handback}\t{time.time()!r}\n".encode()
        atomic_write(target, data, mode=0o600, git_internal=True)
    except FileProblem as exc:
        raise OSError(exc.message) from None


def claim(event: Event, handback: str) -> bool:
    """Whether the session was compacted since its checkpoint was last handed back,
    for `handback` (then the record is gone: it is handed back once)."""
    if event.session is None:
        return False
    target = _path(event)
    if not os.path.lexists(target):
        return False
    from ...fs.access import FileProblem, read_bytes, remove

    try:
        kind, _, stamp = read_bytes(target, 256, git_internal=True).decode().partition("\t")
        remove(target, git_internal=True)  # claimed: a second prompt hook finds nothing
    except (OSError, FileProblem, UnicodeDecodeError):
        return False
    try:
        fresh = time.time() - float(stamp) < TTL
    except ValueError:
        return False
    return fresh and kind == handback


def sweep(event: Event) -> None:
    """Records no event claimed within TTL (compactions, what a session was told about a
    file: `news`) are dropped, at a session start, the rare event that looks."""
    import contextlib

    from ...fs.access import FileProblem, remove
    from .turnlog import state_dir

    base = state_dir(event.turns)
    old = time.time() - TTL
    for name in (DIR_NAME, "told"):
        directory = os.path.join(base, name)
        with contextlib.suppress(OSError):
            for entry in os.listdir(directory):
                path = os.path.join(directory, entry)
                with contextlib.suppress(OSError, FileProblem):
                    if os.lstat(path).st_mtime < old:
                        remove(path, git_internal=True)


def drop(event: Event) -> None:
    """The re-read was given (a session start after the compaction); for a session start
    whose answer is dropped unless a pre-compaction hook ran first, and none did, the
    next prompt hands it back instead."""
    if event.session is None:
        return
    import contextlib

    if event.handback == UNLESS_PRE_COMPACT:
        if not claim(event, PROMPT):
            with contextlib.suppress(OSError):  # the re-read is still answered here
                record(event, PROMPT)
        return

    from ...fs.access import FileProblem, remove

    with contextlib.suppress(OSError, FileProblem):  # none there
        remove(_path(event), git_internal=True)
