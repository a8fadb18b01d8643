"""Issue 10, wrong verdicts and the smaller ones: each reproduced with real files, real
git repositories and whole processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, commit_all, git, git_init, run_script, script_env, write

CP = ".claude_checkpoint.yaml"
LONG = "milestone: m\nstatus: in_progress\ncompleted:\n" + "".join(
    f"  - task {i}\n" for i in range(9)
)


def validate(cwd, *args: str, **env: str):
    return run_script("asimov-validate", *args, cwd=cwd, **env)


def trim(cwd, *args: str, **env: str):
    return run_script("asimov-hooks", "trim", *args, cwd=cwd, **env)


def clean(run) -> bool:
    text = run.stdout + run.stderr
    return "Traceback" not in text and "internal error" not in text


# ------------------------------------------------------------------ --select / --ignore
@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_unknown_rule_id_on_the_command_line_is_a_usage_error(tmp_path, option: str) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, "milestone: m\nstatus: bogus\n")
    run = validate(tmp_path, option, "schema,shcema", CP)
    assert run.returncode == 2 and "unknown rule id 'shcema'" in run.stderr, run
    assert option in run.stderr
    run = validate(tmp_path, option, "schema", CP)  # known ids still work
    assert run.returncode == (1 if option == "--select" else 0), run


# ------------------------------------------------------------------ multi-document
def test_multi_document_checkpoint_is_an_error_everywhere(tmp_path) -> None:
    git_init(tmp_path)
    text = "milestone: m\nstatus: done\n---\nmilestone: n\n"
    write(tmp_path, CP, text)
    run = validate(tmp_path, CP)
    assert run.returncode == 1 and "error syntax" in run.stdout and "2 YAML documents" in run.stdout
    run = trim(tmp_path, CP)
    assert run.returncode == 1 and "a stream of 2 YAML documents" in run.stderr, run


def test_multi_document_warmup_is_still_skipped(tmp_path) -> None:
    """warmup.yaml is a shared name: a Kubernetes stream called so is another tool's file."""
    git_init(tmp_path)
    write(tmp_path, "warmup.yaml", "apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: Svc\n")
    run = validate(tmp_path, "warmup.yaml")
    assert run.returncode == 0 and "skipped" in run.stdout, run


# ------------------------------------------------------------------ plain git hook
def test_plain_hook_checks_non_ascii_paths(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    hook = os.path.join(repo, ".git", "hooks", "pre-commit")
    shutil.copy(os.path.join(ROOT, "hooks", "pre-commit"), hook)
    os.chmod(hook, 0o755)
    write(repo, "projekt-ü/" + CP, "milestone: m\nstatus: not-a-status\n")
    git(repo, "add", "-A")
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "x"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=script_env(),
    )
    assert done.returncode != 0, done
    assert "projekt-ü/.claude_checkpoint.yaml" in done.stdout + done.stderr


# ------------------------------------------------------------------ tags
@pytest.mark.parametrize(
    ("value", "ok"),
    [("!!str done", True), ("!!python/name:os.system done", False), ("!custom done", False)],
)
def test_tags_agree_across_readers(tmp_path, value: str, ok: bool) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, LONG.replace("status: in_progress", f"status: {value}"))
    run = validate(tmp_path, "--ignore", "max-tokens,max-lines-soft", CP)
    if ok:
        assert "error schema" in run.stdout and "completed" in run.stdout, run  # only the cap
        assert "status" not in run.stdout
        run = trim(tmp_path, CP)
        assert run.returncode == 1 and "Fixing" in run.stdout, run
        with open(tmp_path / CP) as fh:
            assert f"status: {value}\n" in fh.read()  # the tag survives the trim
    else:
        assert run.returncode == 1 and "unsupported YAML tag" in run.stdout, run
        run = trim(tmp_path, CP)
        assert run.returncode == 1 and "unsupported YAML tag" in run.stderr, run


def test_merge_driver_refuses_unknown_tags_and_keeps_standard_ones(tmp_path) -> None:
    name = ".asimov/checkpoint.yaml"
    base = "milestone: m\nstatus: in_progress\ntool_calls: 1\nnote: !!str 5\n"
    ours = base.replace("tool_calls: 1", "tool_calls: 2")
    theirs = base.replace("tool_calls: 1", "tool_calls: 3")
    assert _driver(tmp_path, base, ours, theirs, name).returncode == 0
    with open(tmp_path / "ours") as fh:
        merged = fh.read()
    assert "tool_calls: 3" in merged and "note: !!str 5" in merged
    theirs = base.replace("tool_calls: 1", "tool_calls: 3\nx: !custom y")
    run = _driver(tmp_path, base, ours, theirs, name)
    assert run.returncode == 1 and "unsupported YAML tag" in run.stderr, run


def _driver(cwd, base: str, ours: str, theirs: str, name: str, *extra: str):
    for side, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        write(cwd, side, text)
    args = list(extra) or ["base", "ours", "theirs", "7", name]
    return subprocess.run(
        [sys.executable, "-m", "asimov_hooks.merge.driver", *args],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        timeout=120,
    )


