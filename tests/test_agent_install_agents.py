"""`asimov-hooks agent install --agent codex|gemini|cursor|all`: each agent's own project
file, in its documented shape (tests/data/agents/CONTRACTS.md), byte for byte around
the user's own entries. Whole processes in real git repositories."""

from __future__ import annotations

import json
import os

import pytest
from conftest import git_init, run_script
from test_agent_install_bytes import agent, committed, get, kept_lines, put, round_trip


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return git_init(tmp_path / "repo")


CODEX = (
    '{"hooks":{"PreToolUse":[{"matcher":"apply_patch|Bash","hooks":[{"type":"command",'
    '"command":"python3 .codex/hooks/guard.py","timeout":10}]}]}}\n'
)
CODEX_OURS = '{"type":"command","command":"' + committed("codex") + '"}'


def test_codex_exact_bytes(repo) -> None:
    installed = round_trip(repo, ".codex/hooks.json", CODEX, "codex")
    assert installed == (
        '{"hooks":{"PreToolUse":[{"matcher":"apply_patch|Bash","hooks":[{"type":"command",'
        '"command":"python3 .codex/hooks/guard.py","timeout":10}]},'
        '{"matcher":"apply_patch|Bash","hooks":[' + CODEX_OURS + "]}],"
        '"PostToolUse":[{"matcher":"apply_patch|Bash","hooks":[' + CODEX_OURS + "]}],"
        '"SessionStart":[{"matcher":"resume|compact","hooks":[' + CODEX_OURS + "]}],"
        '"Stop":[{"hooks":[' + CODEX_OURS + "]}],"
        '"UserPromptSubmit":[{"hooks":[' + CODEX_OURS + "]}],"
        '"PreCompact":[{"hooks":[' + CODEX_OURS + "]}]}}\n"
    )


def test_codex_stale_absolute_path_in_users_group(repo) -> None:
    stale = CODEX.replace(
        '"timeout":10}',
        '"timeout":10},{"type":"command","command":"/home/u/.venv/bin/asimov-hooks agent-event"}',
    )
    path = put(repo, ".codex/hooks.json", stale)
    proc = agent(repo, "install", "--agent", "codex")
    assert proc.returncode == 0 and "up to date for PreToolUse" in proc.stdout
    assert get(path).startswith(
        '{"hooks":{"PreToolUse":[{"matcher":"apply_patch|Bash","hooks":[{"type":"command",'
        '"command":"python3 .codex/hooks/guard.py","timeout":10},' + CODEX_OURS + "]}],"
    )
    assert agent(repo, "uninstall", "--agent", "codex").returncode == 0
    assert get(path) == CODEX


GEMINI = """{
    "theme": "GitHub",
    "hooksConfig": {"enabled": true},
    "hooks": {
        "BeforeTool": [
            {
                "matcher": "write_file|replace|run_shell_command",
                "hooks": [
                    {
                        "name": "lint",
                        "type": "command",
                        "command": "npm run lint",
                        "timeout": 30000
                    }
                ]
            }
        ]
    }
}
"""


def test_gemini_round_trip_and_layout(repo) -> None:
    installed = round_trip(repo, ".gemini/settings.json", GEMINI, "gemini")
    kept_lines(GEMINI, installed)
    assert (
        '            },\n            {\n                "matcher": "write_file|replace|run_shell_command",\n'
        '                "hooks": [\n                    {\n'
        '                        "name": "asimov-hooks",\n'
        '                        "type": "command",\n'
        f'                        "command": "{committed("gemini")}"\n'
    ) in installed
    hooks = json.loads(installed)["hooks"]
    assert sorted(hooks) == [
        "AfterAgent",
        "AfterTool",
        "BeforeAgent",
        "BeforeTool",
        "PreCompress",
        "SessionStart",
    ]
    assert hooks["SessionStart"][0]["matcher"] == "resume"
    assert "matcher" not in hooks["AfterAgent"][0]


def test_gemini_settings_beside_events_in_hooks_are_kept(repo) -> None:
    """An older Gemini CLI setting lived inside `hooks` (`"enabled": true`)."""
    original = '{"hooks": {"enabled": true, "disabled": ["x"]}}'
    round_trip(repo, ".gemini/settings.json", original, "gemini")


