"""The turn records: a real prompt and a checkpoint write append one line beside the
turn state (`agent.runtime.turnlog`, `fs.journal`) instead of opening its database,
and the next event that reads the state folds them in, in order, exactly once."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from asimov_hooks.agent.runtime import turnlog
from asimov_hooks.agent.runtime.state import DB_NAME, Store
from asimov_hooks.fs import journal

PROJECT = "/home/user/project"


@pytest.fixture
def state(tmp_path, monkeypatch) -> str:
    directory = tmp_path / "state"
    monkeypatch.setenv(turnlog.ENV_STATE_DIR, str(directory))
    return str(directory)


def row(state: str, session: str, project: str = PROJECT) -> dict | None:
    with Store(state) as store:
        return store.get(session, project)


def log_size(state: str) -> int:
    return os.path.getsize(os.path.join(state, turnlog.LOG_NAME))


def test_records_are_folded_in_order_and_once(state) -> None:
    turnlog.append(turnlog.PROMPT, "s", PROJECT, 100.0)
    turnlog.append(turnlog.CHECKPOINT, "s", PROJECT, 150.0)
    assert not os.path.exists(os.path.join(state, "agent.sqlite3"))  # no database opened
    assert row(state, "s") == {
        "last_message_sent_at": 100.0,
        "last_checkpoint_at": 150.0,
        "checkpoints": 1,
    }
    assert log_size(state) == 0  # folded: opening again applies nothing twice
    assert row(state, "s")["checkpoints"] == 1
    # a real prompt after the checkpoint clears it, as when written directly
    turnlog.append(turnlog.PROMPT, "s", PROJECT, 200.0)
    assert row(state, "s") == {
        "last_message_sent_at": 200.0,
        "last_checkpoint_at": None,
        "checkpoints": 1,
    }


def test_a_prompt_clears_the_capped_requests(state) -> None:
    turnlog.append(turnlog.PROMPT, "s", PROJECT, 100.0)
    with Store(state) as store:
        assert store.checkpoint_due("s", PROJECT, 200.0, 30, cap=1)
        assert not store.checkpoint_due("s", PROJECT, 300.0, 30, cap=1)  # capped
    turnlog.append(turnlog.PROMPT, "s", PROJECT, 400.0)
    with Store(state) as store:
        assert store.checkpoint_due("s", PROJECT, 500.0, 30, cap=1)  # a new turn


@pytest.mark.parametrize(
    "session", ["tab\there", "new\nline", "back\\slash\\t", "carriage\r", "ü—", ""]
)
def test_any_session_id_and_project_round_trip(state, session) -> None:
    project = f"/p/{session}"
    turnlog.append(turnlog.CHECKPOINT, session, project, 7.5)
    assert row(state, session, project)["last_checkpoint_at"] == 7.5


def test_a_session_id_that_is_not_text_is_refused_not_recorded(state) -> None:
    with pytest.raises(turnlog.StateError, match="cannot record the agent state"):
        turnlog.append(turnlog.PROMPT, "\udcff", PROJECT, 1.0)  # a lone surrogate from JSON
    turnlog.append(turnlog.PROMPT, "s", PROJECT, 1.0)  # and nothing blocks the next ones
    assert row(state, "s")["last_message_sent_at"] == 1.0


def test_damaged_and_foreign_lines_are_skipped(state) -> None:
    os.makedirs(state)
    path = os.path.join(state, turnlog.LOG_NAME)
    with open(path, "wb") as fh:
        fh.write(b"garbage\n2\tprompt\t1.0\tp\ts\n1\tprompt\tnan\t/p\ts\n1\tother\t1.0\t/p\ts\n")
    turnlog.append(turnlog.PROMPT, "s", "/p", 5.0)
    with open(path, "ab") as fh:
        fh.write(b"1\tcheckpoint\t9.0\t/p\ts")  # cut short: no newline, dropped
    assert row(state, "s", "/p") == {
        "last_message_sent_at": 5.0,
        "last_checkpoint_at": None,
        "checkpoints": 0,
    }
    assert log_size(state) == 0


def test_a_link_in_the_records_place_is_refused(state, tmp_path) -> None:
    os.makedirs(state)
    target = tmp_path / "elsewhere"
    target.write_bytes(b"")
    os.symlink(target, os.path.join(state, turnlog.LOG_NAME))
    with pytest.raises(turnlog.StateError, match="cannot record the agent state"):
        turnlog.append(turnlog.PROMPT, "s", PROJECT, 1.0)
    assert target.read_bytes() == b""
    with pytest.raises(turnlog.StateError, match="cannot read the agent state"):
        Store(state)


def test_an_unusable_state_directory_is_one_error(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(turnlog.ENV_STATE_DIR, str(blocker / "sub"))
    with pytest.raises(turnlog.StateError, match="agent state"):
        turnlog.append(turnlog.CHECKPOINT, "s", PROJECT, 1.0)


def test_a_fifo_is_never_waited_on(state) -> None:
    os.makedirs(state)
    os.mkfifo(os.path.join(state, turnlog.LOG_NAME))
    with pytest.raises(turnlog.StateError):
        turnlog.append(turnlog.PROMPT, "s", PROJECT, 1.0)
    with pytest.raises(turnlog.StateError):
        Store(state)


def test_a_file_past_the_bound_is_emptied_unread(state, monkeypatch) -> None:
    turnlog.append(turnlog.PROMPT, "s", PROJECT, 1.0)
    monkeypatch.setattr(journal, "MAX_BYTES", 10)
    assert row(state, "s") is None
    assert log_size(state) == 0


def test_concurrent_appends_and_folds_lose_nothing(state) -> None:
    """Writers appending while readers fold: every record is applied exactly once."""
    writer = (
        "import sys\n"
        "from asimov_hooks.agent.runtime import turnlog\n"
        "for i in range(40):\n"
        "    turnlog.append(turnlog.CHECKPOINT, sys.argv[1], '/p', 1000.0 + i)\n"
    )
    folder = (
        "from asimov_hooks.agent.runtime.state import Store\n"
        "for _ in range(15):\n"
        "    Store(sys.argv[1]).close()\n"
    )
    env = {**os.environ, turnlog.ENV_STATE_DIR: state}
    procs = [subprocess.Popen([sys.executable, "-c", writer, f"w{n}"], env=env) for n in range(3)]
    procs += [
        subprocess.Popen([sys.executable, "-c", "import sys\n" + folder, state], env=env)
        for _ in range(2)
    ]
    assert [proc.wait(timeout=120) for proc in procs] == [0] * len(procs)
    for n in range(3):
        assert row(state, f"w{n}", "/p")["checkpoints"] == 40


def test_a_new_state_being_written_by_another_process_is_waited_for(tmp_path) -> None:
    """While another process writes a new state database, switching it to WAL answers
    "database is locked" at once, without the busy wait (hooks an agent runs side by
    side on a new repository): the store asks again and opens."""
    import sqlite3
    import threading

    directory = tmp_path / "state"
    directory.mkdir()
    other = sqlite3.connect(directory / DB_NAME, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE early (x)")
    release = threading.Timer(0.3, other.execute, ("COMMIT",))
    release.start()
    try:
        with Store(str(directory)) as store:
            assert store.get("s", PROJECT) is None
    finally:
        release.join()
        other.close()


def _stop_loads(tmp_path, prompt_first: bool) -> set[str]:
    """Which of (subprocess, asimov_hooks.config.follows) a Stop loads, run as the
    agent runs it, in a repository that follows the protocol."""
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "warmup.yaml").write_text("identity:\n  project: x\n")
    subprocess.run(["git", "-C", str(repo), "add", "warmup.yaml"], check=True)
    from agent_support import loaded_by_event

    def event(name: str, **fields: object) -> set[str]:
        payload = {"session_id": "s", "cwd": str(repo), "hook_event_name": name, **fields}
        names = ("subprocess", "asimov_hooks.config.follows")
        return loaded_by_event(payload, names, repo, tmp_path / "state")[0]

    if prompt_first:
        event("UserPromptSubmit", prompt="go")
    return event("Stop", stop_hook_active=False)


def test_a_stop_that_ends_a_quick_turn_asks_git_nothing(tmp_path) -> None:
    assert _stop_loads(tmp_path, prompt_first=True) == set()
    assert _stop_loads(tmp_path / "b", prompt_first=False) == set()  # no turn at all