# ------------------------------------------------------------------ conflict markers
@pytest.mark.parametrize("size", [3, 5, 7, 9, 20])
def test_conflict_markers_of_any_size_in_a_multi_line_scalar(tmp_path, size: int) -> None:
    repo = git_init(tmp_path)
    write(repo, ".gitattributes", f"*.yaml conflict-marker-size={size}\n")
    write(repo, CP, 'milestone: m\nstatus: done\nnotes: "first line\n  second line"\n')
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, CP, 'milestone: m\nstatus: done\nnotes: "first line\n  theirs"\n')
    commit_all(repo, "theirs")
    git(repo, "checkout", "-q", "main")
    write(repo, CP, 'milestone: m\nstatus: done\nnotes: "first line\n  ours"\n')
    commit_all(repo, "ours")
    assert git(repo, "merge", "other", check=False).returncode != 0
    with open(os.path.join(repo, CP)) as fh:
        assert "<" * size + " " in fh.read()
    run = validate(repo, "--select", "conflict-markers,syntax,duplicate-key", CP)
    assert run.returncode == 1 and "conflict-markers" in run.stdout, run


# ------------------------------------------------------------------ smaller ones
def test_unreadable_directory_is_an_error(unprivileged) -> None:
    """Runs as user nobody when the suite runs as root (root reads a mode-000 directory)."""
    write(unprivileged.path("locked"), CP, "milestone: m\n")
    os.chmod(unprivileged.path("locked"), 0)
    runs = [
        unprivileged.run("validate", "locked"),
        unprivileged.run("locked", entry="validate_main"),  # asimov-validate's fast path
        unprivileged.run("trim", "locked"),
    ]
    for run in runs:
        assert run.returncode == 2 and "locked" in run.stderr and clean(run), run
        assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_directory_named_like_a_protocol_file_is_reported(tmp_path) -> None:
    git_init(tmp_path / "repo")
    write(tmp_path / "repo", f"{CP}/inside.txt", "x\n")
    os.makedirs(tmp_path / "plain" / CP)
    for where in ("repo", "plain"):
        run = validate(tmp_path, where)
        assert run.returncode == 1 and "is a directory" in run.stdout, run
        run = trim(tmp_path, where)
        assert run.returncode == 1 and "is a directory" in run.stderr, run


def test_dangling_symlink_is_one_verdict(tmp_path) -> None:
    git_init(tmp_path)
    os.symlink("gone.yaml", tmp_path / CP)
    v, t = validate(tmp_path, CP), trim(tmp_path, CP)
    assert v.returncode == t.returncode == 1, (v, t)
    assert "broken symbolic link" in v.stdout and "broken symbolic link" in t.stderr


def test_driver_without_percent_a_says_so(tmp_path) -> None:
    write(tmp_path, "base", "{}")
    write(tmp_path, "theirs", "{}")
    run = subprocess.run(
        [sys.executable, "-m", "asimov_hooks.merge.driver", "base", "missing", "theirs", "7", "x"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr and "%A" in run.stderr, run


def test_no_archive_in_a_read_only_directory(unprivileged) -> None:
    """Runs as user nobody when the suite runs as root (root writes anywhere)."""
    git_init(unprivileged.root)
    write(unprivileged.path("ro"), CP, LONG)
    os.chmod(unprivileged.path("ro"), 0o555)
    run = unprivileged.run("trim", "--no-archive", "ro/" + CP)
    assert run.returncode == 1 and "cannot write" in run.stderr and clean(run), run
    assert "already archived" not in run.stderr
    with open(unprivileged.path("ro", CP), encoding="utf-8") as fh:
        assert fh.read() == LONG  # nothing half-written


def test_debug_keeps_the_exit_code(tmp_path) -> None:
    """ASIMOV_HOOKS_DEBUG=1 adds the traceback; the exit code stays 2."""
    git_init(tmp_path)
    # an anchor: read by a YAML library, not the plain-shape reader
    write(tmp_path, CP, "milestone: &m m\nstatus: done\nin_progress: *m\n")
    # a real failure inside the process: YAML libraries that cannot be imported
    for name in ("ruamel", "yaml", "_yaml"):
        write(tmp_path, f"shadow/{name}/__init__.py", "raise RuntimeError('broken install')\n")
    env = {"PYTHONPATH": str(tmp_path / "shadow")}
    plain = validate(tmp_path, CP, **env)
    debug = validate(tmp_path, CP, ASIMOV_HOOKS_DEBUG="1", **env)
    assert plain.returncode == debug.returncode == 2, (plain, debug)
    assert "internal error" in plain.stderr and "Traceback" not in plain.stderr
    assert "Traceback" in debug.stderr


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a: 1\n<<< ours\nb: 2\n===\nb: 3\n>>> theirs\n", 2),
        ("notes: |\n  x\n<<<< HEAD\n  y\n====\n  z\n>>>> other\n", 3),
        ("a: 1\r\n<<< ours\r\nb: 2\r\n===\r\nb: 3\r\n>>> theirs\r\n", 2),
        ("notes: |\n  <<< quoted arrows\n  >>> are prose\n", None),  # indented: not markers
        ("<<< ours\n====\n>>> theirs\n", None),  # sizes differ: not one block
        ("<<< ours\n>>> theirs\n", None),  # no separator
        (">>>>>>> left over\n", 1),  # the default size stands alone
    ],
)
def test_small_conflict_markers_only_as_a_whole_block(text: str, line: int | None) -> None:
    from asimov_hooks.conflict_markers import find_conflict_marker

    assert find_conflict_marker(text) == line
