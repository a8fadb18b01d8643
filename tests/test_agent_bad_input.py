"""A hook given input it cannot read never blocks the agent's tool call: one line on
stderr naming what could not be read, and the exit status the agent reads as "this
hook failed, go on". That status is the agents' own contract (tests/data/agents/
CONTRACTS.md, "Exit status of a failed hook"): 1 for Claude Code, Codex CLI, Gemini
CLI, Cursor and Qwen Code (2 would block, and Gemini CLI denies on any status but 0 and
1); 0 for GitHub Copilot CLI, whose command preToolUse hooks fail closed (any non-zero
exit denies the tool call). Run as the agents run it: the installed script, its own
process, the bytes on stdin."""

from __future__ import annotations

import json

import pytest
from agent_support import fixture, run_event
from conftest import git_init

from asimov_hooks.agent.agents import AGENTS, load

# what each agent reads as a failed hook that lets the tool call go on (not the code
# under test: the agents' contracts, written down here)
GOES_ON = {"claude": 1, "codex": 1, "gemini": 1, "cursor": 1, "qwen": 1, "copilot": 0}

# a write about to happen (the config test's event) and an event missing a field it
# needs: the write's file, or (Cursor, which watches a write naming no file as it
# watches a shell command) the stop's conversation; then what the line names
WRITE = {
    "claude": "pre_tool_use_write",
    "codex": "pre_tool_use_apply_patch",
    "gemini": "before_tool_write_file",
    "cursor": "pre_tool_use_write",
    "qwen": "pre_tool_use_write_file",
    "copilot": "pre_tool_use_create",
}
MISSING = {
    "claude": ("pre_tool_use_write", {"tool_input": {"content": "x\n"}}, "file_path"),
    "codex": ("pre_tool_use_apply_patch", {"tool_input": {}}, "command"),
    "gemini": ("before_tool_write_file", {"tool_input": {"content": "x\n"}}, "file_path"),
    "cursor": ("stop", {"conversation_id": None}, "session id"),
    "qwen": ("pre_tool_use_write_file", {"tool_input": {"content": "x\n"}}, "file_path"),
    "copilot": ("pre_tool_use_create", {"toolArgs": json.dumps({"file_text": "x\n"})}, "path"),
}

UNREADABLE = [
    (b"", "empty stdin"),
    (b"{not json", "stdin is not valid JSON"),
    (b"[1, 2]", "not an object"),
    (b"\xff\xfe{", "not UTF-8"),
    (b'{"a": NaN}', "stdin is not valid JSON"),
]


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return git_init(tmp_path / "repo")


def test_every_agent_is_covered() -> None:
    assert set(GOES_ON) == set(AGENTS) == set(WRITE) == set(MISSING)
    for agent in AGENTS:  # never the status that blocks
        assert load(agent).EXIT_FAILED == GOES_ON[agent] != 2


def failed(proc, agent: str, names: str) -> None:
    """The agent's go-on status, nothing on stdout, one line on stderr naming it."""
    assert proc.returncode == GOES_ON[agent], (agent, proc.returncode, proc.stderr)
    assert proc.stdout == "", (agent, proc.stdout)
    (line,) = proc.stderr.splitlines()
    assert line.startswith("asimov-hooks agent-event: ") and names in line, line
    assert line.endswith("not checked, the agent goes on"), line


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize(("stdin", "names"), UNREADABLE)
def test_stdin_that_is_not_a_hook_event(repo, agent: str, stdin: bytes, names: str) -> None:
    failed(run_event(agent, stdin, repo, process=True), agent, names)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_payload_missing_a_field(repo, agent: str) -> None:
    name, fields, names = MISSING[agent]
    proc = run_event(agent, fixture(agent, name, repo, **fields), repo, process=True)
    failed(proc, agent, names)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_config_it_cannot_read(repo, agent: str) -> None:
    """The project's config is input too: a broken one skips the check, it does not
    stop the agent."""
    with open(f"{repo}/.asimov-hooks.yaml", "w", encoding="utf-8") as fh:
        fh.write("agent:\n  turn-threshold: soon\n")
    proc = run_event(agent, fixture(agent, WRITE[agent], repo), repo, process=True)
    failed(proc, agent, "turn-threshold")


def test_an_unknown_agent_is_exit_1(repo) -> None:
    """Before the agent is known there is no contract to follow: exit 1, one line."""
    proc = run_event("nobody", b"{}", repo, process=True)
    assert proc.returncode == 1 and proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert "unknown agent 'nobody'" in line and "goes on" not in line
