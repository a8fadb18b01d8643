"""ADR-007 trims BEFORE each checkpoint write: where the agent lets a hook hand back a
changed tool input (Claude Code `updatedInput`, Codex CLI `updatedInput`, Gemini CLI
BeforeTool `tool_input`), a write the rolling window would trim carries the trimmed
content itself, and the items it cuts are in the archive before the write (edits and
multi-file patches: tests/test_agent_trim_edits.py). Each event is one
`asimov-hooks agent-event` process fed a documented payload."""

from __future__ import annotations

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
    archive = Path(repo, ARCHIVE).read_text(encoding="utf-8")
    for i in range(1, 8):  # the trim keeps the last 5 of the 12 completed items
        assert f"task {i}\n" in archive, i


@pytest.mark.parametrize("mode", ["acceptEdits", "default"])
def test_claude_write_carries_the_trimmed_content(repo, mode) -> None:
    payload = fixture(
        "claude",
        "pre_tool_use_write",
        repo,
        permission_mode=mode,
        **{"tool_input.file_path": os.path.join(repo, CHECKPOINT), "tool_input.content": BLOATED},
    )
    specific = answer(run_event("claude", payload, repo))["hookSpecificOutput"]
    # the user's own approval stays where Claude Code would ask for a Write anyway
    assert specific["permissionDecision"] == ("allow" if mode == "acceptEdits" else "ask")
    updated = specific["updatedInput"]
    assert updated["file_path"] == os.path.join(repo, CHECKPOINT)
    trimmed(updated["content"])
    archived(repo)  # cut items are archived before the write
    assert "trimmed your Write" in specific["additionalContext"]
    # the write lands as handed back: nothing left to trim after it
    write(repo, CHECKPOINT, updated["content"])
    post = fixture(
        "claude", "post_tool_use_write", repo, **{"tool_input.content": updated["content"]}
    )
    out = answer(run_event("claude", post, repo))
    assert out is None or "trimmed" not in out["hookSpecificOutput"]["additionalContext"]


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
    archived(repo)
