"""`oc rotate` never refuses a checkpoint under the byte cap because the day's archive
would pass it: the rotation goes into the next volume, and every history file stays
valid. Whole processes on a real repository."""

from __future__ import annotations

import json
import os

import pytest
from conftest import git_init, oc_checkpoint, run_script, write

pytestmark = pytest.mark.usefixtures("isolated_home")


def test_a_full_archive_rolls_over_to_the_next_volume(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    # a small cap keeps the files small; the code path is the one of the 8 MiB default
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  oc-checkpoint-history:\n    rules:\n      max-bytes-hard: {max: 6000}\n",
    )
    prs = [{"pr": i, "title": "x" * 40} for i in range(40)]
    path = ".checkpoints/oc-git-ops.checkpoint.json"
    written = []
    for round_ in range(3):
        items = [{**pr, "pr": pr["pr"] + 100 * round_} for pr in prs]
        doc = oc_checkpoint(skill="oc-git-ops", skill_state={"merged_prs": items})
        write(repo, path, doc)
        done = run_script("asimov-hooks", "oc", "rotate", "oc-git-ops", cwd=repo)
        assert done.returncode == 1, done.stdout + done.stderr  # 1: a file changed
        assert ": rotated 40 items" in done.stdout and "not rotated" not in done.stdout
        written.append(done.stdout)
    history = os.path.join(repo, ".checkpoints", "history")
    names = sorted(os.listdir(history))
    assert len(names) >= 2 and any(".2.json" in n for n in names), names
    moved = []
    for name in names:
        with open(os.path.join(history, name), encoding="utf-8") as fh:
            for rotation in json.load(fh)["rotations"]:
                moved += [pr["pr"] for pr in rotation["fields"]["skill_state.merged_prs"]]
    assert sorted(moved) == sorted(pr["pr"] + 100 * r for r in range(3) for pr in prs)
    checked = run_script("asimov-validate", ".checkpoints", cwd=repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_rotation_bigger_than_a_volume_is_spread_over_fresh_ones(tmp_path) -> None:
    """Near the bound: one rotation holds more than a whole history volume may. It is
    not refused: its items go, in order, into as many fresh volumes as they need, and
    every file stays valid."""
    repo = git_init(tmp_path / "repo")
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  oc-checkpoint-history:\n    rules:\n      max-bytes-hard: {max: 6000}\n",
    )
    prs = [{"pr": i, "title": "x" * 40} for i in range(200)]  # about 20 kB once archived
    path = ".checkpoints/oc-git-ops.checkpoint.json"
    write(repo, path, oc_checkpoint(skill="oc-git-ops", skill_state={"merged_prs": prs}))
    done = run_script("asimov-hooks", "oc", "rotate", "oc-git-ops", cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr  # 1: a file changed
    assert ": rotated 200 items" in done.stdout and "not rotated" not in done.stdout
    assert "volumes)" in done.stdout
    history = os.path.join(repo, ".checkpoints", "history")
    names = sorted(os.listdir(history), key=lambda n: (n.count("."), n))
    assert len(names) >= 3, names
    moved = []
    for name in names:
        assert os.path.getsize(os.path.join(history, name)) <= 6000
        with open(os.path.join(history, name), encoding="utf-8") as fh:
            for rotation in json.load(fh)["rotations"]:
                moved += [pr["pr"] for pr in rotation["fields"]["skill_state.merged_prs"]]
    assert moved == list(range(200))  # every item once, in order
    with open(os.path.join(repo, path), encoding="utf-8") as fh:
        assert json.load(fh)["skill_state"]["merged_prs"] == []
    checked = run_script("asimov-validate", ".checkpoints", cwd=repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_one_item_over_a_volume_is_one_clear_line(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  oc-checkpoint-history:\n    rules:\n      max-bytes-hard: {max: 2000}\n",
    )
    path = ".checkpoints/oc-git-ops.checkpoint.json"
    doc = oc_checkpoint(skill="oc-git-ops", skill_state={"merged_prs": [{"t": "y" * 3000}]})
    write(repo, path, doc)
    done = run_script("asimov-hooks", "oc", "rotate", "oc-git-ops", cwd=repo)
    assert done.returncode == 2, done.stdout + done.stderr
    said = (done.stdout + done.stderr).strip()
    assert "Traceback" not in said and len(said.splitlines()) == 1, said
    assert "alone is over the history archive's 2,000-byte cap" in said
    with open(os.path.join(repo, path), encoding="utf-8") as fh:
        assert len(json.load(fh)["skill_state"]["merged_prs"]) == 1  # nothing moved
    assert not os.path.exists(os.path.join(repo, ".checkpoints", "history"))
