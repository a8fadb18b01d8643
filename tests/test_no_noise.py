"""Issue 13, "noise and loops": hook stages, suggestions that never send a user round in
circles, and the messages a new user reads first. Console scripts and real pre-commit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, SCRIPTS, commit_all, git, git_init, run_script, write
from ruamel.yaml import YAML

CP = ".claude_checkpoint.yaml"
PRE_COMMIT = shutil.which("pre-commit", path=SCRIPTS)


def manifest() -> list[dict]:
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        return list(YAML(typ="safe").load(fh))


def test_every_hook_declares_its_stages() -> None:
    for hook in manifest():
        assert hook.get("stages"), hook["id"]
        if hook["id"] != "asimov-merge-driver":
            assert not {"post-checkout", "post-merge"} & set(hook["stages"]), hook["id"]


@pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")
def test_checkout_and_merge_print_no_skipped_lines(tmp_path, isolated_home) -> None:
    """The manifest's hooks (entries pointed at this environment's scripts, stages and
    files as declared) under post-checkout and post-merge, as the README installs them."""
    hooks = []
    for hook in manifest():
        entry = hook["entry"].split()
        local = {k: hook[k] for k in ("id", "name", "stages") if k in hook}
        local.update(
            entry=" ".join([os.path.join(SCRIPTS, entry[0]), *entry[1:]]),
            language="system",
        )
        for key in ("files", "always_run", "pass_filenames"):
            if key in hook:
                local[key] = hook[key]
        hooks.append(local)
    repo = git_init(tmp_path / "repo")
    git(repo, "config", "--unset-all", "core.hooksPath")
    config = {"repos": [{"repo": "local", "hooks": hooks}]}
    with open(os.path.join(repo, ".pre-commit-config.yaml"), "w", encoding="utf-8") as fh:
        YAML(typ="safe", pure=True).dump(config, fh)
    write(repo, CP, 'milestone: "m"\n')
    commit_all(repo, "init")
    git(repo, "branch", "other")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(isolated_home / ".cache" / "pre-commit"),
        "PATH": SCRIPTS + os.pathsep + os.environ.get("PATH", ""),
    }
    subprocess.run(
        [PRE_COMMIT, "install", "--hook-type", "post-checkout", "--hook-type", "post-merge"],
        cwd=repo,
        check=True,
        capture_output=True,
        env=env,
    )

    def run(*args: str) -> str:
        done = subprocess.run(
            ["git", *args], cwd=repo, capture_output=True, text=True, env=env, check=True
        )
        return done.stdout + done.stderr

    out = run("checkout", "other")
    assert "asimov merge driver" in out  # the one hook of this stage ran
    assert "Skipped" not in out, out
    write(repo, CP, 'milestone: "n"\n')
    run("commit", "-q", "-am", "other", "--no-verify")
    run("checkout", "main")
    out = run("merge", "--no-edit", "other")
    assert "Skipped" not in out, out


def advice_for(stdout: str, rule: str) -> str:
    lines = stdout.splitlines()
    i = next(n for n, line in enumerate(lines) if f" {rule} " in line)
    assert "suggestion:" in lines[i + 1], stdout
    return lines[i + 1]


def test_suggestion_never_recommends_a_trim_that_changes_nothing(tmp_path) -> None:
    comments = "".join(f"# context line {i}\n" for i in range(18))
    text = f'milestone: "m"\n{comments}completed:\n  - "a"\n  - "b"\n  - "c"\n\n'
    write(tmp_path, CP, text)
    run = run_script("asimov-validate", CP, cwd=tmp_path)
    assert "warning max-lines-soft" in run.stdout
    advice = advice_for(run.stdout, "max-lines-soft")
    assert "nothing left to remove" in advice
    assert "18 comment and 1 blank lines" in advice
    assert "sprint.yaml" in advice
    trim = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    assert trim.returncode == 0 and "Fixing" not in trim.stdout  # indeed nothing to do


def test_suggestion_recommends_trim_when_it_helps_and_not_after(tmp_path) -> None:
    items = "".join(f'  - "task {i}"\n' for i in range(9))
    comments = "".join(f"# note {i}\n" for i in range(19))
    write(tmp_path, CP, f'milestone: "m"\n{comments}completed:\n{items}')
    run = run_script("asimov-validate", CP, cwd=tmp_path)
    advice = advice_for(run.stdout, "max-lines-soft")
    assert "run `asimov-hooks trim`" in advice
    assert run_script("asimov-hooks", "trim", CP, cwd=tmp_path).returncode == 1  # changed
    run = run_script("asimov-validate", CP, cwd=tmp_path)
    assert "max-lines-soft" in run.stdout  # comments keep it over the soft limit
    advice = advice_for(run.stdout, "max-lines-soft")
    assert "run `asimov-hooks trim`" not in advice and "nothing left to remove" in advice


def test_schema_suggestions_are_about_the_schema(tmp_path) -> None:
    write(tmp_path, CP, 'milestone: "m"\nstatus: finished\n')
    run = run_script("asimov-validate", CP, cwd=tmp_path)
    lines = run.stdout.splitlines()
    i = next(n for n, line in enumerate(lines) if " schema status" in line)
    assert "suggestion:" in lines[i + 1]
    assert "trim" not in lines[i + 1] and "rules/" not in lines[i + 1]


def test_dry_run_does_not_say_it_archived(tmp_path) -> None:
    items = "".join(f'  - "task {i}"\n' for i in range(9))
    write(tmp_path, CP, f'milestone: "m"\ncompleted:\n{items}')
    done = run_script("asimov-hooks", "trim", "--dry-run", CP, cwd=tmp_path)
    assert "Would fix" in done.stdout
    assert "archived" not in done.stdout
    assert "would archive what it removes to .claude_checkpoint.archive.yaml" in done.stdout
    assert not os.path.exists(tmp_path / ".claude_checkpoint.archive.yaml")


def test_check_size_names_itself(tmp_path) -> None:
    done = run_script("asimov-check-size", "missing.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("asimov-check-size: error: missing.yaml: no such file")
    write(tmp_path, ".asimov-hooks.yaml", "bogus: 1\n")
    done = run_script("asimov-check-size", ".", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("asimov-check-size: error:")


def test_empty_search_says_what_was_searched(tmp_path) -> None:
    write(tmp_path, "docs/readme.txt", "x\n")
    done = run_script("asimov-validate", "-v", "docs", cwd=tmp_path)
    assert done.returncode == 0
    assert "0 files checked" in done.stdout
    assert "nothing to check under docs" in done.stdout
    assert ".claude_checkpoint.yaml" in done.stdout and "asimov-hooks rules" in done.stdout


def test_help_does_not_cut_command_summaries(tmp_path) -> None:
    done = run_script("asimov-hooks", "--help", cwd=tmp_path, COLUMNS="80")
    assert done.returncode == 0
    commands = done.stdout.split("Commands:", 1)[1]
    assert "..." not in commands
    assert "Check that the checkpoint merge driver is registered, resolves" in commands


def test_git_repository_search_mentions_gitignore(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n")
    write(repo, "notes.txt", "x\n")
    done = run_script("asimov-validate", ".", cwd=repo)
    assert "honouring .gitignore" in done.stdout
    assert sys.executable  # the interpreter the scripts run under


def test_too_many_items_suggest_the_trim_that_fixes_them(tmp_path) -> None:
    items = "".join(f'  - "task {i}"\n' for i in range(7))
    write(tmp_path, CP, f'milestone: "m"\nstatus: finished\ncompleted:\n{items}')
    run = run_script("asimov-validate", CP, cwd=tmp_path)
    assert "it keeps the last 5 items of completed" in advice_for(run.stdout, "schema completed:")
    assert "trim" not in advice_for(run.stdout, "schema status:")
