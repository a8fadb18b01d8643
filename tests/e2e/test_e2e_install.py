"""The agents' installer: without npm it says why and installs nothing (the suite then
skips with that reason); with npm a second call finds the lockfile's tree in place."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import install_agents
import pytest
from install_agents import REPO, STAMP, Unavailable, install

SCRIPT = os.path.join(REPO, "tests", "e2e", "install_agents.py")


def test_without_npm_nothing_is_installed_and_the_reason_is_given(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, SCRIPT],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": str(tmp_path), "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == (
        "agents not installed: npm is not installed: the real agents come from the npm registry"
    )
    assert done.stdout == ""


def test_second_install_reuses_the_tree() -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    try:
        first = install()
    except Unavailable as why:
        pytest.skip(str(why))
    stamp = STAMP.stat().st_mtime_ns
    assert install() == first
    assert STAMP.stat().st_mtime_ns == stamp  # no second npm ci
    for command in first.values():
        assert os.access(command[-1], os.R_OK)


def test_a_tarball_that_does_not_match_its_pin_is_refused() -> None:
    """Qwen Code comes as a tarball pinned by version and sha512 (tarballs.json): one
    whose bytes do not match the pin is not unpacked."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    try:
        install()
    except Unavailable as why:
        pytest.skip(str(why))
    cli = os.path.join(REPO, ".e2e", "agents", "node_modules", "@qwen-code", "qwen-code", "cli.js")
    before = os.stat(cli).st_mtime_ns
    with pytest.raises(RuntimeError, match=r"integrity sha512-.*, pinned sha512-not-these-bytes"):
        install_agents._unpack(npm, "@qwen-code/qwen-code", "0.15.10", "sha512-not-these-bytes")
    assert os.stat(cli).st_mtime_ns == before
