"""Issue 13, "merges that stay clean": the trim archive, the union of `completed` past the
window, and what `install` / `uninstall` / `doctor` and the post-checkout hook do to a
repository. Real git merges and rebases, the console scripts, the real pre-commit."""

from __future__ import annotations

import json
import os

import pytest
from conftest import commit_all, git, git_init, run_script, write
from ruamel.yaml import YAML

pytestmark = pytest.mark.usefixtures("isolated_home")

CP = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"


def hooks(cwd, *args: str):
    return run_script("asimov-hooks", *args, cwd=cwd)


def checkpoint(done: list[str]) -> str:
    items = "".join(f'  - "{t}"\n' for t in done)
    return f'milestone: "m"\nstatus: in_progress\ncompleted:\n{items}in_progress: "x"\n'


def load(path):
    with open(path, encoding="utf-8") as fh:
        return YAML(typ="safe").load(fh)


def attr(repo, path: str) -> str:
    return git(repo, "check-attr", "merge", "--", path).stdout.strip().rsplit(": ", 1)[1]


def two_branches_that_both_trimmed(tmp_path) -> str:
    """base: 5 items; main adds t6 and t7, side adds s1; each side trims (and archives)."""
    repo = git_init(tmp_path / "repo")
    assert hooks(repo, "install").returncode == 0
    base = [f"t{i}" for i in range(1, 6)]
    write(repo, CP, checkpoint(base))
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, CP, checkpoint([*base, "s1"]))
    assert hooks(repo, "trim", CP).returncode == 1  # modified
    commit_all(repo, "side: s1")
    git(repo, "checkout", "-q", "main")
    write(repo, CP, checkpoint([*base, "t6", "t7"]))
    assert hooks(repo, "trim", CP).returncode == 1
    commit_all(repo, "main: t6 t7")
    return repo


def everything_kept(repo) -> set[str]:
    kept = set(load(os.path.join(repo, CP))["completed"])
    for entry in load(os.path.join(repo, ARCHIVE)):
        kept |= set(entry["removed"]["completed"])
    return kept


