"""GitHub Copilot CLI (the version pinned in tests/e2e/agents/package-lock.json) with its own
model provider: the scripted OpenAI-compatible server on 127.0.0.1, `COPILOT_OFFLINE=true`.
The scenarios every agent shares run it too (test_e2e_agents.py); these tests are about what
only Copilot CLI shows:

- it reaches nothing but the scripted model: every socket it opens (traced with strace,
  where the machine allows it) goes to 127.0.0.1, and every request the server sees is a
  chat completion;
- without offline mode (and with its client telemetry on) it does try GitHub, through the
  proxy the suite gives it: the refusing sink on 127.0.0.1 records the attempt, and no
  socket goes anywhere else; so an empty sink in the other tests means something;
- the context its hooks answer reaches the model: preToolUse's `additionalContext` (next to
  `modifiedArgs`) as a message after the tool's result, postToolUse's appended to the
  result (the hooks reference says postToolUse's output is ignored).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from e2e_agents import AGENTS
from e2e_servers import Sink, say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    GOOD_CHECKPOINT,
    OVERSIZED,
    TRIMMABLE,
    agent_commands,
    install_hooks,
    make_project,
    ran,
    read,
    refusal,
    sink,
)

CONNECT = re.compile(r"connect\(\d+, \{sa_family=(AF_INET6?), (.*?)\}")
ADDRESS = re.compile(r'inet_(?:addr|pton)\((?:AF_INET6, )?"([^"]+)"')
PORT = re.compile(r"sin6?_port=htons\((\d+)\)")


@pytest.fixture
def copilot(tmp_path, agent_commands, sink):  # noqa: F811
    made = AGENTS["copilot"](agent_commands["copilot"], make_project(str(tmp_path / "project")))
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def _strace() -> str | None:
    """strace, where it is installed and may trace here (ptrace permitted)."""
    found = shutil.which("strace")
    if found is None:
        return None
    probe = subprocess.run([found, "-f", "-o", os.devnull, "true"], capture_output=True)
    return found if probe.returncode == 0 else None


def _traced(agent, trace: str) -> bool:
    """Run the agent under strace (its connect() calls to `trace`), where possible."""
    strace = _strace()
    if strace is None:
        return False
    argv = agent.argv
    agent.argv = lambda prompt, resume: [
        *(strace, "-f", "-qq", "-e", "trace=connect", "-o", trace),
        *argv(prompt, resume),
    ]
    return True


def _sockets(trace: str) -> list[tuple[str, int]]:
    """(address, port) of every IPv4/IPv6 connect() the trace holds."""
    with open(trace, encoding="utf-8") as fh:
        found = [m.group(2) for m in CONNECT.finditer(fh.read())]
    out = []
    for where in found:
        address, port = ADDRESS.search(where), PORT.search(where)
        assert address and port, where
        out.append((address.group(1), int(port.group(1))))
    return out


LOOPBACK = ("127.0.0.1", "::1", "::ffff:127.0.0.1")


def test_copilot_reaches_only_the_scripted_model(copilot, tmp_path) -> None:
    trace = str(tmp_path / "connect.trace")
    if not _traced(copilot, trace):
        pytest.skip("strace is not installed, or cannot trace here (ptrace not permitted)")
    script = [copilot.write(CHECKPOINT, OVERSIZED), say("I will shorten it.")]
    with copilot.server_class(script) as srv:
        ran(copilot.run(srv, "Save the checkpoint."))
        results = copilot.tool_results(srv)
        seen = {(r.method, r.path) for r in srv.requests}
        port = srv.port
    assert seen == {("POST", "/v1/chat/completions")}
    sockets = _sockets(trace)
    assert sockets, "no connection traced: the model server was not reached through connect()"
    assert all(address in LOOPBACK and to == port for address, to in sockets), sockets
    # and the hooks ran: the preToolUse refusal is the edit's result, nothing written
    assert read(copilot) == GOOD_CHECKPOINT
    assert refusal(results[0]), results


def test_copilot_online_tries_github_and_the_sink_refuses_it(tmp_path, agent_commands) -> None:  # noqa: F811
    """The same run without `COPILOT_OFFLINE` and with client telemetry left on: Copilot
    CLI sends its telemetry to api.github.com through the proxy variables, and the sink on
    127.0.0.1 records and refuses it; traced, no socket goes anywhere but 127.0.0.1. (With
    offline mode, or with telemetry off alone, the sink sees nothing.)"""
    trace = str(tmp_path / "online.trace")
    with Sink() as refused:
        made = AGENTS["copilot"](agent_commands["copilot"], make_project(str(tmp_path / "p")))
        made.sink_url = refused.url
        env, argv = made.env, made.argv
        made.env = lambda server: {k: v for k, v in env(server).items() if k != "COPILOT_OFFLINE"}
        made.argv = lambda prompt, resume: [
            word for word in argv(prompt, resume) if word != "--disable-client-telemetry"
        ]
        traced = _traced(made, trace)
        try:
            with made.server_class([say("Hello.")]) as srv:
                ran(made.run(srv, "Say hello."))
        finally:
            made.cleanup()
    assert refused.attempts, "Copilot CLI went past the proxy, or tried nothing"
    assert set(refused.attempts) == {"CONNECT api.github.com:443"}, refused.attempts
    if traced:
        assert all(address in LOOPBACK for address, _ in _sockets(trace)), _sockets(trace)


def test_copilot_hook_context_reaches_the_model(copilot) -> None:
    """An edit the rolling window trims: `modifiedArgs` leaves the trimmed file, and once
    it has landed the `postToolUse` `additionalContext` says so (appended to the tool's
    result). Then a shell write of the checkpoint: `postToolUse` compares the files
    before and after, and its `additionalContext` is appended to the tool's result."""
    shell = f"cat > {CHECKPOINT} <<'EOF'\n{OVERSIZED}EOF\n"
    script = [copilot.write(CHECKPOINT, TRIMMABLE), copilot.shell(shell), say("Saved.")]
    with copilot.server_class(script) as srv:
        ran(copilot.run(srv, "Save the checkpoint."))
        results = copilot.tool_results(srv)
    assert len(results) == 2, results
    trimmed = results[0].split("Additional guidance from postToolUse hooks:", 1)
    assert len(trimmed) == 2, results[0]
    assert f"asimov-hooks trimmed your edit of {CHECKPOINT} before it was written" in trimmed[1]
    guidance = results[1].split("Additional guidance from postToolUse hooks:", 1)
    assert len(guidance) == 2, results[1]
    assert "max-lines-hard" in guidance[1] and CHECKPOINT in guidance[1]
    assert read(copilot) == OVERSIZED  # a shell write is judged after it ran
