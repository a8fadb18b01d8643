"""The local record of what the agent hooks did with protocol files: numbers only,
never a byte of any file, for `asimov-hooks stats`.

One line per thing done, in `stats.log` beside the turn state (`turnlog.state_dir`:
`.git/asimov-hooks/`), appended through `fs.journal` (one `write` under its lock) and
rotated to `stats.log.1` past ROTATE_AT bytes, so it holds two generations at most.

The handlers note what they did while they run (`note_*`); the core writes this event's
notes with one append when the handler returns (`flush`), and adds what the answer
itself says (a turn-end checkpoint request, the text given back after a restart). Off
with `agent: {stats: false}` in the repository's config: nothing is measured then.

A line: `v=1`, then tab-separated `key=value` fields, every value a number or a name
from our own vocabulary (event, agent, kind, rule ids; anything else is reduced to
`[A-Za-z0-9._-]`). The session is kept only as a checksum, to pair a request with the
checkpoint that answers it.
"""

from __future__ import annotations

import os

LOG_NAME = "stats.log"
VERSION = "1"
ROTATE_AT = 1024 * 1024  # ~8,000 records a generation; two generations kept
WRITE, PRETRIM, REFUSAL, REQUEST, REREAD = "write", "pretrim", "refusal", "request", "reread"
EVENTS = (WRITE, PRETRIM, REFUSAL, REQUEST, REREAD)
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ...config.config import Config
    from .model import Answer, Event

# this event's notes: (event, kind, fields), written by `flush`
NOTES: list[tuple[str, str, dict[str, object]]] = []


def enabled(config: Config) -> bool:
    """Whether the repository keeps the record (`agent.stats`, default true)."""
    return config.section("agent").get("stats", True) is not False


def sizes(config: Config, kind: str, text: str) -> tuple[int, int, int]:
    """(lines, characters, estimated tokens) as the checks count them for `kind`."""
    from ...measure import count_lines

    return count_lines(text), len(text), config.estimator_for(kind).estimate(text)


def _sized(prefix: str, numbers: tuple[int, int, int]) -> dict[str, object]:
    return {prefix + "l": numbers[0], prefix + "c": numbers[1], prefix + "t": numbers[2]}


def items(removed: dict[str, Any] | None) -> int:
    """How many items a trim removed (a list counts its items, a field one)."""
    return sum(len(v) if isinstance(v, list) else 1 for v in (removed or {}).values())


class Written:
    """A protocol file an agent wrote (post_write): its sizes as written, then, after
    the trim (if any), as kept."""

    __slots__ = ("config", "kind", "on", "removed", "trimmed", "written")

    def __init__(self, path: str, config: Config, kind: str, project: str) -> None:
        self.config, self.kind, self.on = config, kind, enabled(config)
        self.written: tuple[int, int, int] | None = None
        self.trimmed: str | None = None
        self.removed = 0
        if self.on:
            self.written = _file_sizes(path, config, kind, project)

    def trim(self, outcome: Any) -> None:
        """What `trim.fix_file` did to the file."""
        if self.on and outcome.written and outcome.after is not None:
            self.trimmed = outcome.after
            self.removed = items(getattr(outcome, "removed", None))

    def note(self) -> None:
        if not self.on or self.written is None:
            return
        kept = self.written
        if self.trimmed is not None:
            kept = sizes(self.config, self.kind, self.trimmed)
        fields = {**_sized("w", self.written), **_sized("k", kept)}
        fields.update(tr=int(self.trimmed is not None), ar=self.removed)
        NOTES.append((WRITE, self.kind, fields))


def _file_sizes(path: str, config: Config, kind: str, project: str) -> tuple[int, int, int] | None:
    from ...fs.access import DEFAULT_MAX_BYTES, FileProblem, read_bytes

    try:
        raw = read_bytes(path, DEFAULT_MAX_BYTES, root=project, bound="resource bound")
    except FileProblem:
        return None
    return sizes(config, kind, raw.decode("utf-8", "replace"))


