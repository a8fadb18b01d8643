"""Protocol files written through an agent's shell tool, not its file tools: Codex's
`apply_patch` heredocs (the hook sees `tool_name: "Bash"`), `cat >` / `sed -i` /
`asimov-hooks oc update` run through Claude Code's Bash, Codex's shell and Gemini
CLI's run_shell_command. Each event is one `asimov-hooks agent-event` process fed a
documented payload (tests/data/agents/); the commands themselves run for real in
bash between the PreToolUse and PostToolUse events, as the agent would run them.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from agent_support import age_turn, answer, fixture, run_event, turn_row
from conftest import GOOD_CHECKPOINT, git_init, oc_checkpoint, script_env, write

BLOATED = (
    "milestone: Ship the agent hooks\nstatus: in_progress\ncompleted:\n"
    + "".join(f"  - task {i}\n" for i in range(1, 13))
    + "in_progress: wiring\nnext_steps:\n  - review\n"
)
SESSIONS = {
    "claude": "abc123de-4567-89ab-cdef-0123456789ab",
    "codex": "019a4f2e-7c3b-7d10-9a41-2b8e5c6d7f80",
    "gemini": "8c1f3b2a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
}
SHELL = {  # (before, after) fixtures of each agent's shell tool, and its command field
    "claude": ("pre_tool_use_bash", "post_tool_use_bash"),
    "codex": ("pre_tool_use_bash", "post_tool_use_bash"),
    "gemini": ("before_tool_run_shell_command", "after_tool_run_shell_command"),
}
PROMPT = {"claude": "user_prompt_submit", "codex": "user_prompt_submit", "gemini": "before_agent"}
STOP = {"claude": "stop", "codex": "stop", "gemini": "after_agent"}


@pytest.fixture
def repo(agent_repo) -> str:
    return agent_repo


def hook(agent: str, payload: dict, repo: str) -> dict | None:
    return answer(run_event(agent, payload, repo))


def context(agent: str, out: dict | None) -> str:
    assert out is not None, "expected an answer"
    return out["hookSpecificOutput"]["additionalContext"]


def denied(out: dict | None) -> str:
    assert out is not None, "the write was not judged"
    specific = out["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny", out
    return specific["permissionDecisionReason"]


def run_shell(agent: str, repo: str, command: str) -> dict | None:
    """PreToolUse, the command in bash, PostToolUse: the answer after it."""
    before, after = SHELL[agent]
    assert (
        hook(agent, fixture(agent, before, repo, **{"tool_input.command": command}), repo) is None
    )
    subprocess.run(
        ["bash", "-c", command], cwd=repo, check=True, env=script_env(), capture_output=True
    )
    return hook(agent, fixture(agent, after, repo, **{"tool_input.command": command}), repo)


def heredoc(patch_body: str, opener: str = "apply_patch <<'EOF'") -> str:
    return f"{opener}\n*** Begin Patch\n{patch_body}*** End Patch\nEOF\n"


# ------------------------------------------------------------------ Codex apply_patch heredocs
@pytest.mark.parametrize(
    "opener", ["apply_patch <<'EOF'", 'applypatch <<"EOF"', "apply_patch <<EOF"]
)
def test_codex_heredoc_patch_is_judged_like_the_tool(repo, opener) -> None:
    body = "*** Add File: .claude_checkpoint.yaml\n+milestone: x\n+status: nonsense\n"
    payload = fixture(
        "codex", "pre_tool_use_bash", repo, **{"tool_input.command": heredoc(body, opener)}
    )
    reason = denied(hook("codex", payload, repo))
    assert ".claude_checkpoint.yaml" in reason and "status" in reason


def test_codex_heredoc_after_cd_uses_that_directory(repo) -> None:
    os.makedirs(os.path.join(repo, "svc"))
    write(repo, "svc/.asimov-hooks.yaml", "agent:\n  turn-threshold: 30\n")
    body = "*** Add File: CLAUDE.md\n" + "".join(f"+line {i}\n" for i in range(40))
    command = "cd svc && " + heredoc(body)
    payload = fixture("codex", "pre_tool_use_bash", repo, **{"tool_input.command": command})
    assert "max-lines-hard" in denied(hook("codex", payload, repo))
    assert not os.path.exists(os.path.join(repo, "svc", "CLAUDE.md"))


def test_codex_good_heredoc_patch_passes_and_counts_as_the_checkpoint(repo) -> None:
    session = SESSIONS["codex"]
    hook("codex", fixture("codex", "user_prompt_submit", repo), repo)
    age_turn(repo, session, 40)
    body = "*** Add File: .claude_checkpoint.yaml\n" + "".join(
        f"+{line}\n" for line in GOOD_CHECKPOINT.splitlines()
    )
    command = heredoc(body)
    payload = fixture("codex", "pre_tool_use_bash", repo, **{"tool_input.command": command})
    assert hook("codex", payload, repo) is None
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)  # what Codex applies
    after = fixture("codex", "post_tool_use_bash", repo, **{"tool_input.command": command})
    hook("codex", after, repo)
    assert turn_row(repo, session)["checkpoints"] == 1
    assert hook("codex", fixture("codex", "stop", repo), repo) is None


def test_codex_other_shell_commands_say_nothing(repo) -> None:
    payload = fixture("codex", "pre_tool_use_bash", repo, **{"tool_input.command": "ls -la"})
    proc = run_event("codex", payload, repo)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""


# ------------------------------------------------------------------ shell writes, every agent
@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_shell_write_of_the_checkpoint_is_trimmed_checked_and_counted(agent, repo) -> None:
    session = SESSIONS[agent]
    hook(agent, fixture(agent, PROMPT[agent], repo), repo)
    age_turn(repo, session, 40)
    command = "cat > .claude_checkpoint.yaml <<'YAML'\n" + BLOATED + "YAML\n"
    out = run_shell(agent, repo, command)
    text = Path(repo, ".claude_checkpoint.yaml").read_text(encoding="utf-8")
    assert "task 1\n" not in text and "task 12" in text  # trimmed right after the command
    archive = Path(repo, ".claude_checkpoint.archive.yaml").read_text(encoding="utf-8")
    assert "task 1\n" in archive  # nothing lost
    assert "trimmed .claude_checkpoint.yaml" in context(agent, out)
    assert turn_row(repo, session)["checkpoints"] == 1  # the shell write was the checkpoint
    assert hook(agent, fixture(agent, STOP[agent], repo), repo) is None


@pytest.mark.parametrize("agent", ["claude", "gemini"])
def test_sed_in_place_that_breaks_the_checkpoint_is_reported(agent, repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    out = run_shell(
        agent, repo, "sed -i 's/status: in_progress/status: nonsense/' .claude_checkpoint.yaml"
    )
    assert "status" in context(agent, out) and "error" in context(agent, out)


def test_shell_command_that_changes_no_protocol_file_says_nothing(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    assert run_shell("claude", repo, "echo hello > notes.txt") is None


# ------------------------------------------------------------------ OC writers through the shell
OC = ".checkpoints/oc-app-architect.checkpoint.json"


@pytest.fixture
def oc_repo(tmp_path, isolated_home) -> str:
    repo = git_init(tmp_path / "oc")
    write(repo, ".asimov-hooks.yaml", "agent:\n  turn-threshold: 30\n")
    write(repo, OC, oc_checkpoint())
    return repo


def test_oc_update_through_the_shell_counts_as_the_checkpoint(oc_repo) -> None:
    session = SESSIONS["claude"]
    hook("claude", fixture("claude", "user_prompt_submit", oc_repo), oc_repo)
    age_turn(oc_repo, session, 40)
    run_shell("claude", oc_repo, "asimov-hooks oc update oc-app-architect --step=sprint-3")
    assert json.loads(Path(oc_repo, OC).read_text(encoding="utf-8"))["step"] == "sprint-3"
    assert turn_row(oc_repo, session)["checkpoints"] == 1
    assert hook("claude", fixture("claude", "stop", oc_repo), oc_repo) is None


@pytest.mark.parametrize(
    "command", ["oc done oc-app-architect", "oc update oc-app-architect --step=s9"]
)
def test_oc_writer_counts_even_without_the_record_from_before(oc_repo, command) -> None:
    """PostToolUse alone (the PreToolUse hook did not run): the documented writer in
    the command still counts as the checkpoint."""
    session = SESSIONS["claude"]
    hook("claude", fixture("claude", "user_prompt_submit", oc_repo), oc_repo)
    age_turn(oc_repo, session, 40)
    full = f"asimov-hooks {command}"
    subprocess.run(full.split(), cwd=oc_repo, env=script_env(), capture_output=True, check=False)
    after = fixture("claude", "post_tool_use_bash", oc_repo, **{"tool_input.command": full})
    hook("claude", after, oc_repo)
    assert turn_row(oc_repo, session)["checkpoints"] == 1
    assert hook("claude", fixture("claude", "stop", oc_repo), oc_repo) is None
