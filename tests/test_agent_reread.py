"""What a resumed agent is given back after a compaction, resume or fork: per OC
skill a brief (newest `updated_at` first, status, phase/step, blockers, next actions,
never `skill_state`), the Asimov checkpoint with the warmup essentials, a note on an
unknown `protocol_version`, and never a word telling the agent to stop. Each event is
one `asimov-hooks agent-event` process fed a documented payload."""

from __future__ import annotations

import os
import re
import time

import pytest
from agent_support import age_turn, answer, fixture, run_event
from conftest import GOOD_CHECKPOINT, commit_all, git_init, oc_checkpoint, write

SESSION = "abc123de-4567-89ab-cdef-0123456789ab"
WARMUP = """\
identity:
  project: gtrack
  tagline: "Track the gardens"
mission: "Ship a working tracker, one milestone at a time"
self_healing:
  checkpoint_file: ".claude_checkpoint.yaml"
  core_rules: "4hr max, 1 milestone, tests pass, ship it"
  on_confusion: "re-read warmup.yaml, then .claude_checkpoint.yaml"
coding_principles:
  verbose_section: "NOT AN ESSENTIAL"
"""


@pytest.fixture
def oc_repo(tmp_path, isolated_home) -> str:
    repo = git_init(tmp_path / "oc")
    write(repo, ".asimov-hooks.yaml", "agent:\n  turn-threshold: 30\n")
    newer = oc_checkpoint(
        skill="oc-newer",
        updated_at="2026-11-24T12:00:00Z",
        status="blocked",
        blockers=[{"id": "b1", "description": "waits for the API keys", "needs": "external_dep"}],
        next_actions=[
            "Ask for the API keys",
            {"text": "Run the sprint 2 evals", "done_when": "make"},
        ],
        skill_state={"private_telemetry": "SKILL-STATE-SECRET"},
    )
    older = oc_checkpoint(
        skill="oc-older",
        updated_at="2026-11-01T09:00:00Z",
        next_actions=["Tidy the docs"],
        skill_state={"private_telemetry": "SKILL-STATE-SECRET"},
    )
    write(repo, ".checkpoints/oc-newer.checkpoint.json", newer)
    time.sleep(0.05)
    # written last (newest file time) although its updated_at is older
    write(repo, ".checkpoints/oc-older.checkpoint.json", older)
    return repo


def restart(repo: str, source: str = "compact") -> str:
    out = answer(run_event("claude", fixture("claude", f"session_start_{source}", repo), repo))
    assert out is not None
    return out["hookSpecificOutput"]["additionalContext"]


def test_oc_briefs_most_urgent_first_without_skill_state(oc_repo) -> None:
    context = restart(oc_repo)
    # in progress (level 4 of `oc next`) before blocked on an outside party (not ranked)
    assert context.index("RESUMING: oc-older") < context.index("RESUMING: oc-newer")
    newer = context[context.index("RESUMING: oc-newer") :]
    assert "Status: blocked" in newer and "phase build-loop, step sprint-2" in newer
    assert "b1 [needs: external_dep]: waits for the API keys" in newer
    assert "Next: Ask for the API keys" in newer and "Run the sprint 2 evals" in newer
    assert "SKILL-STATE-SECRET" not in context and "skill_state" not in context
    assert "asimov-hooks trim" not in context  # trim does not touch OC files
    assert '"protocol_version"' not in context  # a brief, not the raw JSON


def test_unknown_protocol_version_is_named(oc_repo) -> None:
    write(
        oc_repo,
        ".checkpoints/oc-future.checkpoint.json",
        oc_checkpoint(skill="oc-future", protocol_version="9.0"),
    )
    context = restart(oc_repo, "resume")
    assert "protocol_version 9.0 is not one this asimov-hooks knows" in context
    assert context.count("is not one this asimov-hooks knows") == 1


@pytest.fixture
def asimov_repo(agent_repo: str) -> str:
    write(agent_repo, "warmup.yaml", WARMUP)
    commit_all(agent_repo, "the protocol files")  # a repository follows the protocol it commits
    write(agent_repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    return agent_repo


def test_asimov_checkpoint_comes_back_with_the_warmup_essentials(asimov_repo) -> None:
    context = restart(asimov_repo)
    assert GOOD_CHECKPOINT in context
    assert context.index("Add feature X") < context.index("identity.project: gtrack")
    for line in (
        "identity.tagline: Track the gardens",
        "mission: Ship a working tracker, one milestone at a time",
        "self_healing.core_rules: 4hr max, 1 milestone, tests pass, ship it",
        "self_healing.on_confusion: re-read warmup.yaml, then .claude_checkpoint.yaml",
    ):
        assert line in context
    assert "NOT AN ESSENTIAL" not in context


def test_the_essentials_are_configurable(asimov_repo) -> None:
    with open(os.path.join(asimov_repo, ".asimov-hooks.yaml"), "a", encoding="utf-8") as fh:
        fh.write("  warmup-essentials: [coding_principles.verbose_section]\n")
    context = restart(asimov_repo)
    assert "coding_principles.verbose_section: NOT AN ESSENTIAL" in context
    assert "identity.project" not in context


@pytest.mark.parametrize("repo_kind", ["asimov", "oc"])
def test_nothing_tells_the_agent_to_stop_work_in_progress(repo_kind, asimov_repo, oc_repo) -> None:
    """Work in progress and fresh: no word of stopping (the Resume Protocol's
    "continue automatically"); a blocked or stale skill is another matter
    (test_agent_resume)."""
    repo = asimov_repo if repo_kind == "asimov" else oc_repo
    if repo_kind == "oc":
        os.remove(os.path.join(repo, ".checkpoints/oc-newer.checkpoint.json"))
        write(repo, ".checkpoints/oc-older.checkpoint.json", oc_checkpoint(skill="oc-older"))
    texts = [restart(repo)]
    prompt = fixture("claude", "user_prompt_submit", repo, prompt="go on")
    assert answer(run_event("claude", prompt, repo)) is None
    age_turn(repo, SESSION, 40)
    out = answer(run_event("claude", fixture("claude", "stop", repo), repo))
    assert out is not None
    texts.append(out["hookSpecificOutput"]["additionalContext"])
    for text in texts:
        assert re.search(r"\bstop\b", text, re.IGNORECASE) is None, text
    if repo_kind == "oc":
        assert 'say "Resuming from next_actions[0]: Read the evaluator report"' in texts[0]
