"""`asimov-hooks init` in an Asimov repository without a session checkpoint writes a
git-ignored example in ADR-007's own shape (within its limits, marked as an example,
valid), never over an existing one, not with `--no-example`; the first checkpoint
request at a turn's end then says the file still holds the example. Real git, init
run as its own process, the agent event as Claude Code sends it."""

from __future__ import annotations

import os
import subprocess

from agent_support import age_turn, answer, fixture, run_event
from conftest import GOOD_CHECKPOINT, GOOD_WARMUP, git, git_init, run_script, write

CHECKPOINT = ".claude_checkpoint.yaml"
SESSION = "abc123de-4567-89ab-cdef-0123456789ab"


def asimov_repo(base) -> str:
    repo = git_init(base / "asimov")
    write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, "CLAUDE.md", "# CLAUDE.md\n\nRead warmup.yaml first.\n")
    git(repo, "add", "warmup.yaml", "CLAUDE.md")
    return repo


def init(repo: str, *args: str) -> subprocess.CompletedProcess:
    return run_script("asimov-hooks", "init", "--local", *args, cwd=repo)


def read(repo: str, rel: str = CHECKPOINT) -> str | None:
    path = os.path.join(repo, rel)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def test_init_writes_an_ignored_valid_example_once(tmp_path) -> None:
    repo = asimov_repo(tmp_path)
    done = init(repo)
    assert done.returncode == 0, done.stderr
    text = read(repo)
    assert text is not None and f"{CHECKPOINT}: written, an example" in done.stdout
    lines = text.splitlines()
    assert lines[0].startswith("# Example checkpoint written by asimov-hooks init")
    assert len(lines) <= 20  # ADR-007's soft limit
    for key in ("timestamp:", "milestone:", "status: planned", "completed:", "in_progress:"):
        assert any(line.startswith(key) for line in lines), key
    assert "next_steps:" in text and 'on_confusion: "cat warmup.yaml"' in text
    ignored = subprocess.run(["git", "check-ignore", "-q", CHECKPOINT], cwd=repo)
    assert ignored.returncode == 0  # never committed
    checked = run_script("asimov-validate", CHECKPOINT, cwd=repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "warning" not in checked.stdout and "error" not in checked.stdout, checked.stdout
    # a second run leaves it (and everything else) as it is
    again = init(repo)
    assert again.returncode == 0 and read(repo) == text and "written" not in again.stdout


def test_an_existing_checkpoint_is_never_replaced(tmp_path) -> None:
    repo = asimov_repo(tmp_path)
    write(repo, CHECKPOINT, GOOD_CHECKPOINT)
    assert init(repo).returncode == 0
    assert read(repo) == GOOD_CHECKPOINT


def test_the_layout_checkpoint_counts_and_gets_the_example(tmp_path) -> None:
    repo = asimov_repo(tmp_path)
    write(repo, ".asimov/checkpoint.yaml", GOOD_CHECKPOINT)
    assert init(repo).returncode == 0
    assert read(repo) is None and read(repo, ".asimov/checkpoint.yaml") == GOOD_CHECKPOINT


def test_a_checkpoint_in_the_other_place_counts_too(tmp_path) -> None:
    repo = asimov_repo(tmp_path)
    write(repo, CHECKPOINT, GOOD_CHECKPOINT)
    write(repo, ".asimov/project.yaml", "identity:\n  project: demo\n")
    assert init(repo).returncode == 0
    assert read(repo, ".asimov/checkpoint.yaml") is None


def test_no_example_leaves_it_out(tmp_path) -> None:
    repo = asimov_repo(tmp_path)
    assert init(repo, "--no-example").returncode == 0
    assert read(repo) is None


def test_dry_run_shows_it_and_writes_nothing(tmp_path) -> None:
    repo = asimov_repo(tmp_path)
    done = init(repo, "--dry-run")
    assert done.returncode == 0
    assert f"+++ b/{CHECKPOINT}" in done.stdout and "+milestone:" in done.stdout
    assert read(repo) is None


def test_other_repositories_get_no_example(tmp_path) -> None:
    repo = git_init(tmp_path / "plain")
    write(repo, "AGENTS.md", "# Agents\n\nRun the tests.\n")
    git(repo, "add", "AGENTS.md")
    assert init(repo).returncode == 0
    assert read(repo) is None


def test_the_first_request_points_at_the_example(tmp_path, isolated_home) -> None:
    repo = asimov_repo(tmp_path)
    assert init(repo).returncode == 0
    payload = fixture("claude", "user_prompt_submit", repo, prompt="build it")
    assert answer(run_event("claude", payload, repo)) is None
    age_turn(repo, SESSION, 40)
    out = answer(run_event("claude", fixture("claude", "stop", repo), repo))
    assert out is not None
    reason = out["hookSpecificOutput"]["additionalContext"]
    assert f"{CHECKPOINT} still holds the example `asimov-hooks init` wrote" in reason
    # once replaced, the request no longer says so
    write(repo, CHECKPOINT, GOOD_CHECKPOINT)
    assert answer(run_event("claude", payload, repo)) is None
    age_turn(repo, SESSION, 40)
    again = answer(run_event("claude", fixture("claude", "stop", repo), repo))
    assert again is not None
    assert "still holds the example" not in again["hookSpecificOutput"]["additionalContext"]
