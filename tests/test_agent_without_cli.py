"""The committed agent hooks on a machine without asimov-hooks: every hook says in one
line how to install it and exits with what the agent reads as a non-blocking failure (it
goes on), instead of the shell's "asimov-hooks: not found" (exit 127). Run as the agents
run hooks: `sh -c`."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from conftest import SCRIPTS, git_init, run_script, script_env

from asimov_hooks.agent.install.targets import AGENTS

BARE_PATH = os.pathsep.join(
    d for d in ("/usr/local/bin", "/usr/bin", "/bin") if not os.path.isfile(f"{d}/asimov-hooks")
)


def committed_commands(repo: str, name: str) -> set[str]:
    done = run_script("asimov-hooks", "agent", "install", "--agent", name, cwd=repo)
    assert done.returncode == 0, done.stderr
    with open(os.path.join(repo, AGENTS[name].files["project"]), encoding="utf-8") as fh:
        data = json.load(fh)
    found = set()
    for entries in data["hooks"].values():
        for entry in entries:
            for hook in entry.get("hooks", [entry]):
                found.add(hook.get("command") or hook["bash"])
    return found


def run_hook(command: str, repo: str, path: str, payload: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["sh", "-c", command],
        input=payload,
        capture_output=True,
        text=True,
        cwd=repo,
        env={**script_env(), "PATH": path},
        timeout=60,
    )


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_a_machine_without_the_cli_is_told_how_to_install_it(tmp_path, name: str) -> None:
    repo = git_init(tmp_path / "repo")
    (command,) = committed_commands(repo, name)
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "s", "cwd": repo})
    done = run_hook(command, repo, BARE_PATH, payload)
    # what the agent takes as "the hook did nothing, go on" (never 2, a refusal; 127 was
    # the shell's "not found"): a non-blocking hook error, except for Copilot CLI, which
    # denies the tool call when a preToolUse hook errors (tests/e2e/test_e2e_without_cli.py)
    assert done.returncode == (0 if name == "copilot" else 1), done
    assert done.stdout == ""  # nothing an agent would read as an answer
    (line,) = done.stderr.splitlines()
    assert "not found" not in line
    assert "asimov-hooks is not on PATH" in line
    assert "pipx install git+" in line and "uv tool install git+" in line
    # a payload larger than a pipe's buffer is read, so the agent's write never fails
    big = json.dumps({"hook_event_name": "PostToolUse", "content": "x" * 1_000_000})
    assert run_hook(command, repo, BARE_PATH, big).returncode == done.returncode


@pytest.mark.parametrize("name", ["claude", "codex"])
def test_with_the_cli_on_path_the_same_command_runs_it(tmp_path, name: str) -> None:
    repo = git_init(tmp_path / "repo")
    (command,) = committed_commands(repo, name)
    payload = {
        "session_id": "s",
        "cwd": repo,
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": os.path.join(repo, "CLAUDE.md"), "content": "x\n" * 40},
    }
    if name == "codex":
        payload = {
            **payload,
            "tool_name": "apply_patch",
            "tool_input": {
                "command": "*** Begin Patch\n*** Add File: CLAUDE.md\n"
                + "+x\n" * 40
                + "*** End Patch\n"
            },
        }
    done = run_hook(command, repo, SCRIPTS + os.pathsep + BARE_PATH, json.dumps(payload))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_doctor_and_install_name_the_command_the_guard_runs(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    committed_commands(repo, "claude")
    done = subprocess.run(
        [os.path.join(SCRIPTS, "asimov-hooks"), "doctor"],
        capture_output=True,
        text=True,
        cwd=repo,
        env={**script_env(), "PATH": BARE_PATH},
    )
    assert (
        "hook command does not resolve: asimov-hooks agent-event --agent claude "
        "(every hook is skipped)" in done.stdout
    ), done.stdout


def test_a_user_command_that_only_looks_like_the_guard_is_not_ours() -> None:
    from asimov_hooks.agent.install.guard import guarded
    from asimov_hooks.agent.install.hookedit import ours

    command = guarded("asimov-hooks agent-event --agent claude", "claude")
    assert ours(command) == "claude"
    assert ours(command + "; rm -rf build") is None
    assert ours(command.replace("exec asimov-hooks", "exec ./mine")) is None
    assert ours(command.replace("is not on PATH", "isn't on PATH")) is None
