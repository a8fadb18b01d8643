"""`asimov-hooks agent-event --agent copilot` fed the payloads the real GitHub Copilot CLI
1.0.102 sent its hooks (recorded in a headless run against a scripted model:
tests/data/agents/copilot/real-1.0.102/, their differences from the documented ones in
CONTRACTS.md): `toolArgs` an object, agentStop with `stopReason` and `stop_hook_active`,
sessionStart with `initialPrompt`. Each event a separate process, in a real git
repository, with the turn timer's stored times moved into the past instead of sleeping."""

from __future__ import annotations

from pathlib import Path

import pytest
from agent_support import agent_event, fixture, output, work
from conftest import GOOD_CHECKPOINT, write

RECORDED = "real-1.0.102"
OVERSIZED = GOOD_CHECKPOINT.replace(
    'milestone: "Add feature X"',
    "milestone: |\n" + "".join(f"  step {i}\n" for i in range(40)),
)
BLOATED = (
    "milestone: Ship the agent hooks\nstatus: in_progress\ncompleted:\n"
    + "".join(f"  - task {i}\n" for i in range(1, 13))
    + "in_progress: wiring\nnext_steps:\n  - review\n"
)


@pytest.fixture
def repo(checkpoint_repo: str) -> str:
    return checkpoint_repo


def recorded(name: str, repo: str, **fields: object) -> dict:
    return fixture("copilot", f"{RECORDED}/{name}", repo, **fields)


def answer(name: str, repo: str, **fields: object) -> dict | None:
    return output(agent_event("copilot", recorded(name, repo, **fields), repo))


def checkpoint(repo: str) -> str:
    return Path(repo, ".claude_checkpoint.yaml").read_text(encoding="utf-8")


def test_recorded_edit_is_judged_with_its_object_arguments(repo: str) -> None:
    assert answer("pre_tool_use_edit", repo) is None  # tool_calls 45 -> 46: fine, no verdict
    args = {
        "path": str(Path(repo, ".claude_checkpoint.yaml")),
        "old_str": GOOD_CHECKPOINT,
        "new_str": OVERSIZED,
    }
    out = answer("pre_tool_use_edit", repo, toolArgs=args) or {}
    assert out.get("permissionDecision") == "deny"
    assert "max-lines-hard" in out.get("permissionDecisionReason", "")
    assert checkpoint(repo) == GOOD_CHECKPOINT


def test_recorded_post_tool_events_tell_the_agent(repo: str) -> None:
    write(repo, ".claude_checkpoint.yaml", BLOATED)  # what the edit left
    out = answer("post_tool_use_edit", repo) or {}
    assert "trim" in out.get("additionalContext", "").lower()
    assert "task 1\n" not in checkpoint(repo) and "task 12" in checkpoint(repo)
    # a command: the protocol files before it, compared after it
    assert answer("pre_tool_use_bash", repo) is None
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT.replace("tool_calls: 45", "x: ["))
    out = answer("post_tool_use_bash", repo) or {}
    assert ".claude_checkpoint.yaml" in out.get("additionalContext", "")


def test_recorded_stop_and_prompt_drive_the_turn_timer(repo: str) -> None:
    assert answer("user_prompt_submitted", repo) is None
    assert answer("agent_stop", repo) is None  # a quick turn
    work(repo)
    out = answer("agent_stop", repo) or {}
    assert out.get("decision") == "block" and ".claude_checkpoint.yaml" in out.get("reason", "")
    assert answer("agent_stop", repo, stop_hook_active=True) is None  # not asked again at once


def test_recorded_session_start_rereads_only_on_resume(repo: str) -> None:
    assert answer("session_start", repo) is None  # source "new"
    out = answer("session_start_resume", repo) or {}
    assert "Add feature X" in out.get("additionalContext", "")
    proc = agent_event("copilot", recorded("session_end", repo), repo)
    assert proc.stdout == ""
