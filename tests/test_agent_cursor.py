"""Cursor's hooks beyond the turn timer's shared sequences (tests/test_agent_others.py):
the refusal before a write (preToolUse), the word to the agent after it (postToolUse),
the cap on checkpoint requests per prompt whatever `loop_count` says, the restart
re-read at sessionStart, and Cursor's run of Claude Code's hooks (the Claude Code hook
stands aside). Each event is a separate `asimov-hooks agent-event` call fed a
payload shaped as Cursor documents it (tests/data/agents/cursor/, CONTRACTS.md), in
real git repositories.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from agent_support import age_turn, answer, fixture, run_event, turn_row
from conftest import GOOD_CHECKPOINT, run_script, write

THRESHOLD = 30
SESSION = "cdefee2d-2727-4b73-bf77-d9d830f31d2a"  # the fixtures' conversation_id
CAP = 3  # checkpoint requests after one real prompt (agents/cursor.py FOLLOWUP_CAP)
BROKEN = GOOD_CHECKPOINT.replace("tool_calls: 45", "tool_calls: -3")
BLOATED = (
    "milestone: Ship the agent hooks\nstatus: in_progress\ncompleted:\n"
    + "".join(f"  - task {i}\n" for i in range(1, 13))
    + "in_progress: wiring\nnext_steps:\n  - review\n"
)


@pytest.fixture
def repo(checkpoint_repo) -> str:
    return checkpoint_repo


def cursor(payload: dict, repo: str) -> dict | None:
    return answer(run_event("cursor", payload, repo))


def checkpoint(repo: str) -> str:
    return Path(repo, ".claude_checkpoint.yaml").read_text(encoding="utf-8")


# ------------------------------------------------------------------ preToolUse
def test_a_write_that_breaks_the_checkpoint_is_denied_with_a_reason(repo: str) -> None:
    path = os.path.join(repo, ".claude_checkpoint.yaml")
    payload = fixture("cursor", "pre_tool_use_write", repo, **{"tool_input.content": BROKEN})
    out = cursor(payload, repo) or {}
    assert out.get("permission") == "deny"
    assert "tool_calls" in out["agent_message"]  # the agent reads why
    assert "tool_calls" in out["user_message"]
    assert checkpoint(repo) == GOOD_CHECKPOINT
    good = GOOD_CHECKPOINT.replace("tool_calls: 45", "tool_calls: 46")
    fine = fixture("cursor", "pre_tool_use_write", repo, **{"tool_input.content": good})
    assert cursor(fine, repo) is None  # no explicit allow: the user's approval stays
    relative = fixture(
        "cursor",
        "pre_tool_use_write",
        repo,
        **{"tool_input.file_path": ".claude_checkpoint.yaml", "tool_input.content": BROKEN},
    )
    assert (cursor(relative, repo) or {}).get("permission") == "deny"
    assert os.path.exists(path)


def test_a_replacement_is_judged_on_the_text_it_leaves(repo: str) -> None:
    fine = fixture("cursor", "pre_tool_use_str_replace", repo)
    assert cursor(fine, repo) is None
    bad = fixture("cursor", "pre_tool_use_str_replace", repo, **{"tool_input.new_string": "x: ["})
    assert (cursor(bad, repo) or {}).get("permission") == "deny"
    missing = fixture(
        "cursor", "pre_tool_use_str_replace", repo, **{"tool_input.old_string": "no such text"}
    )
    assert cursor(missing, repo) is None  # the tool refuses it by itself


def test_tools_that_write_no_protocol_file_are_silent(repo: str) -> None:
    write(repo, "src/app.py", "x = 1\n")
    other = fixture(
        "cursor",
        "pre_tool_use_write",
        repo,
        **{"tool_input.file_path": os.path.join(repo, "src/app.py"), "tool_input.content": "x: ["},
    )
    proc = run_event("cursor", other, repo)
    assert proc.stdout == "" and proc.stderr == ""
    # an input form that cannot be worked out before the write: left to the repair after
    unknown = fixture("cursor", "pre_tool_use_write", repo)
    unknown["tool_input"] = {"path": unknown["tool_input"]["file_path"], "diff": "@@ -1 +1 @@"}
    assert run_event("cursor", unknown, repo).stdout == ""


def test_a_command_that_writes_the_checkpoint_is_caught_after_it(repo: str) -> None:
    """Shell: the protocol files' state before the command, compared after it; what
    the command changed is trimmed, checked and reported to the agent."""
    before = run_event("cursor", fixture("cursor", "pre_tool_use_shell", repo), repo)
    assert before.stdout == "" and before.stderr == ""
    write(repo, ".claude_checkpoint.yaml", BLOATED)  # what the command did
    out = cursor(fixture("cursor", "post_tool_use_shell", repo), repo) or {}
    assert "trim" in out.get("additional_context", "").lower()
    assert "task 1\n" not in checkpoint(repo)
    quiet = fixture("cursor", "pre_tool_use_shell", repo, tool_use_id="toolu_2")
    assert run_event("cursor", quiet, repo).stdout == ""
    after = fixture("cursor", "post_tool_use_shell", repo, tool_use_id="toolu_2")
    assert run_event("cursor", after, repo).stdout == ""  # it changed nothing


# ApplyPatch: Cursor does not document its input; projects that receive it report a
# free-form patch as `tool_input`, or one under `patch` (no file named outside the patch)
PATCH = (
    "*** Begin Patch\n*** Update File: .claude_checkpoint.yaml\n@@\n-tool_calls: 45\n"
    "+tool_calls: 46\n*** End Patch\n"
)


@pytest.mark.parametrize("form", ["free-form", "patch"])
def test_an_apply_patch_is_watched_before_and_after_it(form: str, repo: str) -> None:
    """A write whose input names no file is not judged before it runs (the patch form
    is not documented); the protocol files are compared before and after it, as for a
    command: what it changed is trimmed, checked and reported to the agent."""
    tool_input = PATCH if form == "free-form" else {"patch": PATCH}

    def event(name: str, call: str) -> dict:
        payload = fixture("cursor", name, repo, tool_name="ApplyPatch", tool_use_id=call)
        payload["tool_input"] = tool_input
        return payload

    before = run_event("cursor", event("pre_tool_use_write", "toolu_patch_1"), repo)
    assert before.stdout == "" and before.stderr == ""  # no refusal, no explicit allow
    write(repo, ".claude_checkpoint.yaml", BLOATED)  # what the patch did
    out = cursor(event("post_tool_use_write", "toolu_patch_1"), repo) or {}
    assert "trim" in out.get("additional_context", "").lower()
    assert "task 1\n" not in checkpoint(repo) and "task 12" in checkpoint(repo)
    assert run_event("cursor", event("pre_tool_use_write", "toolu_patch_2"), repo).stdout == ""
    write(repo, ".claude_checkpoint.yaml", BROKEN)
    out = cursor(event("post_tool_use_write", "toolu_patch_2"), repo) or {}
    assert "tool_calls" in out.get("additional_context", "")
    assert run_event("cursor", event("pre_tool_use_write", "toolu_patch_3"), repo).stdout == ""
    quiet = run_event("cursor", event("post_tool_use_write", "toolu_patch_3"), repo)
    assert quiet.stdout == ""  # it changed nothing


# ------------------------------------------------------------------ postToolUse
def test_after_a_write_the_agent_is_told_what_was_trimmed_and_what_is_wrong(repo: str) -> None:
    write(repo, ".claude_checkpoint.yaml", BLOATED)
    out = cursor(fixture("cursor", "post_tool_use_write", repo), repo) or {}
    text = checkpoint(repo)
    assert "task 1\n" not in text and "task 12" in text  # trimmed after the write
    assert "trim" in out.get("additional_context", "").lower()
    write(repo, ".claude_checkpoint.yaml", BROKEN)
    out = cursor(fixture("cursor", "post_tool_use_write", repo), repo) or {}
    assert "tool_calls" in out.get("additional_context", "")


def test_after_file_edit_still_repairs_for_the_hooks_output_channel(repo: str) -> None:
    """afterFileEdit (an earlier install's entry) has no answer Cursor reads: the file
    is repaired and the user's Hooks output channel gets the report."""
    write(repo, ".claude_checkpoint.yaml", BLOATED)
    proc = run_event("cursor", fixture("cursor", "after_file_edit", repo), repo)
    assert proc.stdout == "" and "trim" in proc.stderr.lower()
    assert "task 1\n" not in checkpoint(repo)


# ------------------------------------------------------------------ stop and its cap
def prompt(repo: str, text: str | None = None) -> None:
    changes = {"prompt": text} if text is not None else {}
    assert cursor(fixture("cursor", "before_submit_prompt", repo, **changes), repo) == {
        "continue": True
    }


def stop(repo: str, **changes: object) -> str | None:
    out = cursor(fixture("cursor", "stop", repo, **changes), repo) or {}
    return out.get("followup_message")


@pytest.mark.parametrize("loop_count", [0, 1, 5, 40])
def test_loop_count_never_silences_the_timer(loop_count: int, repo: str) -> None:
    """Whether Cursor resets `loop_count` per message or counts the whole conversation,
    a new prompt's substantial work is asked about."""
    prompt(repo)
    age_turn(repo, SESSION, THRESHOLD + 1)
    assert stop(repo, loop_count=loop_count)


def test_at_most_the_cap_of_requests_follow_one_prompt(repo: str) -> None:
    prompt(repo)
    message = None
    for count in range(CAP):
        age_turn(repo, SESSION, THRESHOLD + 1)
        message = stop(repo, loop_count=count)
        assert message, count
        prompt(repo, message)  # Cursor submits the follow-up as the next prompt
        assert stop(repo, loop_count=count + 1) is None  # a quick answer: not again
    age_turn(repo, SESSION, THRESHOLD + 1)
    assert stop(repo, loop_count=CAP) is None  # capped, however long the work
    assert turn_row(repo, SESSION)["checkpoints"] == CAP
    prompt(repo, "Now the docs, please.")  # a real prompt: a new allowance
    age_turn(repo, SESSION, THRESHOLD + 1)
    assert stop(repo, loop_count=CAP + 1) == message


# ------------------------------------------------------------------ sessionStart
def test_documented_session_start_is_a_plain_start(repo: str) -> None:
    proc = run_event("cursor", fixture("cursor", "session_start", repo), repo)
    assert proc.stdout == ""


@pytest.mark.parametrize("source", ["compact", "resume"])
def test_session_start_with_a_restart_source_rereads_the_checkpoint(source: str, repo: str) -> None:
    out = cursor(fixture("cursor", "session_start", repo, source=source), repo) or {}
    context = out.get("additional_context", "")
    assert "Task 9: benchmark the hot path" in context  # the checkpoint, re-read
    assert "validate" in context  # and the request for a fresh one


# ------------------------------------------------------------------ Cursor runs Claude's hooks
def as_cursor_runs_claude(payload: dict, name: str, repo: str) -> dict:
    """A Claude Code hook's payload as Cursor sends it: its own common fields."""
    common = fixture("cursor", "stop", repo)
    for key in ("conversation_id", "generation_id", "cursor_version", "workspace_roots"):
        payload[key] = common[key]
    payload["hook_event_name"] = name
    return payload


@pytest.mark.parametrize("name", ["PreToolUse", "preToolUse"])
def test_claude_hook_stands_aside_for_a_cursor_write(name: str, repo: str) -> None:
    bad = {"tool_input.content": BROKEN}
    claude = fixture("claude", "pre_tool_use_write", repo, **bad)
    denied = answer(run_event("claude", claude, repo)) or {}
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"  # Claude Code's own
    via_cursor = as_cursor_runs_claude(
        fixture("claude", "pre_tool_use_write", repo, **bad), name, repo
    )
    proc = run_event("claude", via_cursor, repo)
    assert proc.stdout == "" and proc.stderr == ""
    assert checkpoint(repo) == GOOD_CHECKPOINT


@pytest.mark.parametrize("name", ["Stop", "stop"])
def test_claude_hook_stands_aside_for_a_cursor_stop(name: str, repo: str) -> None:
    session = "abc123de-4567-89ab-cdef-0123456789ab"  # the Claude Code fixtures'
    assert answer(run_event("claude", fixture("claude", "user_prompt_submit", repo), repo)) is None
    age_turn(repo, session, THRESHOLD + 1)
    via_cursor = as_cursor_runs_claude(fixture("claude", "stop", repo), name, repo)
    via_cursor["session_id"] = session
    proc = run_event("claude", via_cursor, repo)
    assert proc.stdout == "" and proc.stderr == ""
    assert turn_row(repo, session)["checkpoints"] == 0  # nothing asked, nothing recorded
    own = answer(run_event("claude", fixture("claude", "stop", repo), repo)) or {}
    assert "validate" in own["hookSpecificOutput"]["additionalContext"]  # as before


def test_doctor_reports_cursor_running_the_claude_code_hooks(repo: str) -> None:
    for name in ("claude", "cursor"):
        done = run_script("asimov-hooks", "agent", "install", "--agent", name, cwd=repo)
        assert done.returncode == 0, done.stderr
    doctor = run_script("asimov-hooks", "doctor", cwd=repo)
    lines = [line for line in doctor.stdout.splitlines() if "Cursor also runs" in line]
    assert len(lines) == 1, doctor.stdout
    assert ".claude/settings.json" in lines[0] and ".cursor/hooks.json" in lines[0]
    assert "answers nothing" in lines[0]
    gone = run_script("asimov-hooks", "agent", "uninstall", "--agent", "cursor", cwd=repo)
    assert gone.returncode == 0, gone.stderr
    doctor = run_script("asimov-hooks", "doctor", cwd=repo)
    assert "Cursor also runs" not in doctor.stdout


def test_installed_stop_entry_lifts_cursors_own_cap(repo: str) -> None:
    done = run_script("asimov-hooks", "agent", "install", "--agent", "cursor", cwd=repo)
    assert done.returncode == 0, done.stderr
    hooks = json.loads(Path(repo, ".cursor", "hooks.json").read_text(encoding="utf-8"))["hooks"]
    assert hooks["stop"][0]["loop_limit"] is None
    assert "afterFileEdit" not in hooks
    assert {hooks[e][0].get("matcher") for e in ("preToolUse", "postToolUse")} == {
        "Write|StrReplace|Shell"
    }
