"""The real agents (the versions pinned in tests/e2e/agents/package-lock.json) against a
scripted model on 127.0.0.1: an edit that would leave the checkpoint over its caps lands
trimmed, the rolling window's cut items in the archive, nothing lost. Claude Code's
Edit and Gemini CLI's replace are handed back as the same tool replacing the whole file
with the trimmed content; a Codex patch of several files gets the checkpoint's section
rewritten and the other files' sections applied as written. Asserts on the files on
disk and on what the model was told."""

from __future__ import annotations

import os

import pytest
from conftest import run_script, write
from e2e_agents import AGENTS, patch_text
from e2e_servers import call, say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    agent_commands,
    claude,
    codex,
    install_hooks,
    make_project,
    ran,
    read,
    sink,
)
from trim_edit_data import AFTER, ARCHIVE, BEFORE, NEW, OLD, TRIMMED


@pytest.fixture
def gemini(tmp_path, agent_commands, sink):  # noqa: F811
    project = make_project(str(tmp_path / "project"))
    made = AGENTS["gemini"](agent_commands["gemini"], project)
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def landed_trimmed(agent) -> None:
    """The checkpoint on disk is the trimmed result; the cut item is in the archive,
    once; and the file is valid."""
    assert read(agent) == TRIMMED
    archive = read(agent, ARCHIVE)
    assert "Task 2: step 2" not in archive
    # archived once: after the changed call landed (the hook after the write); had the
    # agent run the model's own call instead, the trim after it would archive it too
    assert archive.count("Task 1: step 1") == 1, archive
    check = run_script("asimov-validate", CHECKPOINT, cwd=agent.project)
    assert check.returncode == 0, check.stdout + check.stderr


def test_claude_edit_lands_trimmed(claude) -> None:  # noqa: F811
    write(claude.project, CHECKPOINT, BEFORE)
    path = os.path.join(claude.project, CHECKPOINT)
    edit = {"file_path": path, "old_string": OLD, "new_string": NEW}
    script = [call("Read", {"file_path": path}), call("Edit", edit), say("Saved.")]
    with claude.server_class(script) as srv:
        ran(claude.run(srv, "Mark task 6 done in the checkpoint."))
        assert srv.turns_used() == len(script)
        tools = {t.get("name") for t in srv.main_requests()[0].body.get("tools", [])}
        results = claude.tool_results(srv)
        told = claude.told(srv)
    assert "Edit" in tools and "MultiEdit" not in tools  # MultiEdit: older versions only
    landed_trimmed(claude)
    assert "updated successfully" in results[-1], results
    assert "trimmed your Edit of .claude_checkpoint.yaml before it was written" in told


def test_gemini_replace_lands_trimmed(gemini) -> None:
    write(gemini.project, CHECKPOINT, BEFORE)
    args = {
        "file_path": os.path.join(gemini.project, CHECKPOINT),
        "instruction": "Mark task 6 done.",
        "old_string": OLD,
        "new_string": NEW,
    }
    with gemini.server_class([call("replace", args), say("Saved.")]) as srv:
        ran(gemini.run(srv, "Mark task 6 done in the checkpoint."))
        results = gemini.tool_results(srv)
    landed_trimmed(gemini)
    assert len(results) == 1 and "error" not in results[0].lower(), results
    # Gemini CLI tells the model the hook changed the call, and shows what it wrote
    assert "modified by a hook" in results[0], results
    assert '"Task 1: step 1"' not in results[0] and '"Task 8: announce"' in results[0]


def test_codex_patch_of_several_files_lands_the_checkpoint_trimmed(codex) -> None:  # noqa: F811
    write(codex.project, CHECKPOINT, BEFORE)
    checkpoint = patch_text(CHECKPOINT, AFTER, BEFORE)
    app = patch_text("src/app.py", "print('hello, world')\n", "print('hello')\n")
    added = "*** Begin Patch\n*** Add File: docs/new.md\n+# New\n*** End Patch\n"
    body = "".join(
        p.split("\n", 1)[1].rsplit("*** End Patch", 1)[0] for p in (app, checkpoint, added)
    )
    patch = f"*** Begin Patch\n{body}*** End Patch\n"
    with codex.server_class([call("apply_patch", patch), say("Saved.")]) as srv:
        ran(codex.run(srv, "Mark task 6 done and fix the greeting."))
        results = codex.tool_results(srv)
        told = codex.told(srv)
    landed_trimmed(codex)
    assert read(codex, "src/app.py") == "print('hello, world')\n"
    assert read(codex, "docs/new.md") == "# New\n"
    assert len(results) == 1 and "blocked" not in results[0].lower(), results
    assert "trimmed your apply_patch of .claude_checkpoint.yaml" in told


def test_codex_patch_through_the_shell_lands_the_checkpoint_trimmed(codex) -> None:  # noqa: F811
    """A model Codex has no metadata for gets only `exec_command`; it runs the patch as
    an `apply_patch` heredoc, whose checkpoint section is rewritten in the command."""
    codex.model = "unknown-scripted-model"
    write(codex.project, CHECKPOINT, BEFORE)
    checkpoint = patch_text(CHECKPOINT, AFTER, BEFORE)
    app = patch_text("src/app.py", "print('hello, world')\n", "print('hello')\n")
    body = "".join(p.split("\n", 1)[1].rsplit("*** End Patch", 1)[0] for p in (app, checkpoint))
    shell = codex.shell(f"apply_patch <<'EOF'\n*** Begin Patch\n{body}*** End Patch\nEOF\n")
    with codex.server_class([shell, say("Saved.")]) as srv:
        ran(codex.run(srv, "Mark task 6 done and fix the greeting."))
        tools = {t.get("name") for t in srv.main_requests()[0].body.get("tools", [])}
        results = codex.tool_results(srv)
    assert "apply_patch" not in tools and "exec_command" in tools
    landed_trimmed(codex)
    assert read(codex, "src/app.py") == "print('hello, world')\n", results
