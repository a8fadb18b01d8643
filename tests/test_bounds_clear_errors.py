"""Inputs that once ended in "internal error" each get one line naming what is wrong
and a documented exit code: a hook payload whose tool name is not a string or whose
session id holds a lone surrogate (exit 1, the agent goes on), a TOML date or time where
a config takes text (exit 2), an `oc update` path deeper than any checkpoint nests
(exit 2, nothing written). Each runs the real command."""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from agent_support import run_event
from conftest import GOOD_CHECKPOINT, git_init, oc_checkpoint, run_script, write

from asimov_hooks.agent.agents import load

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"


def assert_one_line(done, code: int, *words: str) -> str:
    said = done.stdout + done.stderr
    assert done.returncode == code, said
    assert "internal error" not in said and "Traceback" not in said, said
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, said
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def repo(tmp_path) -> str:
    top = git_init(tmp_path / "repo")
    write(top, CP, GOOD_CHECKPOINT)
    return top


# agent, event name, the tool-name field
TOOL_EVENTS = [
    ("claude", "PreToolUse", "tool_name"),
    ("claude", "PostToolUse", "tool_name"),
    ("codex", "PreToolUse", "tool_name"),
    ("gemini", "BeforeTool", "tool_name"),
    ("qwen", "PostToolUse", "tool_name"),
    ("copilot", "preToolUse", "toolName"),
]


@pytest.mark.parametrize(("agent", "name", "field"), TOOL_EVENTS)
@pytest.mark.parametrize("tool", [["Write"], {"name": "Write"}, 7])
def test_a_tool_name_that_is_not_a_string(repo: str, agent, name, field, tool) -> None:
    payload = {
        "hook_event_name": name,
        "session_id": "s1",
        "cwd": repo,
        field: tool,
        "tool_input": {"file_path": os.path.join(repo, CP), "content": GOOD_CHECKPOINT},
        "toolArgs": '{"path": "x"}',
    }
    done = run_event(agent, payload, repo)
    # the status each agent reads as "the hook failed, go on" (Copilot CLI: 0)
    assert_one_line(done, load(agent).EXIT_FAILED, field, "not a string")


@pytest.mark.parametrize("name", ["UserPromptSubmit", "Stop", "SessionStart", "PostToolUse"])
def test_a_lone_surrogate_in_the_session_id(repo: str, name: str) -> None:
    fields = {
        "hook_event_name": name,
        "session_id": "SESSION",
        "cwd": repo,
        "prompt": "go",
        "source": "startup",
        "tool_name": "Write",
        "tool_input": {"file_path": os.path.join(repo, CP), "content": "x"},
    }
    payload = json.dumps(fields).replace("SESSION", "ab\\ud800cd")  # JSON's escape
    done = run_event("claude", payload, repo)
    assert_one_line(done, 1, "session id", "lone surrogate")
    assert not os.path.exists(os.path.join(repo, ".git", "asimov-hooks", "turns.log"))


TOML_TIMES = [
    ("extends = 1979-05-27T07:32:00Z", "extends: a TOML date-time"),
    ("extends = 1979-05-27", "extends: a TOML date"),
    ('exclude = ["docs/**", 1979-05-27]', "exclude[1]: a TOML date"),
    ('exclude = ["docs/**", 07:32:00]', "exclude[1]: a TOML time"),
    ("[tool.asimov-hooks.trim.archive]\npath = 1979-05-27T07:32:00", "trim.archive.path"),
]
CONFIG_COMMANDS = [
    ("asimov-validate", "."),
    ("asimov-hooks", "trim", "."),
    ("asimov-hooks", "doctor"),
    ("asimov-hooks", "oc", "status"),
]


@pytest.mark.parametrize(("toml", "said"), TOML_TIMES)
@pytest.mark.parametrize("command", CONFIG_COMMANDS, ids=" ".join)
def test_a_toml_date_where_text_is_expected(repo: str, toml: str, said: str, command) -> None:
    write(repo, "pyproject.toml", f"[tool.asimov-hooks]\n{toml}\n")
    done = run_script(*command, cwd=repo)
    assert_one_line(done, 2, "pyproject.toml", said, "not a string")


def test_an_oc_update_path_deeper_than_a_checkpoint_nests(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    path = write(repo, ".checkpoints/oc-app-architect.checkpoint.json", oc_checkpoint())
    with open(path, "rb") as fh:
        before = hashlib.sha256(fh.read()).hexdigest()
    deep = ".".join(["skill_state"] + ["a"] * 2000)
    for new_key in ([], ["--new-key"]):
        done = run_script(
            "asimov-hooks", "oc", "update", *new_key, "oc-app-architect", f"--{deep}=1", cwd=repo
        )
        assert_one_line(done, 2, "2,001 levels deep", "at most 100")
    with open(path, "rb") as fh:
        assert hashlib.sha256(fh.read()).hexdigest() == before
    fits = ".".join(["skill_state"] + ["a"] * 60)
    done = run_script("asimov-hooks", "oc", "update", "oc-app-architect", f"--{fits}=1", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