def note_pretrim(config: Config, kind: str, after: str, text: str, removed: Any) -> None:
    """A write trimmed before it happened: `after` is what the agent asked for, `text`
    what the changed tool input leaves."""
    if enabled(config):
        fields = {
            **_sized("w", sizes(config, kind, after)),
            **_sized("k", sizes(config, kind, text)),
        }
        fields.update(tr=1, ar=items(removed))
        NOTES.append((PRETRIM, kind, fields))


def note_refusal(config: Config, kind: str, rules: list[str], after: str | None) -> None:
    """A write refused, by the rule ids that refused it; `after`: what it would have
    left (None when that was never worked out: a write past the byte limit)."""
    if enabled(config):
        fields: dict[str, object] = {"r": ",".join(sorted({_name(r) for r in rules}))}
        if after is not None:
            fields.update(_sized("w", sizes(config, kind, after)))
        NOTES.append((REFUSAL, kind, fields))


def _name(text: str) -> str:
    return "".join(c if c in _SAFE else "_" for c in text[:80]) or "_"


def _session(event: Event) -> str:
    import zlib

    return format(zlib.crc32((event.session or "").encode("utf-8", "replace")), "08x")


def flush(event: Event, answer: Answer | None) -> None:
    """Write this event's notes, and what its answer says (a checkpoint request at the
    end of a turn; the text given back after a restart), as one append. Never raises:
    the record must not cost the agent its answer."""
    from .model import PROMPT, RESTART_SOURCES, SESSION_START, STOP

    notes = NOTES[:]
    NOTES.clear()
    said = None
    if answer is not None and event.kind == STOP and answer.decision == "block":
        said = (REQUEST, "", {})
    elif (
        answer is not None
        and event.kind in (SESSION_START, PROMPT)  # at a prompt: after a compaction no
        and event.source in RESTART_SOURCES  # session start reported (Gemini CLI, Qwen Code)
    ):
        from ...measure import count_lines

        context = answer.context
        said = (REREAD, "", {"src": _name(event.source or ""), "l": count_lines(context)})
        said[2].update(c=len(context))
    if said is not None:
        try:
            from .common import project_config

            config = project_config(event)[0]
        except Exception:  # a broken config is the handler's to report
            config = None
        if config is not None and enabled(config):
            if said[0] == REREAD:
                said[2]["tk"] = config.estimator.estimate(answer.context if answer else "")
            notes.append(said)
    if not notes:
        return
    import time

    head = f"v={VERSION}\tt={time.time():.3f}\ta={_name(event.agent)}\ts={_session(event)}"
    lines = []
    for name, kind, fields in notes:
        rest = "".join(f"\t{key}={value}" for key, value in fields.items())
        lines.append(f"{head}\te={name}\tk={_name(kind) if kind else '-'}{rest}\n")
    try:
        from ...fs.journal import append
        from .turnlog import state_dir

        path = os.path.join(state_dir(event.turns), LOG_NAME)
        append(path, "".join(lines).encode("ascii"), rotate_at=ROTATE_AT)
    except (OSError, UnicodeError) as exc:
        from .common import warn

        warn(f"the stats record was not written: {exc}")


def parse(line: bytes) -> dict[str, Any] | None:
    """One record as a mapping (numbers as numbers); None for a line that is not one."""
    try:
        fields = dict(part.split("=", 1) for part in line.decode("ascii").split("\t"))
    except (UnicodeDecodeError, ValueError):
        return None
    if fields.get("v") != VERSION or fields.get("e") not in EVENTS:
        return None
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key in ("a", "s", "e", "k", "r", "src", "v"):
            out[key] = value
            continue
        try:
            out[key] = float(value) if key == "t" else int(value)
        except ValueError:
            return None
    if not 0 <= out.get("t", -1) < 1e12:
        return None
    return out


def path_of(project: str) -> str:
    """Where the record of `project` lives."""
    from .turnlog import state_dir

    return os.path.join(state_dir(project), LOG_NAME)
