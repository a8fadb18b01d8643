"""The agent hooks run where the agent runs: `agent install` and `doctor` check that the
command written into the agent's settings resolves on PATH (the agent starts its hooks
with the PATH it was started with) and, when it does not, say so and give the fix."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from conftest import SCRIPTS, git_init, script_env

BARE_PATH = os.pathsep.join(
    d for d in ("/usr/local/bin", "/usr/bin", "/bin") if not os.path.isfile(f"{d}/asimov-hooks")
)


def run(repo: str, *args: str, path: str) -> subprocess.CompletedProcess:
    """Our script by its absolute path, as a user runs a virtualenv's command without
    activating it, with `path` as PATH."""
    return subprocess.run(
        [os.path.join(SCRIPTS, "asimov-hooks"), *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env=script_env(PATH=path),
        timeout=120,
        check=False,
    )


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    if shutil.which("git", path=BARE_PATH) is None:
        pytest.skip("git is not in /usr/bin or /bin")
    return git_init(tmp_path / "repo")


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_install_says_when_the_command_is_not_on_path(repo, agent) -> None:
    done = run(repo, "agent", "install", "--agent", agent, path=BARE_PATH)
    assert done.returncode == 0, done.stderr  # the files are written all the same
    (warning,) = [line for line in done.stderr.splitlines() if "not on PATH" in line]
    assert "`asimov-hooks` is not on PATH" in warning
    assert "pipx install " in warning and "uv tool install " in warning
    assert ("--scope local" in warning) == (agent == "claude")
    doctor = run(repo, "doctor", path=BARE_PATH)
    assert doctor.returncode == 1
    assert "hook command does not resolve: asimov-hooks agent-event" in doctor.stdout
    fix = doctor.stdout.split("hook command does not resolve", 1)[1]
    assert "not on PATH" in fix and "pipx install " in fix and "uv tool install " in fix


def test_no_warning_when_it_resolves(repo) -> None:
    done = run(repo, "agent", "install", path=SCRIPTS + os.pathsep + BARE_PATH)
    assert done.returncode == 0
    assert "not on PATH" not in done.stderr
    doctor = run(repo, "doctor", path=SCRIPTS + os.pathsep + BARE_PATH)
    assert "hook command resolves: asimov-hooks agent-event --agent claude" in doctor.stdout


def test_the_local_scope_fix_works_without_path(repo) -> None:
    done = run(repo, "agent", "install", "--scope", "local", path=BARE_PATH)
    assert done.returncode == 0, done.stderr
    assert "not on PATH" not in done.stderr
    doctor = run(repo, "doctor", path=BARE_PATH)
    assert "does not resolve" not in doctor.stdout


def test_the_readme_shows_what_install_writes(repo) -> None:
    """The README's "what install writes" block is the file install writes (as JSON)."""
    import json
    import re

    from conftest import ROOT

    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    after = readme[readme.index("What `asimov-hooks agent install` writes to") :]
    block = re.search(r"```json\n(.*?)```", after, re.S)
    command = re.search(r"```sh\n(.*?)\n```", after, re.S)
    assert block and command
    done = run(repo, "agent", "install", path=SCRIPTS + os.pathsep + BARE_PATH)
    assert done.returncode == 0, done.stderr
    shown = json.loads(block.group(1).replace("COMMAND", command.group(1).replace('"', '\\"')))
    with open(os.path.join(repo, ".claude", "settings.json"), encoding="utf-8") as fh:
        assert shown == json.load(fh)


def test_one_warning_for_every_agent(repo) -> None:
    done = run(repo, "agent", "install", "--agent", "all", path=BARE_PATH)
    assert done.returncode == 0, done.stderr
    (warning,) = [line for line in done.stderr.splitlines() if "not on PATH" in line]
    for title in ("Claude Code", "Codex CLI", "Gemini CLI", "Cursor"):
        assert title in warning
