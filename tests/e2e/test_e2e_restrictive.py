"""Every real agent in its default, or most restrictive, mode (the other end-to-end tests
run them in their permissive ones), headless against a scripted model on 127.0.0.1:

| agent | the user's rules allow the write | they do not |
|---|---|---|
| Claude Code | `--permission-mode default --allowedTools Write Bash` | `--permission-mode default --allowedTools Bash` |
| Codex CLI | `approval_policy = "on-request"`, `sandbox_mode = "workspace-write"` | the same with `sandbox_mode = "read-only"` |
| Gemini CLI | the default approval mode, `--allowed-tools write_file` | the default approval mode |
| Qwen Code | `--approval-mode auto-edit` | the default approval mode |
| Copilot CLI | `--allow-tool write` (no `--allow-all-tools`) | no tool allowed |

Where the write is allowed, an oversized checkpoint is refused by our hook, a trimmable one
lands trimmed with every cut item archived once, and a long turn is asked for a
checkpoint. Where it is not, the write stays unwritten, nothing is archived, and the long
turn is asked for a checkpoint all the same.
"""

from __future__ import annotations

import os

import pytest
from conftest import GOOD_CHECKPOINT
from e2e_agents import AGENTS, Agent
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    OVERSIZED,
    TRIMMABLE,
    agent_commands,
    asks,
    install_hooks,
    make_project,
    ran,
    read,
    refusal,
    sink,
    worked,
)

ARCHIVE = ".claude_checkpoint.archive.yaml"
TRIMMED = "asimov-hooks trimmed"


def restrict(agent: Agent, allowed: bool) -> None:
    """Run `agent` in its default or most restrictive mode; `allowed`: with the user's
    rule that lets it write files."""
    argv, prepare = agent.argv, agent.prepare
    name = agent.name
    if name == "claude":
        tools = ["Write", "Bash"] if allowed else ["Bash"]

        def claude_argv(prompt: str, resume: bool) -> list[str]:
            words = [*agent.command, "-p", prompt, "--permission-mode", "default"]
            return [*words, "--allowedTools", *tools, "--output-format", "json"]

        agent.argv = claude_argv
        return
    if name == "codex":
        sandbox = "workspace-write" if allowed else "read-only"

        def codex_prepare(server) -> None:
            prepare(server)
            path = os.path.join(agent.codex_home, "config.toml")  # type: ignore[attr-defined]
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            text = text.replace('approval_policy = "never"', 'approval_policy = "on-request"')
            text = text.replace(
                'sandbox_mode = "danger-full-access"', f'sandbox_mode = "{sandbox}"'
            )
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)

        agent.prepare = codex_prepare
        return
    permissive = {"gemini": "--yolo", "qwen": "--yolo", "copilot": "--allow-all-tools"}[name]
    rule = {
        "gemini": ["--allowed-tools", "write_file"],
        "qwen": ["--approval-mode", "auto-edit"],
        "copilot": ["--allow-tool", "write"],
    }[name]
    agent.argv = lambda prompt, resume: [
        *(w for w in argv(prompt, resume) if w != permissive),
        *(rule if allowed else []),
    ]


@pytest.fixture(params=sorted(AGENTS))
def restricted(request, tmp_path, agent_commands, sink):  # noqa: F811
    made = AGENTS[request.param](agent_commands[request.param], make_project(str(tmp_path / "p")))
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def test_default_mode_with_the_write_allowed(restricted) -> None:
    agent = restricted
    restrict(agent, allowed=True)
    script = [
        agent.write(CHECKPOINT, OVERSIZED),
        agent.write(CHECKPOINT, TRIMMABLE),
        say("The feature is built.", before=worked(agent)),
        say("Nothing changed since."),
    ]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        results = agent.tool_results(srv)
        asked = asks(agent, srv)
        requests = len(srv.main_requests())
    assert refusal(results[0]), results
    landed = read(agent)
    assert len(landed.splitlines()) <= 20, (landed, results)
    archive = read(agent, ARCHIVE)
    for i in range(25):  # every item in the checkpoint or in the archive, once
        assert (landed + archive).count(f"Done item {i:02d}") == 1, i
    assert asked == [3] and requests == len(script), (asked, requests)


def test_default_mode_without_the_write_allowed_archives_nothing(restricted) -> None:
    agent = restricted
    restrict(agent, allowed=False)
    script = [
        agent.write(CHECKPOINT, TRIMMABLE),
        say("I may not write it.", before=worked(agent)),
        say("Nothing changed since."),
    ]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Save the checkpoint."))
        told = agent.told(srv)
        asked = asks(agent, srv)
    assert read(agent) == GOOD_CHECKPOINT  # the user's rules kept it unwritten
    assert not os.path.exists(os.path.join(agent.project, ARCHIVE))
    assert TRIMMED not in told  # and the model is not told of a trim that did not happen
    assert asked == [2]  # the long turn is asked for a checkpoint in this mode too
