"""Output that cannot be forged: a path or value from the repository is escaped for the
format it is printed in. A directory named `x\\n::error file=...::` must not print a
GitHub annotation line of its own, and a checkpoint value holding terminal escape
sequences must not reach the terminal. Every command runs as its own process."""

from __future__ import annotations

import os

import pytest
from conftest import commit_all, git, git_init, oc_checkpoint, run_script, write

pytestmark = pytest.mark.usefixtures("isolated_home")

FORGED = "x\n::error file=forged.py,line=1::FORGED\n\x1b[31mred\r"
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[1;1H\x9b31m"
BAD = 'milestone: "m"\nstatus: bogus\ncompleted:\n' + "".join(
    f'  - "Task {i}"\n' for i in range(30)
)


def hostile_repo(tmp_path) -> str:
    repo = git_init(tmp_path / "repo")
    write(repo, f"{FORGED}/.claude_checkpoint.yaml", BAD)
    write(repo, f"{FORGED}/CLAUDE.md", "# hi\n" + "line\n" * 40)
    return repo


def assert_unforged(done, github: bool = False) -> None:
    text = done.stdout + done.stderr
    assert "Traceback" not in text
    assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text
    for line in text.splitlines():
        assert "FORGED" not in line or not line.startswith("::error file=forged"), line
        if github and line.startswith("::"):
            assert "\r" not in line


COMMANDS = [
    ("asimov-validate", "."),
    ("asimov-validate", "--format", "text", "."),
    ("asimov-validate", "--format", "github", "."),
    ("asimov-hooks", "validate", "--format", "github", "."),
    ("asimov-hooks", "trim", "--dry-run", "--diff", "."),
    ("asimov-hooks", "trim", "."),
    ("asimov-hooks", "doctor"),
    ("asimov-hooks", "install"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_directory_name_cannot_forge_an_annotation(tmp_path, command) -> None:
    repo = hostile_repo(tmp_path)
    done = run_script(*command, cwd=repo, GITHUB_ACTIONS="true")
    assert_unforged(done, github=True)
    assert (
        "x\\n::error file=forged.py" in done.stdout + done.stderr
        or "x%0A" in (done.stdout + done.stderr)
        or command[-1] in ("doctor", "install")
    )


def test_github_annotations_escape_the_path_as_a_property(tmp_path) -> None:
    repo = hostile_repo(tmp_path)
    done = run_script("asimov-validate", "--format", "github", ".", cwd=repo)
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::")]
    assert annotations
    for line in annotations:
        assert line.startswith("::error file=x%0A%3A%3Aerror file=forged.py%2Cline=1%3A%3AFORGED")


def test_ephemeral_shows_control_characters(tmp_path) -> None:
    repo = hostile_repo(tmp_path)
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n")
    done = run_script("asimov-hooks", "ephemeral", cwd=repo, GITHUB_ACTIONS="true")
    assert_unforged(done)
    assert "x\\n::error file=forged.py" in done.stdout


def test_oc_output_never_passes_terminal_escapes(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    doc = oc_checkpoint(
        progress_summary=f"summary {ESCAPES}",
        step=f"step{ESCAPES}",
        next_actions=[f"act {ESCAPES}"],
        blockers=[{"id": "b1", "description": f"blocked {ESCAPES}", "needs": "user_decision"}],
    )
    write(repo, f".checkpoints/oc-x{ESCAPES[:4]}.checkpoint.json", doc)
    commit_all(repo, "oc")
    for args in (["status"], ["status", "--color", "always"], ["list"], ["next"], ["doctor"]):
        done = run_script("asimov-hooks", "oc", *args, cwd=repo)
        text = done.stdout + done.stderr
        assert "Traceback" not in text, text
        visible = text
        if "--color" in args:  # our own colour codes only
            for code in ("31", "32", "33", "34", "1", "2", "0"):
                visible = visible.replace(f"\x1b[{code}m", "")
            assert "\\x1b" in text
        assert "\x1b" not in visible and "\x07" not in text and "\x9b" not in text, (args, text)
    git(repo, "status")
    assert os.path.isdir(os.path.join(repo, ".checkpoints"))


# Unicode format characters: a right-to-left override and an isolate reorder what a
# reviewer reads (a name that shows as `txt.exe` while it is `exe.txt`), a zero-width
# space and a tag character hide text
BIDI = "\u202e\u2066\u200b\U000e0041\u2028"


@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_format_characters_are_escaped_but_in_json(tmp_path, fmt: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov-hooks.yaml", f"rules: {{no-such-rule{BIDI[:4]}: error}}\n")
    done = run_script("asimov-validate", "--format", fmt, ".", cwd=repo)
    assert "no-such-rule\\u202e\\u2066\\u200b\\U000e0041" in done.stderr  # a config key
    assert not any(char in done.stdout + done.stderr for char in BIDI)
    os.unlink(os.path.join(repo, ".asimov-hooks.yaml"))
    write(repo, f"gpj{BIDI}/.claude_checkpoint.yaml", f'milestone: "m"\nstatus: s{BIDI}\n')
    done = run_script("asimov-validate", "--format", fmt, ".", cwd=repo)
    text = done.stdout + done.stderr
    assert "Traceback" not in text and done.returncode == 1, text
    if fmt == "json":  # inside JSON strings: the encoder's own escapes, or the character
        import json

        assert json.loads(done.stdout)
        text = done.stderr
    else:
        assert "gpj\\u202e\\u2066\\u200b\\U000e0041\\u2028" in done.stdout  # a file name
        assert "s\\u202e\\u2066\\u200b\\U000e0041" in done.stdout  # a value
    for char in BIDI:
        assert char not in text, (hex(ord(char)), text)
    for args in (["trim", "--dry-run", "--diff", "."], ["doctor"]):
        done = run_script("asimov-hooks", *args, cwd=repo)
        for char in BIDI:
            assert char not in done.stdout + done.stderr, (args, hex(ord(char)))
