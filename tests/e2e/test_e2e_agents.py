"""The real Claude Code, Codex CLI and Gemini CLI, at the versions pinned in
tests/e2e/agents/package-lock.json, with `asimov-hooks agent install` in a real git
repository, against a scripted model on 127.0.0.1.

Each test scripts what the model answers (text, or a tool call the real agent runs) and
asserts on what the agent then told the model (tool results, hook messages) and on the
files on disk; never on asimov-hooks' own output. The agents' proxy variables point at a
sink on 127.0.0.1 that records and refuses: no run may try to reach another host.
"""

from __future__ import annotations

import os

import pytest
from conftest import GOOD_CHECKPOINT, commit_all, git_init, run_script, write
from e2e_agents import AGENTS, Agent
from e2e_servers import Sink, say
from install_agents import Unavailable, install

CHECKPOINT = ".claude_checkpoint.yaml"
THRESHOLD = 4  # seconds: the repository's turn threshold
LONG = THRESHOLD + 2.5  # a scripted model turn this long makes the turn a long one
REQUEST = "E2E-CHECKPOINT-REQUEST: validate, then capture the state in {files}."
REQUEST_HEAD = "E2E-CHECKPOINT-REQUEST"

# new errors: 63 lines in a required field, which no trim can shorten
OVERSIZED = GOOD_CHECKPOINT.replace(
    'milestone: "Add feature X"',
    "milestone: |\n" + "".join(f"  step {i} of the milestone\n" for i in range(60)),
)
FRESH = GOOD_CHECKPOINT.replace("Task 9: benchmark the hot path", "Task 11: the e2e suite")


@pytest.fixture(scope="session")
def agent_commands() -> dict[str, list[str]]:
    try:
        return install()
    except Unavailable as why:
        pytest.skip(f"real agents unavailable: {why}")


@pytest.fixture
def sink():
    with Sink() as refused:
        yield refused
    assert refused.attempts == [], f"the agent tried to leave 127.0.0.1: {refused.attempts}"


def make_project(path: str) -> str:
    repo = git_init(path)
    write(repo, CHECKPOINT, GOOD_CHECKPOINT)
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    write(repo, ".gitignore", f"/{CHECKPOINT}\n/.claude_checkpoint.archive.yaml\n")
    write(
        repo,
        ".asimov-hooks.yaml",
        f'agent:\n  turn-threshold: {THRESHOLD}\n  checkpoint-message: "{REQUEST}"\n',
    )
    write(repo, "src/app.py", "print('hello')\n")
    commit_all(repo, "init")
    return repo


def install_hooks(agent: Agent) -> None:
    done = run_script("asimov-hooks", "agent", "install", "--agent", agent.name, cwd=agent.project)
    assert done.returncode == 0, done.stderr


@pytest.fixture(params=sorted(AGENTS))
def agent(request, tmp_path, agent_commands, sink):
    name = request.param
    project = make_project(str(tmp_path / "project"))
    made = AGENTS[name](agent_commands[name], project)
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def read(agent: Agent, rel: str = CHECKPOINT) -> str:
    with open(os.path.join(agent.project, rel), encoding="utf-8") as fh:
        return fh.read()


def ran(done) -> None:
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-3000:])


# ------------------------------------------------------------------ scenarios
def test_oversized_checkpoint_write_is_refused_and_the_model_told_why(agent) -> None:
    with agent.server_class([agent.write(CHECKPOINT, OVERSIZED), say("I will shorten it.")]) as srv:
        ran(agent.run(srv, "Save the checkpoint."))
        results = agent.tool_results(srv)
    assert read(agent) == GOOD_CHECKPOINT  # nothing written
    assert len(results) == 1, results
    assert "refused" in results[0] and "max-lines-hard" in results[0], results[0]


def test_long_turn_asks_for_the_checkpoint_once(agent) -> None:
    script = [
        say("The feature is built.", delay=LONG),
        agent.write(CHECKPOINT, FRESH),
        say("Checkpoint written."),
    ]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        assert srv.turns_used() == len(script), "the agent stopped before writing, or looped"
        mains = srv.main_requests()
        asked = [i for i, r in enumerate(mains) if REQUEST_HEAD in agent.told(srv, i)]
        first = agent.told(srv, 1)
    assert asked and asked[0] == 1, "the request did not follow the long turn"
    assert CHECKPOINT in first  # the request names the file to write
    assert len(mains) == len(script), "asked again after the checkpoint was written"
    assert read(agent) == FRESH


def test_quick_turn_is_not_asked(agent) -> None:
    with agent.server_class([say("Done quickly.")]) as srv:
        ran(agent.run(srv, "Say hello."))
        assert len(srv.main_requests()) == 1
        assert REQUEST_HEAD not in agent.told(srv)


def test_uninstall_gives_the_settings_back_byte_for_byte(tmp_path, agent_commands, sink) -> None:
    for name in sorted(AGENTS):
        project = make_project(str(tmp_path / name))
        made = AGENTS[name](agent_commands[name], project)
        made.sink_url = sink.url
        try:
            mine = _user_settings(name)
            write(project, made.settings, mine)
            commit_all(project, "the user's own settings")
            install_hooks(made)
            assert read(made, made.settings) != mine
            with made.server_class([made.write(CHECKPOINT, OVERSIZED), say("ok")]) as srv:
                ran(made.run(srv, "Save the checkpoint."))
            assert read(made) == GOOD_CHECKPOINT, f"{name}: the hooks did not run"
            done = run_script("asimov-hooks", "agent", "uninstall", "--agent", name, cwd=project)
            assert done.returncode == 0, done.stderr
            with open(os.path.join(project, made.settings), "rb") as fh:
                assert fh.read() == mine.encode(), name
            # and the hooks are gone: the same write now lands
            with made.server_class([made.write(CHECKPOINT, OVERSIZED), say("ok")]) as srv:
                ran(made.run(srv, "Save the checkpoint."))
            assert read(made) == OVERSIZED, name
        finally:
            made.cleanup()


def _user_settings(name: str) -> str:
    """A settings file the user wrote by hand, in their own style."""
    if name == "claude":
        return '{\n    "permissions": {"allow": ["Bash(ls:*)"]},\n    "hooks": {}\n}'
    if name == "codex":
        return '{\n\t"hooks": {\n\t\t"Stop": []\n\t}\n}\n'
    return '{\n  // the user\'s own comment\n  "ui": {"hideBanner": true},\n  "hooks": {}\n}\n'


def test_resume_gives_the_checkpoint_back(agent) -> None:
    with agent.server_class([say("Hello.")]) as srv:
        ran(agent.run(srv, "Say hello."))
        assert "Add feature X" not in agent.told(srv, 0)  # a new session re-reads nothing
        srv.load([say("Resumed.")])
        ran(agent.run(srv, "Carry on.", resume=True))
        resumed = agent.told(srv)
    assert "Add feature X" in resumed and "Task 9: benchmark the hot path" in resumed
    assert REQUEST_HEAD in resumed  # and asked for a fresh checkpoint
