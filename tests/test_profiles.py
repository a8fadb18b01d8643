"""Profiles: ADR-007's CLAUDE.md limits where the repository follows the Asimov protocol,
its loader's limit elsewhere; `asimov-validate` says which applied (real git repositories,
the command as a separate process)."""

from __future__ import annotations

import pytest
from conftest import git, git_init, run_script, write

LONG = "".join(f"- rule {n}: keep it short\n" for n in range(60))  # 60 lines, ~1,500 chars


def validate(repo: str, *args: str):
    return run_script("asimov-validate", *args, cwd=repo)


@pytest.fixture(autouse=True)
def _auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASIMOV_HOOKS_PROFILE", raising=False)


@pytest.fixture
def repo(tmp_path) -> str:
    repo = git_init(tmp_path / "repo")
    write(repo, "CLAUDE.md", LONG)
    return repo


def test_an_ordinary_repository_gets_the_loader_limits(repo) -> None:
    done = validate(repo, ".")
    assert done.returncode == 0, done.stdout
    assert "CLAUDE.md: valid" in done.stdout
    assert "profile generic for CLAUDE.md (no Asimov protocol file" in done.stdout
    assert "profile: asimov|generic|auto" in done.stdout
    # the loader's limit still applies
    write(repo, "CLAUDE.md", "x" * 40_001 + "\n")
    big = validate(repo, ".")
    assert "warning max-chars" in big.stdout


@pytest.mark.parametrize(
    "marker", ["warmup.yaml", ".asimov/project.yaml", ".claude_checkpoint.yaml"]
)
def test_an_asimov_repository_gets_adr_007(repo, marker) -> None:
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n")
    write(repo, marker, "identity: {project: p}\n" if "warmup" in marker else "milestone: m\n")
    done = validate(repo, "CLAUDE.md")
    assert done.returncode == 1
    assert "error max-lines-hard 60 lines, over the hard limit of 15" in done.stdout
    assert (
        "profile asimov for CLAUDE.md (the repository follows the Asimov protocol:" in done.stdout
    )


def test_a_marker_above_counts_and_one_below_does_not(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "warmup.yaml", "identity: {project: p}\n")
    write(repo, "pkg/CLAUDE.md", LONG)
    assert validate(repo, "pkg/CLAUDE.md").returncode == 1
    other = git_init(tmp_path / "other")
    write(other, "CLAUDE.md", LONG)
    write(other, "pkg/warmup.yaml", "identity: {project: p}\n")
    assert validate(other, "CLAUDE.md").returncode == 0


def test_the_config_chooses(repo) -> None:
    write(repo, ".asimov-hooks.yaml", "profile: asimov\n")
    done = validate(repo, "CLAUDE.md")
    assert done.returncode == 1
    assert "profile asimov for" not in done.stdout  # chosen, so not explained
    write(repo, "warmup.yaml", "identity: {project: p}\n")
    write(repo, ".asimov-hooks.yaml", "profile: generic\n")
    assert validate(repo, "CLAUDE.md").returncode == 0
    write(repo, ".asimov-hooks.yaml", "profile: asimv\n")
    bad = validate(repo, "CLAUDE.md")
    assert bad.returncode == 2
    assert "profile" in bad.stderr


def test_the_environment_chooses_over_the_config(repo, monkeypatch) -> None:
    write(repo, ".asimov-hooks.yaml", "profile: generic\n")
    monkeypatch.setenv("ASIMOV_HOOKS_PROFILE", "asimov")
    done = validate(repo, "CLAUDE.md")
    assert done.returncode == 1
    assert "profile" not in done.stdout
    monkeypatch.setenv("ASIMOV_HOOKS_PROFILE", "asimv")
    bad = validate(repo, "CLAUDE.md")
    assert bad.returncode == 2
    assert "ASIMOV_HOOKS_PROFILE: 'asimv' is not one of auto, asimov, generic" in bad.stderr


def test_quiet_and_machine_output_leave_the_line_out(repo) -> None:
    assert "profile" not in validate(repo, "-q", ".").stdout
    assert "profile generic" not in validate(repo, "--format", "json", ".").stdout


def test_the_size_hook_follows_the_profile(repo) -> None:
    assert run_script("asimov-check-size", "CLAUDE.md", cwd=repo).returncode == 0
    write(repo, "warmup.yaml", "identity: {project: p}\n")
    git(repo, "add", "-A")
    assert run_script("asimov-check-size", "CLAUDE.md", cwd=repo).returncode == 1
