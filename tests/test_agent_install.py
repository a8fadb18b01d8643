"""`asimov-hooks agent install / uninstall` on Claude Code settings files, and doctor."""

from __future__ import annotations

import json
import os
import stat

import pytest
from conftest import git_init, run_script, write

from asimov_hooks.agent.install.guard import guarded

PLAIN = "asimov-hooks agent-event --agent claude"
COMMAND = guarded(
    PLAIN, "claude"
)  # what a team commits: says how to install the CLI where it is missing
EVENTS = ["PreToolUse", "PostToolUse", "SessionStart", "Stop", "UserPromptSubmit", "PreCompact"]
THEIRS = {
    "permissions": {"allow": ["Bash(npm test:*)"]},
    "env": {"FOO": "bar"},
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [{"type": "command", "command": "npx prettier --write", "timeout": 30}],
            }
        ],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send claude"}]}],
    },
}


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return git_init(tmp_path / "repo")


def read(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def agent(repo: str, *args: str):
    proc = run_script("asimov-hooks", "agent", *args, cwd=repo)
    assert "Traceback" not in proc.stderr
    return proc


def test_install_creates_project_settings(repo) -> None:
    proc = agent(repo, "install")
    assert proc.returncode == 0, proc.stderr
    path = os.path.join(repo, ".claude", "settings.json")
    data = read(path)
    assert sorted(data) == ["hooks"]
    assert sorted(data["hooks"]) == sorted(EVENTS)
    assert data["hooks"]["PreToolUse"] == [
        {
            "matcher": "Write|Edit|Bash",
            "hooks": [{"type": "command", "command": COMMAND}],
        }
    ]
    assert data["hooks"]["SessionStart"][0]["matcher"] == "compact|resume|fork"
    assert "matcher" not in data["hooks"]["Stop"][0]
    # idempotent: byte for byte
    with open(path, "rb") as fh:
        before = fh.read()
    again = agent(repo, "install")
    assert again.returncode == 0 and "already installed" in again.stdout
    with open(path, "rb") as fh:
        assert fh.read() == before


def test_install_keeps_everything_and_uninstall_restores(repo) -> None:
    path = write(repo, ".claude/settings.json", json.dumps(THEIRS, indent=4) + "\n")
    os.chmod(path, 0o640)
    assert agent(repo, "install").returncode == 0
    data = read(path)
    assert data["permissions"] == THEIRS["permissions"] and data["env"] == THEIRS["env"]
    assert data["hooks"]["Notification"] == THEIRS["hooks"]["Notification"]
    assert data["hooks"]["PostToolUse"][0] == THEIRS["hooks"]["PostToolUse"][0]
    assert len(data["hooks"]["PostToolUse"]) == 2
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    with open(path, encoding="utf-8") as fh:
        assert '\n    "permissions"' in fh.read()  # the file's own indentation kept
    proc = agent(repo, "uninstall")
    assert proc.returncode == 0, proc.stderr
    assert read(path) == THEIRS
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_uninstall_removes_created_file_and_dir(repo) -> None:
    agent(repo, "install")
    proc = agent(repo, "uninstall")
    assert proc.returncode == 0 and "(file removed)" in proc.stdout
    assert not os.path.exists(os.path.join(repo, ".claude"))
    assert "nothing changed" in agent(repo, "uninstall").stdout


def test_uninstall_keeps_created_file_that_gained_content(repo) -> None:
    agent(repo, "install")
    path = os.path.join(repo, ".claude", "settings.json")
    data = read(path)
    data["model"] = "opus"
    data["hooks"]["Stop"][0]["hooks"].append({"type": "command", "command": "say done"})
    write(repo, ".claude/settings.json", json.dumps(data, indent=2))
    agent(repo, "uninstall")
    assert read(path) == {
        "model": "opus",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]},
    }


def test_uninstall_keeps_preexisting_empty_file(repo) -> None:
    path = write(repo, ".claude/settings.json", "{}\n")
    agent(repo, "install")
    agent(repo, "uninstall")
    assert read(path) == {}


