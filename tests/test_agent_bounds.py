"""`asimov-hooks agent-event` on a hostile checkout and hostile input: links out of the
repository, FIFOs and devices, huge files and huge edits, an unusable state database,
escaped config keys, deep or non-standard JSON. Each answer comes quickly (a hang hits
the subprocess timeout), bounded, and without a byte of a file outside the repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from agent_support import answer, fixture, run_event
from conftest import GOOD_CHECKPOINT, git, git_init, script_env, write

MARKER = "s3cr3t-value-never-shown"


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    path = git_init(tmp_path / "repo")
    write(path, "warmup.yaml", "identity:\n  project: demo\n")
    git(path, "add", "warmup.yaml")  # committed: the repository follows the protocol
    return path


def outside_file(tmp_path) -> str:
    return write(tmp_path, "outside/secret.yaml", f"milestone: {MARKER}\nstatus: bogus\n")


def claude(repo: str, name: str, **env_and_fields: object) -> subprocess.CompletedProcess:
    env = {k: v for k, v in env_and_fields.items() if k.isupper()}
    fields = {k: v for k, v in env_and_fields.items() if not k.isupper()}
    return run_event("claude", fixture("claude", name, repo, **fields), repo, **env)


# ------------------------------------------------------------------ SessionStart re-read
@pytest.mark.parametrize("target", ["/proc/self/environ", "outside"])
def test_reread_never_follows_a_link_out(repo, tmp_path, target: str) -> None:
    if target == "outside":
        target = outside_file(tmp_path)
    elif not os.path.exists(target):
        pytest.skip("no /proc here")
    os.symlink(target, os.path.join(repo, ".claude_checkpoint.yaml"))
    proc = claude(repo, "session_start_compact", SECRET_FOR_THE_TEST=MARKER)
    assert MARKER not in proc.stdout + proc.stderr
    text = answer(proc)["hookSpecificOutput"]["additionalContext"]
    assert "not re-read" in text and "outside the repository" in text


def test_reread_of_a_huge_checkpoint_is_bounded(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", "milestone: big\n" + "# padding line\n" * 600_000)
    text = answer(claude(repo, "session_start_resume"))["hookSpecificOutput"]["additionalContext"]
    assert "more lines not shown" in text
    assert len(text) < 3000 + 2000  # the budget plus the request and headings


def test_reread_of_a_fifo_does_not_hang(repo) -> None:
    os.mkfifo(os.path.join(repo, ".claude_checkpoint.yaml"))
    text = answer(claude(repo, "session_start_resume"))["hookSpecificOutput"]["additionalContext"]
    assert "not re-read" in text and "not a regular file" in text


def test_reread_survives_an_unusable_state_database(repo, tmp_path) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    blocker = write(tmp_path, "not-a-directory", "x")
    proc = claude(repo, "session_start_compact", ASIMOV_HOOKS_STATE_DIR=blocker)
    assert GOOD_CHECKPOINT in answer(proc)["hookSpecificOutput"]["additionalContext"]
    assert "not recorded" in proc.stderr


# ------------------------------------------------------------------ Pre/PostToolUse
def test_write_through_a_link_out_is_not_read_or_shown(repo, tmp_path) -> None:
    os.symlink(outside_file(tmp_path), os.path.join(repo, ".claude_checkpoint.yaml"))
    edit = {"tool_input.old_string": "status: bogus", "tool_input.new_string": "status: x"}
    for name in ("pre_tool_use_edit", "post_tool_use_edit"):
        proc = claude(repo, name, **edit)
        assert proc.returncode == 0 and MARKER not in proc.stdout + proc.stderr, proc


@pytest.mark.parametrize("name", ["pre_tool_use_edit", "post_tool_use_edit"])
def test_fifo_checkpoint_does_not_hang(repo, name: str) -> None:
    os.mkfifo(os.path.join(repo, ".claude_checkpoint.yaml"))
    assert claude(repo, name).returncode == 0


def test_link_to_dev_zero_is_not_read(repo) -> None:
    os.symlink("/dev/zero", os.path.join(repo, ".claude_checkpoint.yaml"))
    for name in ("pre_tool_use_edit", "post_tool_use_edit"):
        proc = claude(repo, name)
        assert proc.returncode == 0 and proc.stdout == "", proc


def test_write_over_the_byte_limit_is_denied_as_post_would_leave_it(repo) -> None:
    """Over 256 KB the trimmer does not read the file, so no trim can save the write."""
    big = "milestone: big\nstatus: in_progress\ncompleted:\n" + "  - x\n" * 60_000
    out = answer(claude(repo, "pre_tool_use_write", **{"tool_input.content": big}))
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert "262,144-byte limit" in reason
    write(repo, ".claude_checkpoint.yaml", big)  # had it been written anyway
    post = answer(claude(repo, "post_tool_use_write", **{"tool_input.content": big}))
    context = post["hookSpecificOutput"]["additionalContext"]
    assert "could not bring" in context and "max-bytes-hard" in context


def test_replace_all_cannot_blow_up(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", "milestone: " + "a" * 200_000 + "\n")
    edit = {
        "tool_input.old_string": "a",
        "tool_input.new_string": "b" * 10_000,
        "tool_input.replace_all": True,
    }
    out = answer(claude(repo, "pre_tool_use_edit", **edit))
    assert "bytes or more" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_edit_count_is_capped_and_multiedit_is_linear(repo) -> None:
    text = "milestone: m\nstatus: in_progress\n" + "".join(f"k{i}: v\n" for i in range(900))
    write(repo, ".claude_checkpoint.yaml", text)
    many = [{"old_string": f"k{i}: v\n", "new_string": ""} for i in range(900)]
    assert claude(repo, "pre_tool_use_multiedit", **{"tool_input.edits": many}).returncode == 0
    too_many = many + [{"old_string": "status", "new_string": "status"}] * 101
    out = answer(claude(repo, "pre_tool_use_multiedit", **{"tool_input.edits": too_many}))
    assert "split it" in out["hookSpecificOutput"]["permissionDecisionReason"]


# ------------------------------------------------------------------ config and stdin
def test_escaped_kinds_key_is_not_missed(repo) -> None:
    write(
        repo,
        ".asimov-hooks.yaml",
        '"\\u006binds":\n  notes:\n    files: [NOTES.md]\n    format: text\n'
        "    rules:\n      max-lines-hard: {level: error, max: 1}\n",
    )
    fields = {
        "tool_input.file_path": os.path.join(repo, "NOTES.md"),
        "tool_input.content": "a\nb\n",
    }
    out = answer(claude(repo, "pre_tool_use_write", **fields))
    assert "max-lines-hard" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_config_over_its_size_limit_is_one_line(repo) -> None:
    write(repo, ".asimov-hooks.yaml", "# padding\n" * 200_000)
    fields = {"tool_input.file_path": os.path.join(repo, "src", "app.py")}
    proc = claude(repo, "pre_tool_use_write", **fields)
    assert proc.returncode == 1 and "limit" in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "deep"),
        ('{"hook_event_name": "Stop", "session_id": NaN}', "not valid JSON"),
        ('{"hook_event_name": "Stop", "x": -Infinity}', "not valid JSON"),
        ("{}", "no hook_event_name"),
    ],
)
def test_stdin_json_is_strict(repo, stdin: str, message: str) -> None:
    proc = run_event("claude", stdin, repo)
    assert proc.returncode == 1 and message in proc.stderr and proc.stdout == ""


def test_non_protocol_edit_stays_on_the_light_path(repo) -> None:
    """The cheap answer imports no parser, click, sqlite3 or json/re."""
    payload = fixture(
        "claude", "pre_tool_use_write", repo, **{"tool_input.file_path": f"{repo}/src/app.py"}
    )
    code = (
        "import io, sys\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(payload).encode()!r}))\n"
        "from asimov_hooks.cli.entrypoints import hooks_main\n"
        "rc = hooks_main(['agent-event', '--agent', 'claude'])\n"
        "heavy = ('click', 'sqlite3', 'ruamel.yaml', 'jsonschema', 'json', 're',\n"
        "         'asimov_hooks.agent.runtime.core', 'asimov_hooks.validation.engine')\n"
        "print(rc, [m for m in heavy if m in sys.modules])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, env=script_env()
    )
    assert done.stdout.strip() == "0 []", done.stdout + done.stderr