GEMINI_COMMENTS = """{
  // Gemini CLI reads this file as JSON with comments
  "theme": "GitHub", /* the light one */
  "hooks": {
    "BeforeTool": [
      // lint before every write
      {"matcher": "write_file|replace|run_shell_command", "hooks": [{"type": "command", "command": "lint // not a comment"}]}
    ]
  }
}
"""


def test_gemini_comments_are_kept(repo) -> None:
    installed = round_trip(repo, ".gemini/settings.json", GEMINI_COMMENTS, "gemini")
    kept_lines(GEMINI_COMMENTS, installed)
    assert '    ],\n    "AfterTool": [\n' in installed
    assert '"command": "lint // not a comment"}]},\n      {\n        "matcher"' in installed


def test_comments_refused_where_the_agent_refuses_them(repo) -> None:
    path = put(repo, ".claude/settings.json", '{\n  // no\n  "model": "opus"\n}\n')
    proc = agent(repo, "install")
    assert proc.returncode == 2 and "invalid JSON" in proc.stderr
    assert get(path) == '{\n  // no\n  "model": "opus"\n}\n'


CURSOR = '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./hooks/format.sh" }]\n  }\n}'


def test_cursor_exact_bytes(repo) -> None:
    installed = round_trip(repo, ".cursor/hooks.json", CURSOR, "cursor")
    command = f'        "command": "{committed("cursor")}"'
    entry = f"      {{\n{command}\n      }}\n"
    write = f'      {{\n{command},\n        "matcher": "Write|StrReplace|Shell"\n      }}\n'
    stop = f'      {{\n{command},\n        "loop_limit": null\n      }}\n'
    assert installed == (
        '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./hooks/format.sh" }],\n'
        f'    "preToolUse": [\n{write}    ],\n'
        f'    "postToolUse": [\n{write}    ],\n'
        f'    "stop": [\n{stop}    ],\n'
        f'    "beforeSubmitPrompt": [\n{entry}    ],\n'
        f'    "sessionStart": [\n{entry}    ]\n'
        "  }\n}"
    )


def test_cursor_earlier_install_is_brought_up_to_date(repo) -> None:
    """An install of an earlier version: its afterFileEdit entry goes (postToolUse tells
    the agent instead), its stop entry gets `loop_limit: null`; the user's entries and
    the user's own field on our entry stay."""
    earlier = (
        '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./hooks/format.sh" }, '
        '{ "command": "asimov-hooks agent-event --agent cursor" }],\n'
        '    "stop": [{ "command": "asimov-hooks agent-event --agent cursor", "timeout": 20 }]\n'
        "  }\n}"
    )
    path = put(repo, ".cursor/hooks.json", earlier)
    proc = agent(repo, "install", "--agent", "cursor")
    assert proc.returncode == 0, proc.stderr
    assert "up to date for stop, afterFileEdit" in proc.stdout
    hooks = json.loads(get(path))["hooks"]
    assert hooks["afterFileEdit"] == [{"command": "./hooks/format.sh"}]
    assert hooks["stop"] == [{"command": committed("cursor"), "timeout": 20, "loop_limit": None}]
    assert hooks["preToolUse"] == hooks["postToolUse"]
    assert hooks["preToolUse"][0]["matcher"] == "Write|StrReplace|Shell"
    again = agent(repo, "install", "--agent", "cursor")
    assert "already installed; nothing changed" in again.stdout


def test_cursor_new_file_has_version_and_goes_again(repo) -> None:
    proc = agent(repo, "install", "--agent", "cursor")
    assert proc.returncode == 0, proc.stderr
    path = os.path.join(repo, ".cursor", "hooks.json")
    data = json.loads(get(path))
    assert data["version"] == 1
    assert data["hooks"]["stop"] == [{"command": committed("cursor"), "loop_limit": None}]
    proc = agent(repo, "uninstall", "--agent", "cursor")
    assert "(file removed)" in proc.stdout
    assert not os.path.exists(os.path.join(repo, ".cursor"))


