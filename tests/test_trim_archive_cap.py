"""The trim archive never grows past its byte cap (`max-bytes-hard` of the archive kind,
8 MiB, what validate lets be committed): an entry that would take it past goes to a
fresh volume beside it (`.claude_checkpoint.archive.2.yaml`, then `.3`), the full one
left as it is; an entry no volume can hold is refused with the checkpoint untouched.
Every file trim writes validates."""

from __future__ import annotations

import os

import pytest
from conftest import git_init, run_script, write

from asimov_hooks.readers.loaders import load_data

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"
HEADER = "# asimov-hooks trim archive\n"


def checkpoint(tag: str) -> str:
    done = "".join(f'  - "{tag} task {i}"\n' for i in range(7))
    return f'milestone: "m"\nstatus: in_progress\ncompleted:\n{done}next_steps:\n  - "go"\n'


def entry(text: str) -> str:
    return (
        "- trimmed_at: '2026-01-01T10:00:00Z'\n  source: .claude_checkpoint.yaml\n"
        f"  reason: list caps\n  removed:\n    completed:\n      - {text}\n"
    )


def read(repo: str, rel: str) -> str:
    with open(os.path.join(repo, rel), encoding="utf-8") as fh:
        return fh.read()


def entries(repo: str, rel: str) -> list:
    return load_data(read(repo, rel))[0]


def test_an_archive_at_its_8_mib_cap_gets_a_new_volume(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    cap = 8 * 1024 * 1024
    filler = "x" * (cap - len(HEADER) - len(entry("")) - 10)
    write(repo, ARCHIVE, HEADER + entry(filler))
    full = read(repo, ARCHIVE)
    assert cap - 20 < len(full.encode()) <= cap
    assert run_script("asimov-validate", ARCHIVE, cwd=repo).returncode == 0
    write(repo, CP, checkpoint("a"))
    done = run_script("asimov-hooks", "trim", CP, cwd=repo)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said  # trimmed: stage the files
    assert "the archive is full (8,388,608 bytes at most): started" in said, said
    assert read(repo, ARCHIVE) == full  # the full volume is left as it is
    second = ".claude_checkpoint.archive.2.yaml"
    (new,) = entries(repo, second)
    assert new["removed"] == {"completed": ["a task 0", "a task 1"]}
    checked = run_script("asimov-validate", CP, ARCHIVE, second, cwd=repo)
    assert checked.returncode == 0, checked.stdout


def test_volumes_follow_each_other_in_order(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    cap = 600
    write(
        repo,
        ".asimov-hooks.yaml",
        f"kinds:\n  asimov-checkpoint-archive:\n    rules:\n      max-bytes-hard: {{max: {cap}}}\n",
    )
    written = []
    for tag in "abcde":
        write(repo, CP, checkpoint(tag))
        done = run_script("asimov-hooks", "trim", CP, cwd=repo)
        assert done.returncode == 1, done.stdout + done.stderr
        written.append(done.stdout)
    names = [ARCHIVE] + [f".claude_checkpoint.archive.{n}.yaml" for n in range(2, 6)]
    present = [name for name in names if os.path.exists(os.path.join(repo, name))]
    assert len(present) >= 3, present  # the cap forced new volumes
    seen = []
    for name in present:
        assert len(read(repo, name).encode()) <= cap, name
        seen += [e["removed"]["completed"][0] for e in entries(repo, name)]
    assert seen == [f"{tag} task 0" for tag in "abcde"]  # every entry, oldest first
    assert run_script("asimov-validate", ARCHIVE, cwd=repo).returncode == 0


def test_an_entry_no_volume_can_hold_is_refused(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-checkpoint-archive:\n    rules:\n      max-bytes-hard: {max: 200}\n",
    )
    write(repo, CP, checkpoint("a"))
    before = read(repo, CP)
    done = run_script("asimov-hooks", "trim", CP, cwd=repo)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "not trimmed" in said and "over the archive's 200-byte cap" in said, said
    assert "Traceback" not in said
    assert read(repo, CP) == before
    assert not os.path.exists(os.path.join(repo, ARCHIVE))


def test_the_agent_hooks_trim_starts_a_new_volume_too(tmp_path) -> None:
    from agent_support import run_event

    repo = git_init(tmp_path / "repo")
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-checkpoint-archive:\n    rules:\n      max-bytes-hard: {max: 400}\n",
    )
    write(repo, ARCHIVE, HEADER + entry("y" * 250))
    full = read(repo, ARCHIVE)
    write(repo, CP, checkpoint("a"))  # the agent's write, landed
    payload = {
        "hook_event_name": "PostToolUse",
        "session_id": "s1",
        "cwd": repo,
        "tool_name": "Write",
        "tool_input": {"file_path": os.path.join(repo, CP), "content": checkpoint("a")},
        "tool_response": {"filePath": os.path.join(repo, CP), "success": True},
    }
    done = run_event("claude", payload, repo)
    assert done.returncode == 0, done.stderr
    assert "a task 0" not in read(repo, CP)  # trimmed after the write
    assert read(repo, ARCHIVE) == full
    (new,) = entries(repo, ".claude_checkpoint.archive.2.yaml")
    assert new["removed"] == {"completed": ["a task 0", "a task 1"]}
    assert ".claude_checkpoint.archive.2.yaml" in done.stdout, done.stdout
