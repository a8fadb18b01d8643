"""Where the turn state lives, and the turn records the frequent events append there.

A real prompt and a checkpoint write are the turn state's most frequent changes, and
they only record a time: they append one line to `turns.log` beside the state
database (`fs.journal`) instead of opening it, which costs every such event SQLite's
import and a transaction. The next event that reads the turn state (a stop, a
restart, a shell command) opens the database, which folds the records in, in the
order they were made, before anything is read (`state.Store`): what it reads is what
it would have read had every event written the database itself.

The state directory: the git directory of the project (`.git/asimov-hooks/`, which
git never tracks), or outside a repository the user's state directory
($XDG_STATE_HOME/asimov-hooks, default ~/.local/state/asimov-hooks);
$ASIMOV_HOOKS_STATE_DIR overrides both.
"""

from __future__ import annotations

import os

ENV_STATE_DIR = "ASIMOV_HOOKS_STATE_DIR"
LOG_NAME = "turns.log"
VERSION = b"1"
PROMPT, CHECKPOINT = b"prompt", b"checkpoint"  # message_sent, checkpoint_delivered
KINDS = (PROMPT, CHECKPOINT)


class StateError(Exception):
    """The state store cannot be used; one line for the caller to report."""


def keyed_path(project: str, folder: str, key: str, suffix: str = "") -> str:
    """A record's path in the state directory's `folder`, named for `key` (a session and
    a file, say). zlib's checksums, not hashlib, whose OpenSSL start-up an agent event
    would pay for a name that needs no cryptographic strength."""
    import zlib

    raw = os.fsencode(key)
    name = f"{zlib.crc32(raw):08x}{zlib.adler32(raw):08x}{len(raw):x}{suffix}"
    return os.path.join(state_dir(project), folder, name)


def state_dir(project: str) -> str:
    """Where this project's agent state lives (see the module docstring)."""
    override = os.environ.get(ENV_STATE_DIR)
    if override:
        return os.path.abspath(override)
    from ...gitutil import find_git_dir, find_toplevel

    top = find_toplevel(project)
    gitdir = find_git_dir(top) if top else None
    if gitdir:
        return os.path.join(gitdir, "asimov-hooks")
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(base, "asimov-hooks")


def _field(text: str) -> bytes:
    """A session id or project path as one tab-free, newline-free field."""
    escaped = text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
    return escaped.replace("\r", "\\r").encode("utf-8")  # a lone surrogate: UnicodeError


def _unfield(raw: bytes) -> str:
    text = raw.decode("utf-8")
    if "\\" not in text:
        return text
    out, chars = [], iter(text)
    for char in chars:
        if char == "\\":
            char = {"t": "\t", "n": "\n", "r": "\r"}.get(next(chars, ""), "\\")
        out.append(char)
    return "".join(out)


def append(kind: bytes, session: str, project: str, now: float) -> None:
    """Record `kind` (PROMPT or CHECKPOINT) for the session at `now`; StateError when
    the state directory cannot be used."""
    from ...fs.journal import append as append_record

    directory = state_dir(project)
    path = os.path.join(directory, LOG_NAME)
    try:
        fields = (VERSION, kind, repr(now).encode(), _field(project), _field(session))
        append_record(path, b"\t".join(fields) + b"\n")
    except (OSError, UnicodeError) as exc:
        raise StateError(f"{path}: cannot record the agent state: {exc}") from None


def parse(line: bytes) -> tuple[bytes, float, str, str] | None:
    """(kind, time, project, session) of one record; None for a line that is not one
    (another version's, or damaged), which is skipped."""
    fields = line.split(b"\t")
    if len(fields) != 5 or fields[0] != VERSION or fields[1] not in KINDS:
        return None
    try:
        now = float(fields[2])
        if not 0 <= now < 1e12:  # NaN, infinities and nonsense are not times we wrote
            return None
        return fields[1], now, _unfield(fields[3]), _unfield(fields[4])
    except (ValueError, UnicodeError):
        return None
