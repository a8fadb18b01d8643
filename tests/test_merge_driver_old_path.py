"""A clone whose git config names the driver's old module path still merges with it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from asimov_hooks.gitutil import command_paths, driver_command

BASE = b"milestone: m\nstatus: in_progress\ntool_calls: 1\n"
OURS = b"milestone: m\nstatus: in_progress\ntool_calls: 5\n"
THEIRS = b"milestone: m\nstatus: in_progress\ntool_calls: 3\n"


def _files(tmp_path):
    paths = []
    for name, data in (("O", BASE), ("A", OURS), ("B", THEIRS)):
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(str(path))
    return paths


def test_old_module_path_runs_the_same_driver(tmp_path) -> None:
    base, ours, theirs = _files(tmp_path)
    old = subprocess.run(
        [
            sys.executable,
            "-m",
            "asimov_hooks.merge_driver",
            base,
            ours,
            theirs,
            "7",
            "x/.claude_checkpoint.yaml",
        ],
        capture_output=True,
        check=False,
    )
    assert old.returncode == 0, old.stderr
    merged = Path(ours).read_bytes()
    assert b"tool_calls: 5" in merged  # counters merge to the maximum

    base, ours2, theirs = _files(tmp_path)
    new = subprocess.run(
        [
            sys.executable,
            "-m",
            "asimov_hooks.merge.driver",
            base,
            ours2,
            theirs,
            "7",
            "x/.claude_checkpoint.yaml",
        ],
        capture_output=True,
        check=False,
    )
    assert (new.returncode, new.stdout, new.stderr) == (old.returncode, old.stdout, old.stderr)
    assert Path(ours2).read_bytes() == merged


def test_old_guarded_command_still_finds_its_file() -> None:
    # what install wrote before the move: `[ -f .../asimov_hooks/merge_driver.py ]`
    _, main = command_paths(driver_command())
    package = os.path.dirname(os.path.dirname(main))
    assert os.path.isfile(os.path.join(package, "merge_driver.py"))
    assert main == os.path.join(package, "merge", "driver.py")
