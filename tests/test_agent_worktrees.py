"""The project is the git work tree holding the payload's `cwd`: Claude Code's
$CLAUDE_PROJECT_DIR stays at the main checkout when a session enters a linked
worktree (its own `.claude/worktrees/<name>`, or one anywhere else), and the files
the agent then writes and re-reads are the worktree's. Each event is one
`asimov-hooks agent-event` process fed a documented payload, in real repositories
with real `git worktree`."""

from __future__ import annotations

import os

import pytest
from agent_support import age_turn, answer, fixture, run_event, turn_row
from conftest import GOOD_CHECKPOINT, commit_all, git, write

SESSION = "abc123de-4567-89ab-cdef-0123456789ab"
BAD = 'milestone: "Ship it"\nstatus: nonsense\n'


@pytest.fixture
def repo(agent_repo) -> str:
    commit_all(agent_repo, "protocol files")
    return agent_repo


def worktree(repo: str, where: str) -> str:
    git(repo, "worktree", "add", "-q", "-b", os.path.basename(where), where)
    return os.path.realpath(where)


def claude(payload: dict, run_in: str, repo: str) -> dict | None:
    return answer(run_event("claude", payload, run_in, CLAUDE_PROJECT_DIR=repo))


@pytest.mark.parametrize("inside", [False, True], ids=["elsewhere", "claude-worktrees"])
def test_bad_checkpoint_write_in_a_worktree_is_refused(repo, tmp_path, inside) -> None:
    where = os.path.join(repo, ".claude", "worktrees", "fix") if inside else tmp_path / "wt-fix"
    wt = worktree(repo, os.fspath(where))
    target = os.path.join(wt, ".claude_checkpoint.yaml")
    payload = fixture(
        "claude",
        "pre_tool_use_write",
        repo,
        cwd=wt,
        **{"tool_input.file_path": target, "tool_input.content": BAD},
    )
    out = claude(payload, wt, repo)
    assert out is not None, "the worktree's checkpoint write was not judged"
    specific = out["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "status" in specific["permissionDecisionReason"]
    assert not os.path.exists(target)


def test_reread_in_a_claude_worktree_is_the_worktrees_checkpoint(repo) -> None:
    wt = worktree(repo, os.path.join(repo, ".claude", "worktrees", "feature"))
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT.replace("Add feature X", "MAIN WORK"))
    write(wt, ".claude_checkpoint.yaml", GOOD_CHECKPOINT.replace("Add feature X", "WORKTREE WORK"))
    out = claude(fixture("claude", "session_start_compact", repo, cwd=wt), wt, repo)
    assert out is not None
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "WORKTREE WORK" in context and "MAIN WORK" not in context


def test_a_turn_survives_entering_a_worktree(repo) -> None:
    """Prompt in the main checkout, stop inside the worktree the session entered: one
    turn (kept with the declared project), judged on the worktree's files."""
    wt = worktree(repo, os.path.join(repo, ".claude", "worktrees", "feature"))
    assert claude(fixture("claude", "user_prompt_submit", repo, prompt="go"), repo, repo) is None
    age_turn(repo, SESSION, 40)
    out = claude(fixture("claude", "stop", repo, cwd=wt), wt, repo)
    assert out is not None and out["hookSpecificOutput"]["hookEventName"] == "Stop"
    assert turn_row(repo, SESSION)["checkpoints"] == 1
    # the worktree's checkpoint write counts as the turn's checkpoint
    write(wt, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    post = fixture(
        "claude",
        "post_tool_use_write",
        repo,
        cwd=wt,
        **{"tool_input.file_path": os.path.join(wt, ".claude_checkpoint.yaml")},
    )
    claude(post, wt, repo)
    assert turn_row(repo, SESSION)["checkpoints"] == 2
