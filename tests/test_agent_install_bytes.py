"""`asimov-hooks agent install / uninstall` keep hand-written settings files byte for byte.

Each case starts from a file as a user writes it (compact JSON, tabs, no trailing
newline, the user's own hooks in the matcher group we use, a stale entry of ours) and
compares the exact bytes after install and after uninstall, running the commands as
separate processes in a real git repository.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import git_init, run_script

from asimov_hooks.agent.install.guard import guarded


def committed(name: str) -> str:
    """The command install writes for `name` (guarded: agent.install.guard)."""
    return guarded(f"asimov-hooks agent-event --agent {name}", name)


def hook(name: str) -> str:
    """Our entry, as compact JSON writes it."""
    return '{"type":"command","command":"' + committed(name) + '"}'


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return git_init(tmp_path / "repo")


def agent(repo: str, *args: str):
    proc = run_script("asimov-hooks", "agent", *args, cwd=repo)
    assert "Traceback" not in proc.stderr
    return proc


def put(repo: str, rel: str, text: str) -> str:
    path = os.path.join(repo, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(text.encode("utf-8"))
    return path


def get(path: str) -> str:
    with open(path, "rb") as fh:
        return fh.read().decode("utf-8")


def round_trip(repo: str, rel: str, original: str, name: str) -> str:
    """Install then uninstall; the file must be back to its bytes. Returns the installed text."""
    path = put(repo, rel, original)
    proc = agent(repo, "install", "--agent", name)
    assert proc.returncode == 0, proc.stderr
    installed = get(path)
    again = agent(repo, "install", "--agent", name)
    assert again.returncode == 0 and "nothing changed" in again.stdout, again.stdout
    assert get(path) == installed
    proc = agent(repo, "uninstall", "--agent", name)
    assert proc.returncode == 0, proc.stderr
    assert get(path) == original
    return installed


def kept_lines(original: str, installed: str) -> None:
    """Every line of the user's file is still there, in order (a `,` may end it now)."""
    lines = iter(installed.splitlines())
    for line in original.splitlines():
        assert any(got in (line, line + ",") for got in lines), line


# ------------------------------------------------------------------ Claude Code
CLAUDE_COMPACT = (
    '{"model":"opus","n":1e400,"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash","hooks":'
    '[{"type":"command","command":"npx prettier --check"}]}],'
    '"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}'
)


def test_claude_compact_file_exact_bytes(repo) -> None:
    ours = hook("claude")
    installed = round_trip(repo, ".claude/settings.json", CLAUDE_COMPACT, "claude")
    assert installed == (
        '{"model":"opus","n":1e400,"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash",'
        '"hooks":[{"type":"command","command":"npx prettier --check"}]},'
        '{"matcher":"Write|Edit|Bash","hooks":[' + ours + "]}],"
        '"Stop":[{"hooks":[{"type":"command","command":"say done"}]},{"hooks":[' + ours + "]}],"
        '"PostToolUse":[{"matcher":"Write|Edit|Bash","hooks":[' + ours + "]}],"
        '"SessionStart":[{"matcher":"compact|resume|fork","hooks":[' + ours + "]}],"
        '"UserPromptSubmit":[{"hooks":[' + ours + "]}],"
        '"PreCompact":[{"hooks":[' + ours + "]}]}}"
    )


def test_claude_stale_entry_in_users_group_is_replaced_in_place(repo) -> None:
    stale = CLAUDE_COMPACT.replace(
        '"npx prettier --check"}]',
        '"npx prettier --check"},{"type":"command","command":"/old/venv/bin/asimov-hooks agent-event"}]',
    )
    path = put(repo, ".claude/settings.json", stale)
    proc = agent(repo, "install")
    assert proc.returncode == 0, proc.stderr
    assert "up to date for PreToolUse" in proc.stdout
    text = get(path)
    # the user's command and our (now current) one share the group, in place
    assert text.startswith(
        '{"model":"opus","n":1e400,"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash",'
        '"hooks":[{"type":"command","command":"npx prettier --check"},' + hook("claude") + "]}],"
    )
    assert json.loads(text.replace("1e400", "1"))["hooks"]["PreToolUse"][0]["hooks"][1] == {
        "type": "command",
        "command": committed("claude"),
    }
    assert agent(repo, "uninstall").returncode == 0
    assert get(path) == CLAUDE_COMPACT  # the user's command stays, ours goes


