"""Per-session turn state on disk (the checkpoint-injection design: no in-memory
state, it survives restarts).

Each hook event is a separate process, and an agent may run several hooks at once,
so the state lives in SQLite (Python's sqlite3): one row per project and session with
the design's two timestamps. The project is the agent's project root, not the
directory the agent happens to be in, so a `cd` does not lose the turn. Where the
database is, and the turn records that real prompts and checkpoint writes append
beside it instead of opening it: `turnlog`. Opening the store folds those records in,
so every read sees them.

Concurrency: WAL journal (readers never wait for the writer), a busy timeout (a
writer waits for another rather than failing), and every read-modify-write in one
`BEGIN IMMEDIATE` transaction, so two Stop hooks of one session cannot both decide
to ask for a checkpoint. The records are folded in one such transaction, under the
record file's exclusive lock (taken first: appenders never touch the database).
"""

from __future__ import annotations

import os

try:  # the C module itself: the `sqlite3` package adds only date and datetime adapters
    # (this table stores numbers), and importing them loads `datetime` on every event
    import _sqlite3 as sqlite3
except ImportError:  # an interpreter without it keeps the package
    import sqlite3  # type: ignore[no-redef]

from .turnlog import ENV_STATE_DIR as ENV_STATE_DIR
from .turnlog import LOG_NAME, PROMPT, parse
from .turnlog import StateError as StateError
from .turnlog import state_dir as state_dir

DB_NAME = "agent.sqlite3"
BUSY_MS = 10_000
SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    project TEXT NOT NULL,
    session_id TEXT NOT NULL,
    last_message_sent_at REAL,
    last_checkpoint_at REAL,
    checkpoints INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL,
    PRIMARY KEY (project, session_id)
)
"""
# the protocol files' state before a shell command, until the command's PostToolUse
SHELL_SCHEMA = """
CREATE TABLE IF NOT EXISTS shell_runs (
    project TEXT NOT NULL,
    session_id TEXT NOT NULL,
    tool_use_id TEXT NOT NULL,
    files TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (project, session_id, tool_use_id)
)
"""
# checkpoint requests since the last real prompt, for agents whose stops are capped
FOLLOWUP_SCHEMA = """
CREATE TABLE IF NOT EXISTS followups (
    project TEXT NOT NULL,
    session_id TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (project, session_id)
)
"""
SHELL_RUN_TTL = 24 * 3600  # a snapshot whose command never reported back is dropped
_TURN_STAMPS = (
    "SELECT last_message_sent_at, last_checkpoint_at FROM turns "
    "WHERE project = ? AND session_id = ?"
)


def _started(stamps: tuple[float | None, ...] | None) -> float | None:
    """When the turn started: the later of a row's two stamps (None when neither is set)."""
    known = [t for t in (stamps or ()) if t is not None]
    return max(known) if known else None


def _use_wal(conn: sqlite3.Connection) -> None:
    """WAL journal mode. Several processes switching a new database at once are told
    "database is locked" at once, without the busy handler: ask again, for as long as
    the busy timeout would wait."""
    waited = 0.0
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or waited >= BUSY_MS / 1000:
                raise
        import time

        time.sleep(0.005)
        waited += 0.005


class _Transaction:
    """What `Store.transaction` returns (contextlib.contextmanager would cost every
    agent event its import)."""

    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, kind: object, *rest: object) -> None:
        self.conn.execute("ROLLBACK" if kind is not None else "COMMIT")


