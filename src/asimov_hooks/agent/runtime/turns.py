"""The unified turn timer at the agent's turn boundaries, and the re-read after a
restart (the checkpoint-injection design, ADR-007's self-healing re-read).

- prompt: a real prompt starts a turn (`last_message_sent_at = now`) and clears the
  turn's checkpoint; the checkpoint message itself, coming back as a prompt, changes
  nothing (checkpoint messages are invisible to session state), and neither does an
  empty or missing prompt: no one typed it (Qwen Code fires its prompt hook with an
  empty prompt for each tool result it sends back to the model, in the middle of a
  turn).
- stop: turn_start = max(last_message_sent_at, last_checkpoint_at); when the agent
  stops `turn-threshold` seconds or more after it, the stop is blocked once with the
  checkpoint message and `last_checkpoint_at = now`. The timer is the loop guard: a
  quick answer to the request is never asked again, while the threshold of work
  after it is (a stop the request itself continued is judged like any other). An
  adapter may cap the requests that follow one real prompt (`Event.cap`; Cursor).
- session_start after a compaction, resume or fork: the checkpoint is re-read for the
  agent, followed by the checkpoint message, so that it validates and writes a fresh
  one; with no checkpoint yet, the message alone asks for one. That counts as a
  checkpoint delivered (`last_checkpoint_at = now`).

After a compaction no session start followed (`compaction`): the next prompt hands
the checkpoint back, once; where the agent's prompt hook cannot add context, the next
stop asks for a fresh checkpoint whatever the timer says.

A repository that uses no checkpoint protocol is never asked.
"""

from __future__ import annotations

import time

from . import protocols
from .common import open_store, project_config, session_of, warn
from .model import COMPACT, RESTART_SOURCES, Answer
from .payload import EventError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from .model import Event


def prompt(event: Event) -> Answer | None:
    from .turnlog import PROMPT, StateError, append

    session = session_of(event)
    if event.prompt is None or not event.prompt.strip():
        return None  # nothing typed: a tool result going back to the model, not a turn
    handed = _handback(event)  # the re-read no session start gave after a compaction
    _config, settings = project_config(event)
    if protocols.is_checkpoint_message(event.prompt, settings):
        return handed  # checkpoint messages are invisible to session state
    try:  # a record beside the turn state, folded in by the next event that reads it
        append(PROMPT, session, event.turns, time.time())
    except StateError as exc:
        raise EventError(str(exc)) from None
    return handed


def _handback(event: Event) -> Answer | None:
    from . import compaction

    if not compaction.claim(event, compaction.PROMPT):
        return None
    event.source = COMPACT
    return session_start(event)


def stop(event: Event) -> Answer | None:
    from .state import StateError

    session = session_of(event)
    _settle_trims(event)
    if event.aborted:
        return None  # the user ended the turn: a continuation would override them
    config, settings = project_config(event)
    threshold = settings["turn-threshold"]
    from . import compaction

    if compaction.claim(event, compaction.STOP):  # compacted, and nothing can hand it back
        used = protocols.used(config, settings, event.project)
        if used:
            _delivered(event)
            reason = protocols.message(config, settings, event.project, used)
            return Answer("block", reason=f"The conversation was compacted. {reason}")
    try:
        with open_store(event.turns) as store:
            # most stops end a quick turn: told from the state alone, before asking git
            # which protocols the repository uses; the decision itself is made again,
            # and recorded, in one transaction
            start = store.turn_start(session, event.turns)
            if start is None or time.time() - start < threshold:
                return None
            used = protocols.used(config, settings, event.project)
            if not used:
                return None
            due = store.checkpoint_due(session, event.turns, time.time(), threshold, event.cap)
    except StateError as exc:
        raise EventError(str(exc)) from None
    if not due:
        return None
    return Answer("block", reason=protocols.message(config, settings, event.project, used))


def _settle_trims(event: Event) -> None:
    """The trims held before this turn's writes (`held`): archived where the write
    happened with no hook after it, dropped where it was refused."""
    from ...config.config import ConfigError
    from .held import sweep
    from .turnlog import StateError

    try:
        sweep(event)
    except (StateError, OSError, EventError, ConfigError) as exc:
        warn(f"the trims held before this turn's writes were not settled: {exc}")


def _delivered(event: Event) -> None:
    from .state import StateError

    try:
        with open_store(event.turns) as store:
            store.checkpoint_delivered(session_of(event), event.turns, time.time())
    except (StateError, EventError) as exc:
        warn(f"the checkpoint request was not recorded: {exc}")


def session_start(event: Event) -> Answer | None:
    if event.source not in RESTART_SOURCES:
        return None
    from .compaction import drop, sweep

    drop(event)  # the re-read is given here, not at the next prompt
    sweep(event)
    config, settings = project_config(event)
    top = event.project
    used = protocols.used(config, settings, top)
    if not used:
        warn(f"no checkpoint protocol in use in {top}; nothing re-injected")
        return None
    from .reread import reread

    parts, notes, found, ask = reread(config, settings, top, used)
    request = protocols.message(config, settings, top, used)
    if found:
        how = (
            "where it says to stop and ask the user, do that before any work on it"
            if ask
            else "continue the task from it"
        )
        context = (
            f"Session {event.source}: your checkpoint, re-read for you (ADR-007 self-healing "
            f"re-read). It says where the work stood; {how}.\n"
        )
    elif notes:  # there is one, but it was refused (a link out, a special file...)
        context = (
            f"Session {event.source}: the checkpoint was refused and not re-read; "
            "the reason is below."
        )
    else:
        context = f"Session {event.source}: there is no checkpoint yet in this repository.\n"
    context += "\n".join(parts)
    if notes:
        context += "\n" + "\n".join(notes)
    context += "\n\n" + request
    if event.session is not None:
        from .state import StateError

        try:
            with open_store(event.turns) as store:
                store.checkpoint_delivered(event.session, event.turns, time.time())
        except (StateError, EventError) as exc:  # the re-read matters more than the record
            warn(f"the checkpoint request was not recorded: {exc}")
    return Answer(context=context)
