"""The real Claude Code (the version pinned in tests/e2e/agents/) resumes a session in a
repository whose OC skill is blocked on a user decision, or stale: the model is told, as
the OC Resume Protocol asks, to stop and ask the user before any work on that skill, with
the skill's key decisions and the blocker's `needs` and proposed resolution. Against a
scripted model on 127.0.0.1; asserts on what the model was told after the resume.
Switched off (ASIMOV_E2E_OFF=start: no SessionStart hook), it fails."""

from __future__ import annotations

import datetime

import pytest
from conftest import commit_all, git_init, oc_checkpoint, write
from e2e_agents import AGENTS
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    REQUEST,
    THRESHOLD,
    agent_commands,
    install_hooks,
    ran,
    sink,
)

OC = ".checkpoints/oc-e2e.checkpoint.json"
ASK = '"Continue from here, restart, or show the full checkpoint?"'
DECISION = {
    "id": "b1",
    "description": "Rate limiting on the auth endpoints is missing",
    "blocking": "sprint-2",
    "needs": "user_decision",
    "proposed_resolution": "Add rate-limit middleware in sprint 2",
}
PRIMER = {
    "key_decisions": ["E2E-DECISION: Hono on Workers, passkeys for auth"],
    "generated_files": ["spec.md"],
}


def _old(days: int) -> str:
    when = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=days)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


CASES = {
    "decision": {"status": "blocked", "blockers": [DECISION]},
    "stale": {"updated_at": _old(11)},
}


@pytest.fixture(params=sorted(CASES))
def resumed_claude(request, tmp_path, agent_commands, sink):  # noqa: F811
    project = git_init(str(tmp_path / "oc-project"))
    checkpoint = oc_checkpoint(
        skill="oc-e2e", context_primer=PRIMER, next_actions=["Build sprint 2"]
    )
    checkpoint.update(CASES[request.param])
    write(project, OC, checkpoint)
    write(
        project,
        ".asimov-hooks.yaml",
        f'agent:\n  turn-threshold: {THRESHOLD}\n  checkpoint-message: "{REQUEST}"\n',
    )
    write(project, "src/app.py", "print('hello')\n")
    commit_all(project, "init")
    made = AGENTS["claude"](agent_commands["claude"], project)
    made.sink_url = sink.url
    install_hooks(made)
    yield request.param, made
    made.cleanup()


def test_a_resumed_session_is_told_to_stop_and_ask(resumed_claude) -> None:
    case, agent = resumed_claude
    with agent.server_class([say("Hello.")]) as srv:
        ran(agent.run(srv, "Say hello."))
        srv.load([say("Asking the user first.")])
        ran(agent.run(srv, "Carry on.", resume=True))
        told = agent.told(srv)
    assert "RESUMING: oc-e2e" in told
    assert "Confirm: stop and ask the user before any work on oc-e2e" in told
    assert ASK in told
    assert "E2E-DECISION: Hono on Workers, passkeys for auth" in told  # the key decisions
    assert "Resuming from next_actions[0]" not in told
    if case == "decision":
        assert "b1 [needs: user_decision, blocking: sprint-2]" in told
        assert "proposed resolution: Add rate-limit middleware in sprint 2" in told
    else:
        assert "stale: not updated for more than 7 days (11d)" in told


# the prompt size the scripted model reports to make the agent compact before its next call
COMPACTING = {"claude": 985_000, "qwen": 195_000}
KEEP = "Keep in this summary what a fresh checkpoint needs."


@pytest.fixture(params=sorted(COMPACTING))
def compacting(request, tmp_path, agent_commands, sink):  # noqa: F811
    from test_e2e_agents import make_project

    name = request.param
    made = AGENTS[name](agent_commands[name], make_project(str(tmp_path / "project")))
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def test_the_summary_is_asked_to_keep_what_the_checkpoint_lacks(compacting) -> None:
    """Claude Code adds PreCompact's output to the summary's instructions, Qwen Code its
    additionalContext: the compaction request the model gets carries the request to keep
    what a fresh checkpoint needs, naming the checkpoint (ASIMOV_E2E_OFF=compact: not)."""
    from e2e_agents import strings

    agent = compacting
    work = agent.shell("echo working")
    work.tokens = COMPACTING[agent.name]
    with agent.server_class([work, say("Done."), say("Done.")]) as srv:
        ran(agent.run(srv, "Build the feature."))
        compactions = [r for r in srv.requests if r.compaction]
    assert len(compactions) == 1, "the agent did not compact (or compacted twice)"
    asked = "\n".join(strings(compactions[0].body))
    assert KEEP in asked and ".claude_checkpoint.yaml" in asked
