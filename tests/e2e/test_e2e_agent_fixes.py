"""The real agents (the versions pinned in tests/e2e/agents/package-lock.json) against a
scripted model on 127.0.0.1, for what their real runs showed needed fixing: the
checkpoint request in the form each agent shows as a request (not an error), an OC
checkpoint written through the shell with `asimov-hooks oc update` counting as the
checkpoint, and the OC re-read after a resume being a brief without `skill_state`.
Asserts on what the model was told and on the files on disk."""

from __future__ import annotations

import json
import os

import pytest
from conftest import SCRIPTS, commit_all, git_init, oc_checkpoint, write
from e2e_agents import AGENTS
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    REQUEST,
    REQUEST_HEAD,
    THRESHOLD,
    agent,
    agent_commands,
    asks,
    install_hooks,
    ran,
    sink,
    worked,
)

OC = ".checkpoints/oc-e2e.checkpoint.json"


def test_the_request_is_not_shown_as_an_error(agent) -> None:  # noqa: F811
    script = [say("The feature is built.", before=worked(agent)), say("Nothing to add.")]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        assert asks(agent, srv) == [1]
        told = agent.told(srv, 1)
    assert REQUEST_HEAD in told
    assert "blocking error" not in told.lower() and "hook error" not in told.lower()


@pytest.fixture(params=sorted(AGENTS))
def oc_agent(request, tmp_path, agent_commands, sink):  # noqa: F811
    project = git_init(str(tmp_path / "oc-project"))
    write(
        project,
        OC,
        oc_checkpoint(
            skill="oc-e2e",
            step="sprint-1",
            next_actions=["Build sprint 2"],
            skill_state={"telemetry": "E2E-SKILL-STATE"},
        ),
    )
    write(
        project,
        ".asimov-hooks.yaml",
        f'agent:\n  turn-threshold: {THRESHOLD}\n  checkpoint-message: "{REQUEST}"\n',
    )
    write(project, "src/app.py", "print('hello')\n")
    commit_all(project, "init")
    made = AGENTS[request.param](agent_commands[request.param], project)
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def test_oc_update_through_the_shell_is_the_checkpoint(oc_agent) -> None:
    """Asked for the checkpoint, the agent works past the threshold and then writes it
    with `asimov-hooks oc update` through its shell: that is the checkpoint, so the stop
    right after it is not asked again (without it, the work would be)."""
    command = f"{os.path.join(SCRIPTS, 'asimov-hooks')} oc update oc-e2e --step=sprint-2"
    shell = oc_agent.shell(command)
    shell.before = worked(oc_agent)
    script = [say("Sprint 2 is built.", before=worked(oc_agent)), shell, say("Updated.")]
    if oc_agent.name == "claude":  # -p with acceptEdits runs no Bash it was not allowed
        argv = oc_agent.argv
        oc_agent.argv = lambda prompt, resume: [
            *argv(prompt, resume),
            "--allowedTools",
            "Bash",
        ]
    with oc_agent.server_class(script) as srv:
        ran(oc_agent.run(srv, "Build sprint 2."))
        assert srv.turns_used() == len(script), "the agent stopped early, or looped"
        assert len(srv.main_requests()) == len(script), "asked again after oc update"
        assert asks(oc_agent, srv) == [1]
    with open(os.path.join(oc_agent.project, OC), encoding="utf-8") as fh:
        assert json.load(fh)["step"] == "sprint-2", oc_agent.tool_results


def test_oc_resume_gives_a_brief_without_skill_state(oc_agent) -> None:
    with oc_agent.server_class([say("Hello.")]) as srv:
        ran(oc_agent.run(srv, "Say hello."))
        srv.load([say("Resumed.")])
        ran(oc_agent.run(srv, "Carry on.", resume=True))
        resumed = oc_agent.told(srv)
    assert "RESUMING: oc-e2e" in resumed and "Build sprint 2" in resumed
    assert "E2E-SKILL-STATE" not in resumed
    assert REQUEST_HEAD in resumed