def test_local_scope_uses_absolute_command(repo) -> None:
    proc = agent(repo, "install", "--scope", "local")
    assert proc.returncode == 0, proc.stderr
    data = read(os.path.join(repo, ".claude", "settings.local.json"))
    command = data["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert command.endswith(" agent-event --agent claude") and os.path.isabs(
        command.split()[0].strip("'")
    )
    assert not os.path.exists(os.path.join(repo, ".claude", "settings.json"))
    doctor = run_script("asimov-hooks", "doctor", cwd=repo)
    assert "settings.local.json: Claude Code hooks installed for every event" in doctor.stdout
    assert "hook command resolves" in doctor.stdout
    agent(repo, "uninstall", "--scope", "local")
    assert not os.path.exists(os.path.join(repo, ".claude"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "invalid JSON"),
        ("[1]", "expected a JSON object"),
        ('{"a": NaN}', "NaN is not a JSON value"),
        ('{"hooks": {}, "a": -Infinity}', "-Infinity is not a JSON value"),
        ('{"hooks": {}, "hooks": {}}', 'duplicate key "hooks"'),
        ('{"hooks": []}', "`hooks` is not an object"),
        ('{"hooks": {"Stop": {}}}', "hooks.Stop is not a list"),
    ],
)
def test_invalid_settings_are_an_error_and_untouched(repo, content: str, message: str) -> None:
    path = write(repo, ".claude/settings.json", content)
    for command in ("install", "uninstall"):
        proc = agent(repo, command)
        assert proc.returncode == 2, proc.stdout
        assert ".claude/settings.json" in proc.stderr and message in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
        with open(path, encoding="utf-8") as fh:
            assert fh.read() == content


def test_doctor_reports_agent_hooks(repo) -> None:
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert "agent hooks not installed" in proc.stdout
    agent(repo, "install")
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert ".claude/settings.json: Claude Code hooks installed for every event" in proc.stdout
    assert f"hook command resolves: {PLAIN}" in proc.stdout
    path = os.path.join(repo, ".claude", "settings.json")
    data = read(path)
    data["hooks"]["Stop"][0]["hooks"][0]["command"] = (
        "/nonexistent/asimov-hooks agent-event --agent claude"
    )
    del data["hooks"]["UserPromptSubmit"]
    write(repo, ".claude/settings.json", json.dumps(data))
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert proc.returncode == 1
    assert "missing for UserPromptSubmit" in proc.stdout
    assert "does not resolve: /nonexistent/asimov-hooks agent-event --agent claude" in proc.stdout


def test_installed_settings_drive_agent_event(repo) -> None:
    """The command install writes is the one that handles the events."""
    import subprocess

    from conftest import script_env

    agent(repo, "install")
    data = read(os.path.join(repo, ".claude", "settings.json"))
    command = data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    payload = {
        "session_id": "s",
        "cwd": repo,
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": os.path.join(repo, "CLAUDE.md"), "content": "x\n" * 40},
    }
    proc = subprocess.run(
        ["sh", "-c", command],  # as the agent runs it
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=repo,
        env=script_env(),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_install_outside_git_records_in_user_state(tmp_path, isolated_home) -> None:
    state = tmp_path / "state"
    projects = [tmp_path / "one", tmp_path / "two"]
    for project in projects:
        project.mkdir()
        proc = run_script(
            "asimov-hooks", "agent", "install", cwd=project, XDG_STATE_HOME=str(state)
        )
        assert proc.returncode == 0, proc.stderr
    assert (state / "asimov-hooks" / "agent-install.json").is_file()
    for project in projects:
        proc = run_script(
            "asimov-hooks", "agent", "uninstall", cwd=project, XDG_STATE_HOME=str(state)
        )
        assert proc.returncode == 0 and "(file removed)" in proc.stdout, proc.stdout
        assert not (project / ".claude").exists()


def test_doctor_names_an_unreadable_settings_file(repo) -> None:
    write(repo, ".claude/settings.local.json", "{oops")
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert ".claude/settings.local.json: invalid JSON" in proc.stdout
