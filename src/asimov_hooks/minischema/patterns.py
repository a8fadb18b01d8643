"""A schema's `pattern`s: compiled once, and searched under a wall-clock bound when
they come from a repository's own schema (a catastrophic pattern must not hang a commit).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    import re
    from collections.abc import Callable
    from typing import Any


_COMPILED: dict[str, re.Pattern[str]] = {}  # (functools.lru_cache: one more import per hook)


def _regex(pattern: str) -> re.Pattern[str]:
    found = _COMPILED.get(pattern)
    if found is None:
        import re  # only a schema with a `pattern` loads it

        if len(_COMPILED) >= 256:
            _COMPILED.clear()
        found = _COMPILED[pattern] = re.compile(pattern)
    return found


class PatternTimeout(Exception):
    """A user's `pattern` ran longer than its time bound on one value."""

    def __init__(self, pattern: str, seconds: float) -> None:
        super().__init__(pattern)
        self.pattern, self.seconds = pattern, seconds


def _timed(pattern: str, seconds: float) -> Callable[[str], Any]:
    """`re.search` with a wall-clock bound (SIGALRM; `re` checks for signals as it
    backtracks), for patterns from a repository's own schema: `(a+)+$` on a long value
    would otherwise run for hours. Outside the main thread the search is unbounded."""
    import signal
    import threading

    search = _regex(pattern).search

    def timeout(signum: int, frame: Any) -> None:
        raise PatternTimeout(pattern, seconds)

    def run(text: str) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return search(text)  # signals reach the main thread only
        previous = signal.signal(signal.SIGALRM, timeout)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return search(text)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    return run


def _timed_call(call: Callable[[], Any], seconds: float) -> Any:
    """`call()` under the same SIGALRM bound as a user's pattern (main thread only)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return call()

    def timeout(signum: int, frame: Any) -> None:
        raise PatternTimeout("(jsonschema keywords)", seconds)

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
