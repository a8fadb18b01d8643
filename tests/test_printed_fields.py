"""Each field a command prints from the checkout, holding control bytes and `::`, run
through the command as its own process: no raw control byte reaches the output, and no
line starts like a CI workflow command (`::error`, `::stop-commands::`, `##[error]`)
unless it is an annotation the command itself writes under GITHUB_ACTIONS.

The fields: a config key (config errors), an agent settings file's duplicate key
(`agent install` / `uninstall`, `init --agent`), an OC checkpoint's next_actions[0]
(`oc done`), a skill name from a committed file name (`oc status / list / next /
show / doctor`)."""

from __future__ import annotations

import json
import os
import re

import pytest
from conftest import commit_all, git_init, oc_checkpoint, run_script, write

pytestmark = pytest.mark.usefixtures("isolated_home")

# what a hostile field holds: a line break, a workflow command, terminal escapes
FORGE = "x\n::error file=forged.py::FORGED\r\x1b[31m\x9b2J\x07"
LEADING = "::stop-commands::pwned"  # printed at the start of a line, it is a command
OUR_ANNOTATION = re.compile(r"^::(error|warning|notice) file=[^\n]*?,line=\d+,col=\d+,title=")


def assert_clean(done, *, github: bool = False) -> None:
    text = done.stdout + done.stderr
    assert "Traceback" not in text and "internal error" not in text, text
    for byte in ("\x1b", "\x07", "\x9b", "\r", "\x00"):
        assert byte not in text, (repr(byte), text)
    for line in text.splitlines():
        head = line.lstrip()
        if head.startswith(("::", "##[")):
            assert github and OUR_ANNOTATION.match(line), line  # ::error / ::warning / ::notice


@pytest.mark.parametrize("where", ["kinds", "top", "rules", "agent"])
def test_a_config_key_is_escaped_in_config_errors(tmp_path, where: str) -> None:
    repo = git_init(tmp_path / "repo")
    key = json.dumps(f"{LEADING}{FORGE}")
    config = {
        "kinds": f"kinds:\n  {key}:\n    description: d\n",
        "top": f"{key}: 1\n",
        "rules": f"rules:\n  {key}: error\n",
        "agent": f"agent:\n  {key}: 1\n",
    }[where]
    write(repo, ".asimov-hooks.yaml", config)
    write(repo, "CLAUDE.md", "# hi\n")
    for command in (
        ("asimov-validate", "."),
        ("asimov-hooks", "trim", "."),
        ("asimov-hooks", "oc", "status"),
        ("asimov-hooks", "ephemeral"),
    ):
        done = run_script(*command, cwd=repo)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert_clean(done)
        assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.parametrize("command", [
    ("asimov-hooks", "agent", "install"),
    ("asimov-hooks", "agent", "uninstall"),
    ("asimov-hooks", "init", "--local", "--agent", "claude"),
])  # fmt: skip
def test_a_settings_files_duplicate_key_is_escaped(tmp_path, command) -> None:
    repo = git_init(tmp_path / "repo")
    key = json.dumps(f"{LEADING}{FORGE}")
    write(repo, ".claude/settings.json", f"{{{key}: 1, {key}: 2}}\n")
    done = run_script(*command, cwd=repo)
    assert done.returncode != 0
    assert_clean(done)
    assert "duplicate key" in done.stdout + done.stderr


def hostile_oc(tmp_path) -> str:
    repo = git_init(tmp_path / "repo")
    for skill in (LEADING, "##[error]forged", "::error::FORGED", f"ok{FORGE[-5:]}"):
        doc = oc_checkpoint(
            skill=skill,
            next_actions=[FORGE, LEADING, f"{LEADING}{FORGE}"],
            progress_summary=f"\n{LEADING}\n{FORGE}",
            step=f"{LEADING}{FORGE}",
        )
        write(repo, f".checkpoints/{skill}.checkpoint.json", doc)
    commit_all(repo, "oc")
    return repo


@pytest.mark.parametrize("args", [
    ["status"], ["status", "--brief"], ["status", "--color", "never"], ["list"], ["next"],
    ["show"], ["show", LEADING], ["doctor"], ["doctor", "--format", "text"],
])  # fmt: skip
def test_skill_names_and_values_cannot_forge_lines(tmp_path, args) -> None:
    repo = hostile_oc(tmp_path)
    done = run_script("asimov-hooks", "oc", *args, cwd=repo)
    assert_clean(done)
    cwd = os.path.join(repo, ".checkpoints")  # the file name itself starts the line
    assert_clean(run_script("asimov-hooks", "oc", *args, cwd=cwd))


def test_oc_doctor_annotations_are_ours(tmp_path) -> None:
    repo = hostile_oc(tmp_path)
    done = run_script("asimov-hooks", "oc", "doctor", cwd=repo, GITHUB_ACTIONS="true")
    assert_clean(done, github=True)


@pytest.mark.parametrize("skill", [LEADING, "::error::FORGED", "##[error]forged"])
def test_oc_done_escapes_the_action_it_moves(tmp_path, skill: str) -> None:
    repo = hostile_oc(tmp_path)
    for cwd in (repo, os.path.join(repo, ".checkpoints")):
        done = run_script("asimov-hooks", "oc", "done", skill, cwd=cwd)
        assert done.returncode == 0, done.stdout + done.stderr
        assert_clean(done)
        assert "skill-matches-name" not in done.stdout  # the name checked is the file's own
