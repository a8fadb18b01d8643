"""`asimov-hooks agent-event --agent codex|gemini|cursor`, each event a separate call
fed a payload shaped as the agent documents it (tests/data/agents/, sources in
CONTRACTS.md), in real git repositories.

The turn-timer sequences of the checkpoint-injection design run with the default
threshold (30 s); where the design says "30 s+ of work" the tests move the stored turn
timestamps into the past instead of sleeping, and never assert how long anything took.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from agent_support import FIXTURES, PLACEHOLDER, agent_event, fixture, output, work
from conftest import GOOD_CHECKPOINT, git, git_init, oc_checkpoint, script_env, write

THRESHOLD = 30  # conftest.agent_repo's
AGENTS = ("codex", "gemini", "cursor")
PRE_WRITE_AGENTS = ("codex", "gemini", "cursor")
EVENTS = {  # the fixture of each kind of event, per agent
    "codex": {"prompt": "user_prompt_submit", "stop": "stop", "start": "session_start_resume"},
    "gemini": {"prompt": "before_agent", "stop": "after_agent", "start": "session_start_resume"},
    "cursor": {"prompt": "before_submit_prompt", "stop": "stop", "start": "session_start"},
}
CONTINUED = {  # a stop that follows a continuation a hook asked for
    "codex": {"stop_hook_active": True},
    "gemini": {"stop_hook_active": True},
    "cursor": {"loop_count": 1},
}
SESSION = {"codex": "session_id", "gemini": "session_id", "cursor": "conversation_id"}


def event(agent: str, kind: str, repo: str, **changes: object) -> dict:
    return fixture(agent, EVENTS[agent][kind], repo, **changes)


def continued_with(agent: str, proc: subprocess.CompletedProcess) -> str | None:
    """The instruction the agent is sent at the end of its turn, if any."""
    out = output(proc) or {}
    if agent == "codex":
        return out.get("reason") if out.get("decision") == "block" else None
    if agent == "gemini":
        return out.get("reason") if out.get("decision") == "deny" else None
    return out.get("followup_message")


def context_of(agent: str, proc: subprocess.CompletedProcess) -> str | None:
    out = output(proc) or {}
    if agent == "cursor":
        return out.get("additional_context")
    return (out.get("hookSpecificOutput") or {}).get("additionalContext")


def denial(agent: str, proc: subprocess.CompletedProcess) -> str | None:
    out = output(proc) or {}
    if agent == "codex":
        specific = out.get("hookSpecificOutput") or {}
        return (
            specific.get("permissionDecisionReason")
            if specific.get("permissionDecision") == "deny"
            else None
        )
    if agent == "cursor":
        return out.get("agent_message") if out.get("permission") == "deny" else None
    return out.get("reason") if out.get("decision") == "deny" else None


def pre_write(agent: str, repo: str, rel: str, old: str | None, new: str) -> dict:
    """A write of `rel`: the whole new content (`old` None) or one replacement."""
    if agent == "codex":
        if old is None:
            body = "".join("+" + line + "\n" for line in new.split("\n")[:-1])
            patch = f"*** Begin Patch\n*** Add File: {rel}\n{body}*** End Patch\n"
        else:
            minus = "".join("-" + line + "\n" for line in old.split("\n"))
            plus = "".join("+" + line + "\n" for line in new.split("\n"))
            patch = f"*** Begin Patch\n*** Update File: {rel}\n@@\n{minus}{plus}*** End Patch\n"
        return fixture(agent, "pre_tool_use_apply_patch", repo, tool_input={"command": patch})
    path = os.path.join(repo, rel)
    if agent == "cursor":
        if old is None:
            return fixture(
                agent, "pre_tool_use_write", repo, tool_input={"path": path, "content": new}
            )
        tool_input = {"path": path, "old_string": old, "new_string": new}
        return fixture(agent, "pre_tool_use_str_replace", repo, tool_input=tool_input)
    if old is None:
        return fixture(
            agent, "before_tool_write_file", repo, tool_input={"file_path": path, "content": new}
        )
    tool_input = {"file_path": path, "instruction": "edit", "old_string": old, "new_string": new}
    return fixture(agent, "before_tool_replace", repo, tool_input=tool_input)


@pytest.fixture
def repo(checkpoint_repo) -> str:
    return checkpoint_repo


# ------------------------------------------------------------------ the turn timer
def stop(agent: str, repo: str, **changes: object) -> str | None:
    return continued_with(agent, agent_event(agent, event(agent, "stop", repo, **changes), repo))


@pytest.mark.parametrize("agent", AGENTS)
def test_turn_timer_sequences(agent: str, repo: str) -> None:
    """Flows 1-3 of the design: a real prompt starts the turn; a stop 30 s+ later gets
    the checkpoint message once; the message coming back as a prompt changes nothing;
    a quick answer to it is not asked again; substantial work after it is."""
    agent_event(agent, event(agent, "prompt", repo), repo)
    assert stop(agent, repo) is None
    work(repo)
    message = stop(agent, repo)
    assert message and "validate" in message and ".claude_checkpoint.yaml" in message
    # the checkpoint message delivered back as a prompt (Gemini and Cursor do this)
    agent_event(agent, event(agent, "prompt", repo, prompt=message), repo)
    assert stop(agent, repo) is None  # a quick answer to it is not asked again
    work(repo)
    assert stop(agent, repo) == message  # substantial work after it is


@pytest.mark.parametrize("agent", AGENTS)
def test_the_timer_guards_continued_stops(agent: str, repo: str) -> None:
    """Flow 3 of the checkpoint-injection design: a stop after a continuation the
    hook asked for is judged by the timer, not skipped: quick, nothing; after the
    threshold of real work, asked again; never twice in a row."""
    agent_event(agent, event(agent, "prompt", repo), repo)
    work(repo)
    assert continued_with(agent, agent_event(agent, event(agent, "stop", repo), repo))
    continued = event(agent, "stop", repo, **CONTINUED[agent])
    assert continued_with(agent, agent_event(agent, continued, repo)) is None
    work(repo)
    assert continued_with(agent, agent_event(agent, continued, repo))
    assert continued_with(agent, agent_event(agent, continued, repo)) is None


@pytest.mark.parametrize("agent", AGENTS)
def test_a_new_prompt_clears_the_turn(agent: str, repo: str) -> None:
    agent_event(agent, event(agent, "prompt", repo), repo)
    work(repo)
    agent_event(agent, event(agent, "prompt", repo, prompt="Now the docs, please."), repo)
    assert stop(agent, repo) is None


@pytest.mark.parametrize("agent", AGENTS)
def test_sessions_are_kept_apart(agent: str, repo: str) -> None:
    agent_event(agent, event(agent, "prompt", repo), repo)
    work(repo)
    other = event(agent, "stop", repo, **{SESSION[agent]: "another-session"})
    assert continued_with(agent, agent_event(agent, other, repo)) is None


@pytest.mark.parametrize("status", ["aborted", "error"])
def test_cursor_stop_the_user_aborted_is_not_continued(status: str, repo: str) -> None:
    agent_event("cursor", event("cursor", "prompt", repo), repo)
    work(repo)
    aborted = agent_event("cursor", event("cursor", "stop", repo, status=status), repo)
    assert continued_with("cursor", aborted) is None


def test_cursor_prompt_is_always_let_through(repo: str) -> None:
    proc = agent_event("cursor", event("cursor", "prompt", repo), repo)
    assert output(proc) == {"continue": True}


# ------------------------------------------------------------------ write-time check
CLAUDE_45 = "".join(f"line {i}\n" for i in range(1, 46))


@pytest.mark.parametrize("agent", PRE_WRITE_AGENTS)
def test_valid_checkpoint_write_is_allowed(agent: str, repo: str) -> None:
    new = GOOD_CHECKPOINT.replace("tool_calls: 45", "tool_calls: 46")
    proc = agent_event(
        agent,
        pre_write(agent, repo, ".claude_checkpoint.yaml", "tool_calls: 45", "tool_calls: 46"),
        repo,
    )
    assert denial(agent, proc) is None
    proc = agent_event(agent, pre_write(agent, repo, ".claude_checkpoint.yaml", None, new), repo)
    assert denial(agent, proc) is None


@pytest.mark.parametrize("agent", PRE_WRITE_AGENTS)
def test_new_error_is_denied_in_the_agents_form(agent: str, repo: str) -> None:
    proc = agent_event(
        agent,
        pre_write(agent, repo, ".claude_checkpoint.yaml", "tool_calls: 45", "tool_calls: -3"),
        repo,
    )
    reason = denial(agent, proc)
    assert reason and "tool_calls" in reason
    assert Path(repo, ".claude_checkpoint.yaml").read_text(encoding="utf-8") == GOOD_CHECKPOINT


@pytest.mark.parametrize("agent", PRE_WRITE_AGENTS)
def test_edit_beside_an_existing_error_is_allowed(agent: str, repo: str) -> None:
    write(
        repo,
        ".claude_checkpoint.yaml",
        GOOD_CHECKPOINT.replace("status: in_progress", "status: nonsense"),
    )
    proc = agent_event(
        agent,
        pre_write(agent, repo, ".claude_checkpoint.yaml", "tool_calls: 45", "tool_calls: 46"),
        repo,
    )
    assert denial(agent, proc) is None
    proc = agent_event(
        agent,
        pre_write(agent, repo, ".claude_checkpoint.yaml", "tool_calls: 45", "tool_calls: -1"),
        repo,
    )
    assert "tool_calls" in (denial(agent, proc) or "")


@pytest.mark.parametrize("agent", PRE_WRITE_AGENTS)
def test_shrinking_an_over_limit_file_is_allowed_growing_it_is_denied(
    agent: str, repo: str
) -> None:
    write(repo, "CLAUDE.md", CLAUDE_45)
    shrink = agent_event(
        agent, pre_write(agent, repo, "CLAUDE.md", "line 44\nline 45", "line 44"), repo
    )
    assert denial(agent, shrink) is None
    grow = agent_event(
        agent, pre_write(agent, repo, "CLAUDE.md", "line 45", "line 45\nline 46"), repo
    )
    assert "CLAUDE.md" in (denial(agent, grow) or "")


@pytest.mark.parametrize("agent", PRE_WRITE_AGENTS)
def test_a_write_the_tool_itself_would_refuse_is_left_to_the_tool(agent: str, repo: str) -> None:
    proc = agent_event(
        agent,
        pre_write(agent, repo, ".claude_checkpoint.yaml", "no such text", "tool_calls: -1"),
        repo,
    )
    assert denial(agent, proc) is None


@pytest.mark.parametrize("agent", PRE_WRITE_AGENTS)
def test_files_outside_the_project_are_not_governed(agent: str, repo: str, tmp_path) -> None:
    outside = git_init(tmp_path / "elsewhere")
    target = os.path.join(outside, ".claude_checkpoint.yaml")
    bad = "status: [unclosed\n"
    if agent == "codex":
        rel = os.path.relpath(target, repo)
        payload = pre_write(agent, repo, rel, None, bad)
    else:
        payload = pre_write(agent, repo, target, None, bad)
    proc = agent_event(agent, payload, repo)
    assert proc.stdout == "" and proc.stderr == ""


def test_codex_patch_of_other_files_is_silent(repo: str) -> None:
    write(repo, "src/app.py", "x = 1\n")
    patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"
    proc = agent_event(
        "codex",
        fixture("codex", "pre_tool_use_apply_patch", repo, tool_input={"command": patch}),
        repo,
    )
    assert proc.stdout == "" and proc.stderr == ""
    shell = fixture(
        "codex", "pre_tool_use_apply_patch", repo, tool_name="Bash", tool_input={"command": "ls"}
    )
    assert agent_event("codex", shell, repo).stdout == ""


def test_codex_patch_touching_several_files_checks_the_protocol_ones(repo: str) -> None:
    write(repo, "src/app.py", "x = 1\n")
    patch = (
        "*** Begin Patch\n*** Update File: src/app.py\n@@\n-x = 1\n+x = 2\n"
        "*** Update File: .claude_checkpoint.yaml\n@@\n-status: in_progress\n+status: finished\n"
        "*** End Patch\n"
    )
    proc = agent_event(
        "codex",
        fixture("codex", "pre_tool_use_apply_patch", repo, tool_input={"command": patch}),
        repo,
    )
    assert "status" in (denial("codex", proc) or "")


def test_codex_move_onto_the_checkpoint_is_checked(repo: str) -> None:
    os.remove(os.path.join(repo, ".claude_checkpoint.yaml"))
    write(repo, "draft.yaml", GOOD_CHECKPOINT)
    patch = (
        "*** Begin Patch\n*** Update File: draft.yaml\n*** Move to: .claude_checkpoint.yaml\n"
        "@@\n-tool_calls: 45\n+tool_calls: -2\n*** End Patch\n"
    )
    payload = fixture("codex", "pre_tool_use_apply_patch", repo, tool_input={"command": patch})
    assert "tool_calls" in (denial("codex", agent_event("codex", payload, repo)) or "")


@pytest.mark.parametrize("checkpoint_exists", [True, False])
def test_codex_move_of_a_broken_draft_onto_the_checkpoint_is_denied(
    checkpoint_exists: bool, repo: str
) -> None:
    """A move is judged against what the target holds now, not against its source: a
    draft's own errors are new errors for the checkpoint it replaces."""
    if not checkpoint_exists:
        os.remove(os.path.join(repo, ".claude_checkpoint.yaml"))
    write(repo, "draft.yaml", GOOD_CHECKPOINT.replace("tool_calls: 45", "tool_calls: -5"))
    patch = (
        "*** Begin Patch\n*** Update File: draft.yaml\n*** Move to: .claude_checkpoint.yaml\n"
        '@@\n-milestone: "Add feature X"\n+milestone: "Add feature Y"\n*** End Patch\n'
    )
    payload = fixture("codex", "pre_tool_use_apply_patch", repo, tool_input={"command": patch})
    assert "tool_calls" in (denial("codex", agent_event("codex", payload, repo)) or "")


