"""How the command line treats a user's mistakes: "did you mean" for rule ids, config
keys and commands, every config error in one run, one error style for click's errors
and ours, and a pointer from `merge-driver install` to `install` (whole processes)."""

from __future__ import annotations

import sys

import pytest
from conftest import GOOD_CHECKPOINT, write
from conftest import run_script as _run_script


def run_script(*args: str, **kwargs: str):
    """Whole processes: the installed console scripts, as a user runs them."""
    return _run_script(*args, process=True, **kwargs)


@pytest.fixture
def repo(tmp_path) -> str:
    write(tmp_path, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    return str(tmp_path)


def one_error_line(done, prog: str) -> str:
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"{prog}: error: "), lines[0]
    return lines[0]


def error_lines(done, prog: str) -> list[str]:
    """Every problem of one run, one line each, all in the same error form."""
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines, done
    for line in lines:
        assert line.startswith(f"{prog}: error: "), line
    return lines


def test_select_and_ignore_suggest_rule_ids(repo) -> None:
    done = run_script(
        "asimov-validate", "--select", "shcema", "--ignore", "max-lines-sfot", ".", cwd=repo
    )
    assert error_lines(done, "asimov-validate") == [
        "asimov-validate: error: --select: unknown rule id 'shcema' (did you mean 'schema'?)",
        "asimov-validate: error: --ignore: unknown rule id 'max-lines-sfot'"
        " (did you mean 'max-lines-soft'?)",
    ]


def test_every_config_error_in_one_run(repo) -> None:
    write(repo, ".asimov-hooks.yaml", "ignor: [x]\nrules:\n  max-lines-sfot: warning\n")
    lines = error_lines(run_script("asimov-validate", ".", cwd=repo), "asimov-validate")
    assert len(lines) == 2, lines
    assert all(".asimov-hooks.yaml: " in line for line in lines), lines
    text = "\n".join(lines)
    assert "rules: unknown rule id 'max-lines-sfot' (did you mean 'max-lines-soft'?)" in text
    assert "'ignor'" in text and "(did you mean 'ignore'?)" in text
    write(repo, ".asimov-hooks.yaml", "trim:\n  archiv: {enabled: false}\nselct: [schema]\n")
    lines = error_lines(run_script("asimov-validate", ".", cwd=repo), "asimov-validate")
    assert len(lines) == 2, lines
    text = "\n".join(lines)
    assert "(did you mean 'archive'?)" in text and "(did you mean 'select'?)" in text


def test_subcommands_suggest(repo) -> None:
    line = one_error_line(run_script("asimov-hooks", "instal", cwd=repo), "asimov-hooks")
    assert "No such command 'instal'. Did you mean 'install'?" in line


@pytest.mark.parametrize(
    ("args", "prog"),
    [
        (["validate", "--bogus"], "asimov-hooks validate"),
        (["validate", "--format", "xml"], "asimov-hooks validate"),
        (["trim", "--nope"], "asimov-hooks trim"),
    ],
)
def test_clicks_errors_look_like_ours(repo, args, prog) -> None:
    line = one_error_line(run_script("asimov-hooks", *args, cwd=repo), prog)
    assert f"(see `{prog} --help`)" in line


def test_merge_driver_install_points_to_install(repo) -> None:
    line = one_error_line(
        run_script("asimov-hooks", "merge-driver", "install", cwd=repo), "asimov-hooks merge-driver"
    )
    assert "'install' is not a file to merge" in line
    assert "run `asimov-hooks install`" in line
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "asimov_hooks.merge.driver", "install"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "run `asimov-hooks install`" in one_error_line(
        done, "python -m asimov_hooks.merge.driver"
    )


def test_the_trim_hook_leaves_a_conflict_to_validate(repo) -> None:
    write(
        repo, ".claude_checkpoint.yaml", "milestone: m\n<<<<<<< a\nx: 1\n=======\nx: 2\n>>>>>>> b\n"
    )
    skipped = run_script(
        "asimov-hooks", "trim", "--skip-conflicts", ".claude_checkpoint.yaml", cwd=repo
    )
    assert (skipped.returncode, skipped.stdout, skipped.stderr) == (0, "", "")
    plain = run_script("asimov-hooks", "trim", ".claude_checkpoint.yaml", cwd=repo)
    assert plain.returncode == 1 and "conflict markers" in plain.stderr
