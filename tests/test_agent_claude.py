"""Claude Code in real use: `asimov-hooks agent-event --agent claude` fed the payloads of
Claude Code's hooks reference (tests/data/agents/claude/, SOURCE.md names each shape's
section), one process per event, in temporary git repositories.

The turn timer runs with its real 30-second threshold; where the checkpoint-injection
design says "30 s+ of work", the tests move the recorded times 40 s into the past
(`age_turn`) instead of sleeping, so a quick answer stays quick on a loaded machine.
"""

from __future__ import annotations

import json
import os

import pytest
from agent_support import FIXTURES, age_turn, answer, fixture, run_event, turn_row
from conftest import GOOD_CHECKPOINT, git, git_init, write

THRESHOLD = 30
WORK = 40  # seconds of work, past the threshold
SESSION = "abc123de-4567-89ab-cdef-0123456789ab"
OC_CHECKPOINT = {
    "protocol_version": "1.0",
    "skill": "oc-app-architect",
    "project": "demo",
    "project_dir": "/home/user/project",
    "created_at": "2026-11-20T10:00:00Z",
    "updated_at": "2026-11-20T11:00:00Z",
    "phase": "build",
    "step": "sprint-1",
    "status": "in_progress",
    "progress_summary": "Sprint 1 running.",
}


def make_repo(tmp_path, name: str = "repo", *, asimov: bool = True, oc: bool = False) -> str:
    repo = git_init(tmp_path / name)
    write(repo, ".asimov-hooks.yaml", f"agent:\n  turn-threshold: {THRESHOLD}\n")
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n.claude_checkpoint.archive.yaml\n")
    if asimov:
        write(repo, "warmup.yaml", "identity:\n  project: demo\n")
        git(repo, "add", "warmup.yaml")  # committed: the repository follows the protocol
    if oc:
        write(repo, ".checkpoints/oc-app-architect.checkpoint.json", OC_CHECKPOINT)
    return repo


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return make_repo(tmp_path)


def work(repo: str) -> None:
    age_turn(repo, SESSION, WORK)


def event(repo: str, name: str, run_in: str | None = None, **fields: object) -> dict | None:
    proc = run_event("claude", fixture("claude", name, repo, **fields), run_in or repo)
    return answer(proc)


def prompt(repo: str, text: str = "implement the parser", **kw: object) -> None:
    assert event(repo, "user_prompt_submit", prompt=text, **kw) is None


def stop(repo: str, active: bool = False, **kw: object) -> dict | None:
    return event(repo, "stop", stop_hook_active=active, **kw)


def reason(out: dict | None) -> str:
    """The checkpoint request a Stop answer carries: non-error feedback that keeps the
    turn going (`hookSpecificOutput.additionalContext`), not `decision: "block"`,
    which Claude Code shows the model as a "Stop hook blocking error"."""
    assert out is not None and "decision" not in out, out
    specific = out["hookSpecificOutput"]
    assert specific["hookEventName"] == "Stop", out
    return specific["additionalContext"]


def context(out: dict | None, hook: str) -> str:
    assert out is not None, "expected an answer"
    assert out["hookSpecificOutput"]["hookEventName"] == hook
    assert "permissionDecision" not in out["hookSpecificOutput"]
    return out["hookSpecificOutput"]["additionalContext"]


