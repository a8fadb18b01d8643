"""Smaller defects, each with its regression test: the merge driver's pending archive
items are never skipped silently when their file is damaged or oversized; a comment in
an empty object of Gemini's settings.json survives agent install + uninstall; `init`
keeps a CRLF .pre-commit-config.yaml CRLF."""

from __future__ import annotations

import os

import pytest
from conftest import git_init, run_script, write

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"
PENDING = ".git/asimov-hooks/merge-archive.json"
CHECKPOINT = "milestone: m\nstatus: in_progress\ncompleted:\n  - a\n  - b\n"


def damaged(repo: str, how: str) -> bytes:
    path = os.path.join(repo, PENDING)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if how == "oversized":  # sparse: 17 MiB of nothing, over the 16 MiB the file may hold
        with open(path, "wb") as fh:
            fh.truncate(17 * 1024 * 1024)
        return b""
    content = {
        "not JSON": b'{"entries": [ {"checkpoint": ".claude_checkpoint.yaml", ',
        "not UTF-8": b'{"entries": ["\xff\xfe"]}\n',
        "no entries": b'{"items": []}\n',
    }[how]
    with open(path, "wb") as fh:
        fh.write(content)
    return content


@pytest.mark.parametrize("how", ["not JSON", "not UTF-8", "no entries", "oversized"])
@pytest.mark.parametrize(
    "command", [("asimov-hooks", "trim", CP), ("asimov-validate", "--fix", CP)]
)
def test_a_damaged_pending_merge_archive_is_reported(tmp_path, how: str, command) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, CP, CHECKPOINT)
    content = damaged(repo, how)
    done = run_script(*command, cwd=repo)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "Traceback" not in said and "internal error" not in said
    lines = [line for line in said.splitlines() if "merge-archive.json" in line]
    assert len(lines) == 1, said
    assert "merge-archive.json is " in lines[0] and "move it away" in lines[0], lines[0]
    assert "\xff" not in said
    path = os.path.join(repo, PENDING)
    if how == "oversized":
        assert os.path.getsize(path) == 17 * 1024 * 1024  # left as it was
    else:
        with open(path, "rb") as fh:
            assert fh.read() == content  # never overwritten
    # moved away: the next trim runs clean
    os.rename(path, path + ".bak")
    again = run_script(*command, cwd=repo)
    assert "merge-archive.json" not in again.stdout + again.stderr


GEMINI_SETTINGS = [
    '{\n  "hooks": {\n    // my hooks go here\n  },\n  "ui": { /* theme */ }\n}\n',
    '{\r\n  "hooks": {\r\n    /* later */\r\n  }\r\n}\r\n',
    '{\n  "hooks": { // none yet\n  }\n}\n',
    '{ "hooks": { /* none */ } }\n',
    "{\n  // only a comment\n}\n",
]


@pytest.mark.parametrize("settings", GEMINI_SETTINGS)
def test_a_comment_in_an_empty_object_survives_install_and_uninstall(tmp_path, settings) -> None:
    repo = git_init(tmp_path / "repo")
    path = write(repo, ".gemini/settings.json", settings.encode())
    done = run_script("asimov-hooks", "agent", "install", "--agent", "gemini", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(path, encoding="utf-8", newline="") as fh:
        installed = fh.read()
    assert "agent-event --agent gemini" in installed
    for comment in ("// my hooks go here", "/* later */", "// none yet", "/* none */"):
        if comment in settings:
            assert comment in installed  # kept while installed too
    done = run_script("asimov-hooks", "agent", "uninstall", "--agent", "gemini", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(path, "rb") as fh:
        assert fh.read() == settings.encode()


# ------------------------------------------------------------------ init and CRLF
PIECES = [
    "---", "# comment", "", "   ", "default_install_hook_types: [pre-commit]",
    "default_install_hook_types:\n  - pre-commit", "repos:",
    "  - repo: https://github.com/x/y\n    rev: v1\n    hooks:\n      - id: a",
    "  - repo: local\n    hooks:\n      - id: b\n        name: b\n        entry: |\n"
    "          multi\n          line\n        language: system",
    "  # indented comment", "fail_fast: true", "exclude: |\n  (?x)^(\n    a\n  )$",
    "default_stages: [pre-commit]", "repos: []", "ci:\n  skip: [a]",
    "  - repo: https://github.com/o/asimov-hooks\n    rev: v1\n    hooks:\n      - id: asimov-validate",
]  # fmt: skip


def test_init_keeps_a_crlf_config_crlf_whatever_its_shape() -> None:
    """Every generated CRLF config `init` can extend comes back CRLF, every line."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from asimov_hooks.adoption.plan import hooks_for, install_types
    from asimov_hooks.adoption.precommit import SpliceError, extend
    from asimov_hooks.adoption.source import hook_entries

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=6), st.booleans(), st.booleans())
    def check(pieces: list[str], final_newline: bool, remote: bool) -> None:
        text = "\n".join(pieces) + ("\n" if final_newline else "")
        crlf = text.replace("\n", "\r\n")
        repo = "https://github.com/o/asimov-hooks" if remote else "local"
        ids = hooks_for({"asimov"}, merge_driver=remote)
        try:
            new, _ = extend(crlf, repo, "v1" if remote else None, hook_entries(repo, ids),
                            install_types(ids))  # fmt: skip
        except SpliceError:
            return
        if "\r\n" in crlf:
            assert new.count("\n") == new.count("\r\n"), (crlf, new)

    check()
