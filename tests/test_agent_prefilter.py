"""The cheap answer for a file that is not ours (`agent.runtime.prefilter`): the base-name
check it makes before the pattern matcher never says "not ours" where the matcher, and
so the full check, would say it is."""

from __future__ import annotations

import os

import pytest

from asimov_hooks.agent.runtime.prefilter import _name_may_match, may_be_protocol_file
from asimov_hooks.config.globs import glob_match
from asimov_hooks.config.packs import load_rule_file

NAMES = [
    "CLAUDE.md", "claude.md", "app.py", ".claude_checkpoint.yaml", "x.checkpoint.json",
    "checkpoint.json", "a.instructions.md", ".instructions.md", "instructions.md", "r.mdc",
    "mdc", ".mdc", "warmup.yaml", "w.yaml", "", "*", "a*b", "ab", "aXb", "aXbXb", "b",
]  # fmt: skip
SEGMENTS = [
    "CLAUDE.md", "*.mdc", "*.instructions.md", "*", "a*b", "a*b*b", "*a*", "a*", "*b",
    "**", "?.md", "[ab]", "[!a]*", "x*y*z", "*.json", "*.checkpoint.json",
]  # fmt: skip


@pytest.mark.parametrize("segment", SEGMENTS)
def test_the_name_check_never_refuses_what_the_matcher_takes(segment) -> None:
    for name in NAMES:
        if glob_match(name, segment) or glob_match(f"d/{name}", f"d/{segment}"):
            assert _name_may_match(name, segment), (name, segment)


def test_the_name_check_refuses_the_usual_file() -> None:
    patterns = [p for spec in load_rule_file("kinds.json")["kinds"].values() for p in spec["files"]]
    for name in ("app.py", "README.md", "index.ts", "Makefile"):
        assert not any(_name_may_match(name, p.rsplit("/", 1)[-1]) for p in patterns)


@pytest.mark.parametrize(
    ("rel", "ours"),
    [
        ("src/app.py", False),
        ("CLAUDE.md", True),
        ("sub/CLAUDE.md", True),
        (".checkpoints/a.checkpoint.json", True),
        (".checkpoints/history/x/y.json", True),
        ("other/y.json", False),
        ("project.yaml", False),
        (".asimov/project.yaml", True),
        (".cursor/rules/deep/r.mdc", True),
        ("notes/r.mdc", False),
    ],
)
def test_a_file_is_ours_as_the_kinds_say(tmp_path, monkeypatch, rel, ours) -> None:
    monkeypatch.delenv("ASIMOV_HOOKS_CONFIG", raising=False)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    path = os.path.join(repo, rel)
    assert may_be_protocol_file(path) is ours
