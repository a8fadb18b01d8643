"""`asimov-hooks agent-event` driven as Claude Code drives it: a separate process per
event, the hook JSON on stdin, the answer JSON on stdout.

Payloads carry the fields Claude Code documents for each event (session_id,
transcript_path, cwd, hook_event_name, tool_name, tool_input, prompt, source,
stop_hook_active). The turn-timer sequences of the checkpoint-injection design run with
the real 30-second threshold; where it says "30 s+ of work" the tests move the recorded
times 40 s into the past (`age_turn`) instead of sleeping, and never assert how long
anything took.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from agent_support import age_turn, answer, run_event, turn_row
from conftest import GOOD_CHECKPOINT, SCRIPTS, git, git_init, script_env, write
from ruamel.yaml import YAML

from asimov_hooks.agent.runtime.state import Store

THRESHOLD = 30
MESSAGE = "Checkpoint now: update .claude_checkpoint.yaml (current state only)."
BLOATED = (
    "milestone: Ship the agent hooks\nstatus: in_progress\ncompleted:\n"
    + "".join(f"  - task {i}\n" for i in range(1, 13))
    + "in_progress: wiring\nnext_steps:\n  - review\n"
)


def agent_event(payload: object, cwd: os.PathLike | str, **env: str) -> subprocess.CompletedProcess:
    """Claude Code's event (no --agent: the default), checked as every agent's is."""
    return run_event(None, payload, cwd, **env)


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    path = git_init(tmp_path / "repo")
    write(path, ".gitignore", ".claude_checkpoint.yaml\n.claude_checkpoint.archive.yaml\n")
    write(path, "warmup.yaml", "identity:\n  project: demo\n")  # uses the Asimov Protocol
    git(path, "add", "warmup.yaml")  # committed: the repository follows the protocol
    write(
        path,
        ".asimov-hooks.yaml",
        f"agent:\n  turn-threshold: {THRESHOLD}\n  checkpoint-message: {json.dumps(MESSAGE)}\n",
    )
    return path


def base(repo: str, event: str, session: str = "sess-1", **fields: object) -> dict:
    return {
        "session_id": session,
        "transcript_path": os.path.join(repo, "transcript.jsonl"),
        "cwd": repo,
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def tool(repo: str, event: str, name: str, rel: str, **tool_input: object) -> dict:
    return base(
        repo,
        event,
        tool_name=name,
        tool_input={"file_path": os.path.join(repo, rel), **tool_input},
        tool_use_id="toolu_01",
    )


def load_yaml(path: str) -> object:
    with open(path, encoding="utf-8") as fh:
        return YAML(typ="safe").load(fh)


# ------------------------------------------------------------------ PreToolUse
def test_pre_write_of_other_file_is_silent(repo) -> None:
    proc = agent_event(tool(repo, "PreToolUse", "Write", "src/app.py", content="x = 1\n"), repo)
    assert answer(proc) is None and proc.stderr == ""


def test_pre_other_tool_is_silent(repo) -> None:
    payload = base(repo, "PreToolUse", tool_name="Bash", tool_input={"command": "ls"})
    assert answer(agent_event(payload, repo)) is None


def test_pre_write_valid_checkpoint_allowed(repo) -> None:
    payload = tool(repo, "PreToolUse", "Write", ".claude_checkpoint.yaml", content=GOOD_CHECKPOINT)
    assert answer(agent_event(payload, repo)) is None


def test_pre_write_fixable_by_trim_allowed(repo) -> None:
    """Too many completed items is what the trim fixes: not a refusal; the Write is
    handed back trimmed (ADR-007: trim before the write)."""
    payload = tool(repo, "PreToolUse", "Write", ".claude_checkpoint.yaml", content=BLOATED)
    specific = answer(agent_event(payload, repo))["hookSpecificOutput"]
    assert "permissionDecision" not in specific  # the user's own rules judge the call
    assert "task 12" in specific["updatedInput"]["content"]


def deny_reason(proc: subprocess.CompletedProcess) -> str:
    out = answer(proc)
    assert out is not None
    specific = out["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["permissionDecision"] == "deny"
    return specific["permissionDecisionReason"]


def test_pre_write_invalid_yaml_denied(repo) -> None:
    payload = tool(
        repo, "PreToolUse", "Write", ".claude_checkpoint.yaml", content="milestone: [unclosed\n"
    )
    reason = deny_reason(agent_event(payload, repo))
    assert ".claude_checkpoint.yaml:" in reason and "error syntax" in reason


def test_pre_write_schema_error_denied(repo) -> None:
    content = GOOD_CHECKPOINT.replace("status: in_progress", "status: finished")
    payload = tool(repo, "PreToolUse", "Write", ".claude_checkpoint.yaml", content=content)
    reason = deny_reason(agent_event(payload, repo))
    assert "error schema status" in reason and "current state only" in reason


def test_pre_write_over_hard_limit_after_trim_denied(repo) -> None:
    content = "milestone: big\nstatus: in_progress\n" + "".join(
        f"extra_{i}: value\n" for i in range(40)
    )
    payload = tool(repo, "PreToolUse", "Write", ".claude_checkpoint.yaml", content=content)
    reason = deny_reason(agent_event(payload, repo))
    assert "max-lines-hard" in reason


def test_pre_write_claude_md_over_limit_denied(repo) -> None:
    content = "".join(f"rule {i}\n" for i in range(30))
    reason = deny_reason(
        agent_event(tool(repo, "PreToolUse", "Write", "CLAUDE.md", content=content), repo)
    )
    assert "CLAUDE.md" in reason and "max-lines-hard" in reason and "Fix these" in reason


def test_pre_edit_applies_to_current_file(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    good = tool(
        repo,
        "PreToolUse",
        "Edit",
        ".claude_checkpoint.yaml",
        old_string="tool_calls: 45",
        new_string="tool_calls: 46",
        replace_all=False,
    )
    assert answer(agent_event(good, repo)) is None
    bad = tool(
        repo,
        "PreToolUse",
        "Edit",
        ".claude_checkpoint.yaml",
        old_string="tool_calls: 45",
        new_string="tool_calls: -3",
    )
    assert "tool_calls" in deny_reason(agent_event(bad, repo))


def test_pre_edit_that_the_tool_would_reject_is_left_to_the_tool(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    missing = tool(
        repo, "PreToolUse", "Edit", ".claude_checkpoint.yaml", old_string="nope", new_string="x"
    )
    assert answer(agent_event(missing, repo)) is None
    ambiguous = tool(
        repo, "PreToolUse", "Edit", ".claude_checkpoint.yaml", old_string="Task", new_string="X: :"
    )
    assert answer(agent_event(ambiguous, repo)) is None


def test_pre_edit_creating_a_file(repo) -> None:
    payload = tool(
        repo,
        "PreToolUse",
        "Edit",
        ".claude_checkpoint.yaml",
        old_string="",
        new_string="status: nonsense\n",
    )
    assert "milestone" in deny_reason(agent_event(payload, repo))


def test_pre_multiedit_all_edits_in_order(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    edits = [
        {"old_string": "tool_calls: 45", "new_string": "tool_calls: 50"},
        {"old_string": "status: in_progress", "new_string": "status: paused"},
    ]
    payload = tool(repo, "PreToolUse", "MultiEdit", ".claude_checkpoint.yaml", edits=edits)
    assert "status" in deny_reason(agent_event(payload, repo))
    edits[1]["new_string"] = "status: blocked"
    payload = tool(repo, "PreToolUse", "MultiEdit", ".claude_checkpoint.yaml", edits=edits)
    assert answer(agent_event(payload, repo)) is None


def test_pre_not_a_protocol_warmup_is_allowed(repo) -> None:
    manifest = "apiVersion: v1\nkind: ConfigMap\n" + "".join(f"k{i}: v\n" for i in range(600))
    payload = tool(repo, "PreToolUse", "Write", "deploy/warmup.yaml", content=manifest)
    assert answer(agent_event(payload, repo)) is None


def test_pre_repo_config_kind_is_seen(repo) -> None:
    """A kind added in the repository's config is a protocol file too (full config)."""
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "a", encoding="utf-8") as fh:
        fh.write(
            "kinds:\n  notes:\n    files: [NOTES.md]\n    format: text\n"
            "    rules:\n      max-lines-hard: {level: error, max: 2}\n"
        )
    proc = agent_event(tool(repo, "PreToolUse", "Write", "NOTES.md", content="a\nb\nc\nd\n"), repo)
    assert "max-lines-hard" in deny_reason(proc)


