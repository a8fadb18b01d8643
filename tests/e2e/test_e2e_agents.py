"""The real Claude Code, Codex CLI, Gemini CLI, Qwen Code and GitHub Copilot CLI, at the
versions pinned in tests/e2e/agents/ (package-lock.json, tarballs.json), with `asimov-hooks
agent install` in a real git repository, against a scripted model on 127.0.0.1.

Each test scripts what the model answers (text, or a tool call the real agent runs) and
asserts on what the agent then told the model (tool results, hook messages) and on the
files on disk; never on asimov-hooks' own output. The agents' proxy variables point at a
sink on 127.0.0.1 that records and refuses: no run may try to reach another host.
"""

from __future__ import annotations

import contextlib
import glob
import os

import pytest
from conftest import GOOD_CHECKPOINT, commit_all, git, git_init, run_script, write
from e2e_agents import AGENTS, SCRIPTS, Agent, command_off, patch_text, strings
from e2e_servers import Sink, say
from install_agents import Unavailable, install, unavailable

from asimov_hooks.agent.runtime.state import DB_NAME, Store
from asimov_hooks.agent.runtime.turnlog import LOG_NAME

CHECKPOINT = ".claude_checkpoint.yaml"
THRESHOLD = 20  # seconds: the repository's turn threshold; a quick answer takes less
WORKED = 120  # seconds of work a long turn stands for (see worked())
REQUEST = "E2E-CHECKPOINT-REQUEST: validate, then capture the state in {files}."
REQUEST_HEAD = "E2E-CHECKPOINT-REQUEST"
# how every refusal of asimov-hooks begins: text no agent and no request holds otherwise
REFUSED = "asimov-hooks refused this "

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
        unavailable(why)


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
    if command_off():  # ASIMOV_E2E_OFF=command: as if the command had not been installed
        from asimov_hooks.agent.install.commands import FILES

        with contextlib.suppress(FileNotFoundError):  # a skill another agent shares
            os.remove(os.path.join(agent.project, FILES[agent.name]))


# Scenarios an agent passed when it joined the suite and that repeat, for it, what its other
# tests cover: left out to keep the suite's time (a Copilot CLI run takes about 6 s; the
# OC update through its shell runs in test_e2e_agent_fixes.py)
REPEATS = {
    "copilot": {
        "test_quick_answer_to_the_request_is_not_asked_again",
        "test_work_after_the_request_is_asked_about_again",
        "test_oc_update_through_the_shell_is_the_checkpoint",
    }
}


@pytest.fixture(params=sorted(AGENTS))
def agent(request, tmp_path, agent_commands, sink):
    name = request.param
    if request.node.originalname in REPEATS.get(name, ()):
        pytest.skip(f"{name}: covered by its other end-to-end tests")
    project = make_project(str(tmp_path / "project"))
    made = AGENTS[name](agent_commands[name], project)
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def worked(agent: Agent, seconds: float = WORKED):
    """A fake clock for a long turn, run by the scripted server just before it answers:
    the turn times the hooks recorded for the repository (every session, the main
    checkout's and each worktree's state) move `seconds` into the past, as if the agent
    had worked that long. So a long turn takes no time and a quick answer stays quick on
    a loaded machine."""

    def age() -> None:
        common = os.path.join(agent.project, ".git")
        found = glob.glob(os.path.join(common, "**", DB_NAME), recursive=True)
        found += glob.glob(os.path.join(common, "**", LOG_NAME), recursive=True)
        for directory in sorted({os.path.dirname(path) for path in found}):
            with Store(directory) as store:  # the turn records appended since folded in
                store.conn.execute(
                    "UPDATE turns SET last_message_sent_at = last_message_sent_at - ?, "
                    "last_checkpoint_at = last_checkpoint_at - ?",
                    (seconds, seconds),
                )

    return age


def read(agent: Agent, rel: str = CHECKPOINT) -> str:
    with open(os.path.join(agent.project, rel), encoding="utf-8") as fh:
        return fh.read()


