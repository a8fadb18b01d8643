"""Driving `asimov-hooks agent-event --agent NAME` as an agent does: one call per event,
the payload (a documented fixture from tests/data/agents/NAME/) on stdin.

Each call runs the console script's entry point in the test process (conftest.call_script:
its own argv, cwd, environment, stdin and output streams); `process=True` runs the
installed script as its own process, as the agent does, for the tests that check what
only a real process shows."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT, call_script, run_installed, script_env

from asimov_hooks.agent.runtime.state import DB_NAME, Store
from asimov_hooks.agent.runtime.turnlog import LOG_NAME

FIXTURES = os.path.join(ROOT, "tests", "data", "agents")
PLACEHOLDER = "/home/user/project"  # the project root the fixtures are written with


def fixture(agent: str, name: str, project: str, **fields: object) -> dict:
    """tests/data/agents/AGENT/NAME.json with the placeholder root replaced by
    `project` in every string, then `fields` set on top (dotted keys reach into
    objects: `tool_input.content`)."""
    with open(os.path.join(FIXTURES, agent, f"{name}.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    data = _replace(data, PLACEHOLDER, os.fspath(project))
    for key, value in fields.items():
        *path, last = key.split(".")
        target = data
        for part in path:
            target = target.setdefault(part, {})
        target[last] = value
    return data


def _replace(value: object, old: str, new: str) -> object:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_replace(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, old, new) for k, v in value.items()}
    return value


def run_event(
    agent: str | None,
    payload: object,
    cwd: os.PathLike | str,
    *,
    process: bool = False,
    **env: str,
) -> subprocess.CompletedProcess:
    """One `asimov-hooks agent-event [--agent AGENT]` call (a process of its own with
    `process=True`); never a traceback, never exit 2, one stderr line when it fails."""
    data = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
    stdin = data.encode("utf-8") if isinstance(data, str) else data
    argv = ["agent-event"] + (["--agent", agent] if agent else [])
    if process:
        proc = run_installed(
            "asimov-hooks", *argv, cwd=cwd, env=script_env(**env), stdin=stdin, text=False
        )
        out, err = proc.stdout.decode(), proc.stderr.decode()
    else:
        proc = call_script("asimov-hooks", *argv, cwd=cwd, stdin=stdin, env=script_env(**env))
        out, err = proc.stdout, proc.stderr
    assert "Traceback" not in out + err, out + err
    assert proc.returncode in (0, 1), (proc.returncode, out, err)
    if proc.returncode == 1 or "the agent goes on" in err:  # a failure: one line
        assert len(err.strip().splitlines()) == 1, err
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def answer(proc: subprocess.CompletedProcess) -> dict | None:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout) if proc.stdout.strip() else None


def state_of(project: str) -> Store | None:
    """The turn state of the project's repository (`.git/asimov-hooks/`), opened as the
    next event opens it (the records appended since folded in); None if there is none."""
    directory = os.path.join(project, ".git", "asimov-hooks")
    if not any(os.path.exists(os.path.join(directory, n)) for n in (DB_NAME, LOG_NAME)):
        return None
    return Store(directory)


def turn_row(project: str, session: str) -> dict | None:
    """The turn state of `session` in the project's repository, None if there is none."""
    store = state_of(project)
    if store is None:
        return None
    with store:
        return store.get(session, os.path.realpath(project))


def age_turn(project: str, session: str, seconds: float) -> None:
    """Move the session's recorded times `seconds` into the past: "the agent worked
    that long since", without sleeping through it, so that a quick answer stays quick
    however loaded the machine is (the threshold can be the real 30 s)."""
    store = state_of(project)
    assert store is not None, "no turn state recorded"
    _age(
        store, seconds, " WHERE project = ? AND session_id = ?", os.path.realpath(project), session
    )


def _age(store: Store, seconds: float, where: str = "", *params: str) -> None:
    """Every turn `where` selects (all of them by default) `seconds` further back."""
    with store:
        store.conn.execute(
            "UPDATE turns SET last_message_sent_at = last_message_sent_at - ?, "
            "last_checkpoint_at = last_checkpoint_at - ?" + where,
            (seconds, seconds, *params),
        )


def agent_event(
    agent: str, payload: object, cwd: os.PathLike | str, **env: str
) -> subprocess.CompletedProcess:
    """run_event for an event that must be handled: exit 0."""
    proc = run_event(agent, payload, cwd, **env)
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    return proc


def output(proc: subprocess.CompletedProcess) -> dict | None:
    """The JSON answer on stdout, None when there is none (exit code not checked)."""
    return json.loads(proc.stdout) if proc.stdout.strip() else None


def work(project: str, seconds: float = 31) -> None:
    """Let `seconds` of work pass for the turn timer (the default: past the suite's
    30 s threshold): every stored turn of the project's repository moves that far
    into the past, whatever the session (age_turn moves one)."""
    store = state_of(project)
    if store is not None:
        _age(store, seconds)


def loaded_by_event(
    payload: dict, names: tuple[str, ...], cwd: os.PathLike | str, state_dir: os.PathLike | str
) -> tuple[set[str], subprocess.CompletedProcess]:
    """Which of `names` are in sys.modules after Claude Code's hook event `payload`, run
    as a process of its own (its state in `state_dir`); and the finished process."""
    probe = (
        "import sys\n"
        "from asimov_hooks.cli.entrypoints import hooks_main\n"
        "code = hooks_main(['agent-event', '--agent', 'claude'])\n"
        f"names = {names!r}\n"
        "sys.stderr.write('LOADED ' + ' '.join(n for n in names if n in sys.modules) + '\\n')\n"
        "sys.exit(code)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASIMOV_HOOKS")}
    env["ASIMOV_HOOKS_STATE_DIR"] = os.fspath(state_dir)
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=os.fspath(cwd),
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    line = [x for x in done.stderr.splitlines() if x.startswith("LOADED")][-1]
    return set(line.split()[1:]), done
