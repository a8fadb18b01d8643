"""Compaction, for real: the agent compacts its conversation on its own in a headless run,
because the scripted model reports a prompt near the context window; the hooks then give
the checkpoint back and ask for a fresh one.

- Claude Code auto-compacts before its next model call when the last answer's
  `usage.input_tokens` is near the model's context window (1,000,000 tokens for the
  default model of the pinned version); then `SessionStart` fires with `source: compact`.
- Codex auto-compacts when the last response's `total_tokens` passes the model's
  auto-compact limit (90 % of the 200,000-token context window the scripted model's
  metadata gives it); then `SessionStart` fires with `source: compact`.
- Qwen Code 0.24.4 compresses its chat when the last answer's `prompt_tokens` nears the
  model's window (200,000 tokens for a model it does not know), then fires
  `SessionStart` with `source: compact`; the summary request reports the conversation's
  size (a summary whose input looks smaller counts as a failed compression).
- Gemini CLI compresses its chat when the last `promptTokenCount` passes half the model's
  token limit, but fires only `PreCompress` (advisory) and no `SessionStart` afterwards:
  no hook can give anything back (docs/agents.md), so it is not in these tests.

Asserts on what the model was told after the compaction and on the files on disk.
"""

from __future__ import annotations

import pytest
from e2e_agents import AGENTS, strings
from e2e_servers import SUMMARY, say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    FRESH,
    REQUEST_HEAD,
    agent_commands,
    install_hooks,
    make_project,
    ran,
    read,
    sink,
)

# the prompt size the scripted model reports to make each agent compact before its next call
COMPACTING = {"claude": 985_000, "codex": 195_000, "qwen": 195_000}
# Qwen Code does not wait for SessionStart after a compression: the context joins the
# conversation with the request after the first one that follows the compression
LATE = {"qwen": 1}


@pytest.fixture(params=sorted(COMPACTING))
def compacting(request, tmp_path, agent_commands, sink):  # noqa: F811
    name = request.param
    made = AGENTS[name](agent_commands[name], make_project(str(tmp_path / "project")))
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def test_compaction_gives_the_checkpoint_back_and_asks_for_a_fresh_one(compacting) -> None:
    agent = compacting
    work = agent.shell("echo working")
    work.tokens = COMPACTING[agent.name]  # the conversation is now near the window
    script = [work, agent.write(CHECKPOINT, FRESH), say("Checkpoint written.")]
    script[1].delay = 5.0 * LATE.get(agent.name, 0)  # time for a hook not waited for
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        compactions = [i for i, r in enumerate(srv.requests) if r.compaction]
        after = [r for r in srv.requests[compactions[-1] + 1 :] if r.main] if compactions else []
        first = "\n".join(strings(srv.main_requests()[0].body))
        late = LATE.get(agent.name, 0)
        told = "\n".join(strings(after[late].body)) if len(after) > late else ""
        used = srv.turns_used()
        mains = len(srv.main_requests())
    assert len(compactions) == 1, "the agent did not compact (or compacted twice)"
    assert SUMMARY in told, "the request after the compaction does not carry the summary"
    # the checkpoint came back after the compaction, with the request for a fresh one
    assert "Add feature X" in told and "Task 9: benchmark the hot path" in told
    assert REQUEST_HEAD in told and CHECKPOINT in told
    assert "Task 9: benchmark the hot path" not in first  # a new session re-reads nothing
    # the agent wrote the fresh checkpoint, and was not asked again
    assert used == len(script) and mains == len(script), (used, mains)
    assert read(agent) == FRESH
