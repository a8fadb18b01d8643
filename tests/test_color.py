"""--color auto|always|never, NO_COLOR and FORCE_COLOR; colour only in the text format."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess

import pytest
from conftest import SCRIPTS, run_script, script_env, write

from asimov_hooks import options
from asimov_hooks.output.report import COLOR_MODES, FORMATS

ESC = "\x1b["
BAD = 'milestone: "m"\nstatus: finished\n'


@pytest.fixture(autouse=True)
def _no_colour_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own NO_COLOR / FORCE_COLOR must not decide a test."""
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def files(tmp_path):
    write(tmp_path, ".claude_checkpoint.yaml", BAD)
    write(tmp_path, "CLAUDE.md", "line\n" * 11)
    return tmp_path


def _out(cwd, *args, prog="asimov-validate", **env) -> str:
    run = run_script(prog, *args, cwd=cwd, **env)
    assert run.returncode == (0 if prog == "asimov-check-size" else 1), run
    return run.stdout


def test_no_colour_when_not_a_terminal(files) -> None:
    assert ESC not in _out(files)
    assert ESC not in _out(files, "--color", "auto")
    assert ESC not in _out(files, "--color=never", FORCE_COLOR="1")


def test_always_colours_level_rule_and_path(files) -> None:
    out = _out(files, "--color", "always")
    plain = _out(files, "--color", "never")
    line = next(x for x in out.splitlines() if "schema" in x and ":2:" in x)
    assert line.startswith("\x1b[1m.claude_checkpoint.yaml\x1b[0m:2:9: ")
    assert "\x1b[1;31merror\x1b[0m \x1b[35mschema\x1b[0m status:" in line
    assert "\x1b[33mwarning\x1b[0m \x1b[35mmax-lines-soft\x1b[0m" in out
    # the same text once the escapes are gone
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", out) == plain


@pytest.mark.parametrize(
    ("env", "coloured"),
    [
        ({"FORCE_COLOR": "1"}, True),
        ({"FORCE_COLOR": "0"}, False),
        ({"NO_COLOR": "1"}, False),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),  # NO_COLOR wins
        ({"NO_COLOR": ""}, False),  # empty: not set; and not a terminal
    ],
)
def test_environment(files, env, coloured) -> None:
    assert (ESC in _out(files, **env)) is coloured
    assert (ESC in _out(files, prog="asimov-check-size", **env)) is (
        coloured  # the size hook's own fast path reads the same variables
    )


def test_flag_beats_environment(files) -> None:
    assert ESC in _out(files, "--color", "always", NO_COLOR="1")
    assert ESC not in _out(files, "--color", "never", FORCE_COLOR="1")


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_never_in_machine_formats(files, fmt) -> None:
    out = _out(files, "--format", fmt, "--color", "always", FORCE_COLOR="1")
    assert ESC not in out


def _on_terminal(cwd, *args: str, **env: str) -> str:
    """Run asimov-validate with its stdout on a pseudo-terminal; what it printed."""
    leader, follower = pty.openpty()
    exe = shutil.which("asimov-validate", path=SCRIPTS)
    proc = subprocess.Popen(
        [exe, *args],
        cwd=os.fspath(cwd),
        stdout=follower,
        stderr=subprocess.PIPE,
        env=script_env(**{"TERM": "xterm", **env}),
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=60) == 1
    return b"".join(chunks).decode()


def test_auto_colours_on_a_terminal(files) -> None:
    assert "\x1b[1;31merror\x1b[0m" in _on_terminal(files)
    assert ESC not in _on_terminal(files, NO_COLOR="1")
    assert ESC not in _on_terminal(files, "--color", "never")
    assert ESC not in _on_terminal(files, TERM="dumb")
    assert ESC not in _on_terminal(files, "--format", "json")


def test_fast_and_click_paths_agree(files) -> None:
    fast = _out(files, "--color", "always")
    click = run_script("asimov-hooks", "validate", "--color", "always", cwd=files).stdout
    assert fast == click
    bad = run_script("asimov-validate", "--color", "sometimes", cwd=files)
    assert bad.returncode == 2 and "sometimes" in bad.stderr and "Traceback" not in bad.stderr
    assert bad.stdout == ""


def test_fast_scanner_choices_are_the_cli_choices() -> None:
    assert options.CHOICES["fmt"] == FORMATS
    assert options.CHOICES["color"] == COLOR_MODES
    parse = options.parse_command
    assert parse(options.VALIDATE, ["--format=sarif", "--color", "never", "x"]) == {
        **parse(options.VALIDATE, ["x"]),
        "fmt": "sarif",
        "color": "never",
    }


IMPORT_PROBE = """
import sys
from asimov_hooks.cli.entrypoints import validate_main
code = validate_main(sys.argv[1:])
ours = ("asimov_hooks.output.sarif", "asimov_hooks.output.color", "asimov_hooks.output.ruledocs", "click")
print("LOADED:", ",".join(m for m in ours if m in sys.modules))
sys.exit(code)
"""


@pytest.mark.parametrize(
    ("args", "loaded"),
    [
        ([], ""),
        (["--format", "json"], ""),
        (["--color", "always"], "asimov_hooks.output.color"),
        (["--format", "sarif"], "asimov_hooks.output.sarif,asimov_hooks.output.ruledocs"),
    ],
)
def test_output_code_is_imported_only_when_used(files, args, loaded) -> None:
    """A hook run pays for SARIF, colours or rule docs only when it asks for them."""
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE, *args],
        capture_output=True,
        text=True,
        cwd=files,
        env=script_env(),
    )
    assert proc.returncode == 1, proc
    assert f"LOADED: {loaded}\n" in proc.stdout, proc.stdout[-300:]


@pytest.mark.slow
def test_pre_commit_colour_reaches_the_hook(head_clone, pre_commit_store, tmp_path) -> None:
    """pre-commit runs a hook on a pseudo-terminal when its own output is coloured, so
    `--color auto` follows `pre-commit run --color`."""
    from conftest import git, git_init, try_repo

    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", BAD)
    git(repo, "add", "-A")
    outs = {}
    for mode in ("always", "never"):
        proc = try_repo(
            head_clone,
            "asimov-validate",
            "--files",
            ".claude_checkpoint.yaml",
            cwd=repo,
            store=pre_commit_store,
            color=mode,
        )
        assert proc.returncode == 1, proc.stdout + proc.stderr
        outs[mode] = proc.stdout
    assert "\x1b[1;31merror\x1b[0m \x1b[35mschema\x1b[0m" in outs["always"]
    assert ESC not in outs["never"] and "error schema status" in outs["never"]