def asks(agent: Agent, server) -> list[int]:
    """The main-loop requests that brought the model a new checkpoint request (a request
    stays in the conversation, and Claude Code shows each one twice: as a system message
    and in a reminder, so what counts is a request more than the one before)."""
    seen, out = 0, []
    for i in range(len(server.main_requests())):
        count = agent.told(server, i).count(REQUEST_HEAD)
        if count > seen:
            out.append(i)
        seen = count
    return out


def added(agent: Agent, server, index: int = -1) -> str:
    """The texts of one main-loop request that the first request did not hold: what came
    into the conversation since (tool results, hook messages), so a check on it cannot
    pass on the system prompt or on the user's own request."""
    first = set(strings(server.main_requests()[0].body))
    return "\n".join(s for s in strings(server.main_requests()[index].body) if s not in first)


def refusal(text: str, rule: str = "max-lines-hard") -> bool:
    """`text` holds asimov-hooks' refusal of a checkpoint write, naming `rule`."""
    return REFUSED in text and f"of {CHECKPOINT}" in text and rule in text


def ran(done) -> None:
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-3000:])


# ------------------------------------------------------------------ scenarios
def test_oversized_checkpoint_write_is_refused_and_the_model_told_why(agent) -> None:
    with agent.server_class([agent.write(CHECKPOINT, OVERSIZED), say("I will shorten it.")]) as srv:
        ran(agent.run(srv, "Save the checkpoint."))
        results = agent.tool_results(srv)
    assert read(agent) == GOOD_CHECKPOINT  # nothing written
    assert len(results) == 1, results
    assert refusal(results[0]), results[0]


def test_long_turn_asks_for_the_checkpoint_once(agent) -> None:
    script = [
        say("The feature is built.", before=worked(agent)),
        agent.write(CHECKPOINT, FRESH),
        say("Checkpoint written."),
    ]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        assert srv.turns_used() == len(script), "the agent stopped before writing, or looped"
        asked = asks(agent, srv)
        first = added(agent, srv, 1)
        assert len(srv.main_requests()) == len(script), "asked again after the checkpoint"
    assert asked == [1], "the request did not follow the long turn, or came again"
    assert CHECKPOINT in first  # the request names the file to write
    assert read(agent) == FRESH


def test_quick_turn_is_not_asked(agent) -> None:
    """A quick turn ends without a request; a long one in the next session of the same
    project is asked (so the quiet first turn is the Stop hook's decision, not its
    absence)."""
    with agent.server_class([say("Done quickly.")]) as srv:
        ran(agent.run(srv, "Say hello."))
        assert len(srv.main_requests()) == 1
        assert REQUEST_HEAD not in agent.told(srv)
    script = [say("The feature is built.", before=worked(agent)), say("Nothing changed since.")]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        assert asks(agent, srv) == [1]


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
    if name == "copilot":  # plain JSON, as the hooks reference shows the files
        return '{\n  "version": 1,\n  "hooks": {\n    "sessionEnd": []\n  }\n}\n'
    if name == "qwen":  # as Qwen Code leaves it: it adds "$version" to a file without one
        return '{\n  // the user\'s own comment\n  "ui": {"hideBanner": true},\n  "hooks": {},\n  "$version": 4\n}\n'
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


# a checkpoint that only the rolling window makes fit: 25 completed items
TRIMMABLE = GOOD_CHECKPOINT.replace(
    '  - "Task 6: wire the parser"\n  - "Task 7: add tests"\n',
    "".join(f'  - "Done item {i:02d}"\n' for i in range(25)),
)


def test_trimmable_write_lands_trimmed_with_nothing_lost(agent) -> None:
    with agent.server_class([agent.write(CHECKPOINT, TRIMMABLE), say("Saved.")]) as srv:
        ran(agent.run(srv, "Save the checkpoint."))
        results = agent.tool_results(srv)
    assert len(results) == 1 and "refused" not in results[0], results
    landed = read(agent)
    assert len(landed.splitlines()) <= 20, landed
    assert 'in_progress: "Task 9: benchmark the hot path"' in landed
    archive = read(agent, ".claude_checkpoint.archive.yaml")
    for i in range(25):  # every item is in the checkpoint or in the archive, once
        assert (landed + archive).count(f"Done item {i:02d}") == 1, i
    check = run_script("asimov-validate", CHECKPOINT, cwd=agent.project)
    assert check.returncode == 0, check.stdout + check.stderr


