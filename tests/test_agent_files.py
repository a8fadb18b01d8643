"""Other agents' instruction files: the limits their loaders apply, through the console scripts."""

from __future__ import annotations

import json
import os

import pytest
from conftest import ROOT, git_init, run_script, write

from asimov_hooks.config.config import Config, default_data


@pytest.fixture
def repo(tmp_path) -> str:
    return git_init(tmp_path / "repo")


def run(repo: str, *paths: str, script: str = "asimov-validate"):
    proc = run_script(script, "--format", "json", *paths, cwd=repo)
    assert proc.returncode in (0, 1), proc.stderr
    out = json.loads(proc.stdout)
    found = [f for res in out["files"] for f in res["findings"]]
    return proc.returncode, found, {res["path"]: res["kind"] for res in out["files"]}


def at(text: str, line: int, col: int) -> str:
    """The text from 1-based (line, col) on."""
    return text.split("\n")[line - 1][col - 1 :]


def test_kinds_for_every_agent_file() -> None:
    config = Config(default_data(), None, ROOT)
    assert config.kind_for("AGENTS.md") == "agents-md"
    assert config.kind_for("pkg/sub/AGENTS.md") == "agents-md"
    assert config.kind_for("AGENTS.override.md") == "agents-md"
    assert config.kind_for("GEMINI.md") == "gemini-md"
    assert config.kind_for(".github/copilot-instructions.md") == "copilot-instructions"
    assert config.kind_for(".github/instructions/py.instructions.md") == "copilot-instructions"
    assert config.kind_for(".github/instructions/api/py.instructions.md") == "copilot-instructions"
    assert config.kind_for(".cursor/rules/style.mdc") == "cursor-rule"
    assert config.kind_for(".cursor/rules/team/style.mdc") == "cursor-rule"
    assert config.kind_for("web/.cursor/rules/style.mdc") == "cursor-rule"
    assert config.kind_for("copilot-instructions.md") is None
    assert config.kind_for("docs/style.mdc") is None


# ------------------------------------------------------------------ Copilot: 4,000 characters
def test_copilot_characters_past_4000(repo) -> None:
    text = "# Review rules\n" + "".join(f"- rule number {i:04d}\n" for i in range(300))
    write(repo, ".github/copilot-instructions.md", text)
    code, found, kinds = run(repo, ".github/copilot-instructions.md")
    assert code == 0  # a warning
    assert kinds == {".github/copilot-instructions.md": "copilot-instructions"}
    [f] = found
    assert (f["rule"], f["level"]) == ("max-chars", "warning")
    assert at(text, f["line"], f["col"]) and text.index(at(text, f["line"], f["col"])) >= 0
    # the reported position is the 4,001st character
    offset = sum(len(x) + 1 for x in text.split("\n")[: f["line"] - 1]) + f["col"] - 1
    assert offset == 4000
    assert "characters after 4,000 are dropped by Copilot code review" in f["message"]
    dropped = len(text) - 4000
    assert f"{dropped:,} characters" in f["message"]
    assert f"~{-(-dropped // 3):,} tokens, estimated as characters/3" in f["message"]


def test_copilot_exactly_4000_is_fine(repo) -> None:
    write(repo, ".github/copilot-instructions.md", "x" * 3999 + "\n")
    assert run(repo, ".github/copilot-instructions.md")[:2] == (0, [])


def test_characters_counted_as_javascript_counts_them(repo) -> None:
    """An emoji is two UTF-16 code units: 2,000 of them fill the 4,000 characters."""
    text = "\U0001f600" * 2000 + "tail\n"
    write(repo, ".github/instructions/a.instructions.md", text)
    _, [f], _ = run(repo, ".github/instructions/a.instructions.md")
    assert (f["line"], f["col"]) == (1, 2001)
    assert f["message"].startswith("4,005 characters;")


