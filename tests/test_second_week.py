"""What a team of two met in their second week with asimov-hooks, each reproduced with
real files, real git repositories and whole processes."""

from __future__ import annotations

import os
import subprocess

import pytest
from conftest import (
    GOOD_CHECKPOINT,
    GOOD_WARMUP,
    SCRIPTS,
    git,
    git_init,
    run_module,
    run_script,
    script_env,
    write,
)

MERGE_DRIVER_CONFIG = (
    "repos:\n- repo: local\n  hooks:\n  - id: asimov-merge-driver\n    name: driver\n"
    "    entry: asimov-hooks install --quiet --attributes none --unless-uninstalled\n"
    "    language: system\n    always_run: true\n    pass_filenames: false\n"
    "    stages: [post-checkout, post-merge]\n"
    "default_install_hook_types: [pre-commit, post-checkout, post-merge]\n"
)


# ------------------------------------------------------------------ doctor on a fresh clone
def test_doctor_on_a_fresh_clone_says_pre_commit_install(tmp_path, isolated_home) -> None:
    """The config already has the asimov-merge-driver hook: the clone only needs its git
    hooks installed, not a hook added to the config."""
    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", 'milestone: "x"\n')
    write(repo, ".pre-commit-config.yaml", MERGE_DRIVER_CONFIG)
    done = run_module(repo, "doctor")
    assert done.returncode == 1
    fix = done.stdout.split("driver is not set", 1)[1].splitlines()[1]
    assert "run `pre-commit install`" in fix, fix
    assert "add the asimov-merge-driver pre-commit hook" not in done.stdout
    # with its git hooks installed, the next checkout registers it
    git(repo, "config", "--unset-all", "core.hooksPath")
    pre_commit = os.path.join(SCRIPTS, "pre-commit")
    if not os.path.exists(pre_commit):
        pytest.skip("pre-commit is not installed")
    installed = subprocess.run(
        [pre_commit, "install"], cwd=repo, capture_output=True, text=True, env=script_env()
    )
    assert installed.returncode == 0, installed.stderr
    done = run_module(repo, "doctor")
    fix = done.stdout.split("driver is not set", 1)[1].splitlines()[1]
    assert "registers it at the next checkout or merge" in fix, fix
    assert "run `pre-commit install`:" not in fix
    write(repo, "a.txt", "a\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "--no-verify", "-m", "a")
    checkout = subprocess.run(
        ["git", "checkout", "-q", "-b", "topic"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=script_env(),
    )
    assert checkout.returncode == 0, checkout.stderr
    assert git(repo, "config", "merge.asimov-checkpoint.driver", check=False).stdout.strip()


def test_doctor_without_the_hook_still_names_both_ways(tmp_path, isolated_home) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", 'milestone: "x"\n')
    done = run_module(repo, "doctor")
    assert "run `asimov-hooks install` (or add the asimov-merge-driver pre-commit hook)" in (
        done.stdout
    )


# ------------------------------------------------------------------ `... | head`
def closed_reader(repo: str, *argv: str) -> subprocess.CompletedProcess:
    """`argv` writing into a pipe whose reader has already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            argv, cwd=repo, stdout=write_end, stderr=subprocess.PIPE, text=True, env=script_env()
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "args",
    [
        ["asimov-hooks", "checkpoint"],  # the Asimov part, then `asimov-hooks oc status`
        ["asimov-hooks", "checkpoint", "list"],
        ["asimov-hooks", "oc", "status"],
        ["asimov-hooks", "rules"],
        ["asimov-hooks", "--help"],
        ["asimov-validate", "bad"],
    ],
)
def test_a_reader_that_leaves_ends_the_command_quietly_with_141(tmp_path, args) -> None:
    """As git and grep do: ended by SIGPIPE, which a shell reports as 141; never the
    interpreter's "Exception ignored ... BrokenPipeError" and exit 120."""
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, "bad/.claude_checkpoint.yaml", "milestone: m\nstatus: nope\n")
    assert run_script("asimov-hooks", "oc", "new", "oc-app", cwd=repo).returncode == 0
    done = closed_reader(repo, os.path.join(SCRIPTS, args[0]), *args[1:])
    assert done.returncode == 141, (done.returncode, done.stderr)
    assert done.stderr == ""


# ------------------------------------------------------------------ did you mean
@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (["asimov-hooks", "agent", "install", "--agent", "claud"], "claude"),
        (["asimov-hooks", "init", "--agent", "gemni", "--dry-run"], "gemini"),
        (["asimov-validate", "--format", "sarf", "."], "sarif"),
        (["asimov-check-size", "--format", "jsn", "."], "json"),
        (["asimov-hooks", "oc", "status", "--format", "jsn"], "json"),
        (["asimov-hooks", "rules", "--format", "markdwn"], "markdown"),
        (["asimov-hooks", "checkpoint", "nxt"], "next"),
    ],
)
def test_a_misspelt_choice_names_the_closest_one(tmp_path, args, meant) -> None:
    repo = git_init(tmp_path / "repo")
    done = run_script(*args, cwd=repo)
    assert done.returncode == 2, done
    (line,) = done.stderr.splitlines()
    assert f"(did you mean {meant!r}?)" in line, line


def test_no_guess_for_a_word_like_none_of_them(tmp_path) -> None:
    done = run_script("asimov-hooks", "agent", "install", "--agent", "zzz", cwd=tmp_path)
    assert done.returncode == 2 and "did you mean" not in done.stderr


