"""`asimov-hooks init` writes a config a team can commit: the published repository at the
tag of the installed version (both from the installed distribution, declared once in
pyproject.toml), `--local` only on request and with a note, every hook type its hooks
run at, and the file's own line endings. Also what it says it found.
"""

from __future__ import annotations

import os
import sys

import pytest
from conftest import GOOD_WARMUP, ROOT, git, git_init, write
from test_init import USER_CONFIG, config_of, family_repo, hook_ids, init, read

from asimov_hooks import __version__

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def declared_repository() -> str:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        return tomllib.load(fh)["project"]["urls"]["Repository"]


def test_the_default_is_the_published_repository_at_the_version_tag(tmp_path) -> None:
    repo = family_repo(tmp_path, "asimov")
    done = init(repo)
    assert done.returncode == 0, done.stdout + done.stderr
    (entry,) = config_of(repo)["repos"]
    assert entry["repo"] == declared_repository()
    assert entry["repo"].startswith("https://")
    assert entry["rev"] == f"v{__version__}"
    assert hook_ids(config_of(repo)) == ["asimov-trim", "asimov-validate", "asimov-ephemeral"]
    assert "binds" not in done.stderr and "this machine" not in done.stderr
    # written as plain YAML, the way pre-commit's own examples look
    assert f"repo: {declared_repository()}\n" in read(repo, ".pre-commit-config.yaml")


def test_the_version_lives_in_one_place() -> None:
    from importlib.metadata import version

    assert version("asimov-hooks") == __version__
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as fh:
        changelog = fh.read()
    assert "## [Unreleased]" in changelog
    assert f"## [{__version__}] - " in changelog
    assert f"[{__version__}]: " in changelog and f"/v{__version__}" in changelog


def test_repo_and_rev_override_one_at_a_time(tmp_path) -> None:
    repo = family_repo(tmp_path, "agents")
    assert init(repo, "--rev", "v9.9.9").returncode == 0
    assert config_of(repo)["repos"][0] == {
        "repo": declared_repository(),
        "rev": "v9.9.9",
        "hooks": [{"id": "asimov-validate"}],
    }
    other = family_repo(tmp_path / "b", "agents")
    assert init(other, "--repo", "https://example.org/fork.git").returncode == 0
    assert config_of(other)["repos"][0]["repo"] == "https://example.org/fork.git"
    assert config_of(other)["repos"][0]["rev"] == f"v{__version__}"


def test_local_is_on_request_and_says_it_binds_the_config(tmp_path) -> None:
    repo = family_repo(tmp_path, "agents")
    done = init(repo, "--local")
    assert done.returncode == 0, done.stderr
    (entry,) = config_of(repo)["repos"]
    assert entry["repo"] == "local"
    assert entry["hooks"][0]["language"] == "system"
    assert "binds this config" in done.stderr
    path = family_repo(tmp_path / "p", "agents")
    done = init(path, "--repo", str(tmp_path), "--rev", "abc")
    assert done.returncode == 0
    assert "a path on this machine" in done.stderr
    refused = init(family_repo(tmp_path / "r", "agents"), "--local", "--rev", "v1.0.0")
    assert refused.returncode == 2
    assert "take no --rev" in refused.stderr and "Traceback" not in refused.stderr


def test_hook_types_are_added_to_the_users_list(tmp_path) -> None:
    flow = family_repo(tmp_path / "flow", "agents")
    write(flow, ".pre-commit-config.yaml", "default_install_hook_types: [pre-push]  # team\n")
    assert init(flow).returncode == 0
    text = read(flow, ".pre-commit-config.yaml")
    assert "default_install_hook_types: [pre-push, pre-commit, pre-merge-commit]  # team\n" in text
    block = family_repo(tmp_path / "block", "oc")
    write(
        block,
        ".pre-commit-config.yaml",
        USER_CONFIG + "default_install_hook_types:\n- pre-commit\n",
    )
    assert init(block, "--merge-driver").returncode == 0
    config = config_of(block)
    assert config["default_install_hook_types"] == [
        "pre-commit",
        "pre-merge-commit",
        "post-checkout",
        "post-merge",
    ]
    lines = iter(read(block, ".pre-commit-config.yaml").splitlines())
    for line in USER_CONFIG.splitlines():  # every line of the user's, in order
        assert any(line == got for got in lines), line
    again = init(block, "--merge-driver")
    assert "nothing to add" in again.stdout