def test_codex_malformed_patch_is_left_to_codex(repo: str) -> None:
    patch = "*** Begin Patch\n*** Update File: .claude_checkpoint.yaml\n*** End Patch\n"
    proc = agent_event(
        "codex",
        fixture("codex", "pre_tool_use_apply_patch", repo, tool_input={"command": patch}),
        repo,
    )
    assert denial("codex", proc) is None


def test_gemini_relative_path_is_the_project_roots(repo: str) -> None:
    sub = os.path.join(repo, "sub")
    os.makedirs(sub)
    payload = fixture(
        "gemini",
        "before_tool_write_file",
        repo,
        cwd=sub,
        tool_input={"file_path": ".claude_checkpoint.yaml", "content": "status: [unclosed\n"},
    )
    assert denial("gemini", agent_event("gemini", payload, sub, GEMINI_PROJECT_DIR=repo))


# ------------------------------------------------------------------ after the write
BLOATED = (
    "milestone: Ship the agent hooks\nstatus: in_progress\ncompleted:\n"
    + "".join(f"  - task {i}\n" for i in range(1, 13))
    + "in_progress: wiring\nnext_steps:\n  - review\n"
)


def _after_write(agent: str, repo: str) -> dict:
    if agent == "codex":
        return fixture(agent, "post_tool_use_apply_patch", repo)
    if agent == "gemini":
        return fixture(agent, "after_tool_write_file", repo)
    return fixture(agent, "post_tool_use_write", repo)


