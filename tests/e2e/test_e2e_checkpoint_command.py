"""`/checkpoint` in the real agents: `asimov-hooks agent install` in an Asimov repository, the
user types the agent's form of the command (`/checkpoint` in Claude Code and Gemini CLI,
`$checkpoint` in Codex CLI), and the scripted model runs the command line the installed
text gave it. Asserted: what the agent told the model (the installed instructions) and
what the command's output told it (the Asimov checkpoint's state and size)."""

from __future__ import annotations

import os

import pytest
from conftest import run_script
from e2e_agents import AGENTS, SCRIPTS
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    agent_commands,
    install_hooks,
    make_project,
    ran,
    sink,
)

TYPED = {
    "claude": "/checkpoint",
    "codex": "$checkpoint",
    "gemini": "/checkpoint",
    "qwen": "/checkpoint",
    "copilot": "/checkpoint",
}
INSTRUCTION = "asimov-hooks checkpoint"


@pytest.fixture(params=sorted(AGENTS))
def agent(request, tmp_path, agent_commands, sink):  # noqa: F811
    made = AGENTS[request.param](agent_commands[request.param], make_project(str(tmp_path / "p")))
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def test_checkpoint_command_reaches_the_model_and_runs(agent) -> None:
    # the command the text names, by its full path (Codex's shell does not keep this PATH)
    exe = os.path.join(SCRIPTS, "asimov-hooks")
    script = [agent.shell(f"{exe} checkpoint"), say("Here is the checkpoint.")]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, TYPED[agent.name]))
        first = agent.told(srv, 0)
        results = agent.tool_results(srv)
    assert INSTRUCTION in first, first[-3000:]  # the installed text, as the agent expanded it
    assert "$checkpoint" not in first.replace(TYPED[agent.name], "")
    assert len(results) == 1, results
    assert f"Asimov checkpoint: {CHECKPOINT}" in results[0], results[0]
    assert "size: 12 lines (soft limit 20, hard limit 30)" in results[0], results[0]


def test_every_agent_installed_mixed_repository(agent) -> None:
    """With every agent's hooks installed (Claude Code's command and the shared skill side by
    side) in a repository that uses both protocols, the agent's one /checkpoint still
    reaches the model, and the command shows both parts."""
    project = agent.project
    assert (
        run_script("asimov-hooks", "agent", "install", "--agent", "all", cwd=project).returncode
        == 0
    )
    assert run_script("asimov-hooks", "oc", "init", cwd=project).returncode == 0
    assert run_script("asimov-hooks", "oc", "new", "alpha", cwd=project).returncode == 0
    exe = os.path.join(SCRIPTS, "asimov-hooks")
    script = [agent.shell(f"{exe} checkpoint next"), say("That is next.")]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, f"{TYPED[agent.name]} next"))
        first = agent.told(srv, 0)
        results = agent.tool_results(srv)
    assert INSTRUCTION in first, first[-3000:]
    assert len(results) == 1, results
    assert "next: Task 10: release notes" in results[0], results[0]
    assert "alpha" in results[0], results[0]
