"""Hostile input, a committed config and concurrency (issue 10): every class reproduced
from real files, real git repositories and real processes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import commit_all, git, git_init, run_script, write

CP = ".claude_checkpoint.yaml"
OC = ".checkpoints/oc-app-architect.checkpoint.json"
LONG = "milestone: m\nstatus: in_progress\ncompleted:\n" + "".join(
    f"  - task {i}\n" for i in range(9)
)
DEEP = 50_000


def trim(cwd, *args: str, **env: str):
    return run_script("asimov-hooks", "trim", *args, cwd=cwd, **env)


def validate(cwd, *args: str, **env: str):
    return run_script("asimov-validate", *args, cwd=cwd, **env)


def one_line(text: str) -> bool:
    return "Traceback" not in text and "internal error" not in text


def archive_entries(path) -> list:
    from ruamel.yaml import YAML

    with open(path, encoding="utf-8") as fh:
        return YAML(typ="safe").load(fh) or []


# ------------------------------------------------------------------ depth
@pytest.mark.parametrize(
    ("name", "text"),
    [
        (CP, "milestone: m\nnotes: " + "[" * DEEP + "]" * DEEP + "\n"),
        (CP, "milestone: m\nnotes: " + "{a: " * DEEP + "1" + "}" * DEEP + "\n"),
        (CP, "milestone: m\nnotes:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 300))),
        (CP, "milestone: m\nnotes:\n  " + "- " * 5000 + "x\n"),
        (OC, "[" * DEEP + "]" * DEEP),
        (OC, '{"a": ' * 20_000 + "1" + "}" * 20_000),
    ],
    ids=["yaml-flow", "yaml-flow-map", "yaml-block", "yaml-compact-seq", "json", "json-object"],
)
def test_deep_nesting_refused_before_parsing(tmp_path, name: str, text: str) -> None:
    git_init(tmp_path)
    write(tmp_path, name, text)
    run = validate(tmp_path, "--select", "syntax", name)
    assert run.returncode == 1, run
    assert "levels deep; not parsed" in run.stdout and one_line(run.stdout + run.stderr)
    if name == CP:
        run = trim(tmp_path, name)
        assert run.returncode == 1 and one_line(run.stdout + run.stderr), run
        assert "not trimmed" in run.stderr and "levels deep" in run.stderr


def test_nesting_within_the_limit_is_read(tmp_path) -> None:
    git_init(tmp_path)
    depth = 90
    notes = "[" * depth + "]" * depth
    write(tmp_path, CP, f"milestone: m\nstatus: done\nnotes: {notes}\n")
    run = validate(tmp_path, "--select", "syntax", CP)
    assert run.returncode == 0, run


def test_depth_limit_is_data_and_bounded(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, "milestone: m\nstatus: done\nnotes: [[[[[x]]]]]\n")
    write(tmp_path, ".asimov-hooks.yaml", "limits:\n  max-depth: 3\n")
    run = validate(tmp_path, "--select", "syntax", CP)
    assert run.returncode == 1 and "nested more than 3 levels deep" in run.stdout
    write(tmp_path, ".asimov-hooks.yaml", "limits:\n  max-depth: 100000\n")
    run = validate(tmp_path, CP)
    assert run.returncode == 2 and "limits.max-depth" in run.stderr, run


def test_deep_config_file(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, "milestone: m\nstatus: done\n")
    write(tmp_path, ".asimov-hooks.yaml", "exclude: " + "[" * DEEP + "]" * DEEP + "\n")
    run = validate(tmp_path, CP)
    assert run.returncode == 2 and "levels deep" in run.stderr and one_line(run.stderr), run


def test_deep_archive(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, LONG)
    write(tmp_path, ".claude_checkpoint.archive.yaml", "- " + "[" * DEEP + "]" * DEEP + "\n")
    run = trim(tmp_path, CP)
    assert run.returncode == 1 and "levels deep" in run.stderr and one_line(run.stderr), run
    with open(tmp_path / CP) as fh:
        assert fh.read() == LONG  # untouched: the archive could not take the entry


def _merge_driver(cwd, base: str, ours: str, theirs: str, name: str = OC):
    for side, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        write(cwd, side, text)
    return subprocess.run(
        [sys.executable, "-m", "asimov_hooks.merge.driver", "base", "ours", "theirs", "7", name],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deep_side_in_merge_driver(tmp_path) -> None:
    git_init(tmp_path)
    base = '{"status": "in_progress", "x": 1}\n'
    ours = '{"status": "in_progress", "x": 2}\n'
    theirs = '{"status": "in_progress", "x": ' + "[" * DEEP + "]" * DEEP + "}\n"
    run = _merge_driver(tmp_path, base, ours, theirs)
    assert run.returncode == 1 and "levels deep" in run.stderr and one_line(run.stderr), run


# ------------------------------------------------------------------ scalars
@pytest.mark.parametrize("value", ["2026-13-45", "!!int foo", "!!bool maybe", "9" * 5000])
def test_unconvertible_scalar_is_not_trimmed_and_the_batch_goes_on(tmp_path, value) -> None:
    git_init(tmp_path)
    write(tmp_path, "a/" + CP, LONG.replace("status: in_progress", f"timestamp: {value}"))
    write(tmp_path, "b/" + CP, LONG)
    run = trim(tmp_path, "a/" + CP, "b/" + CP)
    assert run.returncode == 1 and one_line(run.stderr), run
    assert f"a/{CP}: error: not trimmed:" in run.stderr
    assert f"Fixing b/{CP}" in run.stdout
    run = validate(tmp_path, "--fix", "a/" + CP, "b/" + CP)
    assert run.returncode == 1 and one_line(run.stdout + run.stderr), run


# ------------------------------------------------------------------ aliases
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(8)
)


def test_alias_bomb_in_merge_driver_falls_back_to_a_conflict(tmp_path) -> None:
    name = ".asimov/checkpoint.yaml"
    base = "milestone: m\nstatus: in_progress\ntool_calls: 1\n"
    ours = "milestone: m\nstatus: in_progress\ntool_calls: 2\n"
    theirs = base + BOMB.replace("\n", "\n", 1)
    theirs = "milestone: m\nstatus: in_progress\ntool_calls: 1\nnotes:\n" + "".join(
        "  " + line + "\n" for line in BOMB.splitlines()
    )
    run = _merge_driver(tmp_path, base, ours, theirs, name)
    assert run.returncode == 1 and one_line(run.stderr), run
    assert "alias" in run.stderr
    assert os.path.getsize(tmp_path / "ours") < 10_000  # never an expanded file


def test_alias_references_are_bounded(tmp_path) -> None:
    git_init(tmp_path)
    many = "milestone: m\nstatus: done\nx: &x [1]\nnotes:\n" + "  - *x\n" * 50
    write(tmp_path, CP, many)
    write(tmp_path, ".asimov-hooks.yaml", "limits:\n  max-aliases: 10\n")
    run = validate(tmp_path, "--select", "yaml-aliases,syntax", CP)
    assert run.returncode == 1 and "more than 10 alias references" in run.stdout, run


# ------------------------------------------------------------------ JSON numbers
@pytest.mark.parametrize("value", ["NaN", "1e999", "-Infinity"])
def test_json_non_numbers_in_merge_driver(tmp_path, value: str) -> None:
    base = '{"status": "in_progress", "n": 1, "m": 1}\n'
    ours = '{"status": "in_progress", "n": 2, "m": 1}\n'
    theirs = '{"status": "in_progress", "n": 1, "m": ' + value + "}\n"
    run = _merge_driver(tmp_path, base, ours, theirs)
    assert run.returncode == 1 and one_line(run.stderr), run
    assert "fell back to git's line merge" in run.stderr


# ------------------------------------------------------------------ concurrency
def _spawn_trims(cwd, paths: list[str]) -> list[subprocess.CompletedProcess]:
    from conftest import SCRIPTS, script_env

    exe = os.path.join(SCRIPTS, "asimov-hooks")
    procs = [
        subprocess.Popen(
            [exe, "trim", path],
            cwd=os.fspath(cwd),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=script_env(),
        )
        for path in paths
    ]
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=300)
        out.append(subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr))
    return out


def test_twenty_concurrent_trims_share_one_archive(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, ".asimov-hooks.yaml", "trim:\n  archive:\n    path: ../trim-archive.yaml\n")
    paths = [f"d{i:02}/{CP}" for i in range(20)]
    for i, path in enumerate(paths):
        write(tmp_path, path, LONG.replace("task", f"d{i} task"))
    runs = _spawn_trims(tmp_path, paths)
    assert all(r.returncode == 1 and one_line(r.stderr) for r in runs), runs
    entries = archive_entries(tmp_path / "trim-archive.yaml")
    assert sorted(e["source"] for e in entries) == sorted(paths)
    removed = [item for e in entries for item in e["removed"]["completed"]]
    assert len(removed) == len(set(removed)) == 20 * 4


def test_concurrent_trims_of_one_file_archive_each_item_once(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, LONG)
    runs = _spawn_trims(tmp_path, [CP] * 8)
    assert all(one_line(r.stderr) for r in runs), runs
    entries = archive_entries(tmp_path / ".claude_checkpoint.archive.yaml")
    removed = [item for e in entries for item in e["removed"]["completed"]]
    assert sorted(removed) == [f"task {i}" for i in range(4)]


def test_big_archive_is_not_parsed_whole(tmp_path) -> None:
    """Past limits.archive-check-bytes only the last entry is read: an archive whose
    old part no YAML reader accepts still takes a new entry, and nothing before it moves."""
    git_init(tmp_path)
    write(tmp_path, ".asimov-hooks.yaml", "limits:\n  archive-check-bytes: 1024\n")
    old = "- {broken: [\n" + "# padding\n" * 200 + "- trimmed_at: x\n  removed: {}\n"
    write(tmp_path, ".claude_checkpoint.archive.yaml", old)
    write(tmp_path, CP, LONG)
    run = trim(tmp_path, CP)
    assert run.returncode == 1 and "archived what was removed" in run.stdout, run
    with open(tmp_path / ".claude_checkpoint.archive.yaml") as fh:
        text = fh.read()
    assert text.startswith(old) and "task 3" in text[len(old) :]


def test_trim_hook_is_serial() -> None:
    from conftest import ROOT
    from ruamel.yaml import YAML

    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml")) as fh:
        hooks = {h["id"]: h for h in YAML(typ="safe").load(fh)}
    assert hooks["asimov-trim"].get("require_serial") is True


# ------------------------------------------------------------------ outside the repository
@pytest.mark.parametrize("where", ["../outside.yaml", "~/archive.yaml", "/tmp/x/archive.yaml"])
def test_config_cannot_put_the_archive_outside_the_repository(tmp_path, where, isolated_home):
    repo = tmp_path / "repo"
    git_init(repo)
    write(repo, ".asimov-hooks.yaml", f"trim:\n  archive:\n    path: {where}\n")
    write(repo, CP, LONG)
    run = trim(repo, CP, HOME=str(isolated_home))
    assert run.returncode == 2 and "outside" in run.stderr and one_line(run.stderr), run
    assert not os.path.exists(tmp_path / "outside.yaml")
    assert not os.path.exists(isolated_home / "archive.yaml")
    with open(repo / CP) as fh:
        assert fh.read() == LONG


def test_symlinked_archive_leaving_the_repository_is_refused(tmp_path) -> None:
    repo = tmp_path / "repo"
    git_init(repo)
    outside = tmp_path / "victim.yaml"
    outside.write_text("- keep: me\n")
    os.symlink(outside, repo / ".claude_checkpoint.archive.yaml")
    write(repo, CP, LONG)
    commit_all(repo, "committed symlink")
    run = trim(repo, CP)
    assert run.returncode == 2 and "outside" in run.stderr, run
    assert outside.read_text() == "- keep: me\n"
    # a symlink that stays inside is fine
    os.unlink(repo / ".claude_checkpoint.archive.yaml")
    os.makedirs(repo / "archives")
    (repo / "archives/a.yaml").write_text("")
    os.symlink("archives/a.yaml", repo / ".claude_checkpoint.archive.yaml")
    run = trim(repo, CP)
    assert run.returncode == 1 and "archived what was removed" in run.stdout, run
    assert archive_entries(repo / "archives/a.yaml")


def test_command_line_archive_may_be_anywhere(tmp_path) -> None:
    repo = tmp_path / "repo"
    git_init(repo)
    write(repo, CP, LONG)
    run = trim(repo, "--archive", str(tmp_path / "mine.yaml"), CP)
    assert run.returncode == 1 and archive_entries(tmp_path / "mine.yaml"), run


def test_symlinked_checkpoint_outside_the_repository_is_not_written(tmp_path) -> None:
    repo = tmp_path / "repo"
    git_init(repo)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(LONG)
    os.symlink(outside, repo / CP)
    git(repo, "add", "-A")
    run = trim(repo, CP)
    assert run.returncode == 1 and "outside" in run.stderr, run
    assert outside.read_text() == LONG


# ------------------------------------------------------------------ patterns
def test_globs_are_linear_in_the_path(tmp_path) -> None:
    """Config globs that a backtracking matcher takes exponential or polynomial time
    over; each run ends (no timing asserted: a backtracking matcher would not end)."""
    git_init(tmp_path)
    deep = "/".join(["a"] * 60) + "/" + CP
    write(tmp_path, deep, "milestone: m\nstatus: done\n")
    exclude = ["**/" * 40 + "zzz/**/b", "*a*a*a*a*a*a*a*a*a*a*a*a*a*b?", "/" + "**/" * 40 + "q"]
    write(tmp_path, ".asimov-hooks.yaml", "exclude:\n" + "".join(f"  - '{p}'\n" for p in exclude))
    run = validate(tmp_path, "-v", ".")
    assert run.returncode == 0 and "1 file checked" in run.stdout, run


def test_glob_semantics_kept() -> None:
    from asimov_hooks.config.globs import glob_match

    assert glob_match("a/b/c.yaml", "**/[bc]/*.y?ml")
    assert glob_match("x/a/q/r/b", "a/**/b") and glob_match("a/b", "a/**/b")
    assert not glob_match("a", "a/**") and glob_match("a/b/c", "a/**")
    assert glob_match("aXb", "a[!Y]b") and not glob_match("aYb", "a[!Y]b")
    assert not glob_match("a" * 3000, "*a*a*a*a*a*a*a*b?")


USER_SCHEMA_CONFIG = "kinds:\n  asimov-checkpoint:\n    schema: ./schemas/cp.json\n"


@pytest.mark.parametrize(
    ("schema", "says"),
    [
        ('{"type": 5}', "schema keyword 'type'"),
        ('{"properties": {"a": {"minLength": "x"}}}', "schema keyword 'minLength'"),
        ('{"$ref": "#/nope"}', "$ref '#/nope' does not resolve"),
        ('{"$ref": "other.json#/x"}', "does not resolve inside the schema"),
        ('{"$defs": {"a": {"allOf": [{"$ref": "#"}]}}, "$ref": "#/$defs/a"}', "$ref loop"),
        ('{"properties": {"notes": {"pattern": "(unclosed"}}}', "schema keyword 'pattern'"),
        ('{"properties": {"notes": {"pattern": "^(a+)+$"}}}', "ran longer than"),
        ("[1, 2", "invalid JSON"),
    ],
    ids=[
        "type",
        "minLength",
        "unresolved-ref",
        "remote-ref",
        "ref-loop",
        "bad-regex",
        "catastrophic-regex",
        "not-json",
    ],
)
def test_bad_user_schema_is_a_config_error(tmp_path, schema: str, says: str) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, "milestone: m\nstatus: done\nnotes: '" + "a" * 40 + "!'\n")
    write(tmp_path, ".asimov-hooks.yaml", USER_SCHEMA_CONFIG)
    write(tmp_path, "schemas/cp.json", schema)
    run = validate(tmp_path, CP)
    assert run.returncode == 2 and says in run.stderr and one_line(run.stderr), run
    assert "cp.json" in run.stderr


def test_user_schema_inside_the_repository_is_used(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, "milestone: m\nstatus: done\n")
    write(tmp_path, ".asimov-hooks.yaml", USER_SCHEMA_CONFIG)
    write(tmp_path, "schemas/cp.json", '{"required": ["owner"]}')
    run = validate(tmp_path, CP)
    assert run.returncode == 1 and "error schema" in run.stdout and "owner" in run.stdout, run


@pytest.mark.parametrize("where", ["../../../../etc/passwd", "/etc/passwd", "../x.json"])
def test_schema_outside_the_repository_is_refused(tmp_path, where: str) -> None:
    repo = tmp_path / "repo"
    git_init(repo)
    (tmp_path / "x.json").write_text("{}")
    write(repo, CP, "milestone: m\nstatus: done\n")
    write(repo, ".asimov-hooks.yaml", f"kinds:\n  asimov-checkpoint:\n    schema: {where}\n")
    run = validate(repo, CP)
    assert run.returncode == 2 and "outside" in run.stderr and "root:" not in run.stderr, run


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("/dev/zero", "is not a config file"),
        ("/etc/passwd", "is not a config file"),
        ("big.yaml", "over the 1,048,576-byte limit"),
        ("secret.yaml", "not a valid asimov-hooks config"),
        ("fifo.yaml", "not a regular file"),
    ],
)
def test_extends_is_bounded_and_never_echoes(tmp_path, target: str, says: str) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, "milestone: m\nstatus: done\n")
    with open(tmp_path / "big.yaml", "w") as fh:
        fh.write("# " + "x" * (2 << 20) + "\n")
    write(tmp_path, "secret.yaml", "root: hunter2-secret\n")
    os.mkfifo(tmp_path / "fifo.yaml")
    write(tmp_path, ".asimov-hooks.yaml", f"extends: {target}\n")
    run = validate(tmp_path, CP)
    assert run.returncode == 2 and says in run.stderr and one_line(run.stderr), run
    assert "hunter2" not in run.stderr and "root:" not in run.stderr
