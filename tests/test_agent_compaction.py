"""Before and after a compaction: the summary is asked to keep what the checkpoint does
not hold yet (Claude Code's PreCompact stdout, Qwen Code's additionalContext), the
compaction is recorded, and an agent that gives no session start after it gets the
checkpoint back at its next prompt, once (Gemini CLI after a requested compression);
Copilot CLI, whose prompt hook cannot add context, is asked for a fresh checkpoint at
its next stop. Each event is one `asimov-hooks agent-event` call fed a documented
payload (tests/data/agents/)."""

from __future__ import annotations

import pytest
from agent_support import answer, fixture, run_event
from conftest import GOOD_CHECKPOINT, write

REQUEST = "Checkpoint: first validate your work"


@pytest.fixture
def repo(agent_repo) -> str:
    write(agent_repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    return agent_repo


def event(agent: str, name: str, repo: str, **fields: object) -> dict | None:
    return answer(run_event(agent, fixture(agent, name, repo, **fields), repo))


def context(out: dict | None) -> str:
    assert out is not None, "expected an answer"
    return out["hookSpecificOutput"]["additionalContext"]


def test_claude_precompact_gives_the_summary_its_instructions(repo) -> None:
    proc = run_event("claude", fixture("claude", "pre_compact", repo), repo)
    assert proc.returncode == 0 and proc.stderr == ""
    text = proc.stdout  # plain text: Claude Code adds it to the summary's instructions
    assert text.startswith("Keep in this summary what a fresh checkpoint needs.")
    assert ".claude_checkpoint.yaml" in text and "last written before this session" in text
    assert not text.lstrip().startswith("{")


def test_claude_gets_the_reread_once_at_session_start_not_again(repo) -> None:
    assert run_event("claude", fixture("claude", "pre_compact", repo), repo).stdout
    assert "Session compact" in context(event("claude", "session_start_compact", repo))
    # the session start gave it: the next prompt does not give it again
    assert event("claude", "user_prompt_submit", repo, prompt="go on") is None


def test_gemini_requested_compression_hands_the_checkpoint_back_once(repo) -> None:
    out = run_event("gemini", fixture("gemini", "pre_compress", repo), repo)
    assert out.returncode == 0 and out.stdout == ""  # its output is ignored: none given
    first = context(event("gemini", "before_agent", repo, prompt="carry on"))
    assert "Session compact: your checkpoint, re-read for you" in first
    assert GOOD_CHECKPOINT in first and REQUEST in first
    assert event("gemini", "before_agent", repo, prompt="and then?") is None  # once


def test_gemini_automatic_precompress_is_not_a_compression(repo) -> None:
    """Gemini CLI fires it before every model request, compressing or not."""
    out = run_event("gemini", fixture("gemini", "pre_compress", repo, trigger="auto"), repo)
    assert out.returncode == 0 and out.stdout == ""
    assert event("gemini", "before_agent", repo, prompt="carry on") is None


def test_gemini_checkpoint_request_prompt_carries_the_reread(repo) -> None:
    """AfterAgent's request comes back as a prompt: the re-read goes with it."""
    event("gemini", "pre_compress", repo)
    from asimov_hooks.agent.runtime.common import agent_settings
    from asimov_hooks.config.config import load_config

    message = agent_settings(load_config(None, start=repo))["checkpoint-message"]
    request = message.replace("{files}", ".claude_checkpoint.yaml")
    assert "Session compact" in context(event("gemini", "before_agent", repo, prompt=request))


def test_qwen_without_a_session_start_gets_it_at_the_next_prompt(repo) -> None:
    out = event("qwen", "pre_compact", repo)
    assert "Keep in this summary" in context(out)
    first = context(event("qwen", "user_prompt_submit", repo, prompt="carry on"))
    assert "Session compact" in first and GOOD_CHECKPOINT in first
    assert event("qwen", "user_prompt_submit", repo, prompt="more") is None


def test_qwen_session_start_after_the_compaction_gives_it_instead(repo) -> None:
    event("qwen", "pre_compact", repo)
    assert "Session compact" in context(
        event("qwen", "session_start_resume", repo, source="compact")
    )
    assert event("qwen", "user_prompt_submit", repo, prompt="carry on") is None


def test_codex_precompact_records_but_answers_nothing(repo) -> None:
    out = run_event("codex", fixture("codex", "pre_compact", repo), repo)
    assert out.returncode == 0 and out.stdout == ""  # no field of its output reaches the model


def test_copilot_is_asked_for_a_fresh_checkpoint_at_its_next_stop(repo) -> None:
    out = run_event("copilot", fixture("copilot", "pre_compact", repo), repo)
    assert out.returncode == 0 and out.stdout == ""
    stop = event("copilot", "agent_stop", repo)  # under the turn timer's threshold
    assert stop is not None and stop["decision"] == "block"
    assert stop["reason"].startswith("The conversation was compacted. " + REQUEST)
    assert event("copilot", "agent_stop", repo) is None  # once


def test_a_repository_without_a_checkpoint_protocol_is_left_alone(tmp_path, isolated_home) -> None:
    from conftest import git_init

    plain = git_init(tmp_path / "plain")
    proc = run_event("claude", fixture("claude", "pre_compact", plain), plain)
    assert proc.returncode == 0 and proc.stdout == ""
    assert event("gemini", "pre_compress", plain) is None
    assert event("gemini", "before_agent", plain, prompt="go") is None


def test_an_older_qwen_session_start_without_precompact_is_handed_back_at_the_prompt(repo) -> None:
    """Qwen Code 0.15.10 fires SessionStart `compact` but drops its answer, and has no
    PreCompact: the next prompt gives the checkpoint back, once."""
    event("qwen", "session_start_resume", repo, source="compact")
    first = context(event("qwen", "user_prompt_submit", repo, prompt="carry on"))
    assert "Session compact" in first and GOOD_CHECKPOINT in first
    assert event("qwen", "user_prompt_submit", repo, prompt="more") is None


def test_records_nothing_claimed_for_a_week_are_dropped_at_a_session_start(repo) -> None:
    import glob
    import os
    import time

    from asimov_hooks.agent.runtime.turnlog import state_dir

    event("gemini", "pre_compress", repo)  # a compaction record
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT.replace("45", "-1"))
    payload = fixture("claude", "post_tool_use_write", repo)
    payload["tool_input"]["file_path"] = os.path.join(repo, ".claude_checkpoint.yaml")
    run_event("claude", payload, repo)  # what the session was told about the file
    base = state_dir(repo)
    records = glob.glob(os.path.join(base, "compactions", "*")) + glob.glob(
        os.path.join(base, "told", "*")
    )
    assert len(records) == 2, records
    week = time.time() - 8 * 24 * 3600
    os.utime(records[0], (week, week))
    event("claude", "session_start_resume", repo)
    assert [os.path.exists(r) for r in records] == [False, True]
