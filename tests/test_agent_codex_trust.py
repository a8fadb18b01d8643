"""Codex CLI runs a project hook only when the project is trusted and the hook's
content hash is recorded as trusted in `$CODEX_HOME/config.toml` (set by reviewing it
in `/hooks`); otherwise it skips the hook without a word. `asimov-hooks agent install
--agent codex` and `asimov-hooks doctor` say so and check it, as whole processes with
a `CODEX_HOME` of the test's own."""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from conftest import git_init, run_script

from asimov_hooks.agent.install.guard import guarded

COMMAND = guarded("asimov-hooks agent-event --agent codex", "codex")  # what install writes
LABEL = {
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "SessionStart": "session_start",
    "Stop": "stop",
    "UserPromptSubmit": "user_prompt_submit",
    "PreCompact": "pre_compact",
}


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return os.path.realpath(git_init(tmp_path / "repo"))


@pytest.fixture
def home(tmp_path) -> str:
    path = tmp_path / "codex-home"
    path.mkdir()
    return str(path)


def run(repo: str, home: str, *args: str):
    proc = run_script("asimov-hooks", *args, cwd=repo, CODEX_HOME=home)
    assert "Traceback" not in proc.stderr
    return proc


def expected_hash(event: str, matcher: str | None) -> str:
    """Codex's trust hash as its source describes it: SHA-256 of the compact,
    key-sorted JSON of {event_name, matcher (not for Stop / UserPromptSubmit), hooks:
    [the hook with its timeout defaulted to 600 and async to false]}."""
    identity: dict = {
        "event_name": LABEL[event],
        "hooks": [{"type": "command", "command": COMMAND, "timeout": 600, "async": False}],
    }
    if matcher is not None and event not in ("Stop", "UserPromptSubmit"):
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def trust(repo: str, home: str, *, project: bool = True, tamper: str | None = None) -> None:
    """Write config.toml as Codex does after the project and every hook are trusted."""
    hooks_file = os.path.join(repo, ".codex", "hooks.json")
    with open(hooks_file, encoding="utf-8") as fh:
        hooks = json.load(fh)["hooks"]
    lines = ['model = "gpt-5"', ""]
    if project:
        lines += [f'[projects."{repo}"]', 'trust_level = "trusted"', ""]
    for event, groups in hooks.items():
        for gi, group in enumerate(groups):
            for hi, hook in enumerate(group["hooks"]):
                if hook["command"] != COMMAND:
                    continue
                digest = expected_hash(event, group.get("matcher"))
                if event == tamper:
                    digest = "sha256:" + "0" * 64
                lines += [
                    f'[hooks.state."{hooks_file}:{LABEL[event]}:{gi}:{hi}"]',
                    f'trusted_hash = "{digest}"',
                    "",
                ]
    with open(os.path.join(home, "config.toml"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))


def test_install_says_codex_needs_the_hooks_trusted(repo, home) -> None:
    proc = run(repo, home, "agent", "install", "--agent", "codex")
    assert proc.returncode == 0, proc.stderr
    assert "/hooks" in proc.stdout
    assert "has not trusted the asimov-hooks hooks for PreToolUse" in proc.stdout
    assert "does not trust this project yet" in proc.stdout


def test_doctor_reports_untrusted_then_trusted(repo, home) -> None:
    assert run(repo, home, "agent", "install", "--agent", "codex").returncode == 0
    before = run(repo, home, "doctor").stdout
    assert "has not trusted the asimov-hooks hooks" in before and "/hooks" in before
    trust(repo, home)
    after = run(repo, home, "doctor").stdout
    assert "Codex CLI trusts every asimov-hooks hook" in after
    assert "has not trusted" not in after and "does not trust this project" not in after


def test_doctor_reports_a_hook_changed_since_it_was_trusted(repo, home) -> None:
    assert run(repo, home, "agent", "install", "--agent", "codex").returncode == 0
    trust(repo, home, tamper="Stop")
    out = run(repo, home, "doctor").stdout
    assert "for Stop does not match" in out
    assert "Codex CLI trusts every" not in out


def test_doctor_reports_an_untrusted_project(repo, home) -> None:
    assert run(repo, home, "agent", "install", "--agent", "codex").returncode == 0
    trust(repo, home, project=False)
    out = run(repo, home, "doctor").stdout
    assert "does not trust this project yet" in out


def test_unreadable_codex_config_is_one_line_not_a_failure(repo, home) -> None:
    assert run(repo, home, "agent", "install", "--agent", "codex").returncode == 0
    with open(os.path.join(home, "config.toml"), "w", encoding="utf-8") as fh:
        fh.write("[hooks.state\nbroken = \n")
    proc = run(repo, home, "doctor")
    assert "cannot tell whether Codex trusts our hooks" in proc.stdout