class Store:
    """The turns table; each method is one transaction."""

    def __init__(self, directory: str) -> None:
        self.path = os.path.join(directory, DB_NAME)
        try:
            os.makedirs(directory, exist_ok=True)
            self.conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            _use_wal(self.conn)
            self.conn.execute(SCHEMA)
            self.conn.execute(SHELL_SCHEMA)
            self.conn.execute(FOLLOWUP_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StateError(f"{self.path}: cannot open the agent state: {exc}") from None
        try:
            self.fold(os.path.join(directory, LOG_NAME))
        except StateError:
            self.conn.close()
            raise

    def fold(self, log: str) -> None:
        """The turn records appended since the last fold, applied in their order."""
        from ...fs.journal import drained

        try:
            with drained(log) as lines:
                if not lines:
                    return
                with self.transaction() as conn:
                    for line in lines:
                        record = parse(line)
                        if record is None:
                            continue
                        kind, now, project, session = record
                        if kind == PROMPT:
                            self._message_sent(conn, session, project, now)
                        else:
                            self._checkpoint_delivered(conn, session, project, now)
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None
        except OSError as exc:
            raise StateError(f"{log}: cannot read the agent state: {exc}") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> _Transaction:
        """`with store.transaction() as conn:` one `BEGIN IMMEDIATE` ... `COMMIT`,
        rolled back when the block raises."""
        return _Transaction(self.conn)

    def get(self, session_id: str, project: str) -> dict[str, object] | None:
        try:
            row = self.conn.execute(
                "SELECT last_message_sent_at, last_checkpoint_at, checkpoints "
                "FROM turns WHERE project = ? AND session_id = ?",
                (project, session_id),
            ).fetchone()
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None
        if row is None:
            return None
        return {"last_message_sent_at": row[0], "last_checkpoint_at": row[1], "checkpoints": row[2]}

    def turn_start(self, session_id: str, project: str) -> float | None:
        """max(last_message_sent_at, last_checkpoint_at); None when both are unset."""
        try:
            return _started(self.conn.execute(_TURN_STAMPS, (project, session_id)).fetchone())
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None

    @staticmethod
    def _message_sent(conn: sqlite3.Connection, session_id: str, project: str, now: float) -> None:
        conn.execute(
            "INSERT INTO turns (project, session_id, last_message_sent_at, "
            "last_checkpoint_at, updated_at) VALUES (?, ?, ?, NULL, ?) "
            "ON CONFLICT(project, session_id) DO UPDATE SET last_message_sent_at = "
            "excluded.last_message_sent_at, last_checkpoint_at = NULL, "
            "updated_at = excluded.updated_at",
            (project, session_id, now, now),
        )
        conn.execute(
            "DELETE FROM followups WHERE project = ? AND session_id = ?", (project, session_id)
        )

    def checkpoint_delivered(self, session_id: str, project: str, now: float) -> None:
        """A checkpoint happened: asked for at a restart, or written by the agent."""
        try:
            with self.transaction() as conn:
                self._checkpoint_delivered(conn, session_id, project, now)
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None

    @staticmethod
    def _checkpoint_delivered(
        conn: sqlite3.Connection, session_id: str, project: str, now: float
    ) -> None:
        conn.execute(
            "INSERT INTO turns (project, session_id, last_checkpoint_at, checkpoints, "
            "updated_at) VALUES (?, ?, ?, 1, ?) ON CONFLICT(project, session_id) DO UPDATE "
            "SET last_checkpoint_at = excluded.last_checkpoint_at, "
            "checkpoints = checkpoints + 1, updated_at = excluded.updated_at",
            (project, session_id, now, now),
        )

    def checkpoint_due(
        self,
        session_id: str,
        project: str,
        now: float,
        threshold: float,
        cap: int | None = None,
    ) -> bool:
        """The unified turn timer, decided and recorded in one transaction:
        turn_start = max(last_message_sent_at, last_checkpoint_at); nothing when both
        are unset or less than `threshold` seconds have passed; otherwise the
        checkpoint is due and last_checkpoint_at becomes `now`. With a `cap`, nothing
        either once `cap` requests were made since the last real prompt."""
        key = (project, session_id)
        try:
            with self.transaction() as conn:
                start = _started(conn.execute(_TURN_STAMPS, key).fetchone())
                if start is None or now - start < threshold:
                    return False
                if cap is not None:
                    made = conn.execute(
                        "SELECT count FROM followups WHERE project = ? AND session_id = ?", key
                    ).fetchone()
                    if made is not None and made[0] >= cap:
                        return False
                    conn.execute(
                        "INSERT INTO followups (project, session_id, count) VALUES (?, ?, 1) "
                        "ON CONFLICT(project, session_id) DO UPDATE SET count = count + 1",
                        key,
                    )
                conn.execute(
                    "UPDATE turns SET last_checkpoint_at = ?, checkpoints = checkpoints + 1, "
                    "updated_at = ? WHERE project = ? AND session_id = ?",
                    (now, now, *key),
                )
                return True
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None

    def shell_started(
        self, session_id: str, project: str, tool_use_id: str, files: str, now: float
    ) -> None:
        """Keep `files` (the protocol files' state, as text) until the command ends."""
        try:
            with self.transaction() as conn:
                conn.execute("DELETE FROM shell_runs WHERE created_at < ?", (now - SHELL_RUN_TTL,))
                conn.execute(
                    "INSERT OR REPLACE INTO shell_runs (project, session_id, tool_use_id, "
                    "files, created_at) VALUES (?, ?, ?, ?, ?)",
                    (project, session_id, tool_use_id, files, now),
                )
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None

    def shell_ended(self, session_id: str, project: str, tool_use_id: str) -> str | None:
        """The state kept when the command started (and forget it); None if none was."""
        try:
            with self.transaction() as conn:
                row = conn.execute(
                    "SELECT files FROM shell_runs WHERE project = ? AND session_id = ? "
                    "AND tool_use_id = ?",
                    (project, session_id, tool_use_id),
                ).fetchone()
                conn.execute(
                    "DELETE FROM shell_runs WHERE project = ? AND session_id = ? "
                    "AND tool_use_id = ?",
                    (project, session_id, tool_use_id),
                )
        except sqlite3.Error as exc:
            raise StateError(f"{self.path}: {exc}") from None
        return row[0] if row else None
