"""The `/checkpoint` project command `asimov-hooks agent install` writes (Claude Code,
Gemini CLI, Cursor): its content, never clobbering the user's own file, and uninstall
removing only an unchanged one of ours. Whole processes in real git repositories."""

from __future__ import annotations

import os

import pytest
from conftest import git_init
from test_agent_install_bytes import agent, get, put

FILES = {
    "claude": ".claude/commands/checkpoint.md",
    "gemini": ".gemini/commands/checkpoint.toml",
    "cursor": ".cursor/commands/checkpoint.md",
    "codex": ".agents/skills/checkpoint/SKILL.md",
}


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return git_init(tmp_path / "repo")


def test_claude_command_file(repo) -> None:
    from ruamel.yaml import YAML

    proc = agent(repo, "install")
    assert proc.returncode == 0, proc.stderr
    assert ".claude/commands/checkpoint.md: added the /checkpoint command" in proc.stdout
    text = get(os.path.join(repo, FILES["claude"]))
    assert text.startswith("---\n")
    front = YAML(typ="safe").load(text.split("---\n")[1])
    assert front["allowed-tools"] == "Bash(asimov-hooks oc:*)"
    assert "status" in front["description"] and "list" in front["argument-hint"]
    body = text.split("---\n", 2)[2]
    assert "Written by `asimov-hooks agent install`" in body
    assert "`asimov-hooks oc $ARGUMENTS`" in body and "`asimov-hooks oc status`" in body
    for word in ("status", "next", "doctor", "show", "reset", "list"):
        assert f"`{word}" in body


def test_gemini_command_file_is_toml_with_args(repo) -> None:
    tomllib = pytest.importorskip("tomllib")
    assert agent(repo, "install", "--agent", "gemini").returncode == 0
    with open(os.path.join(repo, FILES["gemini"]), "rb") as fh:
        data = tomllib.load(fh)
    assert sorted(data) == ["description", "prompt"]
    assert "`asimov-hooks oc {{args}}`" in data["prompt"]


def test_cursor_command_file(repo) -> None:
    assert agent(repo, "install", "--agent", "cursor").returncode == 0
    text = get(os.path.join(repo, FILES["cursor"]))
    assert text.startswith("<!-- Written by `asimov-hooks agent install`")
    assert "the words the user typed after /checkpoint as its arguments" in text


def test_codex_gets_a_repository_skill(repo) -> None:
    from ruamel.yaml import YAML

    proc = agent(repo, "install", "--agent", "codex")
    assert proc.returncode == 0, proc.stderr
    assert ".agents/skills/checkpoint/SKILL.md: added the $checkpoint skill" in proc.stdout
    text = get(os.path.join(repo, FILES["codex"]))
    front = YAML(typ="safe").load(text.split("---\n")[1])
    assert front["name"] == "checkpoint" and "$checkpoint" in front["description"]
    assert "after $checkpoint as its arguments" in text
    proc = agent(repo, "uninstall", "--agent", "codex")
    assert "removed the $checkpoint skill" in proc.stdout
    assert sorted(os.listdir(repo)) == [".git"]  # .agents/skills/checkpoint and up: gone


@pytest.mark.parametrize("name", sorted(FILES))
def test_users_own_command_is_never_clobbered(repo, name: str) -> None:
    mine = "Summarise my progress so far.\n"
    path = put(repo, FILES[name], mine)
    proc = agent(repo, "install", "--agent", name)
    assert proc.returncode == 1, proc.stdout
    assert f"{FILES[name]} exists and is not the asimov-hooks " in proc.stderr
    assert "agent-event" in proc.stdout  # the hooks are in all the same
    assert get(path) == mine
    proc = agent(repo, "uninstall", "--agent", name)
    assert proc.returncode == 0 and "checkpoint" not in proc.stdout + proc.stderr
    assert get(path) == mine


def test_edited_command_is_kept_and_said(repo) -> None:
    assert agent(repo, "install").returncode == 0
    path = os.path.join(repo, FILES["claude"])
    edited = get(path) + "Also mention the branch.\n"
    put(repo, FILES["claude"], edited)
    proc = agent(repo, "install")
    assert proc.returncode == 1 and "was edited since asimov-hooks installed it" in proc.stderr
    proc = agent(repo, "uninstall")
    assert proc.returncode == 0
    assert f"{FILES['claude']} was edited since install; left as it is" in proc.stderr
    assert get(path) == edited
    assert not os.path.exists(os.path.join(repo, ".claude", "settings.json"))


def test_uninstall_removes_command_and_created_dirs_only(repo) -> None:
    put(repo, ".gemini/settings.json", '{"theme": "GitHub"}\n')
    assert agent(repo, "install", "--agent", "gemini").returncode == 0
    proc = agent(repo, "uninstall", "--agent", "gemini")
    assert "removed the /checkpoint command" in proc.stdout
    assert sorted(os.listdir(os.path.join(repo, ".gemini"))) == ["settings.json"]
    assert get(os.path.join(repo, ".gemini/settings.json")) == '{"theme": "GitHub"}\n'


def test_symlinked_commands_dir_out_of_the_repo(repo, tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.makedirs(os.path.join(repo, ".cursor"))
    os.symlink(outside, os.path.join(repo, ".cursor", "commands"))
    proc = agent(repo, "install", "--agent", "cursor")
    assert proc.returncode == 1 and "outside the repository" in proc.stderr
    assert os.listdir(outside) == []


def test_local_scope_writes_no_command(repo) -> None:
    proc = agent(repo, "install", "--scope", "local")
    assert proc.returncode == 0 and "project file" in proc.stdout
    assert not os.path.exists(os.path.join(repo, ".claude", "commands"))


def test_doctor_reports_the_command(repo) -> None:
    from conftest import run_script

    assert agent(repo, "install", "--agent", "cursor").returncode == 0
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert ".cursor/commands/checkpoint.md: /checkpoint command present" in proc.stdout
    os.remove(os.path.join(repo, FILES["cursor"]))
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert "warn .cursor/commands/checkpoint.md: no /checkpoint command" in proc.stdout
