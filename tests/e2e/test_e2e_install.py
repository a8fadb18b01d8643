"""The agents' installer: without npm it says why and installs nothing (the suite then
skips with that reason, or fails where ASIMOV_HOOKS_E2E_REQUIRED is set, as in .ci/run);
with npm a second call finds the lockfile's tree in place."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import install_agents
import pytest
from install_agents import LOCK_DIR, REPO, REQUIRED, STAMP, Unavailable, install, unavailable

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


def test_where_the_agents_are_required_their_absence_fails_the_run(tmp_path) -> None:
    """.ci/run sets ASIMOV_HOOKS_E2E_REQUIRED: without npm the installer exits 1 and a test
    that needs the agents fails, where elsewhere it is skipped."""
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), REQUIRED: "1"}
    done = subprocess.run(
        [sys.executable, SCRIPT], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 1, done.stderr
    bench = os.path.join(REPO, "tests", "e2e", "test_e2e_bench.py")
    pytest_run = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", bench]
    failed = subprocess.run(
        pytest_run, capture_output=True, text=True, timeout=300, env=env, cwd=REPO
    )
    assert failed.returncode == 1, failed.stdout[-2000:]
    assert f"real agents unavailable, and {REQUIRED} is set: npm is not installed" in failed.stdout
    del env[REQUIRED]
    skipped = subprocess.run(
        pytest_run, capture_output=True, text=True, timeout=300, env=env, cwd=REPO
    )
    assert skipped.returncode == 0, skipped.stdout[-2000:]
    assert "1 skipped" in skipped.stdout, skipped.stdout[-2000:]


def test_second_install_reuses_the_tree() -> None:
    if shutil.which("npm") is None:
        unavailable("npm is not installed")
    try:
        first = install()
    except Unavailable as why:
        unavailable(why)
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
        unavailable("npm is not installed")
    try:
        install()
    except Unavailable as why:
        unavailable(why)
    cli = os.path.join(REPO, ".e2e", "agents", "node_modules", "@qwen-code", "qwen-code", "cli.js")
    before = os.stat(cli).st_mtime_ns
    with open(LOCK_DIR / "tarballs.json", encoding="utf-8") as fh:
        pinned = json.load(fh)["@qwen-code/qwen-code"]["version"]
    with pytest.raises(RuntimeError, match=r"integrity sha512-.*, pinned sha512-not-these-bytes"):
        install_agents._unpack(npm, "@qwen-code/qwen-code", pinned, "sha512-not-these-bytes")
    assert os.stat(cli).st_mtime_ns == before