def test_claude_ours_under_another_matcher_in_users_group(repo) -> None:
    """Our entry in the user's `Write` group (old form): taken out of that group only."""
    users = (
        '{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"lint"},'
        '{"type":"command","command":"asimov-hooks agent-event"}]}]}}\n'
    )
    path = put(repo, ".claude/settings.json", users)
    assert agent(repo, "install").returncode == 0
    data = json.loads(get(path))
    assert data["hooks"]["PreToolUse"] == [
        {"matcher": "Write", "hooks": [{"type": "command", "command": "lint"}]},
        {
            "matcher": "Write|Edit|Bash",
            "hooks": [{"type": "command", "command": committed("claude")}],
        },
    ]
    assert agent(repo, "uninstall").returncode == 0
    assert json.loads(get(path)) == {
        "hooks": {
            "PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "lint"}]}]
        }
    }


def test_claude_old_matcher_group_of_ours_is_updated_in_place(repo) -> None:
    old = (
        '{\n  "hooks": {\n    "SessionStart": [\n      {"matcher": "compact|resume", "hooks": '
        '[{"type": "command", "command": "asimov-hooks agent-event"}]}\n    ]\n  }\n}\n'
    )
    path = put(repo, ".claude/settings.json", old)
    assert agent(repo, "install").returncode == 0
    text = get(path)
    assert text.startswith(
        '{\n  "hooks": {\n    "SessionStart": [\n      {"matcher": "compact|resume|fork", "hooks": '
        f'[{{"type": "command", "command": "{committed("claude")}"}}]}}\n    ],\n'
    )


TABS_NO_NEWLINE = (
    '{\n\t"env": {"N": 1e400},\n\t"hooks": {\n\t\t"Stop": [\n\t\t\t{\n\t\t\t\t"hooks": [\n'
    '\t\t\t\t\t{"type": "command", "command": "say done"}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}'
)
GROUP_TABS = (
    '\t\t\t{\n\t\t\t\t"hooks": [\n\t\t\t\t\t{\n\t\t\t\t\t\t"type": "command",\n'
    f'\t\t\t\t\t\t"command": "{committed("claude")}"\n\t\t\t\t\t}}\n\t\t\t\t]\n\t\t\t}}'
)


def test_claude_tabs_without_trailing_newline(repo) -> None:
    installed = round_trip(repo, ".claude/settings.json", TABS_NO_NEWLINE, "claude")
    kept_lines(TABS_NO_NEWLINE, installed)
    assert installed.startswith(TABS_NO_NEWLINE[: TABS_NO_NEWLINE.index("\t\t]")][:-1])
    assert "\t\t\t},\n" + GROUP_TABS + "\n\t\t],\n\t\t" in installed
    assert installed.endswith("\n\t\t]\n\t}\n}")  # still no newline at the end
    assert "1e400" in installed and "Infinity" not in installed


@pytest.mark.parametrize(
    "original",
    [
        "{}\n",
        "{}",
        '{\n    "hooks": {}\n}\n',
        '{\n  "hooks": {\n    "Stop": []\n  },\n  "x": [1, 2.50, -0e+0]\n}\n',
        '{\r\n  "model": "opus",\r\n  "hooks": {\r\n    "Notification": [{"hooks": []}]\r\n  }\r\n}\r\n',
        '{ "permissions" : { "allow" : [ ] } }\n',
        '\ufeff{"a":"\\u00e9"}',
    ],
    ids=["empty", "empty-no-newline", "empty-hooks", "empty-event", "crlf", "spaced", "bom"],
)
def test_claude_round_trip_is_byte_identical(repo, original: str) -> None:
    installed = round_trip(repo, ".claude/settings.json", original, "claude")
    assert json.loads(installed.lstrip("\ufeff"))["hooks"]["Stop"]


def test_claude_new_file_layout(repo) -> None:
    assert agent(repo, "install").returncode == 0
    text = get(os.path.join(repo, ".claude", "settings.json"))
    assert text.startswith('{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher"')
    assert text.endswith("\n  }\n}\n")
    assert json.loads(text) == json.loads(json.dumps(json.loads(text), indent=2))


def test_claude_earlier_matcher_with_multiedit_is_repaired_in_place(repo) -> None:
    """Earlier versions matched `MultiEdit`, a tool current Claude Code no longer lists:
    install fixes the matcher of our group in place, the user's groups stay as they are."""
    ours = hook("claude")
    earlier = (
        '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|MultiEdit","hooks":[{"type":"command",'
        '"command":"lint"}]},{"matcher":"Write|Edit|MultiEdit|Bash","hooks":[' + ours + "]}]}}"
    )
    path = put(repo, ".claude/settings.json", earlier)
    proc = agent(repo, "install")
    assert proc.returncode == 0, proc.stderr
    assert "up to date for PreToolUse" in proc.stdout
    assert get(path).startswith(
        '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|MultiEdit","hooks":[{"type":"command",'
        '"command":"lint"}]},{"matcher":"Write|Edit|Bash","hooks":[' + ours + "]}],"
    )
