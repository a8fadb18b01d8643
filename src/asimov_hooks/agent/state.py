"""Per-session turn state on disk (seed 003: "no in-memory state; survives restarts").

Each hook event is a separate process, and Claude Code may run several hooks at once,
so the state lives in SQLite (Python's sqlite3): one row per `session_id` with the
seed's two timestamps. The database is in the repository's git directory
(`.git/asimov-hooks/agent.sqlite3`, which git never tracks), or outside a repository
in the user's state directory ($XDG_STATE_HOME/asimov-hooks, default
~/.local/state/asimov-hooks); $ASIMOV_HOOKS_STATE_DIR overrides both.

Concurrency: WAL journal (readers never wait for the writer), a busy timeout (a
writer waits for another rather than failing), and every read-modify-write in one
`BEGIN IMMEDIATE` transaction, so two Stop hooks of one session cannot both decide
to ask for a checkpoint.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Iterator

ENV_STATE_DIR = "ASIMOV_HOOKS_STATE_DIR"
DB_NAME = "agent.sqlite3"
BUSY_MS = 10_000
SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    session_id TEXT PRIMARY KEY,
    project TEXT,
    last_message_sent_at REAL,
    last_checkpoint_at REAL,
    checkpoints INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL
)
"""


class StateError(Exception):
    """The state store cannot be used; one line for the caller to report."""


def state_dir(cwd: str) -> str:
    """Where this project's agent state lives (see the module docstring)."""
    override = os.environ.get(ENV_STATE_DIR)
    if override:
        return os.path.abspath(override)
    from ..gitutil import find_git_dir, find_toplevel

    top = find_toplevel(cwd)
    gitdir = find_git_dir(top) if top else None
    if gitdir:
        return os.path.join(gitdir, "asimov-hooks")
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(base, "asimov-hooks")


class Store:
    """The sessions table; each method is one transaction."""

    def __init__(self, directory: str) -> None:
        self.path = os.path.join(directory, DB_NAME)
        try:
            os.makedirs(directory, exist_ok=True)
            self.conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StateError(f"{self.path}: cannot open the agent state: {exc}") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def _write(self, sql: str, params: tuple) -> None:
        try:
            with self.transaction() as conn:
                conn.execute(sql, params)
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None

    def get(self, session_id: str) -> dict[str, object] | None:
        try:
            row = self.conn.execute(
                "SELECT last_message_sent_at, last_checkpoint_at, checkpoints "
                "FROM sessions WHERE session_id = ?",
                (session_id,),
            ).fetchone()
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None
        if row is None:
            return None
        return {"last_message_sent_at": row[0], "last_checkpoint_at": row[1], "checkpoints": row[2]}

    def message_sent(self, session_id: str, project: str, now: float) -> None:
        """A real prompt: the turn starts now, and its checkpoint state is cleared."""
        self._write(
            "INSERT INTO sessions (session_id, project, last_message_sent_at, "
            "last_checkpoint_at, updated_at) VALUES (?, ?, ?, NULL, ?) "
            "ON CONFLICT(session_id) DO UPDATE SET last_message_sent_at = excluded."
            "last_message_sent_at, last_checkpoint_at = NULL, updated_at = excluded.updated_at",
            (session_id, project, now, now),
        )

    def checkpoint_delivered(self, session_id: str, project: str, now: float) -> None:
        """A checkpoint reached the agent (Stop block, or re-injection at SessionStart)."""
        self._write(
            "INSERT INTO sessions (session_id, project, last_checkpoint_at, checkpoints, "
            "updated_at) VALUES (?, ?, ?, 1, ?) ON CONFLICT(session_id) DO UPDATE SET "
            "last_checkpoint_at = excluded.last_checkpoint_at, "
            "checkpoints = checkpoints + 1, updated_at = excluded.updated_at",
            (session_id, project, now, now),
        )

    def checkpoint_due(self, session_id: str, project: str, now: float, threshold: float) -> bool:
        """Seed 003's unified turn timer, decided and recorded in one transaction:
        turn_start = max(last_message_sent_at, last_checkpoint_at); nothing when both
        are unset or less than `threshold` seconds have passed; otherwise the
        checkpoint is due and last_checkpoint_at becomes `now`."""
        try:
            with self.transaction() as conn:
                row = conn.execute(
                    "SELECT last_message_sent_at, last_checkpoint_at FROM sessions "
                    "WHERE session_id = ?",
                    (session_id,),
                ).fetchone()
                stamps = [t for t in (row or ()) if t is not None]
                if not stamps or now - max(stamps) < threshold:
                    return False
                conn.execute(
                    "UPDATE sessions SET last_checkpoint_at = ?, checkpoints = checkpoints + 1, "
                    "updated_at = ?, project = ? WHERE session_id = ?",
                    (now, now, project, session_id),
                )
                return True
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None