@pytest.mark.parametrize("how", ["merge", "rebase"])
def test_both_sides_trimmed_merge_is_clean_and_loses_nothing(tmp_path, how: str) -> None:
    repo = two_branches_that_both_trimmed(tmp_path)
    if how == "merge":
        done = git(repo, "merge", "-q", "--no-edit", "side", check=False)
    else:
        git(repo, "checkout", "-q", "side")
        done = git(repo, "rebase", "-q", "main", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "<<<<<<<" not in open(os.path.join(repo, ARCHIVE)).read()  # noqa: SIM115
    assert len(load(os.path.join(repo, ARCHIVE))) == 2  # both trims' entries, union-merged
    completed = load(os.path.join(repo, CP))["completed"]
    # 4 + 1 + 1 passes the 5-item cap: the union keeps the newest 5, as the trimmer does,
    # so the merged file validates; the item it cut waits in the git directory
    assert len(completed) == 5
    assert run_script("asimov-validate", CP, cwd=repo).returncode == 0
    pending = os.path.join(repo, ".git", "asimov-hooks", "merge-archive.json")
    with open(pending, encoding="utf-8") as fh:
        (waiting,) = json.load(fh)["entries"]
    cut = set(waiting["entry"]["removed"]["completed"])
    assert len(cut) == 1 and everything_kept(repo) | cut == {f"t{i}" for i in range(1, 8)} | {"s1"}
    fixed = run_script("asimov-validate", "--fix", CP, cwd=repo)
    assert "archived 1 item the merge driver cut" in fixed.stdout, fixed.stdout + fixed.stderr
    after = run_script("asimov-validate", CP, ARCHIVE, cwd=repo)
    assert after.returncode == 0, after.stdout
    assert everything_kept(repo) == {f"t{i}" for i in range(1, 8)} | {"s1"}


def test_install_routes_the_archive_and_the_conflicts_hook_checks_it(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    assert hooks(repo, "install", "-q").returncode == 0
    assert attr(repo, ARCHIVE) == "asimov-checkpoint"
    assert attr(repo, ".asimov/checkpoint.archive.yaml") == "asimov-checkpoint"
    assert attr(repo, CP) == "asimov-checkpoint"
    from conftest import ROOT

    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        manifest = {h["id"]: h for h in YAML(typ="safe").load(fh)}
    hook = manifest["asimov-checkpoint-conflicts"]
    import re

    assert re.search(hook["files"], ARCHIVE) and re.search(hook["files"], "x/" + ARCHIVE)
    write(repo, ARCHIVE, "- a: 1\n<<<<<<< ours\n- b: 2\n=======\n- c: 3\n>>>>>>> theirs\n")
    entry = hook["entry"].split()
    done = run_script(entry[0], *entry[1:], ARCHIVE, cwd=repo)
    assert done.returncode == 1
    assert f"{ARCHIVE}:2:1: error conflict-markers" in done.stdout


def test_trim_names_an_archive_with_conflict_markers_and_its_line(tmp_path) -> None:
    write(tmp_path, ARCHIVE, "- a: 1\n<<<<<<< ours\n- b: 2\n=======\n- c: 3\n>>>>>>> x\n")
    write(tmp_path, CP, checkpoint([f"t{i}" for i in range(8)]))
    before = open(tmp_path / CP).read()  # noqa: SIM115
    done = hooks(tmp_path, "trim", CP)
    assert done.returncode == 1
    assert "has unresolved merge conflict markers (line 2)" in done.stderr
    assert open(tmp_path / CP).read() == before  # noqa: SIM115


def test_uninstall_removes_the_gitattributes_install_created(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    first = hooks(repo, "install")
    assert "commit .gitattributes" in first.stdout
    git(repo, "config", "--unset", "merge.asimov-checkpoint.recursive")
    again = hooks(repo, "install")
    assert "set merge.asimov-checkpoint.recursive" in again.stdout
    assert "commit .gitattributes" not in again.stdout  # it did not change
    done = hooks(repo, "uninstall")
    assert done.returncode == 0
    assert "deleted .gitattributes" in done.stdout
    assert not os.path.exists(os.path.join(repo, ".gitattributes"))


def test_doctor_honours_the_disable_variable(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    assert hooks(repo, "install", "-q").returncode == 0
    assert hooks(repo, "doctor").returncode == 0
    done = run_script("asimov-hooks", "doctor", cwd=repo, ASIMOV_HOOKS_MERGE_DRIVER="0")
    assert done.returncode == 1
    assert "active" not in done.stdout.splitlines()[-1]
    assert "disabled here by ASIMOV_HOOKS_MERGE_DRIVER" in done.stdout


def test_renaming_the_driver_leaves_no_old_section(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    assert hooks(repo, "install", "-q").returncode == 0
    write(repo, ".asimov-hooks.yaml", "merge: {driver-name: ckpt}\n")
    done = hooks(repo, "install")
    assert done.returncode == 0, done.stderr
    assert "removed merge.asimov-checkpoint.*" in done.stdout
    sections = git(repo, "config", "--local", "--get-regexp", r"^merge\.").stdout
    assert "asimov-checkpoint" not in sections and "merge.ckpt.driver" in sections
    assert attr(repo, CP) == "ckpt"


def test_another_driver_is_named_and_replaced_only_when_asked(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    own = "*.png binary\n.checkpoints/*.checkpoint.json merge=opchain-checkpoint\n"
    write(repo, ".gitattributes", own)
    oc = ".checkpoints/oc-git-ops.checkpoint.json"
    done = hooks(repo, "install")
    assert done.returncode == 0
    assert (
        ".checkpoints/*.checkpoint.json is routed to merge=opchain-checkpoint by .gitattributes "
        "line 2; left as it is" in done.stderr
    )
    assert attr(repo, oc) == "opchain-checkpoint" and attr(repo, CP) == "asimov-checkpoint"
    replaced = hooks(repo, "install", "--replace")
    assert "replaces merge=opchain-checkpoint" in replaced.stderr
    assert attr(repo, oc) == "asimov-checkpoint"
    assert hooks(repo, "install").returncode == 0  # a later plain install keeps the choice
    assert attr(repo, oc) == "asimov-checkpoint"
    assert hooks(repo, "uninstall", "-q").returncode == 0
    assert open(os.path.join(repo, ".gitattributes")).read() == own  # noqa: SIM115
    assert attr(repo, oc) == "opchain-checkpoint"