def test_crlf_files_stay_crlf(tmp_path) -> None:
    repo = family_repo(tmp_path, "asimov")
    crlf_config = USER_CONFIG.replace("\n", "\r\n")
    write(repo, ".pre-commit-config.yaml", crlf_config.encode())
    write(repo, ".gitignore", b"build/\r\n")
    done = init(repo)
    assert done.returncode == 0, done.stderr
    for rel in (".pre-commit-config.yaml", ".gitignore"):
        with open(os.path.join(repo, rel), "rb") as fh:
            data = fh.read()
        assert data.count(b"\n") == data.count(b"\r\n") > 2, (rel, data)
    with open(os.path.join(repo, ".pre-commit-config.yaml"), "rb") as fh:
        assert fh.read().startswith(crlf_config.split("-   repo")[0].encode())
    assert config_of(repo)["default_install_hook_types"] == ["pre-commit", "pre-merge-commit"]
    assert "nothing to add" in init(repo).stdout


def test_found_names_every_protocol_file_first(tmp_path) -> None:
    repo = git_init(tmp_path / "r")
    write(repo, ".claude_checkpoint.yaml", "session:\n  started: 2025-01-01T00:00:00Z\n")
    write(repo, "sprint.yaml", "sprint:\n  goal: ship\n")
    write(repo, "roadmap.yaml", "current:\n  version: '1.0'\n")
    write(repo, "ethics.yaml", "human_veto: true\n")
    write(repo, "docs/roadmap.yaml", "x: 1\n")  # another tool's: validate skips it
    write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, ".checkpoints/README.md", "what these files are\n")
    write(repo, "CLAUDE.md", "# c\n")
    git(repo, "add", "warmup.yaml", "CLAUDE.md")
    done = init(repo, "--dry-run")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("found Asimov"))
    names = line.split(": ", 1)[1].split(", ")
    assert names[0] == "warmup.yaml"
    assert {"sprint.yaml", "roadmap.yaml", "ethics.yaml", ".claude_checkpoint.yaml"} <= set(names)
    assert "docs/roadmap.yaml" not in names
    assert "OC checkpoints" not in done.stdout  # a README beside them is not a checkpoint
    assert ".checkpoints/README.md" not in done.stdout


@pytest.mark.parametrize("count", [9])
def test_found_counts_what_it_does_not_name(tmp_path, count) -> None:
    repo = git_init(tmp_path / "r")
    for index in range(count):
        write(repo, f"docs/d{index}/AGENTS.md", "# a\n")
    done = init(repo, "--dry-run")
    line = next(x for x in done.stdout.splitlines() if x.startswith("found agent"))
    assert line.endswith(" and 3 more"), line


def test_doctor_names_the_git_hooks_pre_commit_has_not_installed(tmp_path) -> None:
    """The pre-merge-commit hook is installed only by a `pre-commit install` that was told
    about it; doctor says when it is missing, and what to run."""
    from conftest import run_script

    repo = family_repo(tmp_path, "asimov")
    git(repo, "config", "--unset-all", "core.hooksPath")
    assert init(repo, "--repo", "https://example.org/x.git", "--rev", "v1").returncode == 0
    hooks = os.path.join(repo, ".git", "hooks")
    os.makedirs(hooks, exist_ok=True)
    write(hooks, "pre-commit", "#!/bin/sh\n# File generated by pre-commit\n")
    done = run_script("asimov-hooks", "doctor", cwd=repo)
    assert "  ok   pre-commit hook installed" in done.stdout, done.stdout
    assert "pre-merge-commit hook not installed: a merge git completes" in done.stdout
    assert "`pre-commit install --hook-type pre-merge-commit`" in done.stdout
    write(hooks, "pre-merge-commit", "#!/bin/sh\n# File generated by pre-commit\n")
    done = run_script("asimov-hooks", "doctor", cwd=repo)
    assert "pre-merge-commit hook installed" in done.stdout
    assert "not installed" not in done.stdout.split("pre-commit's git hooks")[1].split("Agent")[0]