def denied(out: dict | None) -> str:
    assert out is not None
    specific = out["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny", out
    return specific["permissionDecisionReason"]


def test_every_fixture_is_sourced() -> None:
    names = sorted(os.listdir(os.path.join(FIXTURES, "claude")))
    with open(os.path.join(FIXTURES, "claude", "SOURCE.md"), encoding="utf-8") as fh:
        source = fh.read()
    for name in names:
        if name.endswith(".json"):
            shown = name if not name.startswith("session_start_") else "session_start_*.json"
            assert f"`{shown}`" in source, name


# ------------------------------------------------------------------ the turn timer
def test_design_sequences(repo) -> None:
    """Normal turn, the checkpoint message coming back, re-request after real work,
    per-turn clearing: with the documented Stop payload."""
    prompt(repo)
    work(repo)
    message = reason(stop(repo))
    first = turn_row(repo, SESSION)
    assert first["checkpoints"] == 1
    prompt(repo, message)  # an agent that turns the reason into a prompt: invisible
    assert turn_row(repo, SESSION) == first
    assert stop(repo) is None  # a quick answer to the checkpoint is not asked again
    work(repo)
    assert reason(stop(repo)) == message  # substantial work after it: asked again
    prompt(repo, "next task")
    assert turn_row(repo, SESSION)["last_checkpoint_at"] is None
    assert stop(repo) is None


NOTIFICATION = (
    "<task-notification>\n<task-id>b7k2m9</task-id>\n<status>completed</status>\n"
    '<summary>Background command "npm test" completed (exit code 0)</summary>\n'
    "</task-notification>"
)


@pytest.mark.parametrize("text", [NOTIFICATION, "", "  \n"])
def test_what_no_one_typed_is_not_a_turn(repo, text: str) -> None:
    """Claude Code runs UserPromptSubmit for a background task's report (a
    `<task-notification>` message) too: the long turn it lands in is still asked."""
    prompt(repo)
    work(repo)
    prompt(repo, text)
    assert reason(stop(repo))


def test_a_prompt_that_only_quotes_a_notification_is_a_turn(repo) -> None:
    prompt(repo)
    work(repo)
    prompt(repo, f"What does this mean?\n{NOTIFICATION}")
    assert stop(repo) is None


def test_the_timer_is_the_loop_guard(repo) -> None:
    """The checkpoint-injection design's flows 2 and 3 with the stops Claude Code makes
    while continuing because of the Stop hook (`stop_hook_active: true`): a quick
    answer to the request is not asked again; real work after it is; and never twice
    without the threshold of work in between."""
    prompt(repo)
    work(repo)
    message = reason(stop(repo))
    assert stop(repo, active=True) is None  # a quick answer: no loop
    assert stop(repo, active=True) is None
    work(repo)  # 40 s of real work in answer to the request
    assert reason(stop(repo, active=True)) == message
    assert turn_row(repo, SESSION)["checkpoints"] == 2
    assert stop(repo, active=True) is None  # asked just now: not again


def test_state_follows_the_session_not_cwd(repo) -> None:
    """The agent `cd`s into a nested repository between prompt and stop (Claude Code
    sets $CLAUDE_PROJECT_DIR for every hook): the turn stays in the state of the
    declared project; the nested repository, which uses no checkpoint protocol, is
    not asked about, and back in the project the same turn asks."""
    nested = git_init(os.path.join(repo, "vendor", "lib"))
    env = {"CLAUDE_PROJECT_DIR": repo}
    payload = fixture("claude", "user_prompt_submit", repo, prompt="go")
    assert answer(run_event("claude", payload, repo, **env)) is None
    work(repo)
    payload = fixture("claude", "stop", repo, cwd=nested)
    assert answer(run_event("claude", payload, nested, **env)) is None
    assert not os.path.exists(os.path.join(nested, ".git", "asimov-hooks"))
    reason(answer(run_event("claude", fixture("claude", "stop", repo), repo, **env)))


def test_claude_project_dir_wins_over_cwd(repo, tmp_path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"CLAUDE_PROJECT_DIR": repo}
    payload = fixture("claude", "user_prompt_submit", repo, cwd=str(elsewhere), prompt="go")
    assert answer(run_event("claude", payload, elsewhere, **env)) is None
    assert turn_row(repo, SESSION)["last_message_sent_at"] is not None
    work(repo)
    payload = fixture("claude", "stop", repo, cwd=str(elsewhere))
    reason(answer(run_event("claude", payload, elsewhere, **env)))


def test_checkpoint_write_counts_as_the_checkpoint(repo) -> None:
    prompt(repo)
    work(repo)
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    event(repo, "post_tool_use_write", **{"tool_input.content": GOOD_CHECKPOINT})
    row = turn_row(repo, SESSION)
    assert row["last_checkpoint_at"] > row["last_message_sent_at"]
    assert stop(repo) is None  # the agent captured on its own: not asked


def test_oc_checkpoint_write_counts_too(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path, asimov=False, oc=True)
    prompt(repo)
    work(repo)
    path = ".checkpoints/oc-app-architect.checkpoint.json"
    write(repo, path, {**OC_CHECKPOINT, "step": "sprint-2"})
    event(repo, "post_tool_use_edit", **{"tool_input.file_path": os.path.join(repo, path)})
    assert stop(repo) is None


def test_concurrent_stops_block_once(repo) -> None:
    import subprocess

    from conftest import SCRIPTS, script_env

    prompt(repo)
    work(repo)
    data = json.dumps(fixture("claude", "stop", repo)).encode()
    exe = os.path.join(SCRIPTS, "asimov-hooks")
    procs = [
        subprocess.Popen(
            [exe, "agent-event", "--agent", "claude"],
            cwd=repo,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=script_env(),
        )
        for _ in range(3)
    ]
    outs = [p.communicate(data, timeout=120)[0] for p in procs]
    assert sum(1 for o in outs if o.strip()) == 1


# ------------------------------------------------------------------ which files, which message
def test_default_message_validates_then_captures_asimov(repo) -> None:
    prompt(repo)
    work(repo)
    text = reason(stop(repo))
    assert text.index("validate") < text.index("capture")
    assert ".claude_checkpoint.yaml" in text and ".checkpoints/" not in text


def test_oc_only_repository_names_the_skill_files(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path, asimov=False, oc=True)
    prompt(repo)
    work(repo)
    text = reason(stop(repo))
    assert ".checkpoints/" in text and ".claude_checkpoint.yaml" not in text
    assert "sprint.yaml" not in text


def test_both_protocols_name_both(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path, asimov=True, oc=True)
    prompt(repo)
    work(repo)
    text = reason(stop(repo))
    assert ".checkpoints/" in text and ".claude_checkpoint.yaml" in text


def test_asimov_directory_layout_is_named(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path, asimov=False)
    write(repo, ".asimov/warmup.yaml", "identity:\n  project: demo\n")
    git(repo, "add", ".asimov/warmup.yaml")  # committed: the repository follows the protocol
    prompt(repo)
    work(repo)
    assert ".asimov/checkpoint.yaml" in reason(stop(repo))


def test_repository_without_protocol_files_is_never_asked(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path, asimov=False)
    prompt(repo)
    work(repo)
    assert stop(repo) is None
    for source in ("compact", "resume", "fork"):
        proc = run_event("claude", fixture("claude", f"session_start_{source}", repo), repo)
        assert proc.returncode == 0 and proc.stdout == ""


def test_the_delivered_message_as_a_prompt_changes_nothing(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path, asimov=True, oc=True)
    prompt(repo)
    work(repo)
    text = reason(stop(repo))
    row = turn_row(repo, SESSION)
    prompt(repo, "  " + text.replace(" ", "\n", 3) + "\n")  # re-wrapped by the agent
    assert turn_row(repo, SESSION) == row


# ------------------------------------------------------------------ restarts
@pytest.mark.parametrize("source", ["compact", "resume", "fork"])
def test_restart_rereads_and_asks_for_a_fresh_checkpoint(repo, source: str) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    text = context(event(repo, f"session_start_{source}"), "SessionStart")
    assert GOOD_CHECKPOINT in text
    assert text.index(GOOD_CHECKPOINT) < text.index("validate") < text.index("capture")
    assert turn_row(repo, SESSION)["checkpoints"] == 1
    assert stop(repo) is None  # the request was the checkpoint of this moment


def test_restart_without_a_checkpoint_asks_for_one(repo) -> None:
    text = context(event(repo, "session_start_compact"), "SessionStart")
    assert "no checkpoint yet" in text and ".claude_checkpoint.yaml" in text
    assert "validate" in text


@pytest.mark.parametrize("source", ["startup", "clear"])
def test_fresh_sessions_are_left_alone(repo, source: str) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    assert event(repo, f"session_start_{source}") is None


def test_restart_in_an_oc_repository_rereads_its_checkpoints(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path, asimov=False, oc=True)
    text = context(event(repo, "session_start_resume"), "SessionStart")
    assert ".checkpoints/oc-app-architect.checkpoint.json" in text and "sprint-1" in text


# ------------------------------------------------------------------ no lock-out
CLAUDE_MD = "".join(f"rule {i}\n" for i in range(45))  # hard limit 15 lines


def test_shrinking_an_over_limit_file_is_allowed(repo) -> None:
    path = write(repo, "CLAUDE.md", CLAUDE_MD)
    shrink = {
        "tool_name": "Edit",
        "tool_input.file_path": path,
        "tool_input.old_string": "rule 1\nrule 2\nrule 3\n",
        "tool_input.new_string": "",
    }
    text = context(event(repo, "pre_tool_use_edit", **shrink), "PreToolUse")
    assert "max-lines-hard" in text and "42 lines" in text


def test_growing_an_over_limit_file_is_denied(repo) -> None:
    path = write(repo, "CLAUDE.md", CLAUDE_MD)
    grow = {
        "tool_input.file_path": path,
        "tool_input.old_string": "rule 44\n",
        "tool_input.new_string": "rule 44\nrule 45\n",
    }
    assert "max-lines-hard" in denied(event(repo, "pre_tool_use_edit", **grow))


def test_edit_beside_an_existing_error_is_allowed(repo) -> None:
    broken = GOOD_CHECKPOINT.replace("status: in_progress", "status: finished")
    write(repo, ".claude_checkpoint.yaml", broken)
    text = context(event(repo, "pre_tool_use_edit"), "PreToolUse")  # tool_calls 45 -> 46
    assert "status" in text and "still has errors" in text


def test_new_error_is_denied_and_only_it_is_named_as_new(repo) -> None:
    broken = GOOD_CHECKPOINT.replace("status: in_progress", "status: finished")
    write(repo, ".claude_checkpoint.yaml", broken)
    bad = {"tool_input.new_string": "tool_calls: -1"}
    text = denied(event(repo, "pre_tool_use_edit", **bad))
    new, _, old = text.partition("still has errors")
    assert "tool_calls" in new and "finished" not in new and "finished" in old


def test_repairing_invalid_yaml_is_allowed_though_it_shows_other_errors(repo) -> None:
    """The schema error was hidden behind the syntax error: the repair is not refused."""
    broken = GOOD_CHECKPOINT.replace("status: in_progress", "status: finished\nbad: [")
    write(repo, ".claude_checkpoint.yaml", broken)
    repair = {"tool_input.old_string": "bad: [", "tool_input.new_string": "bad: []"}
    text = context(event(repo, "pre_tool_use_edit", **repair), "PreToolUse")
    assert "finished" in text and "still has errors" in text


def test_multiedit_fixing_the_error_is_allowed(repo) -> None:
    broken = GOOD_CHECKPOINT.replace("status: in_progress", "status: finished")
    write(repo, ".claude_checkpoint.yaml", broken)
    edits = [{"old_string": "status: finished", "new_string": "status: done"}]
    assert event(repo, "pre_tool_use_multiedit", **{"tool_input.edits": edits}) is None


def test_write_tool_documented_payload(repo) -> None:
    assert event(repo, "pre_tool_use_write") is None
    bad = {"tool_input.content": "milestone: [unclosed\n"}
    assert "syntax" in denied(event(repo, "pre_tool_use_write", **bad))


def test_other_tools_are_silent(repo) -> None:
    proc = run_event("claude", fixture("claude", "pre_tool_use_bash", repo), repo)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""


# ------------------------------------------------------------------ outside the project
def test_files_outside_the_project_are_not_governed(repo, tmp_path) -> None:
    other = make_repo(tmp_path, "other")
    target = os.path.join(other, ".claude_checkpoint.yaml")
    bad = {"tool_input.file_path": target, "tool_input.content": "status: nonsense\n"}
    assert event(repo, "pre_tool_use_write", **bad) is None
    write(other, "CLAUDE.md", CLAUDE_MD)
    post = {"tool_input.file_path": os.path.join(other, "CLAUDE.md")}
    assert event(repo, "post_tool_use_write", **post) is None


def test_project_directory_bounds_what_is_governed(repo) -> None:
    """$CLAUDE_PROJECT_DIR is a subdirectory: the repository's root files are outside."""
    sub = os.path.join(repo, "service")
    os.makedirs(sub)
    payload = fixture(
        "claude",
        "pre_tool_use_write",
        repo,
        **{
            "tool_input.file_path": os.path.join(repo, "CLAUDE.md"),
            "tool_input.content": CLAUDE_MD,
        },
    )
    inside = answer(run_event("claude", payload, repo))
    assert "max-lines-hard" in denied(inside)
    assert answer(run_event("claude", payload, repo, CLAUDE_PROJECT_DIR=sub)) is None


# ------------------------------------------------------------------ the command line
def test_agent_option(repo) -> None:
    payload = fixture("claude", "pre_tool_use_bash", repo)
    for argv in (None, "claude"):
        assert run_event(argv, payload, repo).returncode == 0
    proc = run_event("nobody", payload, repo)
    assert proc.returncode == 1 and "unknown agent 'nobody'" in proc.stderr


def test_help_lists_every_agent(repo) -> None:
    import subprocess

    from conftest import SCRIPTS

    exe = os.path.join(SCRIPTS, "asimov-hooks")
    helped = subprocess.run([exe, "agent-event", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0
    for name in ("claude", "codex", "gemini", "cursor"):
        assert f"  {name} " in helped.stdout
    assert "Claude Code: PreToolUse" in helped.stdout
