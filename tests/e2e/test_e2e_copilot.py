"""GitHub Copilot CLI (the version pinned in tests/e2e/agents/package-lock.json) with its own
model provider: the scripted OpenAI-compatible server on 127.0.0.1, `COPILOT_OFFLINE=true`.
The scenarios every agent shares run it too (test_e2e_agents.py); these tests are about what
only Copilot CLI shows:

- it reaches nothing but the scripted model: every socket it opens (traced with strace,
  where the machine allows it) goes to 127.0.0.1, and every request the server sees is a
  chat completion;
- without offline mode it does try GitHub, through the proxy the suite gives it, and the
  refusing sink records the attempt: so an empty sink in the other tests means something;
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


def _strace() -> str:
    found = shutil.which("strace")
    if found is None:
        pytest.skip("strace is not installed")
    probe = subprocess.run([found, "-f", "-o", os.devnull, "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("strace cannot trace here (ptrace is not permitted)")
    return found


def test_copilot_reaches_only_the_scripted_model(copilot, tmp_path) -> None:
    strace = _strace()
    trace = str(tmp_path / "connect.trace")
    argv = copilot.argv
    copilot.argv = lambda prompt, resume: [
        *(strace, "-f", "-qq", "-e", "trace=connect", "-o", trace),
        *argv(prompt, resume),
    ]
    script = [copilot.write(CHECKPOINT, OVERSIZED), say("I will shorten it.")]
    with copilot.server_class(script) as srv:
        ran(copilot.run(srv, "Save the checkpoint."))
        results = copilot.tool_results(srv)
        seen = {(r.method, r.path) for r in srv.requests}
        port = srv.port
    assert seen == {("POST", "/v1/chat/completions")}
    with open(trace, encoding="utf-8") as fh:
        sockets = [m.group(2) for m in CONNECT.finditer(fh.read())]
    assert sockets, "no connection traced: the model server was not reached through connect()"
    for where in sockets:
        address = ADDRESS.search(where)
        assert address and address.group(1) in ("127.0.0.1", "::1", "::ffff:127.0.0.1"), where
        assert PORT.search(where) and int(PORT.search(where).group(1)) == port, where
    # and the hooks ran: the preToolUse refusal is the edit's result, nothing written
    assert read(copilot) == GOOD_CHECKPOINT
    assert "refused" in results[0] and "max-lines-hard" in results[0], results


def test_copilot_online_tries_github_and_the_sink_refuses_it(tmp_path, agent_commands) -> None:  # noqa: F811
    """The same run without `COPILOT_OFFLINE` and with client telemetry left on: Copilot
    CLI sends its telemetry to api.github.com through the proxy variables, and the sink on
    127.0.0.1 records and refuses it. (With offline mode, or with telemetry off alone, the
    sink sees nothing.)"""
    with Sink() as refused:
        made = AGENTS["copilot"](agent_commands["copilot"], make_project(str(tmp_path / "p")))
        made.sink_url = refused.url
        env, argv = made.env, made.argv
        made.env = lambda server: {
            k: v for k, v in env(server).items() if k != "COPILOT_OFFLINE"
        }
        made.argv = lambda prompt, resume: [
            word for word in argv(prompt, resume) if word != "--disable-client-telemetry"
        ]
        try:
            with made.server_class([say("Hello.")]) as srv:
                ran(made.run(srv, "Say hello."))
        finally:
            made.cleanup()
    assert refused.attempts, "Copilot CLI went past the proxy, or tried nothing"
    assert set(refused.attempts) == {"CONNECT api.github.com:443"}, refused.attempts


def test_copilot_hook_context_reaches_the_model(copilot) -> None:
    """An edit the rolling window trims: `modifiedArgs` leaves the trimmed file and the
    preToolUse `additionalContext` says so, as a message after the tool's result. Then a
    shell write of the checkpoint: `postToolUse` compares the files before and after, and
    its `additionalContext` is appended to the tool's result."""
    shell = f"cat > {CHECKPOINT} <<'EOF'\n{OVERSIZED}EOF\n"
    script = [copilot.write(CHECKPOINT, TRIMMABLE), copilot.shell(shell), say("Saved.")]
    with copilot.server_class(script) as srv:
        ran(copilot.run(srv, "Save the checkpoint."))
        after_edit = copilot.told(srv, 1)
        results = copilot.tool_results(srv)
    assert "Additional context from preToolUse hook:" in after_edit
    assert f"asimov-hooks trimmed your edit of {CHECKPOINT} before it was written" in after_edit
    assert len(results) == 2, results
    guidance = results[1].split("Additional guidance from postToolUse hooks:", 1)
    assert len(guidance) == 2, results[1]
    assert "max-lines-hard" in guidance[1] and CHECKPOINT in guidance[1]
    assert read(copilot) == OVERSIZED  # a shell write is judged after it ran