# ------------------------------------------------------------------ Codex: shared 32 KiB
def test_agents_md_alone_over_32_kib(repo) -> None:
    text = "".join(f"line {i:05d}\n" for i in range(3000))  # 11 bytes a line
    write(repo, "AGENTS.md", text)
    code, [f], _ = run(repo, "AGENTS.md")
    assert code == 1
    assert (f["rule"], f["level"]) == ("shared-byte-budget", "error")
    assert (f["line"], f["col"]) == (32768 // 11 + 1, 32768 % 11 + 1)
    assert f["message"].startswith(f"{len(text):,} bytes; bytes after 32,768 are dropped by Codex")


def test_agents_md_files_on_a_path_share_the_budget(repo) -> None:
    write(repo, "AGENTS.md", "r" * 29999 + "\n")
    write(repo, "svc/AGENTS.md", "# svc\n" + "s" * 5000 + "\n")
    write(repo, "other/AGENTS.md", "# other\n")
    code, found, _ = run(repo, "AGENTS.md", "svc/AGENTS.md", "other/AGENTS.md")
    assert code == 1
    [f] = found
    assert f["path"] == "svc/AGENTS.md"
    # 30,000 bytes above it: the first 2,768 bytes of svc/AGENTS.md are read
    assert (f["line"], f["col"]) == (2, 2768 - 6 + 1)
    assert "AGENTS.md 30,000 bytes" in f["message"]


def test_agents_md_after_the_budget_is_used_up(repo) -> None:
    write(repo, "AGENTS.md", "r" * 40000 + "\n")
    write(repo, "a/b/AGENTS.md", "# deep\n")
    code, found, _ = run(repo, "a/b/AGENTS.md")
    assert code == 1
    [f] = found
    assert (f["line"], f["col"]) == (1, 1)
    assert "drops all of this file" in f["message"]


def test_agents_override_replaces_agents_md(repo) -> None:
    write(repo, "AGENTS.md", "# main\n")
    write(repo, "AGENTS.override.md", "# local\n")
    code, found, _ = run(repo, "AGENTS.md", "AGENTS.override.md")
    assert code == 1
    assert [(f["path"], f["line"]) for f in found] == [("AGENTS.md", 1)]
    assert "reads AGENTS.override.md in this directory instead" in found[0]["message"]


def test_agents_budget_with_a_multibyte_cut(repo) -> None:
    text = "ab" + "é" * 20000 + "\n"  # 2 + 40,000 bytes: byte 32,768 is inside an é
    write(repo, "AGENTS.md", text)
    _, [f], _ = run(repo, "AGENTS.md")
    assert (f["line"], f["col"]) == (1, 2 + (32768 - 2) // 2 + 1)


def test_agents_budget_is_configurable(repo) -> None:
    write(repo, "AGENTS.md", "x" * 40000 + "\n")
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  agents-md:\n    rules:\n      shared-byte-budget: {max: 65536}\n",
    )
    assert run(repo, "AGENTS.md")[:2] == (0, [])


def test_agents_budget_in_the_size_hook(repo) -> None:
    write(repo, "AGENTS.md", "x" * 40000 + "\n")
    proc = run_script("asimov-check-size", "AGENTS.md", cwd=repo)
    assert proc.returncode == 1
    assert "AGENTS.md:1:32769: error shared-byte-budget" in proc.stdout


# ------------------------------------------------------------------ Cursor: 500 lines
def test_cursor_rule_over_500_lines(repo) -> None:
    text = "---\ndescription: style\nalwaysApply: true\n---\n" + "- rule\n" * 497
    write(repo, ".cursor/rules/style.mdc", text)
    code, [f], _ = run(repo, ".cursor/rules/style.mdc")
    assert code == 0
    assert (f["rule"], f["level"], f["line"]) == ("max-lines-soft", "warning", 501)
    assert "500" in f["message"]
    write(repo, ".cursor/rules/ok.mdc", "- rule\n" * 500)
    assert run(repo, ".cursor/rules/ok.mdc")[:2] == (0, [])


def test_cursor_rule_suppressed_in_markdown(repo) -> None:
    text = "<!-- asimov-hooks: disable-file max-lines-soft -- generated -->\n" + "- rule\n" * 600
    write(repo, ".cursor/rules/gen.mdc", text)
    assert run(repo, ".cursor/rules/gen.mdc")[:2] == (0, [])


# ------------------------------------------------------------------ Claude Code and Gemini
def test_claude_md_startup_warning_at_40000_characters(repo) -> None:
    text = "# CLAUDE.md\n" + "x" * 40000 + "\n"
    write(repo, ".asimov-hooks.yaml", "kinds:\n  claude-md:\n    rules: {max-tokens: off}\n")
    write(repo, "CLAUDE.md", text)
    code, [f], _ = run(repo, "CLAUDE.md")
    assert code == 0
    assert (f["rule"], f["level"], f["line"], f["col"]) == ("max-chars", "warning", 2, 39989)
    assert "Claude Code warn at start-up" in f["message"]
    assert "not seen" not in f["message"]  # Claude Code warns; it does not cut


def test_claude_md_line_limits_stay_the_default(repo) -> None:
    write(repo, "CLAUDE.md", "".join(f"- {i}\n" for i in range(16)))
    _, found, _ = run(repo, "CLAUDE.md")
    assert [f["rule"] for f in found] == ["max-lines-hard"]


def test_gemini_md_is_checked_but_has_no_published_limit(repo) -> None:
    write(repo, "GEMINI.md", "# Gemini\n" + "text\n" * 20000)
    code, found, kinds = run(repo, "GEMINI.md")
    assert (code, found, kinds) == (0, [], {"GEMINI.md": "gemini-md"})
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  gemini-md:\n    rules:\n      max-tokens: {level: warning, max: 8000}\n",
    )
    _, [f], _ = run(repo, "GEMINI.md")
    assert f["rule"] == "max-tokens" and "estimated as characters/3" in f["message"]


