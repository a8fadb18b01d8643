"""Bounds that match the trim archive's caps: the alias limit counts what aliases add,
not entries (a 2 MB archive without an alias is valid and commits); validating and
merging an archive are linear (counted here, never timed), and the merge driver merges
archives up to the archive's byte cap and says so past it, every entry kept."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess

import pytest
from conftest import GIT_ENV, ROOT, SCRIPTS, commit_all, git, git_init, run_script, write

from asimov_hooks.merge import archive_merge
from asimov_hooks.merge.archive_merge import merge_archive
from asimov_hooks.readers import loaders, plain_yaml
from asimov_hooks.trim.archive import HEADER

pytestmark = pytest.mark.usefixtures("isolated_home")

ARCHIVE = ".claude_checkpoint.archive.yaml"


def item(i: int, side: str = "b", quote: str = "'") -> str:
    return (
        f"- archived_at: {quote}2026-01-{i % 28 + 1:02d}T10:00:00Z{quote}\n"
        f"  source: .claude_checkpoint.yaml\n  reason: over the cap\n"
        f"  removed:\n    completed:\n      - {side} task {i}\n"
    )


def archive(count: int, side: str = "b", quote: str = "'") -> str:
    return HEADER + "".join(item(i, side, quote) for i in range(count))


def test_a_2mb_archive_without_aliases_is_valid_and_commits(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    hook = os.path.join(repo, ".git", "hooks", "pre-commit")
    os.makedirs(os.path.dirname(hook), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "hooks", "pre-commit"), hook)
    os.chmod(hook, os.stat(hook).st_mode | stat.S_IXUSR)
    text = archive(14_300)
    assert len(text.encode()) > 2_000_000
    write(repo, ARCHIVE, text)
    git(repo, "add", ARCHIVE)
    env = {**os.environ, **GIT_ENV, "PATH": SCRIPTS + os.pathsep + os.environ["PATH"]}
    env.pop("ASIMOV_HOOKS_CONFIG", None)
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "archive"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "alias" not in done.stdout + done.stderr
    assert git(repo, "rev-list", "--count", "HEAD").stdout.strip() == "1"


def test_an_alias_bomb_is_still_one(tmp_path) -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for n in range(1, 7):
        prev = chr(ord("a") + n - 1)
        lines.append(
            f"{chr(ord('a') + n)}: &{chr(ord('a') + n)} [" + ", ".join([f"*{prev}"] * 10) + "]"
        )
    write(tmp_path, ARCHIVE, "\n".join(lines) + "\n")
    done = run_script("asimov-validate", ARCHIVE, cwd=tmp_path)
    assert done.returncode == 1
    assert "yaml-aliases aliases expand to more than 100,000 nodes" in done.stdout


def counting_lines(monkeypatch, calls: dict[str, int]) -> None:
    """Count the rows the plain reader makes into calls["events"] (one step each): an
    archive of the trimmer's entries is read line by line, without a YAML library."""
    real_rows, real_batch = plain_yaml.rows, plain_yaml.batch_rows

    def rows(lines):
        found = real_rows(lines)
        calls["events"] += len(found)
        return found

    def batch_rows(text):
        found = real_batch(text)
        calls["events"] += len(found or ())
        return found

    monkeypatch.setattr(plain_yaml, "rows", rows)
    monkeypatch.setattr(plain_yaml, "batch_rows", batch_rows)


def counted_validate(monkeypatch, tmp_path, count: int) -> dict[str, int]:
    """Validate an archive of `count` entries in-process, counting the events the
    stream reader took and the lines the entry reader recognised, and the calls to the
    node-based readers (there are none: an archive's checks need no positions, so no
    node tree is built)."""
    calls = {"events": 0, "node-based": 0}

    def node_based(*args, **kwargs):
        calls["node-based"] += 1
        raise AssertionError("an archive of plain entries is read without a YAML library")

    counting_lines(monkeypatch, calls)
    monkeypatch.setattr(loaders, "_fast_document", node_based)
    monkeypatch.setattr(loaders, "_rt_document", node_based)
    path = write(tmp_path, f"{count}/{ARCHIVE}", archive(count))
    from asimov_hooks.validation.run import validate

    assert validate([path]) == 0
    monkeypatch.undo()
    return calls


