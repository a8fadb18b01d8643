"""`oc init` asks git whether the checkpoint directory is ignored: a FIFO where git reads
an ignore file on the way there (`.checkpoints/.gitignore`) would make that question
wait for ever. init refuses first, in one line naming the file, exit 2, and writes
nothing (no README, no merge driver). Run as a process with a deadline, so a hang
fails the test instead of stopping the suite."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from conftest import SCRIPTS, git_init, run_with_deadline, write

pytestmark = pytest.mark.usefixtures("isolated_home")


def _oc_init(top: str) -> subprocess.CompletedProcess:
    """`asimov-hooks oc init` in `top`, in a process group of its own: past the
    deadline the whole group (a git waiting on the FIFO too) is stopped."""
    exe = shutil.which("asimov-hooks", path=SCRIPTS) or "asimov-hooks"
    return run_with_deadline(
        [exe, "oc", "init"], top, 30, "oc init waited on the FIFO instead of refusing it"
    )


@pytest.mark.parametrize("place", [".checkpoints/.gitignore", ".gitignore"])
def test_oc_init_refuses_a_fifo_git_would_read(tmp_path, place: str) -> None:
    top = git_init(tmp_path / "repo")
    write(top, "notes.md", "x\n")
    os.makedirs(os.path.join(top, ".checkpoints"), exist_ok=True)
    os.mkfifo(os.path.join(top, place))
    run = _oc_init(top)
    said = run.stdout + run.stderr
    assert run.returncode == 2, said
    assert "Traceback" not in said and "internal error" not in said, said
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, said
    assert f"{place} is a FIFO: git would wait on it for ever" in lines[0], said
    # nothing written before the refusal
    assert sorted(os.listdir(os.path.join(top, ".checkpoints"))) == (
        [".gitignore"] if place.startswith(".checkpoints/") else []
    )
    assert not os.path.lexists(os.path.join(top, ".gitattributes"))
    config = subprocess.run(
        ["git", "config", "--get", "merge.asimov-checkpoint.driver"],
        cwd=top,
        capture_output=True,
        text=True,
        check=False,
    )
    assert config.stdout == ""
    # and once the FIFO is gone, init sets the directory up
    os.unlink(os.path.join(top, place))
    again = _oc_init(top)
    assert again.returncode == 0, again.stdout + again.stderr
    assert os.path.isfile(os.path.join(top, ".checkpoints", "README.md"))


def test_git_paths_without_a_double_dash_are_looked_at(tmp_path) -> None:
    """`git check-ignore PATH` (no `--`) opens the ignore files on the way to PATH too."""
    from asimov_hooks.gitutil import would_block

    top = git_init(tmp_path / "repo")
    os.makedirs(os.path.join(top, "sub"))
    os.mkfifo(os.path.join(top, "sub", ".gitignore"))
    for args in (
        ("check-ignore", "--no-index", "-v", os.path.join(top, "sub", "x.json")),
        ("check-ignore", "sub/x.json"),
        ("check-attr", "merge", "sub/x.json"),
        ("check-attr", "merge", "--", "sub/x.json"),
    ):
        blocked = would_block(args, top, None)
        assert blocked and blocked.startswith("sub/.gitignore is a FIFO"), (args, blocked)
    assert would_block(("check-ignore", "other.json"), top, None) is None
