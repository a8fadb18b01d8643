"""Run asimov-hooks as an ordinary user, also when the suite runs as root (as CI does).

Permission errors (a mode-000 directory, a read-only directory or file) are invisible
to root, who reads and writes everything. Rather than skip those tests under root,
the command runs as `nobody` in a work tree that user owns. That needs a Python that
`nobody` may start with this checkout's package and dependencies importable: the
suite's own interpreter when its path is open to everyone, else the system Python
with the same site-packages (same minor version). Without either the test is skipped
and says why.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import pytest

NOBODY = 65534
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
_PROBE = "import asimov_hooks.cli.entrypoints, click, jsonschema, ruamel.yaml"


def _import_path() -> str:
    import asimov_hooks

    package_parent = os.path.dirname(os.path.dirname(asimov_hooks.__file__))
    return os.pathsep.join([package_parent, sysconfig.get_paths()["purelib"]])


def _starts(python: str, env: dict[str, str]) -> bool:
    try:
        done = subprocess.run(
            [python, "-c", _PROBE],
            cwd="/",
            env=env,
            capture_output=True,
            timeout=60,
            check=False,
            user=NOBODY,
            group=NOBODY,
            extra_groups=[],
        )
    except OSError:
        return False
    return done.returncode == 0


@functools.cache
def unprivileged_python() -> tuple[str, dict[str, str]] | None:
    """(interpreter, extra environment) that user nobody can run us with, or None."""
    base = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    if _starts(sys.executable, base):
        return sys.executable, {}
    major_minor = f"python{sys.version_info.major}.{sys.version_info.minor}"
    system = shutil.which(major_minor, path="/usr/bin:/usr/local/bin")
    extra = {"PYTHONPATH": _import_path(), "PYTHONNOUSERSITE": "1"}
    if system and _starts(system, {**base, **extra}):
        return system, extra
    return None


class Workdir:
    """A directory tree the command's user owns; `run` starts asimov-hooks in it."""

    def __init__(self, root: str) -> None:
        self.root = root

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)

    def run(
        self, *args: str, entry: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess:
        """`python -m asimov_hooks ARGS`, or the console script function `entry`
        (such as validate_main, what `asimov-validate` runs) with ARGS."""
        if not IS_ROOT:
            cmd, extra, user = [sys.executable], {}, {}
        else:
            found = unprivileged_python()
            assert found is not None  # the fixture skipped otherwise
            cmd, extra = [found[0]], found[1]
            for dirpath, dirnames, filenames in os.walk(self.root):
                for name in [*dirnames, *filenames]:
                    os.lchown(os.path.join(dirpath, name), NOBODY, NOBODY)
            os.lchown(self.root, NOBODY, NOBODY)
            user = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
        environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.root,
            "LANG": "C.UTF-8",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            **extra,
            **(env or {}),
        }
        if entry is None:
            start = ["-m", "asimov_hooks"]
        else:
            code = f"from asimov_hooks.cli.entrypoints import {entry}; raise SystemExit({entry}())"
            start = ["-c", code]
        return subprocess.run(
            [*cmd, *start, *args],
            cwd=self.root,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            **user,
        )


@pytest.fixture
def unprivileged(tmp_path):
    """A Workdir whose commands cannot read mode-000 or write read-only paths."""
    if not IS_ROOT:
        yield Workdir(str(tmp_path))
        return
    if unprivileged_python() is None:
        pytest.skip("running as root, and user nobody cannot start this Python")
    root = tempfile.mkdtemp(prefix="asimov-nobody-")  # tmp_path is private to root
    try:
        yield Workdir(root)
    finally:
        for dirpath, dirnames, _ in os.walk(root):
            for name in dirnames:
                os.chmod(os.path.join(dirpath, name), 0o755)
        shutil.rmtree(root, ignore_errors=True)
