"""After the agent writes a checkpoint, it is told only what the write changed: the
findings it introduced or made worse, one line each, and a count of those it left as
they were with the command that lists them. The OC checkpoint's standing drift warnings
(a dozen generated files not on disk) are not repeated on every `oc update`. Each event
is one `asimov-hooks agent-event` call; the shell commands run for real in between."""

from __future__ import annotations

import subprocess

import pytest
from agent_support import answer, fixture, run_event
from conftest import GOOD_CHECKPOINT, commit_all, git_init, oc_checkpoint, script_env, write

OC = ".checkpoints/oc-app-architect.checkpoint.json"
MISSING = [f"sprints/sprint-2/report-{i}.md" for i in range(12)]


def hook(payload: dict, repo: str) -> dict | None:
    return answer(run_event("claude", payload, repo))


def told(out: dict | None) -> str:
    assert out is not None, "expected an answer"
    return out["hookSpecificOutput"]["additionalContext"]


def run_shell(repo: str, command: str) -> dict | None:
    before = fixture("claude", "pre_tool_use_bash", repo, **{"tool_input.command": command})
    assert hook(before, repo) is None
    subprocess.run(
        ["bash", "-c", command], cwd=repo, check=True, env=script_env(), capture_output=True
    )
    after = fixture("claude", "post_tool_use_bash", repo, **{"tool_input.command": command})
    return hook(after, repo)


@pytest.fixture
def oc_repo(tmp_path, isolated_home) -> str:
    repo = git_init(tmp_path / "oc")
    write(repo, ".asimov-hooks.yaml", "agent:\n  turn-threshold: 30\n")
    primer = {"key_decisions": ["Stack: Hono"], "generated_files": MISSING}
    write(repo, OC, oc_checkpoint(context_primer=primer))
    commit_all(repo, "the checkpoint")
    return repo


def test_oc_update_through_the_shell_says_only_what_it_changed(oc_repo) -> None:
    out = run_shell(oc_repo, "asimov-hooks oc update oc-app-architect --step=sprint-2-eval")
    text = told(out)
    assert "report-3.md" not in text  # the standing warnings are not repeated
    assert "nothing new or worse" in text
    assert "12 findings (0 errors, 12 warnings) left as they were" in text
    assert f"`asimov-validate {OC}` lists them" in text
    assert len(text) < 400, text
    # the command it names lists them
    listed = subprocess.run(
        ["asimov-validate", OC], cwd=oc_repo, env=script_env(), capture_output=True, text=True
    )
    assert listed.stdout.count("report-") >= 12, listed.stdout


def test_what_a_write_makes_worse_is_told_in_full(oc_repo) -> None:
    run_shell(oc_repo, "asimov-hooks oc update oc-app-architect --step=sprint-2-eval")
    out = run_shell(oc_repo, f'sed -i \'s/"status": "in_progress"/"status": "paused"/\' {OC}')
    text = told(out)
    lines = text.splitlines()
    assert lines[0] == f"asimov-hooks checked {OC}; new or worse after this Bash command:"
    news = [x for x in lines if x.startswith("- ")]
    assert news and all("report-" not in x for x in news), text
    assert any("status" in x and "error" in x for x in news), text
    assert "12 findings (0 errors, 12 warnings) left as they were" in text


def test_a_file_git_does_not_have_is_all_news_once(agent_repo) -> None:
    bad = GOOD_CHECKPOINT.replace("tool_calls: 45", "tool_calls: -3")
    write(agent_repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    first = told(
        run_shell(agent_repo, "sed -i 's/tool_calls: 45/tool_calls: -3/' .claude_checkpoint.yaml")
    )
    assert "- .claude_checkpoint.yaml:" in first and "tool_calls" in first
    content = bad.replace("Task 10: release notes", "Task 11: tag the release")
    payload = fixture(
        "claude",
        "post_tool_use_write",
        agent_repo,
        **{
            "tool_input.file_path": f"{agent_repo}/.claude_checkpoint.yaml",
            "tool_input.content": content,
        },
    )
    write(agent_repo, ".claude_checkpoint.yaml", content)
    second = told(hook(payload, agent_repo))
    assert "- .claude_checkpoint.yaml:" not in second, second
    assert "nothing new or worse; 1 finding (1 error, 0 warnings) left as it was" in second


def test_another_session_is_told_everything(agent_repo) -> None:
    """What one conversation was told is not what another knows."""
    write(agent_repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    run_shell(agent_repo, "sed -i 's/tool_calls: 45/tool_calls: -3/' .claude_checkpoint.yaml")
    command = "sed -i 's/Task 10/Task 11/' .claude_checkpoint.yaml"
    again = told(run_shell(agent_repo, command))
    assert "- .claude_checkpoint.yaml:" not in again  # this session was told
    fields = {"session_id": "another-session", "tool_input.command": command}
    assert hook(fixture("claude", "pre_tool_use_bash", agent_repo, **fields), agent_repo) is None
    subprocess.run(
        ["bash", "-c", command.replace("10", "11").replace("11/", "12/")],
        cwd=agent_repo,
        check=True,
    )
    other = told(hook(fixture("claude", "post_tool_use_bash", agent_repo, **fields), agent_repo))
    assert "- .claude_checkpoint.yaml:" in other and "tool_calls" in other
