"""A plain `=` is the string "=" under YAML 1.2 (every reader's version): validate reads
it so, and the trimmer, the archive and the asimov-trim hook read it alike. (ruamel's
safe loader alone still resolves it as YAML 1.1's `!!value` and refuses it.)"""

from __future__ import annotations

import pytest
from conftest import commit_all, git, git_init, run_script, write

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"


def checkpoint(done: int) -> str:
    items = "".join(f'  - "task {i}"\n' for i in range(done))
    return (
        'timestamp: "2026-01-01T10:00:00Z"\nmilestone: =\nstatus: in_progress\n'
        f'completed:\n  - =\n{items}in_progress: "x = y"\nnext_steps:\n  - =\nnotes: =\n'
    )


def test_validate_and_trim_agree_on_a_plain_equals_sign(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, CP, checkpoint(1))
    assert run_script("asimov-validate", CP, cwd=repo).returncode == 0
    done = run_script("asimov-hooks", "trim", CP, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr  # nothing to trim, nothing refused


def test_a_checkpoint_with_equals_values_is_trimmed_and_archived(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, CP, checkpoint(6))
    commit_all(repo, "base")
    done = run_script("asimov-hooks", "trim", CP, cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr  # trimmed: stage the files
    assert "not trimmed" not in done.stdout + done.stderr
    with open(f"{repo}/{CP}", encoding="utf-8") as fh:
        kept = fh.read()
    assert "milestone: =\n" in kept and "task 0" not in kept  # cut by lines, values as written
    from asimov_hooks.readers.loaders import load_data

    with open(f"{repo}/{ARCHIVE}", encoding="utf-8") as fh:
        (entry,) = load_data(fh.read())[0]
    assert entry["removed"]["completed"][0] == "="  # the archive reads it as the string
    assert run_script("asimov-validate", CP, ARCHIVE, cwd=repo).returncode == 0
    again = run_script("asimov-hooks", "trim", CP, cwd=repo)
    assert again.returncode == 0, again.stdout + again.stderr
    assert git(repo, "status", "--porcelain").returncode == 0
