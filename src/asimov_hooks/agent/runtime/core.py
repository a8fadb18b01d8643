"""The agent-neutral core of `asimov-hooks agent-event`: one normalized event in
(`agent.runtime.model.Event`, made by an adapter in `agent.agents`), one answer out
(`agent.runtime.model.Answer`, or None for nothing to say), which the adapter renders.

- pre_write / post_write: `agent.runtime.writes` (refuse what a write makes worse; trim and
  check what was written; a checkpoint write counts as the checkpoint).
- pre_shell / post_shell: `agent.runtime.shellwatch` (the protocol files' state before a
  shell command, compared after it: what it changed is trimmed, checked, reported).
- stop / prompt / session_start: `agent.runtime.turns` (the unified turn timer, the loop
  guard, the re-read and checkpoint request after a restart).
- pre_compact: `agent.runtime.compaction` (what the summary keeps, and the re-read
  handed back after the compaction where no session start does it).
"""

from __future__ import annotations

import sys

from ...config.config import ConfigError
from .model import (
    POST_SHELL,
    POST_WRITE,
    PRE_COMPACT,
    PRE_SHELL,
    PRE_WRITE,
    PROMPT,
    SESSION_START,
    STOP,
)
from .payload import EventError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from .model import Answer, Event

# the numbers-only record: loaded only once a handler notes something or an answer is given
RECORD = __name__.rpartition(".")[0] + ".record"
# (module, function) per kind: an event imports only its own handler's module
HANDLERS = {
    PRE_WRITE: ("writes", "pre_write"),
    POST_WRITE: ("writes", "post_write"),
    STOP: ("turns", "stop"),
    PROMPT: ("turns", "prompt"),
    SESSION_START: ("turns", "session_start"),
    PRE_SHELL: ("shellwatch", "pre_shell"),
    POST_SHELL: ("shellwatch", "post_shell"),
    PRE_COMPACT: ("compaction", "pre_compact"),
}


def handle(event: Event) -> Answer | None:
    """The answer for `event` (its kind must be one of model.KINDS)."""
    module, name = HANDLERS[event.kind]
    if module == "writes":
        from . import writes as handlers
    elif module == "turns":
        from . import turns as handlers
    elif module == "compaction":
        from . import compaction as handlers
    else:
        from . import shellwatch as handlers
    record = sys.modules.get(RECORD)
    if record is not None:
        record.NOTES.clear()  # nothing left from an earlier event run in this process
    try:
        answer = getattr(handlers, name)(event)
    except ConfigError as exc:
        raise EventError(f"configuration: {exc}") from None
    if answer is not None or RECORD in sys.modules:  # a handler noted something, or may say
        from .record import flush

        flush(event, answer)  # the numbers-only record for `asimov-hooks stats`: one append
    return answer