def test_token_ratio_per_kind_is_configurable(repo) -> None:
    write(repo, "GEMINI.md", "x" * 1000 + "\n")
    write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  gemini-md:\n    token-estimator: {divisor: 2}\n"
        "    rules:\n      max-tokens: {level: warning, max: 10}\n",
    )
    _, [f], _ = run(repo, "GEMINI.md")
    assert "~501 tokens" in f["message"] and "characters/2" in f["message"]


def test_directory_search_finds_agent_files(repo) -> None:
    write(repo, "AGENTS.md", "# ok\n")
    write(repo, ".github/copilot-instructions.md", "# ok\n")
    write(repo, ".cursor/rules/a.mdc", "# ok\n")
    write(repo, "GEMINI.md", "# ok\n")
    code, found, kinds = run(repo, ".")
    assert code == 0 and found == []
    assert set(kinds.values()) == {"agents-md", "copilot-instructions", "cursor-rule", "gemini-md"}


def test_examples_have_sources_in_docs() -> None:
    with open(os.path.join(ROOT, "docs", "agents.md"), encoding="utf-8") as fh:
        doc = fh.read()
    for needle in ("project_doc_max_bytes", "4,000", "500 lines", "40,000", "GEMINI.md"):
        assert needle in doc


@pytest.mark.slow
def test_try_repo_size_hook_on_agent_files(head_clone, pre_commit_store, repo, tmp_path) -> None:
    """The asimov-size hook under the real pre-commit picks the new kinds by its `files`."""
    from conftest import git, try_repo

    write(repo, "AGENTS.md", "x" * 40000 + "\n")
    write(
        repo,
        ".cursor/rules/gen.mdc",
        "<!-- asimov-hooks: disable-file max-lines-soft -->\n" + "- r\n" * 600,
    )
    write(repo, "notes.md", "y" * 50000 + "\n")
    git(repo, "add", "-A")
    proc = try_repo(head_clone, "asimov-size", "--all-files", cwd=repo, store=pre_commit_store)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "AGENTS.md:1:32769: error shared-byte-budget" in proc.stdout
    # its directive silenced the limit: checked, valid, and so not listed (a clean file
    # is named only with -v)
    assert "2 files checked: 1 valid, 0 with warnings, 1 with errors" in proc.stdout
    assert ".cursor/rules/gen.mdc" not in proc.stdout
    assert "notes.md" not in proc.stdout  # not an instruction file: not passed to the hook


def test_shipped_examples(tmp_path) -> None:
    """examples/agent-files: the good files pass clean, each bad file fails its rule."""
    base = os.path.join(ROOT, "examples", "agent-files")
    proc = run_script("asimov-validate", "--format", "json", "good", cwd=base)
    assert proc.returncode == 0, proc.stdout
    doc = json.loads(proc.stdout)
    assert [f for res in doc["files"] for f in res["findings"]] == []
    assert {res["kind"] for res in doc["files"]} == {
        "agents-md",
        "gemini-md",
        "copilot-instructions",
        "cursor-rule",
    }
    proc = run_script("asimov-validate", "--format", "json", "bad", cwd=base)
    assert proc.returncode == 1, proc.stdout
    fired = {
        (res["path"], f["rule"])
        for res in json.loads(proc.stdout)["files"]
        for f in res["findings"]
    }
    assert fired == {
        ("bad/AGENTS.md", "invalid-suppression"),
        ("bad/.github/copilot-instructions.md", "max-chars"),
        ("bad/.cursor/rules/everything.mdc", "max-lines-soft"),
    }
