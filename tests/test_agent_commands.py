"""The `/checkpoint` command `asimov-hooks agent install` writes, in each agent's form:
Claude Code's project command, and the one skill in `.agents/skills/` that Codex CLI,
Cursor, Gemini CLI, Qwen Code and GitHub Copilot CLI all read. No agent sees two; the
command line the installed text runs works in Asimov-only, OC-only and mixed
repositories; older forms are brought up to date or taken out; the user's own file is
never clobbered; uninstall removes only unchanged files of ours. Whole processes in real
git repositories."""

from __future__ import annotations

import fnmatch
import os
import re
import shlex

import pytest
from conftest import (
    GOOD_CHECKPOINT,
    GOOD_WARMUP,
    ROOT,
    commit_all,
    git_init,
    run_script,
    write,
)
from test_agent_install_bytes import agent, get, put

SKILL = ".agents/skills/checkpoint/SKILL.md"
FILES = {
    "claude": ".claude/commands/checkpoint.md",
    "codex": SKILL,
    "cursor": SKILL,
    "gemini": SKILL,
    "qwen": SKILL,
    "copilot": SKILL,
}
AGENTS = sorted(FILES)
# where each agent looks for project commands and skills (its documentation)
READS = {
    "claude": [".claude/commands/*.md", ".claude/skills/*/SKILL.md"],
    "codex": [".agents/skills/*/SKILL.md"],
    "cursor": [
        ".cursor/commands/*.md",
        ".agents/skills/*/SKILL.md",
        ".cursor/skills/*/SKILL.md",
        ".claude/skills/*/SKILL.md",
        ".codex/skills/*/SKILL.md",
    ],
    "gemini": [".gemini/commands/*.toml", ".gemini/skills/*/SKILL.md", ".agents/skills/*/SKILL.md"],
    "qwen": [
        ".qwen/commands/*.md",
        ".qwen/commands/*.toml",
        ".qwen/skills/*/SKILL.md",
        ".agents/skills/*/SKILL.md",
    ],
    "copilot": [
        ".github/skills/*/SKILL.md",
        ".claude/skills/*/SKILL.md",
        ".agents/skills/*/SKILL.md",
    ],
}
OLD = os.path.join(ROOT, "tests", "data", "commands")  # texts earlier versions installed


def old(name: str) -> str:
    with open(os.path.join(OLD, name), encoding="utf-8") as fh:
        return fh.read()


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return git_init(tmp_path / "repo")


def files_of(repo: str) -> list[str]:
    found = []
    for base, dirs, names in os.walk(repo):
        dirs[:] = [d for d in dirs if d != ".git"]
        found += [os.path.relpath(os.path.join(base, n), repo) for n in names]
    return sorted(f.replace(os.sep, "/") for f in found)


def checkpoint_commands(repo: str, name: str) -> list[str]:
    """The files `name` would offer as a command called checkpoint."""
    return [
        rel
        for rel in files_of(repo)
        if any(fnmatch.fnmatch(rel, pattern) for pattern in READS[name])
        and re.search(r"(^|/)(commands/checkpoint\.[a-z]+|skills/checkpoint/SKILL\.md)$", rel)
    ]


def front(text: str) -> dict:
    from ruamel.yaml import YAML

    assert text.startswith("---\n")
    return YAML(typ="safe").load(text.split("---\n")[1])


# ------------------------------------------------------------------ the files
def test_claude_command_file(repo) -> None:
    proc = agent(repo, "install")
    assert proc.returncode == 0, proc.stderr
    assert ".claude/commands/checkpoint.md: added the /checkpoint command" in proc.stdout
    text = get(os.path.join(repo, FILES["claude"]))
    head = front(text)
    assert head["allowed-tools"] == "Bash(asimov-hooks checkpoint:*)"
    assert "Asimov checkpoint" in head["description"] and "reset SKILL" in head["argument-hint"]
    body = text.split("---\n", 2)[2]
    assert "Written by `asimov-hooks agent install`" in body
    assert "`asimov-hooks checkpoint $ARGUMENTS`" in body
    for word in ("status", "next", "doctor", "show", "reset", "list"):
        assert f"`{word}" in body
    assert not os.path.exists(os.path.join(repo, ".agents"))  # Claude Code does not read it


@pytest.mark.parametrize("name", [n for n in AGENTS if n != "claude"])
def test_the_shared_skill_names_no_prefix(repo, name: str) -> None:
    proc = agent(repo, "install", "--agent", name)
    assert proc.returncode == 0, proc.stderr
    assert f"{SKILL}: added the checkpoint skill (runs `asimov-hooks checkpoint`)" in proc.stdout
    text = get(os.path.join(repo, SKILL))
    head = front(text)
    assert head["name"] == "checkpoint" and "asimov-hooks checkpoint" in head["description"]
    # Codex types $checkpoint, the others /checkpoint: the one text names neither
    assert "$checkpoint" not in text and "/checkpoint" not in text
    assert "with the words that follow the command's name" in text


