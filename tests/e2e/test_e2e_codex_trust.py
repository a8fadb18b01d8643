"""Codex CLI's hook trust, as a user meets it: no `--dangerously-bypass-hook-trust`.

Codex runs a project hook only when `$CODEX_HOME/config.toml` records it as trusted under
the hash Codex computes for it (`[hooks.state."<hooks.json>:<event>:<group>:<hook>"]
trusted_hash`, written by its `/hooks` screen). Every Codex run of the suite trusts our
hooks that way, under the hash asimov-hooks computes (what `agent install` and `doctor`
check): were that hash not Codex's, Codex would skip our hooks and every Codex test would
fail. Here the same session runs under the reported hashes, under stale ones and with
none recorded, and `doctor` is asked about each.
"""

from __future__ import annotations

import pytest
from conftest import run_script
from e2e_agents import AGENTS
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    GOOD_CHECKPOINT,
    OVERSIZED,
    agent_commands,
    install_hooks,
    make_project,
    ran,
    read,
    sink,
)

REFUSED = "asimov-hooks refused this apply_patch of .claude_checkpoint.yaml"


@pytest.fixture
def codex(tmp_path, agent_commands, sink):  # noqa: F811
    project = make_project(str(tmp_path / "project"))
    made = AGENTS["codex"](agent_commands["codex"], project)
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def doctor(codex) -> str:
    done = run_script(
        "asimov-hooks", "doctor", cwd=codex.project, HOME=codex.home, CODEX_HOME=codex.codex_home
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("trust", "says"),
    [
        ("reported", "Codex CLI trusts every asimov-hooks hook in .codex/hooks.json"),
        ("stale", "does not match them as they are now"),
        ("none", "Codex CLI has not trusted the asimov-hooks hooks for PreToolUse"),
    ],
)
def test_codex_runs_our_hooks_under_the_hashes_asimov_hooks_reports(codex, trust, says) -> None:
    codex.hook_trust = trust
    with codex.server_class([codex.write(CHECKPOINT, OVERSIZED), say("Saved.")]) as srv:
        codex.prepare(srv)
        report = doctor(codex)
        ran(codex.run(srv, "Save the checkpoint."))
        results = codex.tool_results(srv)
    assert says in report, report
    if trust == "reported":  # trusted under our hash: Codex ran our PreToolUse hook
        assert read(codex) == GOOD_CHECKPOINT
        assert REFUSED in results[0] and "max-lines-hard" in results[0], results
    else:  # Codex skipped the hook it had no matching trust for: the write went through
        assert read(codex) == OVERSIZED
        assert not any(REFUSED in r for r in results), results
