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