@pytest.mark.parametrize("name", AGENTS)
@pytest.mark.parametrize("order", ["alone", "all", "all-then-alone"])
def test_no_agent_sees_checkpoint_twice(repo, name: str, order: str) -> None:
    for which in {"alone": [name], "all": ["all"], "all-then-alone": ["all", name]}[order]:
        proc = agent(repo, "install", "--agent", which)
        assert proc.returncode == 0, proc.stderr
    assert checkpoint_commands(repo, name) == [FILES[name]]
    if order != "alone":
        for other in AGENTS:
            assert len(checkpoint_commands(repo, other)) == 1, other


def test_install_all_says_the_shared_skill_once(repo) -> None:
    proc = agent(repo, "install", "--agent", "all")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count(SKILL) == 1
    assert files_of(repo).count(SKILL) == 1


# ------------------------------------------------------------------ the command it runs
def _asimov(repo: str) -> None:
    write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n")
    commit_all(repo, "protocol")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)


def _oc(repo: str) -> None:
    assert run_script("asimov-hooks", "oc", "init", cwd=repo).returncode == 0
    assert run_script("asimov-hooks", "oc", "new", "alpha", cwd=repo).returncode == 0


def command_line(text: str, name: str, words: str) -> list[str]:
    """The shell command the installed text tells the agent to run for `words`."""
    runs = re.findall(r"Run `([^`]+)`", text)
    assert len(runs) == 1, text
    if name == "claude":
        return shlex.split(runs[0].replace("$ARGUMENTS", words))
    assert "with the words that follow the command's name" in text
    return shlex.split(runs[0]) + shlex.split(words)


@pytest.mark.parametrize("name", AGENTS)
@pytest.mark.parametrize("kind", ["asimov", "oc", "mixed"])
def test_the_installed_command_runs(repo, name: str, kind: str) -> None:
    if kind in ("asimov", "mixed"):
        _asimov(repo)
    if kind in ("oc", "mixed"):
        _oc(repo)
    assert agent(repo, "install", "--agent", name).returncode == 0
    text = get(os.path.join(repo, FILES[name]))
    for words in ("", "next"):
        argv = command_line(text, name, words)
        assert argv[:2] == ["asimov-hooks", "checkpoint"]
        done = run_script(*argv, cwd=repo)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        out = done.stdout
        assert ("Asimov checkpoint: .claude_checkpoint.yaml" in out) == (kind != "oc")
        assert ("alpha" in out) == (kind != "asimov")
        if kind != "oc" and not words:
            assert "size: 12 lines (soft limit 20, hard limit 30)" in out
            assert "check: no problems" in out and "trim: nothing to cut" in out
        if kind != "oc" and words == "next":
            assert "next: Task 10: release notes" in out
    assert "oc init" not in out  # the old command's only answer in an Asimov repository


# ------------------------------------------------------------------ older forms
@pytest.mark.parametrize(
    "name, rel, text",
    [
        ("cursor", ".cursor/commands/checkpoint.md", "cursor-checkpoint.md"),
        ("cursor", ".cursor/commands/checkpoint.md", "cursor-checkpoint-first.md"),
        ("gemini", ".gemini/commands/checkpoint.toml", "gemini-checkpoint.toml"),
    ],
)
def test_an_older_own_form_is_taken_out(repo, name: str, rel: str, text: str) -> None:
    put(repo, rel, old(text))
    put(repo, SKILL, old("codex-SKILL.md"))
    proc = agent(repo, "install", "--agent", name)
    assert proc.returncode == 0, proc.stderr
    assert f"{rel}: removed the older /checkpoint command" in proc.stdout
    assert f"{SKILL}: brought the checkpoint skill up to date" in proc.stdout
    assert not os.path.exists(os.path.join(repo, rel))
    assert checkpoint_commands(repo, name) == [SKILL]
    assert "$checkpoint" not in get(os.path.join(repo, SKILL))


def test_an_older_claude_command_is_brought_up_to_date(repo) -> None:
    path = put(repo, FILES["claude"], old("claude-checkpoint.md"))
    proc = agent(repo, "install")
    assert proc.returncode == 0, proc.stderr
    assert "brought the /checkpoint command up to date" in proc.stdout
    assert "`asimov-hooks checkpoint $ARGUMENTS`" in get(path)


def test_uninstall_takes_an_older_form_out_too(repo) -> None:
    assert agent(repo, "install", "--agent", "gemini").returncode == 0
    put(repo, ".gemini/commands/checkpoint.toml", old("gemini-checkpoint.toml"))
    proc = agent(repo, "uninstall", "--agent", "gemini")
    assert proc.returncode == 0, proc.stderr
    assert ".gemini/commands/checkpoint.toml: removed the /checkpoint command an earlier" in (
        proc.stdout
    )
    assert files_of(repo) == []


