"""What an agent event loads: a write of a file that is not ours loads no configuration
machinery, and the check after a plain checkpoint's write (nothing to trim) loads no
YAML library. Each runs as the agent runs it, a whole process with its JSON on stdin,
in a real git repository."""

from __future__ import annotations

import json
import subprocess

import pytest

CHECKPOINT = (
    'timestamp: "2026-11-20T10:30:00Z"\nmilestone: "Imports"\nstatus: in_progress\n'
    'completed:\n  - "one"\nnext_steps:\n  - "two"\n'
)
WATCHED = ("ruamel", "yaml", "asimov_hooks.config.config", "click", "json")


def loaded(
    tmp_path, rel: str, content: str, names: tuple[str, ...] = WATCHED
) -> tuple[set[str], str]:
    """Which of `names` are in sys.modules after Claude Code's PostToolUse for a Write
    of `rel` (its content on disk), run as a process of its own; and what it printed."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".gitignore").write_text(".claude_checkpoint.yaml\n*.archive.yaml\n")
    (repo / rel).write_text(content)
    payload = {
        "session_id": "imports",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(repo),
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(repo / rel), "content": content},
    }
    from agent_support import loaded_by_event

    found, done = loaded_by_event(payload, names, repo, tmp_path / "state")
    return found, done.stdout


def test_a_write_of_another_file_loads_no_configuration(tmp_path) -> None:
    names, out = loaded(tmp_path, "src/app.py", "x = 1\n")
    assert names == set(), names
    assert out == ""


def test_a_plain_checkpoint_write_is_checked_without_a_yaml_library(tmp_path) -> None:
    names, _ = loaded(tmp_path, ".claude_checkpoint.yaml", CHECKPOINT)
    assert "asimov_hooks.config.config" in names  # it was checked
    assert not names & {"ruamel", "yaml", "click", "json"}, names


def test_a_write_of_another_file_imports_no_future_module(tmp_path) -> None:
    """`from __future__ import annotations` imports the `__future__` module (a twentieth
    of a bare interpreter's start-up): the modules this path loads quote the annotations
    that need it instead."""
    names, _ = loaded(tmp_path, "src/app.py", "x = 1\n", ("__future__",))
    assert names == set(), names


def test_the_process_ends_with_its_whole_answer_and_exit_code(tmp_path) -> None:
    """The console script ends the process as soon as the answer is out (no tear-down of
    the modules it imported): a long answer through a pipe arrives whole, and a failure
    keeps its exit code and its one line."""
    from conftest import run_installed, script_env

    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".gitignore").write_text(".claude_checkpoint.yaml\n")
    (repo / "warmup.yaml").write_text("identity:\n  project: demo\n")  # the protocol
    subprocess.run(["git", "-C", str(repo), "add", "warmup.yaml"], check=True)
    steps = "".join(f'  - "step {i} {"x" * 60}"\n' for i in range(30))
    (repo / ".claude_checkpoint.yaml").write_text(CHECKPOINT + steps)
    env = script_env(ASIMOV_HOOKS_STATE_DIR=str(tmp_path / "state"))
    payload = {"session_id": "s", "cwd": str(repo), "hook_event_name": "SessionStart"}
    payload["source"] = "compact"
    done = run_installed(
        "asimov-hooks", "agent-event", cwd=repo, env=env, stdin=json.dumps(payload)
    )
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "step 0 " in context and "step 1 " in context
    failed = run_installed("asimov-hooks", "agent-event", cwd=repo, env=env, stdin="[1]")
    assert failed.returncode == 1 and failed.stdout == ""
    assert failed.stderr.count("\n") == 1 and "not an object" in failed.stderr


def _shapes() -> dict[str, str]:
    """The checkpoint shapes the agent-event benchmark times, and init's example as
    init writes it today."""
    import os
    import sys

    from conftest import ROOT

    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        from bench_agent_event import CHECKPOINT_SHAPES
    finally:
        sys.path.pop(0)
    from asimov_hooks.adoption.example import text

    return {**CHECKPOINT_SHAPES, "init's example, as init writes it": text(str(ROOT))}


@pytest.mark.parametrize("shape", sorted(_shapes()))
def test_every_checkpoint_shape_is_checked_without_a_yaml_library(tmp_path, shape) -> None:
    """The check after a checkpoint write stays within its start-up budget for each
    shape a user's agent writes: none of them loads ruamel.yaml or PyYAML."""
    names, _ = loaded(tmp_path, ".claude_checkpoint.yaml", _shapes()[shape])
    assert "asimov_hooks.config.config" in names  # it was checked
    assert not names & {"ruamel", "yaml", "click", "json"}, names
