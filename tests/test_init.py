"""`asimov-hooks init` in real repositories of each family, as a separate process.

The pre-commit runs (`pre-commit run --all-files` on what init wrote) are in
tests/test_init_precommit.py; here: what it writes, that it keeps the user's lines,
that a second run changes nothing and that `--dry-run` writes nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import (
    GOOD_CHECKPOINT,
    GOOD_WARMUP,
    git,
    git_init,
    oc_checkpoint,
    run_script,
    write,
)

from asimov_hooks.readers.yamlio import SAFE, load_all, single

PRE_COMMIT = shutil.which("pre-commit", path=os.path.dirname(sys.executable))

USER_CONFIG = """\
# the team's hooks (keep this comment)
default_language_version:
    python: python3
repos:
-   repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.5.0  # pinned on purpose
    hooks:
    -   id: trailing-whitespace
    -   id: end-of-file-fixer

# CI settings below
ci:
    autofix_prs: false
"""

FAMILIES = {
    "asimov": {
        "warmup.yaml": GOOD_WARMUP,
        ".claude_checkpoint.yaml": GOOD_CHECKPOINT,
        "CLAUDE.md": "# CLAUDE.md\n\nRead warmup.yaml first.\n",
    },
    "oc": {".checkpoints/oc-app.checkpoint.json": oc_checkpoint(skill="oc-app")},
    "code-intel": {".code-intel/sessions/s1.json": {"session_id": "s1"}},
    "agents": {"AGENTS.md": "# Agents\n\nRun the tests.\n"},
    "none": {"README.md": "hello\n"},
}

EXPECTED_HOOKS = {
    "asimov": ["asimov-trim", "asimov-validate", "asimov-ephemeral"],
    "oc": ["asimov-oc-rotate", "asimov-validate"],
    "code-intel": ["asimov-validate", "asimov-ephemeral"],
    "agents": ["asimov-validate"],
    "none": ["asimov-validate"],
}


def family_repo(base, family: str) -> str:
    """The family's files; the project's own files staged (what the first commit holds),
    the session state left out of git as it should be."""
    repo = git_init(base / family)
    for rel, content in FAMILIES[family].items():
        write(repo, rel, content)
        if not rel.startswith((".claude_checkpoint", ".code-intel/")):
            git(repo, "add", rel)
    return repo


def init(repo: str, *args: str) -> subprocess.CompletedProcess:
    return run_script("asimov-hooks", "init", *args, cwd=repo)


def read(repo: str, rel: str) -> str | None:
    path = os.path.join(repo, rel)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def config_of(repo: str) -> dict:
    return single(load_all(read(repo, ".pre-commit-config.yaml") or "", SAFE))


def hook_ids(config: dict) -> list[str]:
    return [hook["id"] for repo in config["repos"] for hook in repo["hooks"]]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_init_writes_the_hooks_the_family_needs(tmp_path, family) -> None:
    repo = family_repo(tmp_path, family)
    done = init(repo, "--repo", "/some/checkout", "--rev", "0123abc")
    assert done.returncode == 0, done.stdout + done.stderr
    config = config_of(repo)
    assert hook_ids(config) == EXPECTED_HOOKS[family]
    assert config["repos"][0]["repo"] == "/some/checkout"
    assert config["repos"][0]["rev"] == "0123abc"
    # commits and the merge commits git makes itself; no checkout hook unless asked
    assert config["default_install_hook_types"] == ["pre-commit", "pre-merge-commit"]
    assert "next: `pre-commit install`" in done.stdout


def test_init_sets_up_the_ignores_where_they_belong(tmp_path) -> None:
    repo = family_repo(tmp_path, "asimov")
    os.makedirs(os.path.join(repo, ".claude"))
    write(repo, ".gitignore", "build/\n")
    assert init(repo, "--repo", "local").returncode == 0
    ignore = read(repo, ".gitignore")
    assert ignore.startswith("build/\n")
    for pattern in (
        ".claude_checkpoint.yaml",
        ".claude_checkpoint.archive.yaml",
        ".claude/settings.local.json",
    ):
        assert pattern in ignore.splitlines()
    # git now ignores the archive the trimmer writes next to the checkpoint
    assert (
        git(
            repo, "check-ignore", "-q", "sub/.claude_checkpoint.archive.yaml", check=False
        ).returncode
        == 0
    )

    sessions = family_repo(tmp_path, "code-intel")
    assert init(sessions, "--repo", "local").returncode == 0
    assert ".code-intel/sessions/" in read(sessions, ".gitignore").splitlines()


def test_a_tracked_checkpoint_is_ignored_too_and_named(tmp_path) -> None:
    """What the index holds changes no line: a checkpoint already added gets the line a
    new project gets (it stays tracked: the note says how to keep it local)."""
    repo = family_repo(tmp_path, "asimov")
    git(repo, "add", "-A")
    done = init(repo, "--repo", "local")
    assert done.returncode == 0, done.stderr
    ignore = (read(repo, ".gitignore") or "").splitlines()
    assert ".claude_checkpoint.yaml" in ignore and ".claude_checkpoint.archive.yaml" in ignore
    assert (
        "note: .claude_checkpoint.yaml is tracked, so git keeps committing it: "
        "`git rm -r --cached .claude_checkpoint.yaml`"
    ) in done.stderr
    assert ".claude_checkpoint.yaml" in git(repo, "ls-files").stdout.split()


def test_init_keeps_the_users_config_and_is_idempotent(tmp_path) -> None:
    repo = family_repo(tmp_path, "asimov")
    write(repo, ".pre-commit-config.yaml", USER_CONFIG)
    done = init(repo, "--repo", "/some/checkout", "--rev", "0123abc")
    assert done.returncode == 0, done.stdout + done.stderr
    text = read(repo, ".pre-commit-config.yaml")
    # every line of the user's file is still there, in order
    lines = iter(text.splitlines())
    for line in USER_CONFIG.splitlines():
        assert any(line == got for got in lines), line
    # the new entry follows the file's own indentation, before the CI section
    assert (
        "-   repo: /some/checkout\n    rev: 0123abc\n    hooks:\n    -   id: asimov-trim\n" in text
    )
    assert text.index("asimov-ephemeral") < text.index("# CI settings below")
    config = config_of(repo)
    assert hook_ids(config) == [
        "trailing-whitespace",
        "end-of-file-fixer",
        *EXPECTED_HOOKS["asimov"],
    ]
    assert config["ci"] == {"autofix_prs": False}

    before = {rel: read(repo, rel) for rel in (".pre-commit-config.yaml", ".gitignore")}
    again = init(repo, "--repo", "/some/checkout", "--rev", "0123abc")
    assert again.returncode == 0
    assert "nothing to add" in again.stdout
    assert {rel: read(repo, rel) for rel in before} == before


def test_init_adds_only_the_missing_hooks_to_its_own_entry(tmp_path) -> None:
    repo = family_repo(tmp_path, "asimov")
    write(
        repo,
        ".pre-commit-config.yaml",
        "repos:\n  - repo: /some/checkout\n    rev: 0123abc\n    hooks:\n"
        "      - id: asimov-validate  # mine\n        args: [--strict]\n",
    )
    assert init(repo, "--repo", "/some/checkout", "--rev", "0123abc").returncode == 0
    text = read(repo, ".pre-commit-config.yaml")
    assert "      - id: asimov-validate  # mine\n        args: [--strict]\n" in text
    config = config_of(repo)
    assert len(config["repos"]) == 1
    assert hook_ids(config) == ["asimov-validate", "asimov-trim", "asimov-ephemeral"]


def test_dry_run_prints_the_diff_and_writes_nothing(tmp_path) -> None:
    repo = family_repo(tmp_path, "oc")
    write(repo, ".pre-commit-config.yaml", USER_CONFIG)
    done = init(repo, "--repo", "/some/checkout", "--rev", "0123abc", "--dry-run", "--merge-driver")
    assert done.returncode == 0, done.stderr
    assert "--- a/.pre-commit-config.yaml\n+++ b/.pre-commit-config.yaml\n" in done.stdout
    assert "+-   repo: /some/checkout\n" in done.stdout
    assert "would run: asimov-hooks install" in done.stdout
    assert read(repo, ".pre-commit-config.yaml") == USER_CONFIG
    assert (
        git(repo, "config", "--get", "merge.asimov-checkpoint.driver", check=False).returncode == 1
    )


def test_merge_driver_and_agent_installs_run(tmp_path, isolated_home) -> None:
    repo = family_repo(tmp_path, "oc")
    done = init(repo, "--repo", "local", "--merge-driver", "--agent", "claude")
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(repo, "config", "--get", "merge.asimov-checkpoint.driver").stdout.strip()
    assert "merge=asimov-checkpoint" in read(repo, ".gitattributes")
    config = config_of(repo)
    assert hook_ids(config)[-1] == "asimov-merge-driver"  # every other clone registers it
    assert config["default_install_hook_types"] == [
        "pre-commit",
        "pre-merge-commit",
        "post-checkout",
        "post-merge",
    ]
    settings = json.loads(read(repo, ".claude/settings.json"))
    assert "PreToolUse" in settings["hooks"]
    assert ".claude/settings.local.json" in read(repo, ".gitignore").splitlines()


@pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")
@pytest.mark.parametrize("repo_arg", [("--repo", "local"), ("--repo", "/x", "--rev", "abc")])
def test_pre_commit_accepts_what_init_wrote(tmp_path, repo_arg) -> None:
    repo = family_repo(tmp_path, "asimov")
    write(repo, ".pre-commit-config.yaml", USER_CONFIG)
    assert init(repo, *repo_arg).returncode == 0
    done = subprocess.run(
        [PRE_COMMIT, "validate-config", ".pre-commit-config.yaml"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_init_outside_a_repository_is_a_usage_error(tmp_path) -> None:
    done = init(str(tmp_path))
    assert done.returncode == 2
    assert "not inside a git work tree" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_config_it_cannot_extend_is_left_alone(tmp_path) -> None:
    repo = family_repo(tmp_path, "agents")
    flow = "repos: [{repo: local, hooks: [{id: x, name: x, entry: x, language: system}]}]\n"
    write(repo, ".pre-commit-config.yaml", flow)
    done = init(repo, "--repo", "local")
    assert done.returncode != 0
    assert "flow-style" in done.stderr
    assert read(repo, ".pre-commit-config.yaml") == flow


def test_a_config_naming_a_schema_it_may_not_read_still_gets_its_hooks(tmp_path) -> None:
    """A kind's schema the repository's config points into .git is validate's to refuse;
    init, which asks validate which files it would skip, writes the hooks all the same."""
    repo = family_repo(tmp_path, "asimov")
    write(repo, ".claude_checkpoint.yaml", 'milestone: "m"\nstatus: in_progress\n')
    write(repo, ".asimov-hooks.yaml", "kinds:\n  asimov-checkpoint:\n    schema: './.git/config'\n")
    done = init(repo, "--repo", "local")
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr
    assert hook_ids(config_of(repo)) == EXPECTED_HOOKS["asimov"]