@pytest.mark.parametrize("agent", AGENTS)
def test_post_write_trims_and_reports_where_the_agent_can_read_it(agent: str, repo: str) -> None:
    write(repo, ".claude_checkpoint.yaml", BLOATED)
    proc = agent_event(agent, _after_write(agent, repo), repo)
    text = Path(repo, ".claude_checkpoint.yaml").read_text(encoding="utf-8")
    assert "task 1\n" not in text and "task 12" in text  # trimmed after the write
    assert os.path.exists(os.path.join(repo, ".claude_checkpoint.archive.yaml"))
    assert "trim" in (context_of(agent, proc) or "").lower()


@pytest.mark.parametrize("agent", AGENTS)
def test_the_agents_own_checkpoint_write_counts_as_the_checkpoint(agent: str, repo: str) -> None:
    agent_event(agent, event(agent, "prompt", repo), repo)
    work(repo)
    agent_event(agent, _after_write(agent, repo), repo)
    assert stop(agent, repo) is None
    work(repo)
    assert stop(agent, repo)  # the write started the new period


# ------------------------------------------------------------------ session start
@pytest.mark.parametrize("agent", ("codex", "gemini"))
def test_restart_reinjects_the_checkpoint_and_asks_for_a_fresh_one(agent: str, repo: str) -> None:
    context = context_of(agent, agent_event(agent, event(agent, "start", repo), repo)) or ""
    assert "Task 9: benchmark the hot path" in context  # the checkpoint, re-read
    assert "validate" in context  # and the request for a fresh one


