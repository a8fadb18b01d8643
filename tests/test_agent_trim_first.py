"""ADR-007 trims BEFORE each checkpoint write: where the agent lets a hook hand back a
changed tool input (Claude Code `updatedInput`, Codex CLI `updatedInput`, Gemini CLI
BeforeTool `tool_input`), a write the rolling window would trim carries the trimmed
content itself, and the items it cuts reach the archive once the write has landed
(the hook after the write finds the trimmed content on disk), never for a write the
user's rules refused (edits and multi-file patches: tests/test_agent_trim_edits.py).
Each event is one `asimov-hooks agent-event` process fed a documented payload."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from agent_support import answer, fixture, run_event
from conftest import GOOD_CHECKPOINT, git_init, write

BLOATED = (
    "milestone: Ship the agent hooks\nstatus: in_progress\ncompleted:\n"
    + "".join(f"  - task {i}\n" for i in range(1, 13))
    + "in_progress: wiring\nnext_steps:\n  - review\n"
)
CHECKPOINT = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitignore", f"{CHECKPOINT}\n{ARCHIVE}\n")
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    return repo


def trimmed(text: str) -> None:
    assert "task 1\n" not in text and "task 12" in text and "in_progress: wiring" in text


def archived(repo: str) -> None:
    """The 7 items the trim cut are in the archive, each once."""
    archive = Path(repo, ARCHIVE).read_text(encoding="utf-8")
    for i in range(1, 8):  # the trim keeps the last 5 of the 12 completed items
        assert archive.count(f"task {i}\n") == 1, i
    for i in range(8, 13):
        assert f"task {i}\n" not in archive, i


def not_archived(repo: str) -> None:
    assert not Path(repo, ARCHIVE).exists() or "task 1\n" not in Path(repo, ARCHIVE).read_text()


def _claude_pre(repo: str, mode: str, call: str = "toolu_trim_1") -> dict:
    payload = fixture(
        "claude",
        "pre_tool_use_write",
        repo,
        permission_mode=mode,
        tool_use_id=call,
        **{"tool_input.file_path": os.path.join(repo, CHECKPOINT), "tool_input.content": BLOATED},
    )
    return answer(run_event("claude", payload, repo))["hookSpecificOutput"]


def _claude_post(repo: str, content: str, call: str = "toolu_trim_1") -> str:
    post = fixture(
        "claude", "post_tool_use_write", repo, tool_use_id=call, **{"tool_input.content": content}
    )
    out = answer(run_event("claude", post, repo))
    return out["hookSpecificOutput"]["additionalContext"] if out else ""


MODES = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"]


@pytest.mark.parametrize("mode", MODES)
def test_claude_write_carries_the_trimmed_content(repo, mode) -> None:
    specific = _claude_pre(repo, mode)
    # no decision: Claude Code runs the changed call through the user's own rules and
    # mode ("allow" would skip them, "ask" refuses a headless write)
    assert "permissionDecision" not in specific and "permissionDecisionReason" not in specific
    updated = specific["updatedInput"]
    assert updated["file_path"] == os.path.join(repo, CHECKPOINT)
    trimmed(updated["content"])
    not_archived(repo)  # the write may still be refused: nothing archived yet
    # the write lands as handed back: the hook after it archives the cut items, once
    write(repo, CHECKPOINT, updated["content"])
    told = _claude_post(repo, updated["content"])
    assert "asimov-hooks trimmed your Write of .claude_checkpoint.yaml before it" in told
    archived(repo)
    assert Path(repo, CHECKPOINT).read_text(encoding="utf-8") == updated["content"]
    _claude_post(repo, updated["content"])  # the same hook again: nothing archived twice
    archived(repo)


@pytest.mark.parametrize("mode", MODES)
def test_a_refused_write_archives_nothing(repo, mode) -> None:
    """The user's rules refuse the changed Write (no PostToolUse): nothing archived;
    a later write of the file by another call archives nothing of the refused one."""
    write(repo, CHECKPOINT, GOOD_CHECKPOINT)
    updated = _claude_pre(repo, mode, "toolu_refused")["updatedInput"]
    trimmed(updated["content"])
    assert Path(repo, CHECKPOINT).read_text(encoding="utf-8") == GOOD_CHECKPOINT
    not_archived(repo)
    changed = GOOD_CHECKPOINT.replace("in_progress", "blocked", 1)
    write(repo, CHECKPOINT, changed)
    told = _claude_post(repo, changed, "toolu_other")
    assert "before it was written" not in told
    not_archived(repo)


def test_a_write_that_landed_otherwise_archives_nothing(repo) -> None:
    """An agent without call ids: the file on disk is not the trimmed content (the user
    changed the write, or another write landed): nothing of the held trim is archived,
    and the trim after the write judges what is there."""
    write(repo, CHECKPOINT, GOOD_CHECKPOINT)
    payload = fixture("gemini", "before_tool_write_file", repo, **{"tool_input.content": BLOATED})
    answer(run_event("gemini", payload, repo))
    post = fixture("gemini", "after_tool_write_file", repo)
    out = answer(run_event("gemini", post, repo))
    assert "before it was written" not in json.dumps(out)
    not_archived(repo)
    # the record was used up: the trimmed content landing later is not this write's
    write(repo, CHECKPOINT, "milestone: x\nstatus: in_progress\n")
    answer(run_event("gemini", post, repo))
    not_archived(repo)


def test_gemini_write_file_carries_the_trimmed_content(repo) -> None:
    payload = fixture("gemini", "before_tool_write_file", repo, **{"tool_input.content": BLOATED})
    out = answer(run_event("gemini", payload, repo))
    assert "decision" not in out
    trimmed(out["hookSpecificOutput"]["tool_input"]["content"])
    # every argument, not only the content: Gemini CLI 0.61.0 validates the object as
    # the tool's whole set of arguments (tests/e2e: a write without file_path failed)
    assert (
        out["hookSpecificOutput"]["tool_input"]["file_path"] == payload["tool_input"]["file_path"]
    )
    not_archived(repo)
    content = out["hookSpecificOutput"]["tool_input"]["content"]
    write(repo, CHECKPOINT, content)
    post = fixture("gemini", "after_tool_write_file", repo)
    told = answer(run_event("gemini", post, repo))["hookSpecificOutput"]["additionalContext"]
    assert "trimmed your write_file of .claude_checkpoint.yaml before it was written" in told
    archived(repo)


@pytest.mark.parametrize("existing", [False, True])
def test_codex_apply_patch_carries_the_trimmed_content(repo, existing) -> None:
    from asimov_hooks.agent.agents.apply_patch import apply_patch

    if existing:
        write(repo, CHECKPOINT, GOOD_CHECKPOINT)
        old = "".join(f"-{line}\n" for line in GOOD_CHECKPOINT.splitlines())
        body = f"*** Update File: {CHECKPOINT}\n@@\n{old}"
    else:
        body = f"*** Add File: {CHECKPOINT}\n"
    body += "".join(f"+{line}\n" for line in BLOATED.splitlines())
    patch = f"*** Begin Patch\n{body}*** End Patch\n"
    payload = fixture("codex", "pre_tool_use_apply_patch", repo, **{"tool_input.command": patch})
    specific = answer(run_event("codex", payload, repo))["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    rewritten = specific["updatedInput"]["command"]
    current = GOOD_CHECKPOINT if existing else None
    result = apply_patch(rewritten, lambda name: current)
    trimmed(result[CHECKPOINT])
    not_archived(repo)
    write(repo, CHECKPOINT, result[CHECKPOINT])
    post = fixture("codex", "post_tool_use_apply_patch", repo, **{"tool_input.command": rewritten})
    told = answer(run_event("codex", post, repo))["hookSpecificOutput"]["additionalContext"]
    assert "trimmed your apply_patch of .claude_checkpoint.yaml before it was written" in told
    archived(repo)


# ------------------------------------------------ trims settled at the end of the turn
def _codex_shell_patch(repo: str) -> str:
    """Codex's PreToolUse of a patch run through the shell (Codex 0.169 runs no
    PostToolUse after such a command); the rewritten patch applied, as Codex does."""
    from asimov_hooks.agent.agents.apply_patch import apply_patch
    from asimov_hooks.agent.runtime.shellcmd import patches

    body = f"*** Add File: {CHECKPOINT}\n" + "".join(f"+{x}\n" for x in BLOATED.splitlines())
    command = f"apply_patch <<'EOF'\n*** Begin Patch\n{body}*** End Patch\nEOF\n"
    payload = fixture("codex", "pre_tool_use_bash", repo, **{"tool_input.command": command})
    rewritten = answer(run_event("codex", payload, repo))["hookSpecificOutput"]["updatedInput"]
    [(_, patch)] = patches(rewritten["command"])
    return apply_patch(patch, lambda name: None)[CHECKPOINT]


def _stop(repo: str, agent: str = "codex", **fields: object) -> None:
    answer(run_event(agent, fixture(agent, "stop", repo, **fields), repo))


def test_a_write_with_no_hook_after_it_is_archived_at_the_stop(repo) -> None:
    landed = _codex_shell_patch(repo)
    trimmed(landed)
    write(repo, CHECKPOINT, landed)
    not_archived(repo)
    _stop(repo)
    archived(repo)
    _stop(repo)  # settled once
    archived(repo)


def test_the_stop_drops_its_sessions_refused_writes_only(repo) -> None:
    write(repo, CHECKPOINT, GOOD_CHECKPOINT)
    _codex_shell_patch(repo)  # refused: nothing written
    held = Path(repo, ".git", "asimov-hooks", "trims")
    assert len(list(held.iterdir())) == 1
    _stop(repo, session_id="another-session")  # maybe still under way: left alone
    assert len(list(held.iterdir())) == 1
    _stop(repo)
    assert list(held.iterdir()) == []
    not_archived(repo)


def test_a_write_that_changes_nothing_archives_nothing_again(repo) -> None:
    """The same 12 items written twice: the first write lands trimmed and archives the
    cut items; the second leaves the file as it was (refused, or landed: the same
    bytes), and nothing is archived a second time."""
    specific = _claude_pre(repo, "default", "toolu_first")
    write(repo, CHECKPOINT, specific["updatedInput"]["content"])
    _claude_post(repo, specific["updatedInput"]["content"], "toolu_first")
    archived(repo)
    again = _claude_pre(repo, "default", "toolu_second")["updatedInput"]["content"]
    _claude_post(repo, again, "toolu_second")
    _stop(repo, "claude")
    archived(repo)


def test_an_archive_that_refuses_after_the_write_loses_nothing(repo) -> None:
    """The archive took the cut items when the write was judged, but not when it has
    landed (a merge left conflict markers in it meanwhile): the file gets back what
    the model's write would have left, and the trim after the write says why it
    cannot trim it. Nothing is lost."""
    updated = _claude_pre(repo, "default")["updatedInput"]["content"]
    write(repo, CHECKPOINT, updated)
    conflicted = "<<<<<<< ours\n- a: 1\n=======\n- b: 2\n>>>>>>> theirs\n"
    write(repo, ARCHIVE, conflicted)
    told = _claude_post(repo, updated)
    assert Path(repo, CHECKPOINT).read_text(encoding="utf-8") == BLOATED
    assert Path(repo, ARCHIVE).read_text(encoding="utf-8") == conflicted
    assert "conflict" in told and "before it was written" not in told