def test_pre_unreadable_current_file(repo) -> None:
    """A file the Edit tool cannot read either: its own error reaches the agent; a link
    out of the repository (here to /proc/self/mem) is not the project's file at all."""
    path = os.path.join(repo, ".claude_checkpoint.yaml")
    if os.geteuid() != 0:
        write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
        os.chmod(path, 0)
    elif os.path.exists("/proc/self/mem"):  # root reads every file; this one fails (EIO)
        os.symlink("/proc/self/mem", path)
    else:
        pytest.skip("no way to make a file unreadable for root here")
    try:
        payload = tool(
            repo, "PreToolUse", "Edit", ".claude_checkpoint.yaml", old_string="a", new_string="b"
        )
        proc = agent_event(payload, repo)
    finally:
        if not os.path.islink(path):
            os.chmod(path, 0o644)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == "", proc


# ------------------------------------------------------------------ PostToolUse
def test_post_write_trims_and_tells_the_agent(repo) -> None:
    path = write(repo, ".claude_checkpoint.yaml", BLOATED)
    payload = tool(repo, "PostToolUse", "Write", ".claude_checkpoint.yaml", content=BLOATED)
    payload["tool_response"] = {"filePath": path, "success": True}
    out = answer(agent_event(payload, repo))
    assert out is not None
    context = out["hookSpecificOutput"]["additionalContext"]
    assert out["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert "trimmed .claude_checkpoint.yaml" in context and "read it again" in context
    assert load_yaml(path)["completed"] == [f"task {i}" for i in range(8, 13)]
    archive = load_yaml(os.path.join(repo, ".claude_checkpoint.archive.yaml"))
    assert "task 1" in json.dumps(archive)
    # a second write of a file within its limits: nothing to say
    again = tool(
        repo, "PostToolUse", "Edit", ".claude_checkpoint.yaml", old_string="a", new_string="b"
    )
    assert answer(agent_event(again, repo)) is None


def test_post_reports_warnings(repo) -> None:
    write(repo, "CLAUDE.md", "".join(f"line {i}\n" for i in range(12)))
    out = answer(agent_event(tool(repo, "PostToolUse", "Write", "CLAUDE.md", content="x"), repo))
    assert out is not None
    assert "max-lines-soft" in out["hookSpecificOutput"]["additionalContext"]


def test_post_other_file_silent(repo) -> None:
    write(repo, "src/app.py", "x = 1\n")
    proc = agent_event(tool(repo, "PostToolUse", "Write", "src/app.py", content="x = 1\n"), repo)
    assert answer(proc) is None and proc.stderr == ""


# ------------------------------------------------------------------ SessionStart
def test_session_start_compact_reinjects_checkpoint(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    out = answer(agent_event(base(repo, "SessionStart", source="compact"), repo))
    assert out is not None and out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = out["hookSpecificOutput"]["additionalContext"]
    assert GOOD_CHECKPOINT in context and ".claude_checkpoint.yaml" in context
    assert context.endswith(MESSAGE)  # and asked for a fresh one
    # counted as a checkpoint delivered: a quick Stop right after asks for nothing
    assert answer(agent_event(base(repo, "Stop", stop_hook_active=False), repo)) is None
    assert session_row(repo, "sess-1")["checkpoints"] == 1


def test_session_start_resume_within_budget(repo) -> None:
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "a", encoding="utf-8") as fh:
        fh.write("  context-budget: 200\n")
    write(repo, ".claude_checkpoint.yaml", BLOATED * 3)
    out = answer(agent_event(base(repo, "SessionStart", source="resume"), repo))
    assert out is not None
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "more lines not shown" in context and "asimov-hooks trim" in context
    assert len(context) < 200 + 400


@pytest.mark.parametrize("source", ["startup", "clear"])
def test_session_start_other_sources_silent(repo, source: str) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    assert answer(agent_event(base(repo, "SessionStart", source=source), repo)) is None


def test_session_start_without_checkpoint(repo) -> None:
    """The repository uses the protocol (warmup.yaml) but has no checkpoint: ask for one."""
    out = answer(agent_event(base(repo, "SessionStart", source="compact"), repo))
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "no checkpoint yet" in context and context.endswith(MESSAGE)


def test_session_start_asimov_dir_layout(repo) -> None:
    write(repo, ".asimov/checkpoint.yaml", GOOD_CHECKPOINT)
    out = answer(agent_event(base(repo, "SessionStart", source="compact"), repo))
    assert ".asimov/checkpoint.yaml" in out["hookSpecificOutput"]["additionalContext"]


# ------------------------------------------------------------------ Stop / UserPromptSubmit
def session_row(repo: str, session: str) -> dict:
    row = turn_row(repo, session)
    assert row is not None
    return row


def prompt(repo: str, text: str, session: str = "sess-1") -> None:
    assert answer(agent_event(base(repo, "UserPromptSubmit", session, prompt=text), repo)) is None


def stop(repo: str, session: str = "sess-1", active: bool = False) -> dict | None:
    return answer(agent_event(base(repo, "Stop", session, stop_hook_active=active), repo))


def assert_blocks(out: dict | None) -> None:
    assert out == {"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": MESSAGE}}


