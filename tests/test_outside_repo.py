"""A checkout cannot make a command read or write outside its work tree or inside
`.git/`: through a symlink it commits, or a path in its committed config. Every case
runs the real command as a separate process and checks the files it must not touch."""

from __future__ import annotations

import json
import os
import time

import pytest
from conftest import commit_all, git_init, oc_checkpoint, run_script, write

CP = ".claude_checkpoint.yaml"
LONG = "milestone: m\nstatus: in_progress\ncompleted:\n" + "".join(
    f"  - task {i}\n" for i in range(9)
)
SKILL = "oc-app-architect"
OC = f".checkpoints/{SKILL}.checkpoint.json"


def clean(run) -> bool:
    """No traceback, no catch-all, and the error (if any) is one line."""
    text = run.stdout + run.stderr
    return "Traceback" not in text and "internal error" not in text


def hooks(repo, *args: str, **env: str):
    return run_script("asimov-hooks", *args, cwd=repo, **env)


def tree(path) -> dict[str, tuple]:
    """name -> (kind, bytes or target, mode) of everything below `path`."""
    found = {}
    for directory, dirs, files in os.walk(path):
        for name in dirs + files:
            full = os.path.join(directory, name)
            rel = os.path.relpath(full, path)
            st = os.lstat(full)
            if os.path.islink(full):
                found[rel] = ("link", os.readlink(full), st.st_mode)
            elif os.path.isfile(full):
                with open(full, "rb") as fh:
                    found[rel] = ("file", fh.read(), st.st_mode)
            else:
                found[rel] = ("dir", None, st.st_mode)
    return found


