"""A FIFO where git opens one of its repository-wide files (`.git/info/exclude`,
`.git/info/attributes`, `.mailmap`, the global ignore file, a configured
`core.excludesFile`, a config file or a file a config includes) would make every git
call that opens it wait for ever. Each command that runs git looks first: it refuses in
one line naming the file (exit 2, or 1 for an agent event, which the agent shows and
goes on), or completes when it never asks git to open that file. Never a hang, never a
traceback. (The per-directory `.gitignore`/`.gitattributes`: test_fifo_git_files.py.)"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from conftest import GOOD_CHECKPOINT, SCRIPTS, commit_all, git, git_init, script_env, write

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"
REFUSAL = "is a FIFO: git would wait on it for ever"
COMMANDS = [
    ("asimov-hooks", "trim", "."),
    ("asimov-validate", "."),
    ("asimov-hooks", "doctor"),
    ("asimov-hooks", "oc", "doctor"),
    ("asimov-hooks", "init", "--repo", "local"),
    ("asimov-hooks", "ephemeral"),
    ("agent", "Stop"),
    ("agent", "PostToolUse"),
]


def place_fifo(repo: str, home: str, place: str) -> str:
    """Make the FIFO `place` names; returns the words the refusal must name."""
    if place == "exclude-file":
        path = os.path.join(os.path.dirname(repo), "shared-excludes")
        git(repo, "config", "core.excludesFile", path)
    elif place == "included-config":
        path = os.path.join(os.path.dirname(repo), "extra.gitconfig")
        git(repo, "config", "include.path", path)
    elif place == "global-ignore":
        path = os.path.join(home, ".config", "git", "ignore")
    elif place == "global-config":
        path = os.path.join(home, ".gitconfig")
    else:
        path = os.path.join(repo, place)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):  # git init writes an info/exclude of comments
        os.unlink(path)
    os.mkfifo(path)
    return place if not os.path.isabs(place) and "-" not in place else path


def release(repo: str, home: str, place: str) -> None:
    """Let go any reader a FIFO still holds (a process that waited on it): open it for
    writing, which wakes the reader, and close it, which gives it end-of-file."""
    for path in (
        os.path.join(repo, place),
        os.path.join(os.path.dirname(repo), "shared-excludes"),
        os.path.join(os.path.dirname(repo), "extra.gitconfig"),
        os.path.join(home, ".config", "git", "ignore"),
        os.path.join(home, ".gitconfig"),
    ):
        for _ in range(64):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                break  # no reader waits (or no FIFO there)
            os.close(fd)


def run(command: tuple[str, ...], repo: str) -> subprocess.CompletedProcess:
    if command[0] == "agent":
        payload = {
            "hook_event_name": command[1],
            "session_id": "s1",
            "cwd": repo,
            "stop_hook_active": False,
            "tool_name": "Write",
            "tool_input": {"file_path": os.path.join(repo, CP), "content": GOOD_CHECKPOINT},
            "tool_response": {"filePath": os.path.join(repo, CP), "success": True},
        }
        argv = [os.path.join(SCRIPTS, "asimov-hooks"), "agent-event", "--agent", "claude"]
        stdin = json.dumps(payload)
    else:
        argv, stdin = [os.path.join(SCRIPTS, command[0]), *command[1:]], ""
    env = script_env(ASIMOV_HOOKS_TURN_THRESHOLD="1")
    try:
        return subprocess.run(
            argv, cwd=repo, input=stdin, capture_output=True, text=True, env=env, timeout=60
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(command)} waited on the FIFO")


@pytest.fixture
def repo(tmp_path) -> str:
    top = git_init(tmp_path / "repo")
    write(top, ".asimov-hooks.yaml", "agent:\n  turn-threshold: 1\n")
    write(top, "warmup.yaml", "identity:\n  project: demo\n")
    write(top, CP, GOOD_CHECKPOINT)
    write(top, "sub/notes.md", "notes\n")
    commit_all(top, "base")
    return top


PLACES = [
    ".git/info/exclude",
    ".git/info/attributes",
    ".mailmap",
    "global-ignore",
    "exclude-file",
    "included-config",
    "global-config",
]


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_fifo_git_would_open_is_refused_not_waited_on(repo, isolated_home, place, command):
    named = place_fifo(repo, str(isolated_home), place)
    try:
        done = run(command, repo)
    finally:
        release(repo, str(isolated_home), place)
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "internal error" not in said, said
    if done.returncode == 0 or REFUSAL not in said:
        assert done.returncode in (0, 1), said  # it never asked git to open that file
        return
    assert done.returncode == (1 if command[0] == "agent" else 2), said
    line = next(line for line in said.splitlines() if REFUSAL in line)
    assert named in line, line