def test_validating_an_archive_is_linear(monkeypatch, tmp_path) -> None:
    """One step per line (the trimmer's entries, recognised line by line; one per event
    for others), no node tree: twice the entries, twice the steps."""
    small = counted_validate(monkeypatch, tmp_path, 8_000)
    large = counted_validate(monkeypatch, tmp_path, 16_000)
    assert small["node-based"] == large["node-based"] == 0
    assert small["events"] >= 8_000 * 6  # each entry's lines were read
    assert large["events"] <= 2 * small["events"] + 10


def merge_work(monkeypatch, count: int, quote: str) -> tuple[int, int, int]:
    """(bytes parsed, full keys worked out, libyaml events and lines recognised) for a
    merge of archives of `count` entries, theirs written with `quote` around its
    timestamps (the trimmer's shape: every line recognised, none parsed as YAML)."""
    parsed: list[int] = []
    keys = [0]
    events = {"events": 0}
    real_read, real_key = archive_merge._read, archive_merge._key

    def read(text: str):
        parsed.append(len(text))
        return real_read(text)

    def key(value):
        keys[0] += 1
        return real_key(value)

    monkeypatch.setattr(archive_merge, "_read", read)
    monkeypatch.setattr(archive_merge, "_key", key)
    counting_lines(monkeypatch, events)
    base = archive(count)
    ours = base + item(count, "o")
    theirs = archive(count, quote=quote) + item(count + 1, "t", quote)
    merged = merge_archive(base.encode(), ours.encode(), theirs.encode())
    assert merged == (ours + item(count + 1, "t", quote)).encode()
    monkeypatch.undo()
    return sum(parsed), keys[0], events["events"]


@pytest.mark.parametrize("quote", ["'", '"'])
def test_merging_an_archive_is_linear(monkeypatch, quote: str) -> None:
    """Twice the entries, at most twice the work, also when theirs wrote every entry
    differently (each one then compared by its data)."""
    small = merge_work(monkeypatch, 2_000, quote)
    large = merge_work(monkeypatch, 4_000, quote)
    assert large[0] <= 2 * small[0] + 5_000
    assert large[1] <= 2 * small[1] + 100
    assert small[0] == 0  # every item recognised line by line (`readers.plain_yaml`)
    assert small[2] >= 2_000 * 6  # ... its six lines once
    assert large[2] <= 2 * small[2] + 100


def test_an_archive_over_its_cap_is_left_to_git_with_a_message(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-checkpoint-archive:\n    rules:\n      max-bytes-hard: {max: 2000}\n",
    )
    assert run_script("asimov-hooks", "install", cwd=repo).returncode == 0
    write(repo, ARCHIVE, archive(20))
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, ARCHIVE, archive(20) + item(40, "s"))
    commit_all(repo, "side trims")
    git(repo, "checkout", "-q", "main")
    write(repo, ARCHIVE, archive(20) + item(50, "m"))
    commit_all(repo, "main trims")
    done = git(repo, "merge", "--no-edit", "side", check=False)
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert f"{ARCHIVE}: " in said
    assert "over the archive's 2,000-byte cap (max-bytes-hard)" in said
    assert "fell back to git's line merge" in said
    with open(os.path.join(repo, ARCHIVE), encoding="utf-8") as fh:
        left = fh.read()
    assert "s task 40" in left and "m task 50" in left  # nothing lost
    # under the cap the same merge is clean
    git(repo, "merge", "--abort")
    write(repo, ".asimov-hooks.yaml", "")
    commit_all(repo, "no cap")
    assert git(repo, "merge", "--no-edit", "side", check=False).returncode == 0
