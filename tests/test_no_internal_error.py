"""Hostile inputs never reach the catch-all "internal error": malformed config values
of every section, odd file states (FIFOs, directories and symlink loops where files are
expected, names that are not UTF-8, a checkpoint that is a link to /dev/zero) and bad
numbers on the command line each get a clear line and a documented exit code. Every
row runs the real command as its own process; the catch-all stays as a last resort."""

from __future__ import annotations

import json
import os

import pytest
from conftest import GOOD_CHECKPOINT, git_init, oc_checkpoint, run_script, write

pytestmark = pytest.mark.usefixtures("isolated_home")

CONFIGS = [
    "exclude: 5\n",
    "exclude: ['[']\n",
    "trim: {archive: {path: '{x}'}}\n",
    "trim: {archive: {path: '{name'}}\n",
    "merge: {policies: [5]}\n",
    "oc: {directory: '../x'}\n",
    "limits: {max-depth: 99999999999999999999999}\n",
    "token-estimator: {divisor: 0}\n",
    "kinds: {asimov-checkpoint: {files: ['(']}}\n",
    "kinds: {asimov-checkpoint: {schema: 'nope.json'}}\n",
    "rules: {max-tokens: {max: .nan}}\n",
    "agent: {turn-threshold: .nan}\n",
    "extends: ['/dev/zero']\n",
    "- a\n",
]
CONFIG_COMMANDS = [
    ("asimov-validate", "."),
    ("asimov-hooks", "trim", "."),
    ("asimov-hooks", "ephemeral"),
    ("asimov-hooks", "doctor"),
    ("asimov-hooks", "oc", "status"),
]


def assert_clear(done) -> None:
    text = done.stdout + done.stderr
    assert "internal error" not in text and "Traceback" not in text, text
    assert done.returncode in (0, 1, 2), (done.returncode, text)


@pytest.mark.parametrize("config", CONFIGS)
def test_a_malformed_config_is_a_clear_error(tmp_path, config: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, ".asimov-hooks.yaml", config)
    for command in CONFIG_COMMANDS:
        assert_clear(run_script(*command, cwd=repo))


@pytest.fixture(scope="module")
def odd_repo(tmp_path_factory) -> str:
    repo = git_init(tmp_path_factory.mktemp("odd") / "repo")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    doc = oc_checkpoint(skill="oc-x", skill_state={"merged_prs": [1, 2, 3]})
    write(repo, ".checkpoints/oc-x.checkpoint.json", json.dumps(doc))
    os.makedirs(os.path.join(repo, "sub"))
    os.mkfifo(os.path.join(repo, "sub", ".claude_checkpoint.yaml"))
    os.makedirs(os.path.join(repo, "loop"))
    os.symlink("CLAUDE.md", os.path.join(repo, "loop", "CLAUDE.md"))
    os.makedirs(os.path.join(repo, "dirq", ".claude_checkpoint.yaml"))
    bad = os.path.join(os.fsencode(repo), b"bad\xff")
    os.makedirs(bad)
    with open(os.path.join(bad, b"CLAUDE.md"), "w", encoding="utf-8") as fh:
        fh.write("# x\n")
    os.symlink("/dev/zero", os.path.join(repo, ".checkpoints", "oc-z.checkpoint.json"))
    return repo


ODD_COMMANDS = [
    ("asimov-validate", "-j", "99999999999999999999", "."),
    ("asimov-validate", "."),
    ("asimov-validate", "sub/.claude_checkpoint.yaml", "loop/CLAUDE.md"),
    ("asimov-validate", "dirq/.claude_checkpoint.yaml", "nonexistent.yaml"),
    ("asimov-hooks", "trim", "."),
    ("asimov-hooks", "trim", "sub/.claude_checkpoint.yaml"),
    ("asimov-hooks", "ephemeral"),
    ("asimov-hooks", "doctor"),
    ("asimov-hooks", "oc", "status"),
    ("asimov-hooks", "oc", "rotate", "oc-x", "--keep", "99999999999999999999999"),
    ("asimov-hooks", "oc", "rotate", "oc-z"),
    ("asimov-hooks", "oc", "update", "oc-z", "--step=x"),
    ("asimov-hooks", "oc", "update", "oc-x", "--skill_state.merged_prs.99999999999999999999=1"),
    ("asimov-hooks", "oc", "update", "oc-x", "--skill_state:json=NaN"),
    ("asimov-hooks", "oc", "update", "oc-x", '--skill_state.x:json="\\ud800"'),
    ("asimov-hooks", "oc", "update", "oc-x", "--step=" + os.fsdecode(b"\xff")),
    ("asimov-hooks", "oc", "update", "oc-x", "--skill_state.x:json=" + "[" * 20000 + "]" * 20000),
    ("asimov-hooks", "oc", "since", "9999-99-99"),
    ("asimov-hooks", "merge-driver", "nope", "nope", "nope", "7", "x.yaml"),
    ("asimov-check-size", "--max-lines", "99999999999999999999999", ".claude_checkpoint.yaml"),
]


@pytest.mark.parametrize("command", ODD_COMMANDS, ids=" ".join)
def test_odd_files_and_numbers_are_clear_errors(odd_repo: str, command) -> None:
    assert_clear(run_script(*command, cwd=odd_repo))


# a NUL character in any config string (a path, a pattern, a key) is one clear line
NUL_CONFIGS = [
    'extends: "a\\x00b.yaml"\n',
    'trim: {archive: {path: "a\\x00b"}}\n',
    'oc: {directory: "a\\x00b"}\n',
    'kinds: {asimov-checkpoint: {files: ["a\\x00b"]}}\n',
    'exclude: ["\\x00"]\n',
    'rules: {"max-\\x00tokens": 1}\n',
]


@pytest.mark.parametrize("config", NUL_CONFIGS)
def test_a_nul_character_in_a_config_is_a_clear_error(tmp_path, config: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, ".asimov-hooks.yaml", config)
    for command in CONFIG_COMMANDS:
        done = run_script(*command, cwd=repo)
        assert_clear(done)
        assert done.returncode == 2, done.stdout + done.stderr
        assert "holds a NUL character" in done.stdout + done.stderr
