"""Every volume of a trim archive (`NAME.2.yaml`, `NAME.3.yaml`... which a trim starts
beside a full archive) is what the archive is: git ignores it where `init` set the
repository up (so `git add -A` never commits it), validate checks it with the archive
kind's rules, and `install` routes it to the merge driver, as `doctor` says."""

from __future__ import annotations

import os

import pytest
from conftest import GOOD_CHECKPOINT, GOOD_WARMUP, commit_all, git, git_init, run_script, write

from asimov_hooks.readers.loaders import load_data

pytestmark = pytest.mark.usefixtures("isolated_home")

CAP = 600  # a small archive cap, so a few trims fill volumes
CONFIG = f"kinds:\n  asimov-checkpoint-archive:\n    rules:\n      max-bytes-hard: {{max: {CAP}}}\n"
HEADER = "# asimov-hooks trim archive\n"
OLD_INIT_IGNORE = (
    "# agent session files (asimov-hooks init)\n"
    ".claude_checkpoint.yaml\n.claude_checkpoint.archive.yaml\n"
)


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


def second_volume(cp: str) -> str:
    return cp.replace(".yaml", ".archive.2.yaml")


def trim_until_volume_2(repo: str, cp: str) -> None:
    for tag in "abcdef":
        write(repo, cp, checkpoint(tag))
        done = run_script("asimov-hooks", "trim", cp, cwd=repo)
        assert done.returncode == 1, done.stdout + done.stderr
        if os.path.exists(os.path.join(repo, second_volume(cp))):
            return
    raise AssertionError("no second volume")


def status(repo: str) -> str:
    return git(repo, "status", "--porcelain", "--untracked-files=all").stdout


@pytest.mark.parametrize("cp", [".claude_checkpoint.yaml", ".asimov/checkpoint.yaml"])
def test_init_keeps_every_volume_out_of_git(tmp_path, cp: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, os.path.join(os.path.dirname(cp), "warmup.yaml"), GOOD_WARMUP)
    write(repo, cp, GOOD_CHECKPOINT)
    write(repo, ".asimov-hooks.yaml", CONFIG)
    done = run_script("asimov-hooks", "init", "--repo", "local", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    commit_all(repo, "set up")
    assert status(repo) == ""
    trim_until_volume_2(repo, cp)
    assert status(repo) == ""  # the checkpoint, its archive and volume 2: all ignored
    git(repo, "add", "-A")
    assert git(repo, "diff", "--cached", "--name-only").stdout == ""
    ignored = git(repo, "check-ignore", "--no-index", "--", second_volume(cp), check=False)
    assert ignored.returncode == 0


def test_a_repository_the_old_init_set_up_gets_the_one_missing_line(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, ".gitignore", OLD_INIT_IGNORE)
    done = run_script("asimov-hooks", "init", "--repo", "local", "--no-example", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    ignore = read(repo, ".gitignore")
    assert ignore.startswith(OLD_INIT_IGNORE)
    added = [line for line in ignore[len(OLD_INIT_IGNORE) :].splitlines() if line.strip()]
    assert added == [
        "# agent session files (asimov-hooks init)",
        ".claude_checkpoint.archive.*.yaml",
    ]
    for volume in (".claude_checkpoint.archive.2.yaml", "sub/.claude_checkpoint.archive.17.yaml"):
        assert git(repo, "check-ignore", "-q", "--no-index", volume, check=False).returncode == 0
    before = {rel: read(repo, rel) for rel in (".gitignore", ".pre-commit-config.yaml")}
    again = run_script("asimov-hooks", "init", "--repo", "local", "--no-example", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert "nothing to add" in again.stdout
    assert {rel: read(repo, rel) for rel in before} == before


@pytest.mark.parametrize(
    "volume", [".claude_checkpoint.archive.2.yaml", ".asimov/checkpoint.archive.3.yaml"]
)
def test_validate_checks_a_volume_with_the_archive_rules(tmp_path, volume: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov-hooks.yaml", CONFIG)
    write(repo, volume, HEADER + entry("x" * 40))
    good = run_script("asimov-validate", volume, cwd=repo)
    assert good.returncode == 0, good.stdout + good.stderr
    write(repo, volume, HEADER + entry("x" * CAP))  # past the archive's cap
    big = run_script("asimov-validate", volume, cwd=repo)
    assert big.returncode == 1, big.stdout + big.stderr
    assert "max-bytes-hard" in big.stdout and volume in big.stdout, big.stdout
    # a directory search finds it too: not ignored here, so a commit could carry it
    found = run_script("asimov-validate", ".", cwd=repo)
    assert found.returncode == 1 and "max-bytes-hard" in found.stdout, found.stdout
    write(repo, volume, HEADER + "<<<<<<< ours\n" + entry("a") + "=======\n" + entry("b"))
    marked = run_script("asimov-validate", volume, cwd=repo)
    assert marked.returncode == 1 and "conflict-markers" in marked.stdout, marked.stdout


def test_install_routes_volumes_to_the_merge_driver(tmp_path) -> None:
    """A volume two branches both appended to merges without a conflict, every entry
    kept, and doctor finds it routed."""
    repo = git_init(tmp_path / "repo")
    volume = ".claude_checkpoint.archive.2.yaml"
    done = run_script("asimov-hooks", "install", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    attr = git(repo, "check-attr", "merge", "--", volume, ".asimov/checkpoint.archive.4.yaml")
    assert attr.stdout.count(": merge: asimov-checkpoint") == 2, attr.stdout
    write(repo, volume, HEADER + entry("base"))
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "theirs")
    write(repo, volume, HEADER + entry("base") + entry("theirs"))
    commit_all(repo, "theirs")
    git(repo, "checkout", "-q", "main")
    write(repo, volume, HEADER + entry("base") + entry("ours"))
    commit_all(repo, "ours")
    merged = git(repo, "merge", "--no-edit", "theirs", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    kept = [e["removed"]["completed"][0] for e in load_data(read(repo, volume))[0]]
    assert sorted(kept) == ["base", "ours", "theirs"]
    doctor = run_script("asimov-hooks", "doctor", cwd=repo)
    assert f"{volume}: merge=asimov-checkpoint" in doctor.stdout, doctor.stdout