def test_quick_answer_to_the_request_is_not_asked_again(agent) -> None:
    """The agent answers the checkpoint request at once, without writing anything: the
    stop that follows is less than the threshold after the request."""
    script = [say("The feature is built.", before=worked(agent)), say("Nothing changed since.")]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        asked = asks(agent, srv)
        assert srv.turns_used() == len(script)
        assert len(srv.main_requests()) == 2, "asked again after a quick answer"
    assert asked == [1]


def test_session_inside_a_linked_worktree(agent, tmp_path) -> None:
    """The agent starts in a linked worktree of the repository: the checkpoint there is
    the one governed, and a long turn there asks for it."""
    commit_all(agent.project, "the hooks")
    tree = str(tmp_path / "linked")
    git(agent.project, "worktree", "add", "-q", "-b", "side", tree)
    write(tree, CHECKPOINT, GOOD_CHECKPOINT)  # ignored files do not travel: the agent's own
    agent.trusted.append(tree)
    script = [
        agent.write(CHECKPOINT, OVERSIZED, base=tree),
        say("Built.", before=worked(agent)),
        agent.write(CHECKPOINT, FRESH, base=tree),
        say("Saved."),
    ]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature.", cwd=tree))
        told = [added(agent, srv, i) for i in range(len(srv.main_requests()))]
    assert refusal(told[1]), told[1]
    assert REQUEST_HEAD in told[2]
    assert len(told) == len(script)
    with open(os.path.join(tree, CHECKPOINT), encoding="utf-8") as fh:
        assert fh.read() == FRESH
    assert read(agent) == GOOD_CHECKPOINT  # the main checkout's checkpoint is untouched


# ------------------------------------------------ shell writes, work after the request


def test_shell_write_of_the_checkpoint_is_caught(agent) -> None:
    shell = f"cat > {CHECKPOINT} <<'EOF'\n{OVERSIZED}EOF\n"
    with agent.server_class([agent.shell(shell), say("Saved.")]) as srv:
        ran(agent.run(srv, "Save the checkpoint."))
        told = added(agent, srv)
    assert "max-lines-hard" in told and CHECKPOINT in told, told


def test_work_after_the_request_is_asked_about_again(agent) -> None:
    """The agent answers the request with more real work (longer than the threshold) and
    no checkpoint: it is asked again; the quick write that follows ends the session."""
    script = [
        say("The feature is built.", before=worked(agent)),
        agent.write(
            "src/app.py",
            "print('hello, world')\n",
        ),
        say("I fixed one more thing instead.", before=worked(agent)),
        agent.write(CHECKPOINT, FRESH),
        say("Checkpoint written."),
    ]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        assert srv.turns_used() == len(script), "not asked again after the work"
        assert asks(agent, srv) == [1, 3]
        assert len(srv.main_requests()) == len(script)
    assert read(agent) == FRESH


@pytest.fixture
def codex(tmp_path, agent_commands, sink):
    project = make_project(str(tmp_path / "project"))
    made = AGENTS["codex"](agent_commands["codex"], project)
    made.sink_url = sink.url
    install_hooks(made)
    yield made
    made.cleanup()


def test_codex_patch_through_the_shell_is_refused(codex) -> None:
    """A model Codex has no metadata for is offered `exec_command` and no `apply_patch`
    tool; it runs `apply_patch` with a heredoc through the shell, which Codex applies."""
    codex.model = "unknown-scripted-model"
    with open(os.path.join(codex.project, CHECKPOINT), encoding="utf-8") as fh:
        old = fh.read()
    patch = patch_text(CHECKPOINT, OVERSIZED, old)
    shell = codex.shell(f"apply_patch <<'EOF'\n{patch}EOF\n")
    with codex.server_class([shell, say("Saved.")]) as srv:
        ran(codex.run(srv, "Save the checkpoint."))
        tools = {t.get("name") for t in srv.main_requests()[0].body.get("tools", [])}
        results = codex.tool_results(srv)
    assert "apply_patch" not in tools and "exec_command" in tools
    assert read(codex) == GOOD_CHECKPOINT
    assert refusal(results[0]), results