# ------------------------------------------------------------------ trim's archive
@pytest.mark.parametrize(
    "where",
    [".git/hooks/post-checkout", ".git/config", "../x.yaml", ".git/../../x.yaml"],
)
def test_config_cannot_put_the_archive_into_git_or_outside(tmp_path, where: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov-hooks.yaml", f"trim:\n  archive:\n    path: {where}\n")
    write(repo, CP, LONG)
    before = tree(os.path.join(repo, ".git")), tree(tmp_path)
    run = hooks(repo, "trim", CP)
    assert run.returncode == 2 and clean(run), run
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "trim.archive.path" in lines[0], run.stderr
    assert "git directory" in lines[0] or "outside the repository" in lines[0], lines
    assert (tree(os.path.join(repo, ".git")), tree(tmp_path)) == before


def test_archive_through_a_symlink_into_git_is_refused(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    os.symlink(".git/hooks/post-checkout", os.path.join(repo, ".claude_checkpoint.archive.yaml"))
    write(repo, CP, LONG)
    before = tree(os.path.join(repo, ".git"))
    run = hooks(repo, "trim", CP)
    assert run.returncode in (1, 2) and clean(run) and "git directory" in run.stderr, run
    assert tree(os.path.join(repo, ".git")) == before
    with open(os.path.join(repo, CP)) as fh:
        assert fh.read() == LONG  # nothing archived, so nothing removed


def test_checkpoint_linked_into_git_is_not_trimmed(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".git/info/cp.yaml", LONG)
    os.symlink(".git/info/cp.yaml", os.path.join(repo, CP))
    before = tree(os.path.join(repo, ".git"))
    run = hooks(repo, "trim", CP)
    assert run.returncode == 1 and clean(run) and "git directory" in run.stderr, run
    assert tree(os.path.join(repo, ".git")) == before


# ------------------------------------------------------------------ .gitattributes
def test_install_does_not_append_through_a_symlinked_gitattributes(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    bashrc = tmp_path / "home" / ".bashrc"
    write(tmp_path, "home/.bashrc", "export PS1='$ '\n")
    os.symlink(bashrc, os.path.join(repo, ".gitattributes"))
    commit_all(repo, "a hostile clone")
    run = hooks(repo, "install")
    assert run.returncode == 2 and clean(run), run
    assert ".gitattributes" in run.stderr and "outside the repository" in run.stderr, run
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert bashrc.read_text() == "export PS1='$ '\n"
    run = hooks(repo, "uninstall")
    assert run.returncode == 2 and clean(run), run
    assert bashrc.read_text() == "export PS1='$ '\n"


def test_install_does_not_write_a_gitattributes_linked_into_git(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    os.symlink(".git/hooks/post-checkout", os.path.join(repo, ".gitattributes"))
    run = hooks(repo, "install")
    assert run.returncode == 2 and clean(run) and "git directory" in run.stderr, run
    assert not os.path.exists(os.path.join(repo, ".git/hooks/post-checkout"))


# ------------------------------------------------------------------ oc
@pytest.mark.parametrize("name", ["../out", "/tmp/asimov-oc-out", ".git/hooks", "a/../../out"])
def test_oc_directory_outside_or_in_git_is_refused(tmp_path, name: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov-hooks.yaml", f"oc:\n  directory: {name}\n")
    before = tree(tmp_path)
    for command in (["oc", "init", "--no-merge-driver"], ["oc", "status"]):
        run = hooks(repo, *command)
        assert run.returncode == 2 and clean(run), run
        assert "oc.directory" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert tree(tmp_path) == before
    assert not os.path.exists("/tmp/asimov-oc-out/README.md")


def test_oc_init_does_not_follow_a_symlinked_checkpoints_dir(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    os.makedirs(tmp_path / "elsewhere")
    os.symlink(tmp_path / "elsewhere", os.path.join(repo, ".checkpoints"))
    run = hooks(repo, "oc", "init", "--no-merge-driver")
    assert run.returncode == 2 and clean(run) and "outside the repository" in run.stderr, run
    assert os.listdir(tmp_path / "elsewhere") == []


def _rotatable(repo) -> None:
    doc = oc_checkpoint(skill_state={"merged_prs": [1, 2, 3]})
    write(repo, OC, doc)


def test_oc_rotate_does_not_follow_a_symlinked_history(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    _rotatable(repo)
    os.makedirs(tmp_path / "elsewhere")
    os.symlink(tmp_path / "elsewhere", os.path.join(repo, ".checkpoints/history"))
    with open(os.path.join(repo, OC), "rb") as fh:
        before = fh.read()
    run = hooks(repo, "oc", "rotate", SKILL)
    assert run.returncode == 2 and clean(run) and "outside the repository" in run.stderr, run
    assert os.listdir(tmp_path / "elsewhere") == []
    with open(os.path.join(repo, OC), "rb") as fh:
        assert fh.read() == before


@pytest.mark.parametrize(
    "pattern", ["../../{skill}.json", "/tmp/{skill}.json", "../../.git/{skill}.json"]
)
def test_oc_history_setting_outside_or_in_git_is_refused(tmp_path, pattern: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov-hooks.yaml", f'oc:\n  history: "{pattern}"\n')
    _rotatable(repo)
    before = tree(tmp_path)
    run = hooks(repo, "oc", "rotate", SKILL)
    assert run.returncode == 2 and clean(run), run
    assert "outside the repository" in run.stderr or "git directory" in run.stderr, run
    assert tree(tmp_path) == before
    assert not os.path.exists(f"/tmp/{SKILL}.json")


def test_oc_update_does_not_write_through_a_checkpoint_linked_outside(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(tmp_path, "victim.json", oc_checkpoint())
    os.makedirs(os.path.join(repo, ".checkpoints"))
    os.symlink(tmp_path / "victim.json", os.path.join(repo, OC))
    before = (tmp_path / "victim.json").read_bytes()
    run = hooks(repo, "oc", "update", SKILL, "--step=sprint-3")
    assert run.returncode == 2 and clean(run) and "outside the repository" in run.stderr, run
    assert (tmp_path / "victim.json").read_bytes() == before


# ------------------------------------------------------------------ user schema
@pytest.mark.parametrize("where", [".git/config", "./.git/../.git/HEAD"])
def test_user_schema_in_git_is_refused(tmp_path, where: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, CP, "milestone: m\nstatus: done\n")
    write(repo, ".asimov-hooks.yaml", f"kinds:\n  asimov-checkpoint:\n    schema: {where}\n")
    run = run_script("asimov-validate", CP, cwd=repo)
    assert run.returncode == 2 and clean(run) and "git directory" in run.stderr, run


# ------------------------------------------------------------------ config size
def test_config_is_bounded_before_it_is_read(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, CP, "milestone: m\nstatus: done\n")
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "wb") as fh:
        fh.truncate(2 * 1024 * 1024 * 1024)  # sparse: 2 GiB that costs nothing to make
    started = time.monotonic()
    run = run_script("asimov-validate", CP, cwd=repo)
    assert run.returncode == 2 and clean(run) and "limit for a config file" in run.stderr, run
    assert time.monotonic() - started < 60  # never read: a read of 2 GiB would not finish


# ------------------------------------------------------------------ stale temp files
def test_a_later_write_removes_temp_files_a_killed_trim_left(tmp_path) -> None:
    import subprocess
    import sys

    repo = git_init(tmp_path / "repo")
    write(repo, CP, LONG)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    dead = int(gone.stdout)
    alive = os.getpid()
    names = {
        "dead": f".{CP}.{dead}.abcd1234.tmp",  # its writer was killed
        "old": f".{CP}.k3j_9x0a.tmp",  # an older version's name, an hour old
        "fresh": f".{CP}.{alive}.zz99yy88.tmp",  # a writer still at work
        "other": f".{CP}.{dead}.abcd1234.tmp.keep",  # not our pattern
        "neighbour": f".other.yaml.{dead}.abcd1234.tmp",  # another file's temp
    }
    for name in names.values():
        write(repo, name, "partial")
    hour_ago = time.time() - 3600
    os.utime(os.path.join(repo, names["old"]), (hour_ago, hour_ago))
    os.mkdir(os.path.join(repo, f".{CP}.{dead}.dir12345.tmp"))  # not a regular file
    run = hooks(repo, "trim", CP)
    assert run.returncode == 1 and "Fixing" in run.stdout and clean(run), run
    left = set(os.listdir(repo))
    assert names["dead"] not in left and names["old"] not in left
    assert {names["fresh"], names["other"], names["neighbour"]} <= left
    assert f".{CP}.{dead}.dir12345.tmp" in left
    assert not [n for n in left if n.startswith(f".{CP}.") and n.endswith(".tmp")
                and n not in (names["fresh"], f".{CP}.{dead}.dir12345.tmp")]  # fmt: skip


def test_oc_write_leaves_no_temp_file(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, OC, oc_checkpoint())
    run = hooks(repo, "oc", "update", SKILL, "--step=sprint-3")
    assert run.returncode == 0 and clean(run), run
    assert os.listdir(os.path.join(repo, ".checkpoints")) == [os.path.basename(OC)]
    with open(os.path.join(repo, OC)) as fh:
        assert json.load(fh)["step"] == "sprint-3"