# ------------------------------------------------------------------ the `.asimov/` layout
def asimov_layout(tmp_path) -> str:
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov-hooks.yaml", "agent:\n  turn-threshold: 20\n")
    write(repo, ".gitignore", ".asimov/checkpoint.yaml\n.asimov/checkpoint.archive.yaml\n")
    write(repo, ".asimov/warmup.yaml", GOOD_WARMUP)
    write(repo, ".asimov/sprint.yaml", "sprint:\n  goal: ship\n")
    git(repo, "add", "-A")
    write(repo, ".asimov/checkpoint.yaml", GOOD_CHECKPOINT)
    return repo


def test_the_checkpoint_request_names_the_layouts_sprint_file(tmp_path, isolated_home) -> None:
    from agent_support import age_turn, answer, fixture, run_event

    repo = asimov_layout(tmp_path)
    session = "abc123de-4567-89ab-cdef-0123456789ab"
    answer(run_event("claude", fixture("claude", "user_prompt_submit", repo, prompt="go"), repo))
    age_turn(repo, session, 40)
    out = answer(run_event("claude", fixture("claude", "stop", repo), repo))
    request = out["hookSpecificOutput"]["additionalContext"]
    assert ".asimov/checkpoint.yaml" in request
    assert "history belongs in .asimov/sprint.yaml" in request, request


def test_the_trim_after_a_write_names_the_archive_in_its_folder(tmp_path, isolated_home) -> None:
    from agent_support import answer, fixture, run_event

    repo = asimov_layout(tmp_path)
    long = GOOD_CHECKPOINT.replace(
        '  - "Task 6: wire the parser"\n  - "Task 7: add tests"\n',
        "".join(f'  - "Done item {i:02d}"\n' for i in range(25)),
    )
    path = os.path.join(repo, ".asimov", "checkpoint.yaml")
    payload = fixture("claude", "pre_tool_use_write", repo)
    payload["tool_input"] = {"file_path": path, "content": long}
    out = answer(run_event("claude", payload, repo))
    written = out["hookSpecificOutput"]["updatedInput"]  # the write Claude Code then makes
    write(repo, ".asimov/checkpoint.yaml", written["content"])
    after = fixture("claude", "post_tool_use_write", repo)
    after["tool_input"] = written
    after["tool_use_id"] = payload["tool_use_id"]  # the same call
    said = str(answer(run_event("claude", after, repo)))
    assert "archived what was removed to .asimov/checkpoint.archive.yaml" in said, said
    assert os.path.exists(os.path.join(repo, ".asimov", "checkpoint.archive.yaml"))


# ------------------------------------------------------------------ AGENTS.md past 256 KiB
def test_an_agents_md_too_large_to_read_still_says_where_codex_stops(tmp_path) -> None:
    """Past max-bytes-hard the file is not parsed, but what matters to its reader is
    Codex CLI's cut at 32 KiB: reported where it falls, as for a smaller file."""
    repo = git_init(tmp_path / "repo")
    lines = "# rules\n" + "".join(f"- rule {i}: " + "y" * 80 + "\n" for i in range(4000))
    write(repo, "AGENTS.md", lines)  # ~360 KB
    other = git_init(tmp_path / "other")
    write(other, "AGENTS.md", lines[:40_000])
    big = run_script("asimov-validate", "AGENTS.md", cwd=repo)
    assert big.returncode == 1
    assert "error max-bytes-hard" in big.stdout
    (found,) = [ln for ln in big.stdout.splitlines() if "error shared-byte-budget" in ln]
    assert "bytes after 32,768 are dropped by Codex CLI" in found, found
    # the cut falls where it falls in a file small enough to read, from the same start
    small = run_script("asimov-validate", "AGENTS.md", cwd=other)
    (cut,) = [ln for ln in small.stdout.splitlines() if "error shared-byte-budget" in ln]
    assert found.split(" error ")[0].split(":", 1)[1] == cut.split(" error ")[0].split(":", 1)[1]


# ------------------------------------------------------------------ init's "found" list
def test_init_lists_only_the_files_validate_checks(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, "CLAUDE.md", "# rules\n")
    write(repo, "k8s/warmup.yaml", "apiVersion: v1\nkind: Pod\n")  # another tool's file
    write(repo, "third_party/lib/AGENTS.md", "# theirs\n")  # excluded by the config
    write(repo, "build/AGENTS.md", "# generated\n")  # git ignores it
    write(repo, ".gitignore", "build/\n")
    write(repo, ".asimov-hooks.yaml", "exclude: [third_party]\n")
    done = run_script("asimov-hooks", "init", "--dry-run", cwd=repo)
    assert done.returncode == 0, done.stderr
    found = [line for line in done.stdout.splitlines() if line.startswith("found ")]
    assert found == [
        "found Asimov protocol files: warmup.yaml",
        "found agent instruction files: CLAUDE.md",
    ], found
    check = run_script("asimov-validate", "-v", ".", cwd=repo)
    assert "k8s/warmup.yaml: skipped" in check.stdout
    assert "third_party" not in check.stdout and "build/" not in check.stdout


def test_a_family_whose_every_file_validate_skips_is_not_found(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "vendor/AGENTS.md", "# theirs\n")
    write(repo, ".asimov-hooks.yaml", "exclude: [vendor]\n")
    done = run_script("asimov-hooks", "init", "--dry-run", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "found agent instruction files" not in done.stdout
    assert "found no agent files yet" in done.stdout


# ------------------------------------------------------------------ the README's sample
def test_the_readme_sample_output_is_a_real_run(monkeypatch) -> None:
    from conftest import ROOT

    monkeypatch.delenv("ASIMOV_HOOKS_PROFILE")  # as a user runs it: the profile decided here

    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    after = readme[readme.index("as here (`asimov-validate -v examples/asimov-root`") :]
    block = after[after.index("```\n") + 4 :]
    block = block[: block.index("```\n")]
    done = run_script("asimov-validate", "-v", "examples/asimov-root", cwd=ROOT, process=True)
    assert done.returncode == 1
    assert block == done.stdout