def test_stop_without_any_turn_does_nothing(repo) -> None:
    assert stop(repo) is None


def test_stop_quick_turn_does_nothing(repo) -> None:
    prompt(repo, "fix the bug")
    assert stop(repo) is None


def test_seed_003_sequences(repo) -> None:
    """Flows 1-3 of the seed, with a real prompt clearing the state in between."""
    # 1. a real prompt, then work past the threshold: the checkpoint is asked for once
    prompt(repo, "implement the feature")
    age_turn(repo, "sess-1", THRESHOLD + 10)
    assert_blocks(stop(repo))
    first = session_row(repo, "sess-1")
    assert first["last_checkpoint_at"] is not None and first["checkpoints"] == 1
    # 2. the checkpoint message coming back as a prompt (as agents that turn a stop's
    #    reason into a prompt deliver it) is invisible to the state, and a quick
    #    response after the checkpoint is not asked again
    prompt(repo, MESSAGE)
    assert session_row(repo, "sess-1") == first
    assert stop(repo) is None
    # 3. substantial work after the checkpoint: asked again (turn_start = checkpoint)
    age_turn(repo, "sess-1", THRESHOLD + 10)
    assert_blocks(stop(repo))
    second = session_row(repo, "sess-1")
    assert second["last_checkpoint_at"] > first["last_checkpoint_at"]
    assert second["checkpoints"] == 2
    # a real prompt clears the checkpoint state (per-turn clearing)
    prompt(repo, "next task please")
    cleared = session_row(repo, "sess-1")
    assert cleared["last_checkpoint_at"] is None
    assert cleared["last_message_sent_at"] > second["last_checkpoint_at"]
    assert stop(repo) is None


