"""`asimov-hooks checkpoint`, what every agent's `/checkpoint` runs: the Asimov checkpoint
(status, size against the limits, validate's findings, what trim would cut) in an
Asimov repository, `asimov-hooks oc` in an OC repository, both where both are used,
and the protocol decision the agent hooks make. Whole processes in real git repositories."""

from __future__ import annotations

import os

import pytest
from conftest import GOOD_CHECKPOINT, GOOD_WARMUP, commit_all, git_init, run_script, write

LONG_CHECKPOINT = (
    'milestone: "Add feature X"\n'
    "status: in_progress\n"
    "completed:\n" + "".join(f'  - "Task {n}"\n' for n in range(1, 8)) + 'in_progress: "Task 9"\n'
    "next_steps:\n" + "".join(f'  - "Task {n}"\n' for n in range(10, 16)) + 'notes: "long"\n'
    "context:\n  branch: main\n  ticket: 42\n"
)


def asimov_repo(base, checkpoint: str | None = GOOD_CHECKPOINT) -> str:
    repo = git_init(base)
    write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n.claude_checkpoint.archive.yaml\n")
    commit_all(repo, "protocol")
    if checkpoint is not None:
        write(repo, ".claude_checkpoint.yaml", checkpoint)
    return repo


def oc_repo(repo: str, *skills: str) -> str:
    assert hooks(repo, "oc", "init").returncode == 0
    for skill in skills:
        done = hooks(repo, "oc", "new", skill)
        assert done.returncode == 0, done.stderr
    return repo


def hooks(cwd: str, *args: str):
    return run_script("asimov-hooks", *args, cwd=cwd)


def checkpoint(cwd: str, *words: str):
    done = hooks(cwd, "checkpoint", *words)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_asimov_only_shows_status_size_check_and_trim(tmp_path) -> None:
    repo = asimov_repo(tmp_path / "repo", LONG_CHECKPOINT)
    before = sorted(os.listdir(repo))
    done = checkpoint(repo)
    assert done.returncode == 1, done  # the schema's list caps are errors
    out = done.stdout
    assert out.startswith("Asimov checkpoint: .claude_checkpoint.yaml\n")
    assert "file: git-ignored, as ADR-007 wants; last written " in out
    assert "  milestone: Add feature X\n" in out and "  in_progress: Task 9\n" in out
    assert "next_steps: 6 item(s), the first: Task 10" in out
    assert "size: 22 lines (soft limit 20, hard limit 30), ~" in out
    assert ".claude_checkpoint.yaml:3:1: error schema completed: has 7 items" in out
    assert "warning max-lines-soft 22 lines, over the soft limit of 20" in out
    assert "trim would (`asimov-hooks trim` does it" in out
    assert "completed: removed 2 of 7 items, kept the last 5 (cap)" in out
    assert "OC" not in out  # no OC part where OC is not used
    # a dry run: the checkpoint as it was, no archive written
    assert sorted(os.listdir(repo)) == before
    with open(os.path.join(repo, ".claude_checkpoint.yaml"), encoding="utf-8") as fh:
        assert fh.read() == LONG_CHECKPOINT


def test_asimov_clean_checkpoint_passes(tmp_path) -> None:
    repo = asimov_repo(tmp_path / "repo")
    done = checkpoint(repo)
    assert done.returncode == 0, done
    assert "check: no problems (asimov-validate)" in done.stdout
    assert "trim: nothing to cut" in done.stdout
    assert "size: 12 lines (soft limit 20, hard limit 30)" in done.stdout
    done = checkpoint(repo, "next")
    assert (
        done.stdout
        == "Asimov checkpoint: .claude_checkpoint.yaml\n  next: Task 10: release notes\n"
    )
    done = checkpoint(repo, "list")
    assert "milestone: Add feature X; status: in_progress; in_progress: Task 9" in done.stdout
    done = checkpoint(repo, "show")
    assert "  content:\n    # Session checkpoint (ADR-007): current state only.\n" in done.stdout


def test_asimov_without_a_checkpoint_yet(tmp_path) -> None:
    repo = asimov_repo(tmp_path / "repo", checkpoint=None)
    done = checkpoint(repo)
    assert done.returncode == 0, done
    assert (
        "Asimov checkpoint: .claude_checkpoint.yaml\n  none yet: the agent writes it" in done.stdout
    )