@pytest.mark.parametrize("agent", ("codex", "gemini"))
def test_restart_without_a_checkpoint_asks_for_one(agent: str, repo: str) -> None:
    os.remove(os.path.join(repo, ".claude_checkpoint.yaml"))
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    git(repo, "add", "warmup.yaml")  # committed: the repository follows the protocol
    context = context_of(agent, agent_event(agent, event(agent, "start", repo), repo)) or ""
    assert "validate" in context and ".claude_checkpoint.yaml" in context


@pytest.mark.parametrize("agent", ("codex", "gemini"))
def test_startup_is_not_a_restart(agent: str, repo: str) -> None:
    proc = agent_event(agent, event(agent, "start", repo, source="startup"), repo)
    assert "validate" not in (context_of(agent, proc) or "")


# ------------------------------------------------------------------ which files are asked for
@pytest.mark.parametrize("agent", AGENTS)
def test_oc_only_repository_is_asked_for_its_oc_checkpoints(
    agent: str, tmp_path, isolated_home
) -> None:
    repo = git_init(tmp_path / "oc")
    write(repo, ".asimov-hooks.yaml", f"agent:\n  turn-threshold: {THRESHOLD}\n")
    write(repo, ".checkpoints/oc-app-architect.checkpoint.json", oc_checkpoint())
    agent_event(agent, event(agent, "prompt", repo), repo)
    work(repo)
    message = continued_with(agent, agent_event(agent, event(agent, "stop", repo), repo)) or ""
    assert ".checkpoints/" in message and ".claude_checkpoint.yaml" not in message


