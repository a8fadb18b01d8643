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
    done = validate(repo, "-v", ".")
    assert done.returncode == 0, done.stdout
    assert "CLAUDE.md: valid" in done.stdout
    assert "profile generic for CLAUDE.md (no Asimov protocol file" in done.stdout
    assert "profile: asimov|generic|auto" in done.stdout
    # the loader's limit still applies
    write(repo, "CLAUDE.md", "x" * 40_001 + "\n")
    big = validate(repo, "-v", ".")
    assert "warning max-chars" in big.stdout


@pytest.mark.parametrize(
    "marker", ["warmup.yaml", ".asimov/project.yaml", ".claude_checkpoint.yaml"]
)
def test_an_asimov_repository_gets_adr_007(repo, marker) -> None:
    write(repo, marker, "identity:\n  project: p\n" if "warmup" in marker else "milestone: m\n")
    if marker.endswith("project.yaml"):
        write(repo, marker, "identity:\n  name: p\n  type: rust\n")
    git(repo, "add", marker)  # committed (staged is enough: what the commit will hold)
    done = validate(repo, "-v", "CLAUDE.md")
    assert done.returncode == 1
    assert "error max-lines-hard 60 lines, over the hard limit of 15" in done.stdout
    assert (
        "profile asimov for CLAUDE.md (the repository follows the Asimov protocol:" in done.stdout
    )


def test_a_marker_above_counts_and_one_below_does_not(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "warmup.yaml", "identity:\n  project: p\n")
    write(repo, "pkg/CLAUDE.md", LONG)
    git(repo, "add", "-A")
    assert validate(repo, "pkg/CLAUDE.md").returncode == 1
    other = git_init(tmp_path / "other")
    write(other, "CLAUDE.md", LONG)
    write(other, "pkg/warmup.yaml", "identity:\n  project: p\n")
    git(other, "add", "-A")
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
    write(repo, "warmup.yaml", "identity:\n  project: p\n")
    git(repo, "add", "-A")
    assert run_script("asimov-check-size", "CLAUDE.md", cwd=repo).returncode == 1


KUBE_WARMUP = "apiVersion: skaffold/v4beta6\nkind: Config\nmetadata:\n  name: warmup\n"


@pytest.mark.parametrize(
    "path, text",
    [
        ("warmup.yaml", KUBE_WARMUP),
        ("warmup.yaml", "apiVersion: v1\nkind: ConfigMap\ndata:\n  jobs: '3'\n"),
        (".asimov/roadmap.yaml", "milestones:\n  - name: beta\n"),
    ],
)
def test_a_look_alike_does_not_make_a_repository_asimov(repo, path, text) -> None:
    write(repo, path, text)
    git(repo, "add", "-A")
    done = validate(repo, "-v", "CLAUDE.md")
    assert done.returncode == 0, done.stdout
    assert "profile generic for CLAUDE.md (no Asimov protocol file" in done.stdout


@pytest.mark.parametrize("name", [".claude_checkpoint.yaml", "warmup.yaml"])
def test_an_untracked_file_counts_and_an_ignored_one_does_not(repo, name) -> None:
    """What the next commit can carry decides: an untracked file counts before its first
    commit (a new project), a git-ignored one never does (CI would not have it)."""
    write(
        repo,
        name,
        "milestone: m\nstatus: in_progress\n" if "check" in name else "identity:\n  project: p\n",
    )
    done = validate(repo, "-v", "CLAUDE.md")  # untracked: the next commit carries it
    assert done.returncode == 1, done.stdout
    assert f"profile asimov for CLAUDE.md (the repository follows the Asimov protocol: {name};" in (
        done.stdout
    )
    write(repo, ".gitignore", name + "\n")
    assert validate(repo, "-v", "CLAUDE.md").returncode == 0  # ignored, not yet committed
    git(repo, "add", "-A")
    done = validate(repo, "-v", "CLAUDE.md")
    assert done.returncode == 0, done.stdout
    assert "profile generic for CLAUDE.md" in done.stdout


def test_a_file_in_another_repository_gets_its_own_profile(tmp_path) -> None:
    here = git_init(tmp_path / "here")
    write(here, "warmup.yaml", "identity:\n  project: here\n")
    git(here, "add", "-A")
    there = git_init(tmp_path / "there")
    target = write(there, "CLAUDE.md", LONG)
    git(there, "add", "-A")
    done = validate(here, "-v", target)
    assert done.returncode == 0, done.stdout  # `there` does not follow the protocol
    assert f"profile generic for {target} (no Asimov protocol file" in done.stdout
    write(there, "warmup.yaml", "identity:\n  project: there\n")
    git(there, "add", "-A")
    done = validate(here, "-v", target)
    assert done.returncode == 1, done.stdout
    warmup = str(tmp_path / "there" / "warmup.yaml")
    assert (
        f"profile asimov for {target} (the repository follows the Asimov protocol: {warmup};"
        in done.stdout
    )
    # and from a working directory in no repository at all, the same answer
    assert validate(str(tmp_path), target).returncode == 1