def test_sessions_are_independent(repo) -> None:
    prompt(repo, "long task", session="A")
    age_turn(repo, "A", THRESHOLD + 10)
    prompt(repo, "short task", session="B")
    assert stop(repo, session="B") is None
    assert_blocks(stop(repo, session="A"))
    assert stop(repo, session="C") is None  # never prompted: no turn start


def test_state_survives_between_processes_and_checkout(repo) -> None:
    prompt(repo, "work")
    assert session_row(repo, "sess-1")["last_message_sent_at"] is not None
    assert os.path.isfile(os.path.join(repo, ".git", "asimov-hooks", "agent.sqlite3"))
    status = git(repo, "status", "--porcelain", "--ignored").stdout
    assert "sqlite" not in status and "asimov-hooks/" not in status  # inside .git, never tracked
    assert "turns.log" not in status
    age_turn(repo, "sess-1", THRESHOLD + 10)
    assert_blocks(stop(repo))


def test_state_outside_git_goes_to_user_state_dir(tmp_path, isolated_home) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    write(project, ".asimov-hooks.yaml", f"agent:\n  turn-threshold: {THRESHOLD}\n")
    state = tmp_path / "state"
    payload = {"session_id": "p", "cwd": str(project), "hook_event_name": "UserPromptSubmit"}
    payload["prompt"] = "hello"
    assert answer(agent_event(payload, project, XDG_STATE_HOME=str(state))) is None
    assert list(project.rglob("*")) == [project / ".asimov-hooks.yaml"]  # nothing left here
    with Store(str(state / "asimov-hooks")) as store:  # the prompt's turn, read back
        row = store.get("p", os.path.realpath(project))
    assert row is not None and row["last_message_sent_at"] is not None