@pytest.mark.parametrize("edit", ["mine", "edited"])
def test_users_own_cursor_command_is_kept_and_the_duplicate_said(repo, edit: str) -> None:
    text = "Summarise my progress.\n" if edit == "mine" else old("cursor-checkpoint.md") + "x\n"
    path = put(repo, ".cursor/commands/checkpoint.md", text)
    proc = agent(repo, "install", "--agent", "cursor")
    assert proc.returncode == 1, proc.stdout
    assert "Cursor also lists the skill in .agents/skills/checkpoint/SKILL.md, so it would" in (
        proc.stderr
    )
    assert get(path) == text
    proc = agent(repo, "uninstall", "--agent", "cursor")
    assert proc.returncode == 0 and get(path) == text


# ------------------------------------------------------------------ never clobbered
@pytest.mark.parametrize("name", ["claude", "codex"])
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


# ------------------------------------------------------------------ uninstall
def test_the_shared_skill_stays_while_another_agent_reads_it(repo) -> None:
    for name in ("codex", "cursor"):
        assert agent(repo, "install", "--agent", name).returncode == 0
    proc = agent(repo, "uninstall", "--agent", "cursor")
    assert proc.returncode == 0, proc.stderr
    assert f"{SKILL}: kept: Codex CLI still reads it (its hooks stay)" in proc.stdout
    assert os.path.exists(os.path.join(repo, SKILL))
    proc = agent(repo, "uninstall", "--agent", "codex")
    assert f"{SKILL}: removed the checkpoint skill" in proc.stdout
    assert files_of(repo) == []


def test_uninstall_all_leaves_the_tree_byte_identical(repo) -> None:
    mine = {
        ".gemini/settings.json": '{"theme": "GitHub"}\n',
        ".agents/skills/review/SKILL.md": "---\nname: review\ndescription: mine\n---\nReview.\n",
        ".cursor/rules/style.mdc": "---\nalwaysApply: true\n---\nBe brief.\n",
        ".claude/commands/deploy.md": "Deploy it.\n",
    }
    for rel, text in mine.items():
        put(repo, rel, text)
    before = {rel: get(os.path.join(repo, rel)) for rel in files_of(repo)}
    assert agent(repo, "install", "--agent", "all").returncode == 0
    assert agent(repo, "uninstall", "--agent", "all").returncode == 0
    assert {rel: get(os.path.join(repo, rel)) for rel in files_of(repo)} == before


def test_symlinked_skills_dir_out_of_the_repo(repo, tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.makedirs(os.path.join(repo, ".agents"))
    os.symlink(outside, os.path.join(repo, ".agents", "skills"))
    proc = agent(repo, "install", "--agent", "cursor")
    assert proc.returncode == 1 and "outside the repository" in proc.stderr
    assert os.listdir(outside) == []


def test_local_scope_writes_no_command(repo) -> None:
    proc = agent(repo, "install", "--scope", "local")
    assert proc.returncode == 0 and "project file" in proc.stdout
    assert not os.path.exists(os.path.join(repo, ".claude", "commands"))


# ------------------------------------------------------------------ doctor
def test_doctor_reports_the_command(repo) -> None:
    assert agent(repo, "install", "--agent", "cursor").returncode == 0
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert f"{SKILL}: checkpoint skill present" in proc.stdout
    os.remove(os.path.join(repo, SKILL))
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert f"warn {SKILL}: no checkpoint skill" in proc.stdout
    put(repo, SKILL, old("codex-SKILL.md"))
    put(repo, ".cursor/commands/checkpoint.md", old("cursor-checkpoint.md"))
    proc = run_script("asimov-hooks", "doctor", cwd=repo)
    assert f"warn {SKILL}: checkpoint skill of an earlier version" in proc.stdout
    assert "warn .cursor/commands/checkpoint.md: a second /checkpoint beside" in proc.stdout


@pytest.mark.parametrize(
    "rel, text",
    [
        (FILES["claude"], "claude-checkpoint-before-stats.md"),
        (SKILL, "SKILL-before-stats.md"),
    ],
)
def test_the_command_without_stats_is_brought_up_to_date(repo, rel: str, text: str) -> None:
    """The files the previous version wrote (without the `stats` word) are ours."""
    path = put(repo, rel, old(text))
    proc = agent(repo, "install", "--agent", "claude" if rel == FILES["claude"] else "codex")
    assert proc.returncode == 0, proc.stderr
    assert "up to date" in proc.stdout
    assert "`stats` (what the hooks recorded" in get(path)