def test_asimov_layout_in_dot_asimov(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov/warmup.yaml", GOOD_WARMUP)
    commit_all(repo, "protocol")
    write(repo, ".asimov/checkpoint.yaml", GOOD_CHECKPOINT)
    done = checkpoint(repo)
    assert done.stdout.startswith("Asimov checkpoint: .asimov/checkpoint.yaml\n"), done
    assert "untracked and not ignored" in done.stdout


def test_oc_words_in_an_asimov_only_repository(tmp_path) -> None:
    repo = asimov_repo(tmp_path / "repo")
    for words in (("reset", "my-skill"), ("show", "my-skill")):
        done = checkpoint(repo, *words)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1
        assert done.stderr.startswith(f"asimov-hooks checkpoint: error: `{' '.join(words)}` is")
        assert "`asimov-hooks oc init` starts them" in done.stderr


def test_unknown_word_is_a_usage_error(tmp_path) -> None:
    repo = asimov_repo(tmp_path / "repo")
    done = checkpoint(repo, "frobnicate")
    assert done.returncode == 2
    assert "unknown word 'frobnicate': use status (the default), next" in done.stderr


@pytest.mark.parametrize("words", [(), ("status",), ("next",), ("list",), ("show", "alpha")])
def test_oc_only_is_the_oc_command(tmp_path, words) -> None:
    repo = oc_repo(git_init(tmp_path / "repo"), "alpha", "beta")
    done = checkpoint(repo, *words)
    same = hooks(repo, "oc", *(words or ("status",)))
    assert (done.returncode, done.stdout, done.stderr) == (
        same.returncode,
        same.stdout,
        same.stderr,
    )
    assert ".checkpoints/" in done.stdout or "alpha" in done.stdout
    assert "Asimov" not in done.stdout


def test_oc_reset_runs_for_real(tmp_path) -> None:
    repo = oc_repo(git_init(tmp_path / "repo"), "alpha")
    done = checkpoint(repo, "reset", "alpha")
    assert done.returncode == 0, done
    assert os.listdir(os.path.join(repo, ".checkpoints", "history"))


def test_mixed_repository_does_both(tmp_path) -> None:
    repo = oc_repo(asimov_repo(tmp_path / "repo", LONG_CHECKPOINT), "alpha")
    done = checkpoint(repo)
    assert done.returncode == 1  # the Asimov checkpoint's errors
    asimov_part, _, oc_part = done.stdout.partition(
        "\nOC skill checkpoints (asimov-hooks oc status):\n"
    )
    assert asimov_part.startswith("Asimov checkpoint: .claude_checkpoint.yaml\n")
    assert "trim would" in asimov_part
    assert oc_part == hooks(repo, "oc", "status").stdout
    done = checkpoint(repo, "next")
    assert done.stdout.startswith("Asimov checkpoint: .claude_checkpoint.yaml\n  next: Task 10\n")
    assert done.stdout.endswith(hooks(repo, "oc", "next").stdout)
    done = checkpoint(repo, "show", "alpha")  # a skill: the OC part alone
    assert done.returncode == 0 and "Asimov" not in done.stdout
    assert done.stdout == hooks(repo, "oc", "show", "alpha").stdout


def test_from_a_subdirectory(tmp_path) -> None:
    repo = oc_repo(asimov_repo(tmp_path / "repo"), "alpha")
    os.makedirs(os.path.join(repo, "src", "deep"))
    done = checkpoint(os.path.join(repo, "src", "deep"))
    assert done.returncode == 0, done
    assert "Asimov checkpoint: .claude_checkpoint.yaml" in done.stdout and "alpha" in done.stdout


def test_neither_protocol(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    done = checkpoint(repo)
    assert done.returncode == 0
    assert done.stdout.startswith("This repository uses no checkpoint protocol yet")
    assert "`asimov-hooks oc init`" in done.stdout and "is here, but" not in done.stdout


@pytest.mark.parametrize("how", ["untracked", "ignored", "ignored warmup"])
def test_the_work_tree_decides(tmp_path, how: str) -> None:
    """A checkpoint alone, untracked or git-ignored, or a git-ignored warmup.yaml makes
    the work tree an Asimov one for `/checkpoint`, as for the agent hooks
    (config/follows, the work-tree scope)."""
    repo = git_init(tmp_path / "repo")
    if how == "ignored":
        write(repo, ".gitignore", ".claude_checkpoint.yaml\n")
    elif how == "ignored warmup":
        write(repo, ".gitignore", "warmup.yaml\n")
        write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, "README.md", "hello\n")
    commit_all(repo, "init")
    if how != "ignored warmup":
        write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    done = checkpoint(repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Asimov checkpoint: .claude_checkpoint.yaml\n"), done.stdout


@pytest.mark.parametrize("how", ["empty", "foreign warmup"])
def test_a_file_without_the_protocols_content_does_not_decide(tmp_path, how: str) -> None:
    """An empty checkpoint file, and another tool's warmup.yaml beside it, make no
    Asimov repository."""
    repo = git_init(tmp_path / "repo")
    if how == "foreign warmup":
        write(repo, "warmup.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: warm\n")
    write(repo, "README.md", "hello\n")
    commit_all(repo, "init")
    write(repo, ".claude_checkpoint.yaml", "# nothing yet\n")
    done = checkpoint(repo)
    assert done.returncode == 0
    assert done.stdout.startswith("This repository uses no checkpoint protocol yet")
    assert ".claude_checkpoint.yaml is here, but holds no checkpoint" in done.stdout


def test_checkpoint_bytes_are_escaped(tmp_path) -> None:
    hostile = GOOD_CHECKPOINT.replace('"Add feature X"', '"x\\e[31mred\\n::error::forged"')
    repo = asimov_repo(tmp_path / "repo", hostile)
    done = checkpoint(repo)
    assert "\x1b" not in done.stdout
    assert not any(line.lstrip().startswith("::") for line in done.stdout.splitlines())
    assert "milestone: x\\x1b[31mred" in done.stdout


def test_a_link_out_of_the_repository_is_not_read(tmp_path) -> None:
    secret = write(tmp_path, "secret.yaml", 'milestone: "SECRET-VALUE"\n')
    repo = asimov_repo(tmp_path / "repo", checkpoint=None)
    os.symlink(secret, os.path.join(repo, ".claude_checkpoint.yaml"))
    done = checkpoint(repo)
    assert done.returncode == 1
    assert "SECRET-VALUE" not in done.stdout + done.stderr
    assert "error: cannot be read" in done.stdout


def test_help_names_the_words(tmp_path) -> None:
    done = hooks(str(tmp_path), "checkpoint", "--help")
    assert done.returncode == 0
    said = " ".join(done.stdout.split())
    assert "status (the default), next, doctor, show [SKILL], reset SKILL, list" in said
    listed = hooks(str(tmp_path), "--help").stdout
    assert "checkpoint" in listed