@pytest.fixture
def claude(tmp_path, agent_commands, sink):
    project = make_project(str(tmp_path / "project"))
    made = AGENTS["claude"](agent_commands["claude"], project)
    made.sink_url = sink.url
    install_hooks(made)
    commit_all(project, "the hooks")
    yield made
    made.cleanup()


def test_claude_worktree_session_governs_the_worktree(claude) -> None:
    """`claude --worktree NAME` starts the session in .claude/worktrees/NAME, while
    $CLAUDE_PROJECT_DIR stays the main checkout: the worktree's checkpoint is governed."""
    tree = os.path.join(claude.project, ".claude", "worktrees", "e2e")
    script = [claude.write(CHECKPOINT, OVERSIZED, base=tree), say("Saved.")]
    with claude.server_class(script) as srv:
        argv = claude.argv
        claude.argv = lambda prompt, resume: [*argv(prompt, resume), "--worktree", "e2e"]
        ran(claude.run(srv, "Save the checkpoint."))
        results = claude.tool_results(srv)
    assert os.path.isdir(tree)
    assert not os.path.exists(os.path.join(tree, CHECKPOINT))
    assert refusal(results[0]), results


def test_claude_worktree_resume_rereads_the_worktree_checkpoint(claude) -> None:
    """The re-read after a resume inside .claude/worktrees/NAME is the worktree's
    checkpoint, not the main checkout's."""
    tree = os.path.join(claude.project, ".claude", "worktrees", "e2e")
    argv = claude.argv
    claude.argv = lambda prompt, resume: [*argv(prompt, resume), "--worktree", "e2e"]
    with claude.server_class([claude.write(CHECKPOINT, FRESH, base=tree), say("Saved.")]) as srv:
        ran(claude.run(srv, "Save the checkpoint."))
        with open(os.path.join(tree, CHECKPOINT), encoding="utf-8") as fh:
            assert fh.read() == FRESH
        claude.argv = argv
        srv.load([say("Resumed.")])
        ran(claude.run(srv, "Carry on.", resume=True, cwd=tree))
        resumed = claude.told(srv)
        before = claude.told(srv, -2)
    # the checkpoint came back once more than the conversation had it (the Write)
    assert resumed.count("Task 11: the e2e suite") > before.count("Task 11: the e2e suite")
    assert "Task 9: benchmark the hot path" not in resumed  # the main checkout's
    assert REQUEST_HEAD in resumed


def test_oc_update_through_the_shell_is_the_checkpoint(agent) -> None:
    """In an OC repository the agent answers the request with the documented writer,
    `asimov-hooks oc update`, run through its shell tool: that is the checkpoint, and the
    session ends without being asked again."""
    made = run_script("asimov-hooks", "oc", "new", "demo", cwd=agent.project)
    assert made.returncode == 0, made.stderr
    # by its full path: Codex's and Claude Code's shells are login shells, whose profile
    # sets PATH afresh (the test's virtualenv is not on it)
    exe = os.path.join(SCRIPTS, "asimov-hooks")
    update = f'{exe} oc update demo "--progress_summary=Sprint 2 is built"'
    script = [say("Sprint 2 is built.", before=worked(agent)), agent.shell(update), say("Saved.")]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build sprint 2."))
        assert srv.turns_used() == len(script)
        assert asks(agent, srv) == [1]
        assert len(srv.main_requests()) == len(script), "asked again after oc update"
        results = agent.tool_results(srv)
    assert "Sprint 2 is built" in read(agent, ".checkpoints/demo.checkpoint.json"), results