def test_concurrent_stops_ask_once(repo) -> None:
    prompt(repo, "work")
    age_turn(repo, "sess-1", THRESHOLD + 10)
    exe = shutil.which("asimov-hooks", path=SCRIPTS)
    data = json.dumps(base(repo, "Stop", stop_hook_active=False)).encode()
    procs = [
        subprocess.Popen(
            [exe, "agent-event"],
            cwd=repo,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=script_env(),
        )
        for _ in range(4)
    ]
    outs = [p.communicate(data, timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outs
    blocks = [json.loads(o) for o, _ in outs if o.strip()]
    assert blocks == [
        {"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": MESSAGE}}
    ]
    assert session_row(repo, "sess-1")["checkpoints"] == 1


def test_default_threshold_and_message(tmp_path, isolated_home) -> None:
    """Without configuration: 30 s threshold, so an immediate Stop asks nothing."""
    repo = git_init(tmp_path / "plain")
    prompt(repo, "go")
    assert stop(repo) is None


# ------------------------------------------------------------------ never break the agent
@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "empty stdin"),
        ("   \n", "empty stdin"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not an object"),
        ('{"session_id": "x"}', "no hook_event_name"),
        (b"\xff\xfe{", "not UTF-8"),
    ],
)
def test_malformed_stdin(repo, stdin: str | bytes, message: str) -> None:
    """The installed hook as its own process, its stdin as the agent writes it."""
    proc = run_event(None, stdin, repo, process=True)
    assert proc.returncode == 1 and message in proc.stderr and proc.stdout == ""


def test_unknown_event(repo) -> None:
    proc = agent_event(base(repo, "Notification", message="hi"), repo)
    assert proc.returncode == 0 and "not handled" in proc.stderr and proc.stdout == ""


def test_missing_fields(repo) -> None:
    no_path = base(repo, "PreToolUse", tool_name="Write", tool_input={"content": "x"})
    proc = agent_event(no_path, repo)
    assert proc.returncode == 1 and "file_path" in proc.stderr
    no_session = base(repo, "Stop")
    del no_session["session_id"]
    proc = agent_event(no_session, repo)
    assert proc.returncode == 1 and "session id" in proc.stderr


def test_bad_config_is_one_line(repo) -> None:
    write(repo, ".asimov-hooks.yaml", "agent:\n  turn-threshold: soon\n")
    proc = agent_event(base(repo, "Stop"), repo)
    assert proc.returncode == 1 and "turn-threshold" in proc.stderr


def test_unusable_state_dir(repo, tmp_path) -> None:
    blocker = write(tmp_path, "not-a-dir", "x")
    proc = agent_event(
        base(repo, "UserPromptSubmit", prompt="x"), repo, ASIMOV_HOOKS_STATE_DIR=blocker
    )
    assert proc.returncode == 1 and "agent state" in proc.stderr


