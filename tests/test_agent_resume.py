"""A resumed agent follows the OC Checkpoint Protocol's Resume Protocol: Orient (skill,
project, last session, status and summary, progress, first next action), Prime (key
decisions, the generated files of the current step, every blocker with its needs and
proposed resolution) and Confirm (go on, or stop and ask the user); and a tight re-read
budget keeps every skill's first next action, most urgent skill first. Each event is
one `asimov-hooks agent-event` call fed a documented Claude Code payload."""

from __future__ import annotations

import datetime
import json
import os

import pytest
from agent_support import answer, fixture, run_event
from conftest import GOOD_CHECKPOINT, commit_all, git_init, oc_checkpoint, run_script, write

ASK = '"Continue from here, restart, or show the full checkpoint?"'


def restart(repo: str, source: str = "compact") -> str:
    out = answer(run_event("claude", fixture("claude", f"session_start_{source}", repo), repo))
    assert out is not None
    return out["hookSpecificOutput"]["additionalContext"]


def days_ago(days: float) -> str:
    when = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=days)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    repo = git_init(tmp_path / "oc")
    write(repo, ".asimov-hooks.yaml", "agent:\n  turn-threshold: 30\n")
    return repo


def skill_file(repo: str, skill: str, **changes: object) -> None:
    write(repo, f".checkpoints/{skill}.checkpoint.json", oc_checkpoint(skill=skill, **changes))


DECISION = {
    "id": "b1",
    "description": "Evaluator flagged missing rate limiting on auth endpoints",
    "blocking": "sprint-2",
    "needs": "user_decision",
    "proposed_resolution": "Add rate-limit middleware in sprint 2 scope",
}
PRIMER = {
    "key_decisions": ["Stack: Hono + D1 + Workers. Auth: WebAuthn passkeys.", "Two users"],
    "generated_files": [
        "spec.md",
        "sprints/sprint-1/contract.md",
        "sprints/sprint-2/contract.md",
        "sprints/sprint-3/plan.md",
    ],
}


def test_blocked_on_a_user_decision_stops_and_asks_with_its_context(repo) -> None:
    skill_file(
        repo,
        "oc-app-architect",
        status="blocked",
        blockers=[DECISION],
        context_primer=PRIMER,
        next_actions=["Fix rate limiting gap flagged in blocker b1"],
    )
    context = restart(repo)
    # Orient
    for text in (
        "RESUMING: oc-app-architect on gtrack",
        "Last session: ",
        "(just now)",
        "Status: blocked \u2014 Sprint 1 passed. Sprint 2 is being built.",
        "Progress: 1/3 phases complete",
        "Next: Fix rate limiting gap flagged in blocker b1",
    ):
        assert text in context, text
    # Confirm: stop and ask, with the protocol's three choices
    assert "Confirm: stop and ask the user before any work on oc-app-architect" in context
    assert "status is blocked" in context and "blocker b1 needs a user decision" in context
    assert ASK in context
    assert "continue the task from it" not in context
    assert "Resuming from next_actions[0]" not in context
    # Prime: the key decisions, the blocker's needs and proposed resolution
    assert "Key decisions (this is your session context):" in context
    assert "Stack: Hono + D1 + Workers. Auth: WebAuthn passkeys." in context
    assert "b1 [needs: user_decision, blocking: sprint-2]" in context
    assert "proposed resolution: Add rate-limit middleware in sprint 2 scope" in context


def test_generated_files_of_the_current_step_only(repo) -> None:
    skill_file(repo, "oc-app-architect", context_primer=PRIMER)
    context = restart(repo)
    assert "spec.md" in context and "sprints/sprint-2/contract.md" in context
    assert "sprint-1/contract.md" not in context and "sprint-3/plan.md" not in context
    assert "2 generated files of other steps" in context


def test_a_decision_blocker_asks_even_while_in_progress(repo) -> None:
    skill_file(repo, "oc-app-architect", blockers=[DECISION])
    context = restart(repo)
    assert "blocker b1 needs a user decision" in context and ASK in context


def test_failed_asks(repo) -> None:
    skill_file(repo, "oc-deploy-ops", status="failed")
    context = restart(repo)
    assert "status is failed" in context and ASK in context


def test_stale_in_progress_asks_and_the_age_is_a_setting(repo) -> None:
    skill_file(repo, "oc-reverse-spec", updated_at=days_ago(11))
    context = restart(repo)
    assert "Last session: " in context and "(11d ago)" in context
    assert "stale: not updated for more than 7 days (11d)" in context and ASK in context
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "a", encoding="utf-8") as fh:
        fh.write("  stale-days: 30\n")
    context = restart(repo)
    assert ASK not in context and "stale" not in context
    assert 'say "Resuming from next_actions[0]: Read the evaluator report" and proceed' in context
    assert "continue the task from it" in context