def test_all_agents_then_uninstall_all(repo) -> None:
    put(repo, ".codex/hooks.json", CODEX)
    proc = agent(repo, "install", "--agent", "all")
    assert proc.returncode == 0, proc.stderr
    files = [
        ".claude/settings.json",
        ".codex/hooks.json",
        ".gemini/settings.json",
        ".cursor/hooks.json",
        ".github/hooks/asimov-hooks.json",
        ".qwen/settings.json",
    ]
    for rel in files:
        assert f"{rel}: added" in proc.stdout
        assert "agent-event --agent" in get(os.path.join(repo, rel))
    doctor = run_script("asimov-hooks", "doctor", cwd=repo)
    titles = ("Claude Code", "Codex CLI", "Gemini CLI", "Cursor", "GitHub Copilot CLI", "Qwen Code")
    for title, rel in zip(titles, files, strict=True):
        assert f"{rel}: {title} hooks installed for every event" in doctor.stdout
    proc = agent(repo, "uninstall", "--agent", "all")
    assert proc.returncode == 0, proc.stderr
    assert get(os.path.join(repo, ".codex/hooks.json")) == CODEX
    for name in (".claude", ".gemini", ".cursor", ".agents", ".github", ".qwen"):
        assert not os.path.exists(os.path.join(repo, name))


def test_uninstall_one_agent_leaves_the_others(repo) -> None:
    assert agent(repo, "install", "--agent", "all").returncode == 0
    proc = agent(repo, "uninstall", "--agent", "gemini")
    assert proc.returncode == 0 and ".gemini/settings.json" in proc.stdout
    assert ".claude" not in proc.stdout
    assert os.path.exists(os.path.join(repo, ".claude", "settings.json"))
    assert not os.path.exists(os.path.join(repo, ".gemini"))


DATA = os.path.join(os.path.dirname(__file__), "data", "agents")
FILE_OF = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "cursor": ".cursor/hooks.json",
    "copilot": ".github/hooks/asimov-hooks.json",
    "qwen": ".qwen/settings.json",
}


def fixtures(name: str) -> list[dict]:
    out = []
    for entry in sorted(os.listdir(os.path.join(DATA, name))):
        if entry.endswith(".json"):
            with open(os.path.join(DATA, name, entry), encoding="utf-8") as fh:
                out.append(json.load(fh))
    return out


def event_of(payload: dict) -> str:
    """The event a payload belongs to; Copilot CLI's name none, their fields tell."""
    if "hook_event_name" in payload:
        return payload["hook_event_name"]
    from asimov_hooks.agent.agents.copilot import event_name

    return event_name(payload)


@pytest.mark.parametrize("name", sorted(FILE_OF))
def test_installed_hooks_fire_for_the_documented_payloads(repo, name: str) -> None:
    """Every event we install has documented payloads; its matcher takes the edits and
    restart sources the runtime handles and nothing else; the installed command answers
    each of them (exit 0, never "not handled")."""
    import re
    import subprocess

    from conftest import script_env

    assert agent(repo, "install", "--agent", name).returncode == 0
    hooks = json.loads(get(os.path.join(repo, FILE_OF[name])))["hooks"]
    payloads = fixtures(name)
    for event, groups in hooks.items():
        documented = [p for p in payloads if event_of(p) == event]
        assert documented, f"no documented payload for {event}"
        group = groups[0]
        matcher = group.get("matcher")
        entry = group["hooks"][0] if "hooks" in group else group
        command = entry.get("command") or entry["bash"]  # Copilot CLI: `bash`
        for payload in documented:
            subject = payload.get("tool_name") or payload.get("source") or payload.get("trigger")
            if matcher is not None and not re.fullmatch(matcher, subject or ""):
                # MultiEdit: a tool of older Claude Code versions only (the current tools
                # reference has none); its fixture stays for the adapter, the matcher skips it
                assert subject in ("Bash", "startup", "clear", "MultiEdit"), (
                    event,
                    subject,
                )
                continue
            payload = {**payload, "cwd": repo}
            if "workspace_roots" in payload:
                payload["workspace_roots"] = [repo]
            proc = subprocess.run(
                ["sh", "-c", command],  # as the agent runs it
                input=json.dumps(payload),
                capture_output=True,
                text=True,
                cwd=repo,
                env=script_env(),
                check=False,
                timeout=60,
            )
            assert proc.returncode == 0, (event, proc.stderr)
            assert "not handled" not in proc.stderr, (event, proc.stderr)