@pytest.mark.parametrize("agent", AGENTS)
def test_repository_without_protocol_files_is_never_asked(
    agent: str, tmp_path, isolated_home
) -> None:
    repo = git_init(tmp_path / "plain")
    write(repo, ".asimov-hooks.yaml", f"agent:\n  turn-threshold: {THRESHOLD}\n")
    write(repo, "src/app.py", "x = 1\n")
    agent_event(agent, event(agent, "prompt", repo), repo)
    work(repo)
    assert continued_with(agent, agent_event(agent, event(agent, "stop", repo), repo)) is None
    start = agent_event(agent, event(agent, "start", repo), repo)
    assert "validate" not in (context_of(agent, start) or "")


# ------------------------------------------------------------------ the cheap path
@pytest.mark.parametrize(
    ("agent", "name", "changes"),
    [
        ("codex", "pre_tool_use_apply_patch", {}),
        ("codex", "post_tool_use_apply_patch", {}),
        ("gemini", "before_tool_write_file", {}),
        ("gemini", "before_tool_replace", {}),
        ("cursor", "after_file_edit", {}),
        ("cursor", "pre_tool_use_write", {}),
        ("cursor", "post_tool_use_write", {}),
    ],
)
def test_a_write_of_another_file_loads_nothing_heavy(
    agent: str, name: str, changes: dict, repo: str
) -> None:
    """The event of almost every edit: not a protocol file. No parser, no state, no click."""
    import sys

    write(repo, "src/app.py", "status: in_progress\n")
    text = Path(FIXTURES, agent, f"{name}.json").read_text(encoding="utf-8")
    text = text.replace(".claude_checkpoint.yaml", "src/app.py").replace(PLACEHOLDER, repo)
    code = (
        "import io, sys\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({text.encode()!r}))\n"
        "from asimov_hooks.cli.entrypoints import hooks_main\n"
        f"rc = hooks_main(['agent-event', '--agent', {agent!r}])\n"
        "heavy = ('click', 'sqlite3', 'ruamel.yaml', 'jsonschema', 'json', 're',\n"
        "         'asimov_hooks.agent.runtime.core', 'asimov_hooks.engine', 'asimov_hooks.agent.runtime.simulate')\n"
        "print(rc, [m for m in heavy if m in sys.modules])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, env=script_env()
    )
    assert done.stdout.strip().endswith("0 []"), done.stdout + done.stderr