def test_stale_follows_the_stale_checkpoint_rule_unless_the_agent_sets_its_own(repo) -> None:
    """One checkpoint is stale or not alike for validate, `oc` and the resumed agent."""
    skill_file(repo, "oc-reverse-spec", updated_at=days_ago(11))
    config = os.path.join(repo, ".asimov-hooks.yaml")
    with open(config, "a", encoding="utf-8") as fh:
        fh.write("rules:\n  stale-checkpoint: {days: 14}\n")
    context = restart(repo)
    assert ASK not in context and "stale" not in context
    listed = run_script("asimov-hooks", "oc", "list", "--format", "json", cwd=repo)
    assert json.loads(listed.stdout)["checkpoints"][0]["stale_days"] is None, listed.stdout
    with open(config, "w", encoding="utf-8") as fh:
        fh.write("agent:\n  turn-threshold: 30\nrules:\n  stale-checkpoint: {days: 3}\n")
    context = restart(repo)
    assert "stale: not updated for more than 3 days (11d)" in context and ASK in context
    with open(config, "w", encoding="utf-8") as fh:
        fh.write("agent:\n  stale-days: 30\nrules:\n  stale-checkpoint: {days: 3}\n")
    assert "stale" not in restart(repo)


def test_a_bad_stale_setting_is_one_line(repo) -> None:
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "a", encoding="utf-8") as fh:
        fh.write("  stale-days: 0\n")
    skill_file(repo, "oc-reverse-spec")
    payload = fixture("claude", "session_start_compact", repo)
    proc = run_event("claude", payload, repo)
    assert proc.returncode == 1 and "stale-days" in proc.stderr


SIX = {  # skill: (changes, its first next action); priority order of `oc next` below
    "oc-done": ({"status": "complete", "next_actions": []}, None),
    "oc-queued": ({"status": "complete", "next_actions": ["Offer the v2 roadmap"]}, None),
    "oc-failing": ({"status": "failed", "next_actions": ["Read the crash log first"]}, None),
    "oc-gate": ({"step": "sprint-2-review", "next_actions": ["Get the design sign-off"]}, None),
    "oc-plain": ({"next_actions": ["Wire the D1 migrations"]}, None),
    "oc-decide": (
        {
            "status": "blocked",
            "blockers": [DECISION],
            "next_actions": ["URGENT USER: pick the rate limit policy"],
        },
        None,
    ),
}
ORDER = ["oc-decide", "oc-failing", "oc-gate", "oc-plain", "oc-queued", "oc-done"]


def six_skills(repo: str) -> None:
    for i, (skill, (changes, _)) in enumerate(SIX.items()):
        # the complete one is the newest: recency must not put it first
        skill_file(repo, skill, updated_at=days_ago(0.01 * (len(SIX) - i)), **changes)


def test_a_tight_budget_keeps_every_next_action_most_urgent_first(repo) -> None:
    six_skills(repo)
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "a", encoding="utf-8") as fh:
        fh.write("  context-budget: 800\n")
    context = restart(repo)
    section = context[context.index("OC skills") : context.index("Checkpoint: first validate")]
    places = [section.index(f"- {skill} [") for skill in ORDER]
    assert places == sorted(places), section
    for changes, _ in SIX.values():
        for action in changes["next_actions"]:
            assert action in section, (action, section)
    assert "ASK FIRST: blocked, decision b1" in section and ASK in section
    assert "Not shown (800-character re-read budget): details of" in section
    assert "`asimov-hooks oc show SKILL`" in section
    assert len(section) <= 800 + 100  # the budget, with the section's own heading line


def test_details_go_to_the_most_urgent_skill_first(repo) -> None:
    six_skills(repo)
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "a", encoding="utf-8") as fh:
        fh.write("  context-budget: 1600\n")
    context = restart(repo)
    assert "RESUMING: oc-decide" in context  # the whole brief of the most urgent
    assert "RESUMING: oc-done" not in context and "- oc-done [" in context


def test_asimov_checkpoint_and_three_skills_fit_the_default_budget(tmp_path, agent_repo) -> None:
    write(agent_repo, "warmup.yaml", "identity:\n  project: gtrack\nmission: Ship it\n")
    commit_all(agent_repo, "the protocol files")
    # at the checkpoint's own caps (20 lines, ~750 tokens): it alone nearly fills the budget
    notes = "".join(f'  - "note {i}: {"a detail that matters " * 15}"\n' for i in range(7))
    big = GOOD_CHECKPOINT + "notes:\n" + notes
    assert big.count("\n") <= 20 and 2400 < len(big) <= 3000
    write(agent_repo, ".claude_checkpoint.yaml", big)
    long = "a step that says a good deal about what it is and why it matters " * 3
    actions = {
        "oc-one": "URGENT USER: confirm the billing provider",
        "oc-two": "Run the sprint 2 evaluator again",
        "oc-three": "Write the release notes for 1.4",
    }
    for skill, action in actions.items():
        skill_file(
            agent_repo,
            skill,
            progress_summary=long,
            context_primer={"key_decisions": [long] * 5, "generated_files": [long] * 5},
            next_actions=[action] + [long] * 4,
        )
    context = restart(agent_repo)
    assert GOOD_CHECKPOINT in context  # its head, the current state
    for action in actions.values():
        assert action in context, action
    assert "mission: Ship it" in context  # the warmup essentials still come back