def test_arguments_and_help(repo) -> None:
    exe = shutil.which("asimov-hooks", path=SCRIPTS)
    helped = subprocess.run([exe, "agent-event", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "stdin" in helped.stdout
    wrong = subprocess.run(
        [exe, "agent-event", "extra"], capture_output=True, text=True, input="{}"
    )
    assert wrong.returncode == 1 and "unexpected argument 'extra'" in wrong.stderr


def test_pre_write_of_non_text_is_denied(repo) -> None:
    payload = tool(repo, "PreToolUse", "Write", ".claude_checkpoint.yaml", content="LONE")
    raw = json.dumps(payload).replace("LONE", "milestone: \\ud800\\n")  # a lone surrogate
    assert "error encoding" in deny_reason(agent_event(raw, repo))
    nul = tool(repo, "PreToolUse", "Write", ".claude_checkpoint.yaml", content="milestone: a\x00\n")
    assert "encoding" in deny_reason(agent_event(nul, repo))


def test_post_write_still_over_hard_limit_after_trim(repo) -> None:
    content = "milestone: big\nstatus: in_progress\n" + "".join(
        f"extra_{i}: value\n" for i in range(40)
    )
    write(repo, ".claude_checkpoint.yaml", content)
    payload = tool(repo, "PostToolUse", "Write", ".claude_checkpoint.yaml", content=content)
    context = answer(agent_event(payload, repo))["hookSpecificOutput"]["additionalContext"]
    assert "could not bring .claude_checkpoint.yaml within its limits" in context
    assert "max-lines-hard" in context


def test_post_for_a_file_the_tool_did_not_leave_is_silent(repo) -> None:
    payload = tool(repo, "PostToolUse", "Write", ".claude_checkpoint.yaml", content="x")
    assert answer(agent_event(payload, repo)) is None


def test_pre_multiedit_that_would_fail_is_left_to_the_tool(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    edits = [
        {"old_string": "status: in_progress", "new_string": "status: paused"},
        {"old_string": "not in the file", "new_string": "x"},
    ]
    payload = tool(repo, "PreToolUse", "MultiEdit", ".claude_checkpoint.yaml", edits=edits)
    assert answer(agent_event(payload, repo)) is None


def test_pre_config_extends_is_loaded_in_full(repo, tmp_path) -> None:
    """`extends` can add kinds from another file: the cheap name check defers to it."""
    write(
        tmp_path,
        "team.yaml",
        "kinds:\n  notes:\n    files: [NOTES.md]\n    format: text\n"
        "    rules:\n      max-lines-hard: {level: error, max: 1}\n",
    )
    write(repo, ".asimov-hooks.yaml", f"extends: {tmp_path / 'team.yaml'}\n")
    proc = agent_event(tool(repo, "PreToolUse", "Write", "NOTES.md", content="a\nb\n"), repo)
    assert "max-lines-hard" in deny_reason(proc)


def test_session_start_without_session_id_still_reinjects(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    payload = base(repo, "SessionStart", source="resume")
    del payload["session_id"]
    out = answer(agent_event(payload, repo))
    assert GOOD_CHECKPOINT in out["hookSpecificOutput"]["additionalContext"]


def test_relative_file_path_resolves_against_cwd(repo) -> None:
    payload = base(
        repo,
        "PreToolUse",
        tool_name="Write",
        tool_input={"file_path": "CLAUDE.md", "content": "x\n" * 40},
    )
    assert "CLAUDE.md" in deny_reason(agent_event(payload, os.path.dirname(repo)))


def test_threshold_below_a_second_is_refused(repo) -> None:
    write(repo, ".asimov-hooks.yaml", "agent:\n  turn-threshold: 0\n")
    proc = agent_event(base(repo, "Stop"), repo)
    assert proc.returncode == 1 and "turn-threshold" in proc.stderr and proc.stdout == ""
