"""The real agents in their restrictive modes, against a scripted model on 127.0.0.1.

- Claude Code in `--permission-mode default` and `dontAsk` (headless, `-p`): a checkpoint
  write of 12 completed items that the user's rules allow (`--allowedTools Write`, or an
  allow rule in `.claude/settings.local.json`) lands trimmed, the 7 items the rolling
  window cuts in the archive exactly once, and the model is told so by the hook after
  the write; a write the user's rules do not allow (and plan mode) stays unwritten, with
  nothing archived: the trim is only held (`.git/asimov-hooks/trims/`) until a write
  lands, and dropped at the end of the turn.
- Codex CLI with the user's sandbox: `workspace-write` lets the rewritten patch land
  trimmed, the cut items archived once; `read-only` refuses it, and nothing is archived
  (the held trim is dropped at the end of the turn).
- Qwen Code: a long turn that ends in a tool call is asked for the checkpoint, timed by
  the real wall clock (Qwen Code fires its prompt hook with an empty prompt for each
  tool result it sends back; that is not a new turn).

The agents' versions are whatever tests/e2e/agents pins: nothing here depends on one.
Asserts on the files on disk and on what the model was told, never on asimov-hooks'
own output.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import GOOD_CHECKPOINT, commit_all, run_script, write
from e2e_agents import AGENTS
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    REQUEST_HEAD,
    agent_commands,
    install_hooks,
    make_project,
    ran,
    read,
    sink,
)

ARCHIVE = ".claude_checkpoint.archive.yaml"
BLOATED = (
    'milestone: "Add feature X"\nstatus: in_progress\ncompleted:\n'
    + "".join(f'  - "task {i}"\n' for i in range(1, 13))
    + 'in_progress: "wiring"\nnext_steps:\n  - "review"\n'
)
HELD = os.path.join(".git", "asimov-hooks", "trims")
# said only by the hook after a trimmed write (writes the model's own call leaves are
# trimmed "after your Write" instead)
TRIMMED_BEFORE = f"asimov-hooks trimmed your Write of {CHECKPOINT} before it was written"


class ClaudeIn(AGENTS["claude"]):  # type: ignore[misc, valid-type]
    """Claude Code run headless in a given permission mode, with given tools allowed on
    the command line (none: only the user's settings decide)."""

    mode = "default"
    allowed: tuple[str, ...] = ()

    def argv(self, prompt: str, resume: bool) -> list[str]:
        argv = [*self.command, "-p", prompt, "--permission-mode", self.mode]
        if self.allowed:
            argv += ["--allowedTools", *self.allowed]
        return [*argv, "--output-format", "json"]


@pytest.fixture
def claude_in(tmp_path, agent_commands, sink):  # noqa: F811
    made: list[ClaudeIn] = []

    def start(mode: str, allowed: tuple[str, ...] = (), rule: str | None = None) -> ClaudeIn:
        project = make_project(str(tmp_path / "project"))
        agent = ClaudeIn(agent_commands["claude"], project)
        agent.mode, agent.allowed, agent.sink_url = mode, allowed, sink.url
        if rule is not None:  # the user's own allow rule, in their local project settings
            permissions = {"permissions": {"allow": [rule]}}
            write(project, ".claude/settings.local.json", json.dumps(permissions))
        install_hooks(agent)
        made.append(agent)
        return agent

    yield start
    for agent in made:
        agent.cleanup()


def _write_checkpoint(agent) -> tuple[str, list[str], list[list[str]]]:
    """The model writes the 12-item checkpoint and stops: (what it was told last, the
    tool results, the held trims seen after the write and before the stop)."""
    held = os.path.join(agent.project, HELD)
    seen: list[list[str]] = []

    def look() -> None:
        seen.append(sorted(os.listdir(held)) if os.path.isdir(held) else [])

    script = [agent.write(CHECKPOINT, BLOATED), say("Checkpoint written.", before=look)]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Capture the state in the checkpoint."))
        assert srv.turns_used() == len(script)
        return agent.told(srv), agent.tool_results(srv), seen


def _archived_once(agent) -> None:
    archive = read(agent, ARCHIVE)
    for i in range(1, 8):  # the rolling window keeps the last 5 of the 12 completed items
        assert archive.count(f'"task {i}"') + archive.count(f"task {i}\n") == 1, (i, archive)
    for i in range(8, 13):
        assert f"task {i}" not in archive.replace("task 1\n", ""), (i, archive)


@pytest.mark.parametrize(
    ("mode", "allowed", "rule"),
    [("default", ("Write",), None), ("dontAsk", (), "Write")],
    ids=["default-allowedTools", "dontAsk-settings-rule"],
)
def test_claude_trimmed_write_lands_where_the_rules_allow_it(claude_in, mode, allowed, rule):
    agent = claude_in(mode, allowed, rule)
    told, results, _seen = _write_checkpoint(agent)
    on_disk = read(agent)
    assert '"task 1"' not in on_disk and '"task 12"' in on_disk, on_disk
    assert '"task 8"' in on_disk and 'in_progress: "wiring"' in on_disk
    _archived_once(agent)
    check = run_script("asimov-validate", CHECKPOINT, cwd=agent.project)
    assert check.returncode == 0, check.stdout + check.stderr
    assert TRIMMED_BEFORE in told, told[-3000:]
    assert not any("permission" in r.lower() for r in results), results


@pytest.mark.parametrize(
    ("mode", "rule"),
    [("default", None), ("dontAsk", None), ("plan", "Write")],
    ids=["default-not-allowed", "dontAsk-not-allowed", "plan-with-a-rule"],
)
def test_claude_write_the_rules_refuse_archives_nothing(claude_in, mode, rule):
    agent = claude_in(mode, (), rule)
    told, _results, seen = _write_checkpoint(agent)
    assert read(agent) == GOOD_CHECKPOINT  # not written
    archive = os.path.join(agent.project, ARCHIVE)
    assert not os.path.exists(archive) or "task 1" not in read(agent, ARCHIVE)
    assert TRIMMED_BEFORE not in told
    # the hook before the write did hand back the trimmed call: its trim was only held,
    # and the stop at the end of the turn dropped it
    assert len(seen) == 1 and len(seen[0]) == 1, seen
    assert os.listdir(os.path.join(agent.project, HELD)) == []


@pytest.fixture
def qwen(tmp_path, agent_commands, sink):  # noqa: F811
    project = make_project(str(tmp_path / "project"))
    made = AGENTS["qwen"](agent_commands["qwen"], project)
    made.sink_url = sink.url
    yield made
    made.cleanup()


QUICK = 6  # seconds: the turn threshold of the wall-clock test
THINKS = 10  # seconds the model takes before its tool call


def test_qwen_long_turn_ending_in_a_tool_call_is_asked(qwen) -> None:
    """Real time: the model thinks THINKS seconds, calls a tool, then answers at once.
    The turn is long since the prompt, but only a moment long since the tool result
    Qwen Code sends back with an (empty) prompt hook of its own."""
    config = os.path.join(qwen.project, ".asimov-hooks.yaml")
    with open(config, encoding="utf-8") as fh:
        text = fh.read()
    quick = text.replace("turn-threshold: 20", f"turn-threshold: {QUICK}")
    assert quick != text
    write(qwen.project, ".asimov-hooks.yaml", quick)
    commit_all(qwen.project, "a short turn threshold")
    install_hooks(qwen)
    tool = qwen.shell("git status --short")
    tool.delay = THINKS
    script = [tool, say("The feature is built."), say("Noted.")]
    with qwen.server_class(script) as srv:
        ran(qwen.run(srv, "Build the feature."))
        requests = len(srv.main_requests())
        asked = [i for i in range(requests) if REQUEST_HEAD in qwen.told(srv, i)]
    assert asked, f"never asked for a checkpoint ({requests} requests)"
    assert asked[0] == 2, asked  # right after the answer that ended the long turn


class CodexIn(AGENTS["codex"]):  # type: ignore[misc, valid-type]
    """Codex CLI with the user's own sandbox (approvals never asked: `codex exec`)."""

    sandbox = "read-only"

    def prepare(self, server) -> None:
        super().prepare(server)
        config = os.path.join(self.codex_home, "config.toml")
        with open(config, encoding="utf-8") as fh:
            text = fh.read()
        lines = [
            f'sandbox_mode = "{self.sandbox}"' if line.startswith("sandbox_mode =") else line
            for line in text.splitlines()
        ]
        assert lines != text.splitlines(), "no sandbox_mode line to change"
        with open(config, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")


@pytest.mark.parametrize("sandbox", ["read-only", "workspace-write"])
def test_codex_trimmed_patch_follows_the_users_sandbox(tmp_path, agent_commands, sink, sandbox):  # noqa: F811
    """A patch of the 12-item checkpoint, rewritten to leave the trimmed content: where
    the user's sandbox lets Codex write the workspace, it lands trimmed with the cut
    items archived once; in a read-only sandbox Codex refuses it, and the archive gains
    nothing (the trim held for it is dropped at the end of the turn)."""
    project = make_project(str(tmp_path / "project"))
    agent = CodexIn(agent_commands["codex"], project)
    agent.sandbox, agent.sink_url = sandbox, sink.url
    install_hooks(agent)
    held = os.path.join(project, HELD)
    seen: list[list[str]] = []

    def look() -> None:  # before the model's last answer: after the patch, before the stop
        seen.append(sorted(os.listdir(held)) if os.path.isdir(held) else [])

    try:
        script = [agent.write(CHECKPOINT, BLOATED), say("Checkpoint written.", before=look)]
        with agent.server_class(script) as srv:
            ran(agent.run(srv, "Capture the state in the checkpoint."))
            told = agent.told(srv)
            results = agent.tool_results(srv)
    finally:
        agent.cleanup()
    if sandbox == "read-only":
        assert read(agent) == GOOD_CHECKPOINT, results  # refused by the sandbox
        archive = os.path.join(project, ARCHIVE)
        assert not os.path.exists(archive) or "task 1" not in read(agent, ARCHIVE)
        assert seen == [[seen[0][0]]], seen  # the trim was held while the patch was judged
        assert os.listdir(held) == []  # and dropped by the stop, nothing archived
        assert "before it was written" not in told
    else:
        on_disk = read(agent)
        assert '"task 1"' not in on_disk and '"task 12"' in on_disk, on_disk
        _archived_once(agent)
        assert f"asimov-hooks trimmed your apply_patch of {CHECKPOINT} before it" in told
