"""A hook that cannot read its input never refuses the agent's tool call, in every real
agent: with the project's config broken (a value that is not a number), every hook
that needs it says so in one line and exits with the status the agent reads as "this
hook failed, go on", so the write the model asked for lands and the turn ends
normally. GitHub Copilot CLI denies a tool call whose preToolUse hook exits non-zero,
so there the status is 0 (docs/agent.md, "Never breaking the agent"): with exit 1 its
write comes back "Denied by preToolUse hook ... (hook errored)" and this test fails."""

from __future__ import annotations

import os

import pytest
from e2e_agents import AGENTS
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    OVERSIZED,
    REFUSED,
    agent_commands,
    install_hooks,
    make_project,
    ran,
    read,
    sink,
)


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_a_config_the_hooks_cannot_read_does_not_stop_the_agent(
    tmp_path,
    agent_commands,  # noqa: F811
    sink,  # noqa: F811
    name,
) -> None:
    project = make_project(str(tmp_path / "project"))
    made = AGENTS[name](agent_commands[name], project)
    made.sink_url = sink.url
    install_hooks(made)
    with open(os.path.join(project, ".asimov-hooks.yaml"), "w", encoding="utf-8") as fh:
        fh.write("agent:\n  turn-threshold: soon\n")  # not a number: the hooks cannot start
    try:
        # a checkpoint the hooks would refuse: it lands, since no check can run here
        with made.server_class([made.write(CHECKPOINT, OVERSIZED), say("Saved.")]) as srv:
            ran(made.run(srv, "Save the checkpoint."))
            results = made.tool_results(srv)
            assert srv.turns_used() == 2, "the agent stopped at the first hook"
        assert len(results) == 1 and REFUSED not in results[0], results
        assert "denied" not in results[0].lower(), results[0]
        assert read(made) == OVERSIZED
    finally:
        made.cleanup()