def test_one_unusable_file_does_not_stop_the_others(repo) -> None:
    broken = put(repo, ".gemini/settings.json", '{"hooks": [}')
    proc = agent(repo, "install", "--agent", "all")
    assert proc.returncode == 2
    errors = [line for line in proc.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and ".gemini/settings.json: invalid JSON" in errors[0], proc.stderr
    for rel in (".claude/settings.json", ".codex/hooks.json", ".cursor/hooks.json"):
        assert f"{rel}: added" in proc.stdout
    assert not os.path.exists(os.path.join(repo, ".gemini", "commands"))
    proc = agent(repo, "uninstall", "--agent", "all")
    assert proc.returncode == 2 and ".gemini/settings.json: invalid JSON" in proc.stderr
    assert get(broken) == '{"hooks": [}'
    assert sorted(os.listdir(repo)) == [".gemini", ".git"]


COPILOT = (
    '{\n\t"version": 1,\n\t"hooks": {\n\t\t"preToolUse": [\n\t\t\t{"type": "command", '
    '"bash": "./scripts/audit.sh", "timeoutSec": 10}\n\t\t]\n\t}\n}'
)


def test_copilot_exact_bytes_beside_the_users_own_hook(repo) -> None:
    installed = round_trip(repo, ".github/hooks/asimov-hooks.json", COPILOT, "copilot")
    kept_lines(COPILOT, installed)
    data = json.loads(installed)
    assert data["version"] == 1
    ours = {
        "type": "command",
        "bash": committed("copilot"),
        "cwd": ".",
        "timeoutSec": 30,
    }
    assert data["hooks"]["preToolUse"] == [
        {"type": "command", "bash": "./scripts/audit.sh", "timeoutSec": 10},
        ours,
    ]
    for event in ("postToolUse", "agentStop", "userPromptSubmitted", "sessionStart"):
        assert data["hooks"][event] == [ours]
    assert "sessionEnd" not in data["hooks"] and "errorOccurred" not in data["hooks"]


def test_copilot_stale_path_is_replaced_in_place(repo) -> None:
    stale = COPILOT.replace(
        '"./scripts/audit.sh", "timeoutSec": 10}',
        '"./scripts/audit.sh", "timeoutSec": 10},\n\t\t\t{"type": "command", '
        '"bash": "/old/venv/bin/asimov-hooks agent-event --agent copilot", "cwd": "."}',
    )
    path = put(repo, ".github/hooks/asimov-hooks.json", stale)
    proc = agent(repo, "install", "--agent", "copilot")
    assert proc.returncode == 0, proc.stderr
    text = get(path)
    assert text.startswith(stale.split("/old/venv/bin/")[0])
    assert f'"bash": "{committed("copilot")}", "cwd": "."}}' in text
    assert "/old/venv" not in text
    assert text.count("agent-event --agent copilot") == 6


def test_copilot_new_file_and_directories_go_again(repo) -> None:
    assert agent(repo, "install", "--agent", "copilot").returncode == 0
    assert json.loads(get(os.path.join(repo, ".github/hooks/asimov-hooks.json")))["version"] == 1
    proc = agent(repo, "uninstall", "--agent", "copilot")
    assert "(file removed)" in proc.stdout
    assert not os.path.exists(os.path.join(repo, ".github"))
    os.makedirs(os.path.join(repo, ".github", "workflows"))
    assert agent(repo, "install", "--agent", "copilot").returncode == 0
    assert agent(repo, "uninstall", "--agent", "copilot").returncode == 0
    assert os.listdir(os.path.join(repo, ".github")) == ["workflows"]


QWEN = (
    '{\n  // the model and its endpoint\n  "model": {"name": "qwen3-coder-plus"},\n'
    '  "hooks": {\n    "PreToolUse": [\n      {"matcher": "write_file|edit|run_shell_command", '
    '"hooks": [{"type": "command", "command": "./lint.sh"}]}\n    ]\n  }\n}\n'
)


def test_qwen_round_trip_keeps_comments_and_the_users_group(repo) -> None:
    installed = round_trip(repo, ".qwen/settings.json", QWEN, "qwen")
    kept_lines(QWEN, installed)
    assert "// the model and its endpoint" in installed
    groups = json.loads(
        "\n".join(ln for ln in installed.splitlines() if not ln.lstrip().startswith("//"))
    )
    users, ours = groups["hooks"]["PreToolUse"]
    assert users["hooks"] == [{"type": "command", "command": "./lint.sh"}]
    assert ours["matcher"] == users["matcher"]
    assert ours["hooks"][0]["command"] == committed("qwen")


@pytest.mark.parametrize("name", ["copilot", "qwen"])
def test_new_agents_new_file_round_trip(repo, name: str) -> None:
    assert agent(repo, "install", "--agent", name).returncode == 0
    assert agent(repo, "uninstall", "--agent", name).returncode == 0
    assert sorted(os.listdir(repo)) == [".git"]
