"""`asimov-hooks agent-event --agent copilot|qwen`: every event branch a separate call
fed a payload shaped as the agent documents it (tests/data/agents/copilot and qwen,
sources in CONTRACTS.md), in real git repositories, with the turn timer of the
checkpoint-injection design (stored timestamps moved into the past, no sleeping)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from agent_support import agent_event, fixture, output, run_event, work
from conftest import GOOD_CHECKPOINT, git_init, write
from test_agent_others import BLOATED

AGENTS = ("copilot", "qwen")
EVENTS = {
    "copilot": {
        "prompt": "user_prompt_submitted",
        "stop": "agent_stop",
        "start": "session_start_resume",
        "startup": "session_start",
        "post": "post_tool_use_edit",
    },
    "qwen": {
        "prompt": "user_prompt_submit",
        "stop": "stop",
        "start": "session_start_resume",
        "post": "post_tool_use_write_file",
    },
}
SESSION = {"copilot": "sessionId", "qwen": "session_id"}


@pytest.fixture
def repo(checkpoint_repo) -> str:
    return checkpoint_repo


def event(agent: str, kind: str, repo: str, **changes: object) -> dict:
    return fixture(agent, EVENTS[agent][kind], repo, **changes)


def continued_with(agent: str, proc) -> str | None:
    out = output(proc) or {}
    return out.get("reason") if out.get("decision") == "block" else None


def context_of(agent: str, proc) -> str | None:
    out = output(proc) or {}
    if agent == "copilot":
        return out.get("additionalContext")
    return (out.get("hookSpecificOutput") or {}).get("additionalContext")


def denial(agent: str, proc) -> str | None:
    out = output(proc) or {}
    specific = out if agent == "copilot" else out.get("hookSpecificOutput") or {}
    if specific.get("permissionDecision") == "deny":
        return specific.get("permissionDecisionReason")
    return None


def edit(agent: str, repo: str, rel: str, old: str, new: str) -> dict:
    path = os.path.join(repo, rel)
    if agent == "copilot":
        args = json.dumps({"path": path, "old_str": old, "new_str": new})
        return fixture(agent, "pre_tool_use_edit", repo, toolArgs=args)
    tool_input = {"file_path": path, "old_string": old, "new_string": new}
    return fixture(agent, "pre_tool_use_edit", repo, tool_input=tool_input)


def whole(agent: str, repo: str, rel: str, content: str) -> dict:
    path = os.path.join(repo, rel)
    if agent == "copilot":
        args = json.dumps({"path": path, "file_text": content})
        return fixture(agent, "pre_tool_use_create", repo, toolArgs=args)
    tool_input = {"file_path": path, "content": content}
    return fixture(agent, "pre_tool_use_write_file", repo, tool_input=tool_input)


def stop(agent: str, repo: str, **changes: object) -> str | None:
    return continued_with(agent, agent_event(agent, event(agent, "stop", repo, **changes), repo))


# ------------------------------------------------------------------ every payload
@pytest.mark.parametrize("agent", AGENTS)
def test_every_documented_payload_is_answered(agent: str, repo: str) -> None:
    folder = Path(__file__).parent / "data" / "agents" / agent
    names = sorted(p.stem for p in folder.glob("*.json"))
    assert len(names) >= 8
    for name in names:
        proc = agent_event(agent, fixture(agent, name, repo), repo)
        if name in ("session_end", "error_occurred"):  # read, and nothing to do
            assert proc.stdout == "" and "not handled" in proc.stderr, name
        else:
            assert "not handled" not in proc.stderr, (name, proc.stderr)
            assert output(proc) is None or isinstance(output(proc), dict)


def test_copilot_payload_without_cwd_or_timestamp_is_refused(repo: str) -> None:
    """Not handled, said in one line, and exit 0: any other status would make Copilot
    CLI refuse the tool call (tests/test_agent_bad_input.py)."""
    proc = run_event("copilot", {"hello": 1}, repo)
    assert proc.returncode == 0 and "GitHub Copilot CLI" in proc.stderr
    assert proc.stdout == ""


def test_copilot_tool_args_that_are_not_json_are_refused(repo: str) -> None:
    payload = fixture("copilot", "pre_tool_use_edit", repo, toolArgs="{not json")
    proc = run_event("copilot", payload, repo)
    assert proc.returncode == 0 and "toolArgs" in proc.stderr and proc.stdout == ""


# ------------------------------------------------------------------ the turn timer
@pytest.mark.parametrize("agent", AGENTS)
def test_turn_timer_sequences(agent: str, repo: str) -> None:
    agent_event(agent, event(agent, "prompt", repo), repo)
    assert stop(agent, repo) is None
    work(repo)
    message = stop(agent, repo)
    assert message and "validate" in message and ".claude_checkpoint.yaml" in message
    agent_event(agent, event(agent, "prompt", repo, prompt=message), repo)
    assert stop(agent, repo) is None  # a quick answer to it is not asked again
    work(repo)
    assert stop(agent, repo) == message  # substantial work after it is


@pytest.mark.parametrize("agent", AGENTS)
def test_sessions_are_kept_apart(agent: str, repo: str) -> None:
    agent_event(agent, event(agent, "prompt", repo), repo)
    work(repo)
    other = event(agent, "stop", repo, **{SESSION[agent]: "another-session"})
    assert continued_with(agent, agent_event(agent, other, repo)) is None


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("prompt", ["", "  \n", None])
def test_an_empty_prompt_is_not_a_turn(agent: str, repo: str, prompt: str | None) -> None:
    """Qwen Code fires its prompt hook with an empty prompt for each tool result it
    sends back to the model: a long turn that ends in a tool call is still asked."""
    agent_event(agent, event(agent, "prompt", repo), repo)
    work(repo)
    empty = event(agent, "prompt", repo, prompt=prompt)
    if prompt is None:
        del empty["prompt"]
    if agent == "copilot":  # its payload names no event: `prompt` tells this one
        empty = {**empty, "prompt": prompt or ""}
    agent_event(agent, empty, repo)
    message = stop(agent, repo)
    assert message and ".claude_checkpoint.yaml" in message


def test_qwen_continued_stop_is_judged_by_the_timer(repo: str) -> None:
    agent_event("qwen", event("qwen", "prompt", repo), repo)
    work(repo)
    assert stop("qwen", repo)
    assert stop("qwen", repo, stop_hook_active=True) is None
    work(repo)
    assert stop("qwen", repo, stop_hook_active=True)


# ------------------------------------------------------------------ before the write
@pytest.mark.parametrize("agent", AGENTS)
def test_new_error_is_denied_valid_write_allowed(agent: str, repo: str) -> None:
    rel = ".claude_checkpoint.yaml"
    good = agent_event(agent, edit(agent, repo, rel, "tool_calls: 45", "tool_calls: 46"), repo)
    assert denial(agent, good) is None
    bad = agent_event(agent, edit(agent, repo, rel, "tool_calls: 45", "tool_calls: -3"), repo)
    assert "tool_calls" in (denial(agent, bad) or "")
    broken = agent_event(agent, whole(agent, repo, rel, "status: [unclosed\n"), repo)
    assert denial(agent, broken)
    assert Path(repo, rel).read_text(encoding="utf-8") == GOOD_CHECKPOINT


@pytest.mark.parametrize("agent", AGENTS)
def test_a_write_the_tool_would_refuse_is_left_to_it(agent: str, repo: str) -> None:
    proc = agent_event(
        agent, edit(agent, repo, ".claude_checkpoint.yaml", "no such text", "tool_calls: -1"), repo
    )
    assert denial(agent, proc) is None


@pytest.mark.parametrize("agent", AGENTS)
def test_files_outside_the_project_are_not_governed(agent: str, repo: str, tmp_path) -> None:
    outside = git_init(tmp_path / "elsewhere")
    target = os.path.join(outside, ".claude_checkpoint.yaml")
    proc = agent_event(agent, whole(agent, repo, target, "status: [unclosed\n"), repo)
    assert proc.stdout == "" and proc.stderr == ""


# ------------------------------------------------------------------ after the write
@pytest.mark.parametrize("agent", AGENTS)
def test_post_write_trims_and_reports(agent: str, repo: str) -> None:
    write(repo, ".claude_checkpoint.yaml", BLOATED)
    proc = agent_event(agent, event(agent, "post", repo), repo)
    text = Path(repo, ".claude_checkpoint.yaml").read_text(encoding="utf-8")
    assert "task 1\n" not in text and "task 12" in text
    assert os.path.exists(os.path.join(repo, ".claude_checkpoint.archive.yaml"))
    assert "trim" in (context_of(agent, proc) or "").lower()
    if agent == "copilot":  # Copilot ignores postToolUse output: its hook log shows it
        assert "trim" in proc.stderr.lower()


@pytest.mark.parametrize("agent", AGENTS)
def test_shell_command_that_breaks_a_checkpoint_is_reported(agent: str, repo: str) -> None:
    name = "bash" if agent == "copilot" else "run_shell_command"
    agent_event(agent, fixture(agent, f"pre_tool_use_{name}", repo), repo)
    write(repo, ".claude_checkpoint.yaml", BLOATED)
    proc = agent_event(agent, fixture(agent, f"post_tool_use_{name}", repo), repo)
    assert "task 1\n" not in Path(repo, ".claude_checkpoint.yaml").read_text(encoding="utf-8")
    assert ".claude_checkpoint.yaml" in (context_of(agent, proc) or "")


# ------------------------------------------------------------------ session start
@pytest.mark.parametrize("agent", AGENTS)
def test_restart_reinjects_the_checkpoint(agent: str, repo: str) -> None:
    context = context_of(agent, agent_event(agent, event(agent, "start", repo), repo)) or ""
    assert "Task 9: benchmark the hot path" in context
    assert "validate" in context


def test_copilot_new_session_is_not_a_restart(repo: str) -> None:
    proc = agent_event("copilot", event("copilot", "startup", repo), repo)
    assert "validate" not in (context_of("copilot", proc) or "")
