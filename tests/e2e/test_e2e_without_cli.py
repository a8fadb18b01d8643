"""The committed hooks on a machine without asimov-hooks, in every real agent: each hook
says how to install the CLI and exits 1, which the agent takes as a non-blocking hook
error: the write the model asked for lands and the turn ends normally. With the shell's
own "not found" (exit 127) or a blocking exit (2) a tool would be refused instead."""

from __future__ import annotations

import os

import pytest
from e2e_agents import AGENTS
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    OVERSIZED,
    agent_commands,
    install_hooks,
    make_project,
    ran,
    read,
    sink,
)

BARE_PATH = os.pathsep.join(
    d for d in ("/usr/local/bin", "/usr/bin", "/bin") if not os.path.isfile(f"{d}/asimov-hooks")
)


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_without_the_cli_the_agent_goes_on(tmp_path, agent_commands, sink, name) -> None:  # noqa: F811
    project = make_project(str(tmp_path / "project"))
    made = AGENTS[name](agent_commands[name], project)
    made.sink_url = sink.url
    install_hooks(made)  # the committed hooks, as a teammate's clone has them
    with_cli = made.base_env
    made.base_env = lambda: {**with_cli(), "PATH": BARE_PATH}  # this machine has no CLI
    try:
        # a checkpoint the hooks would refuse: it lands, since no check can run here
        with made.server_class([made.write(CHECKPOINT, OVERSIZED), say("Saved.")]) as srv:
            ran(made.run(srv, "Save the checkpoint."))
            results = made.tool_results(srv)
            assert srv.turns_used() == 2, "the agent stopped at the first hook"
        assert len(results) == 1 and "refused" not in results[0], results
        assert read(made) == OVERSIZED
    finally:
        made.cleanup()
