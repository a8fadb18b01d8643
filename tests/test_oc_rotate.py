"""`asimov-hooks oc rotate` and the asimov-oc-rotate pre-commit hook, as whole processes."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess

import pytest
from conftest import ROOT, git, git_init, run_script, script_env, try_repo
from oc_data import checkpoints, make_project, oc, read, serialise

ARRAYS = ("merged_prs", "reconciliation_log")


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "gtrack"
    git_init(root)
    return root, make_project(root)


def archives(root) -> list[str]:
    history = os.path.join(root, ".checkpoints", "history")
    return sorted(
        n for n in os.listdir(history) if re.fullmatch(r"oc-git-ops\.\d{4}-\d\d-\d\d\.json", n)
    )


def new_archive(root) -> str:
    names = [n for n in archives(root) if n != "oc-git-ops.2025-12-01.json"]
    assert len(names) == 1, names
    return os.path.join(root, ".checkpoints", "history", names[0])


def test_rotate_moves_telemetry_and_loses_nothing(project):
    root, paths = project
    path = paths["oc-git-ops"]
    original = json.loads(read(path))
    proc = oc(root, "rotate", "oc-git-ops")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # a fixer that changed files
    assert re.match(
        r"\.checkpoints/oc-git-ops\.checkpoint\.json: rotated 42 items of skill_state\.merged_prs, "
        r"skill_state\.reconciliation_log to \.checkpoints/history/oc-git-ops\.\d{4}-\d\d-\d\d\.json\n$",
        proc.stdout,
    )
    # the checkpoint: only the two arrays emptied, updated_at not restamped
    expected = copy.deepcopy(original)
    for name in ARRAYS:
        expected["skill_state"][name] = []
    assert read(path) == serialise(expected)
    archive_file = new_archive(root)
    archive = json.loads(read(archive_file))
    assert archive["skill"] == "oc-git-ops"
    assert archive["rotated_from"] == "oc-git-ops.checkpoint.json"
    [rotation] = archive["rotations"]
    assert rotation["fields"] == {
        f"skill_state.{name}": original["skill_state"][name] for name in ARRAYS
    }
    assert os.path.basename(archive_file) == f"oc-git-ops.{rotation['at'][:10]}.json"
    assert read(archive_file).endswith(b"\n  ]\n}\n")
    # the older archive is left alone; every file validates
    assert oc(root, "rotate", "oc-git-ops").returncode == 0  # nothing left to move
    valid = run_script("asimov-validate", "-v", ".checkpoints", cwd=root)
    assert valid.returncode == 0, valid.stdout
    assert "history/oc-git-ops.2025-12-01.json: valid" in valid.stdout


def test_rotate_appends_to_the_archive_of_the_day_and_keeps(project):
    root, paths = project
    path = paths["oc-git-ops"]
    assert oc(root, "rotate", "oc-git-ops", "--keep", "3").returncode == 1
    doc = json.loads(read(path))
    assert [p["pr"] for p in doc["skill_state"]["merged_prs"]] == [38, 39, 40]
    assert len(doc["skill_state"]["reconciliation_log"]) == 2  # fewer than --keep: left alone
    more = oc(
        root,
        "update",
        "oc-git-ops",
        '--skill_state.merged_prs:json+={"pr": 41, "title": "Change 41"}',
    )
    assert more.returncode == 0, more.stderr
    assert oc(root, "rotate", "oc-git-ops").returncode == 1
    archive = json.loads(read(new_archive(root)))
    first, second = archive["rotations"]
    assert [p["pr"] for p in first["fields"]["skill_state.merged_prs"]] == list(range(1, 38))
    assert [p["pr"] for p in second["fields"]["skill_state.merged_prs"]] == [38, 39, 40, 41]
    assert second["fields"]["skill_state.reconciliation_log"] == [
        "2026-01-03: 10 PRs matched",
        "2026-01-05: 30 PRs matched",
    ]
    assert json.loads(read(path))["skill_state"] == {
        "merged_prs": [],
        "reconciliation_log": [],
        "branch": "main",
    }


def test_rotate_refuses_a_foreign_archive_and_writes_nothing(project):
    root, paths = project
    assert oc(root, "rotate", "oc-git-ops").returncode == 1
    archive_file = new_archive(root)
    with open(archive_file, "w", encoding="utf-8") as fh:
        fh.write('["someone else\'s list"]\n')
    more = oc(root, "update", "oc-git-ops", "--skill_state.merged_prs:json+=42")
    assert more.returncode == 0
    before, archived = read(paths["oc-git-ops"]), read(archive_file)
    proc = oc(root, "rotate", "oc-git-ops")
    assert proc.returncode == 2
    assert "not a JSON object; not appending to it" in proc.stderr
    assert (read(paths["oc-git-ops"]), read(archive_file)) == (before, archived)


def test_rotate_without_telemetry_and_unknown_skill(project):
    root, paths = project
    before = read(paths["oc-app-architect"])
    proc = oc(root, "rotate", "oc-app-architect")
    assert (proc.returncode, proc.stdout) == (
        0,
        ".checkpoints/oc-app-architect.checkpoint.json: no append-only skill_state telemetry to rotate\n",
    )
    assert read(paths["oc-app-architect"]) == before
    assert oc(root, "rotate", "oc-nope").returncode == 2


def _big(root, paths) -> bytes:
    doc = checkpoints(str(root))["oc-git-ops"]
    doc["skill_state"]["merged_prs"] = [
        {"pr": n, "title": f"Change {n}: a merged pull request with a long title"}
        for n in range(1, 601)
    ]
    data = serialise(doc)
    assert len(data) > 32768
    with open(paths["oc-git-ops"], "wb") as fh:
        fh.write(data)
    return data


def test_over_limit_only_rotates_big_checkpoints(project):
    root, paths = project
    files = [os.path.relpath(p, root) for p in paths.values()]
    before = {p: read(p) for p in paths.values()}
    quiet = oc(root, "rotate", "--over-limit", *files)
    assert (quiet.returncode, quiet.stdout) == (0, "")
    assert {p: read(p) for p in paths.values()} == before
    _big(root, paths)
    proc = oc(root, "rotate", "--over-limit", *files)
    assert proc.returncode == 1
    assert proc.stdout.count("rotated") == 1 and "oc-git-ops" in proc.stdout
    assert os.path.getsize(paths["oc-git-ops"]) < 32768
    assert (
        len(json.loads(read(new_archive(root)))["rotations"][0]["fields"]["skill_state.merged_prs"])
        == 600
    )


def test_over_limit_without_telemetry_says_so(project):
    root, paths = project
    doc = json.loads(read(paths["oc-deploy-ops"]))
    doc["progress_summary"] = "x" * 40000
    with open(paths["oc-deploy-ops"], "wb") as fh:
        fh.write(serialise(doc))
    proc = oc(root, "rotate", "--over-limit", ".checkpoints/oc-deploy-ops.checkpoint.json")
    assert proc.returncode == 1
    assert "holds no append-only skill_state telemetry to rotate; shorten it by hand" in proc.stdout


def test_rotate_hook_pattern_matches_oc_checkpoints_only():
    from ruamel.yaml import YAML

    from asimov_hooks.config.config import Config, default_data

    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        hooks = {h["id"]: h for h in YAML(typ="safe").load(fh)}
    hook = hooks["asimov-oc-rotate"]
    assert hook["entry"] == "asimov-hooks oc rotate --over-limit"
    regex = re.compile(hook["files"])
    config = Config(default_data(), None, "/")
    for path in (
        ".checkpoints/oc-git-ops.checkpoint.json",
        "app/.checkpoints/x.checkpoint.json",
        ".checkpoints/history/oc-git-ops.2026-01-01.json",
        ".checkpoints/README.md",
        ".claude_checkpoint.yaml",
    ):
        assert bool(regex.search(path)) == (config.kind_for(path) == "oc-checkpoint"), path


@pytest.mark.slow
def test_rotate_hook_under_pre_commit(head_clone, pre_commit_store, tmp_path):
    with open(os.path.join(head_clone, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        if "id: asimov-oc-rotate" not in fh.read():
            pytest.fail("HEAD has no asimov-oc-rotate hook: commit before running this test")
    root = tmp_path / "gtrack"
    git_init(root)
    paths = make_project(root)
    big = _big(root, paths)
    git(root, "add", "-A")
    tried = try_repo(
        head_clone, "asimov-oc-rotate", "--all-files", cwd=root, store=pre_commit_store
    )
    output = tried.stdout + tried.stderr
    assert tried.returncode == 1, output
    assert "files were modified by this hook" in output, output
    assert "oc-git-ops.checkpoint.json: rotated 602 items of skill_state.merged_prs, " in output
    assert len(read(paths["oc-git-ops"])) < len(big)
    assert len(archives(root)) == 2


def test_rotate_hook_without_work_imports_no_click(project):
    """The hook's usual run (nothing over the guideline) answers before click loads; a
    file over it still gets the full command."""
    import sys

    root, paths = project
    files = [os.path.relpath(p, root) for p in paths.values()]
    probe = (
        "import sys\n"
        "from asimov_hooks.cli.entrypoints import hooks_main\n"
        "code = hooks_main(sys.argv[1:])\n"
        "print('CLICK:', 'click' in sys.modules, 'CODE:', code)\n"
    )

    def run():
        return subprocess.run(
            [sys.executable, "-c", probe, "oc", "rotate", "--over-limit", *files],
            cwd=root,
            capture_output=True,
            text=True,
            env=script_env(),
            check=False,
        )

    quiet = run()
    assert quiet.stdout == "CLICK: False CODE: 0\n", quiet.stdout + quiet.stderr
    _big(root, paths)
    busy = run()
    assert busy.stdout.endswith("CLICK: True CODE: 1\n"), busy.stdout + busy.stderr
    assert "oc-git-ops.checkpoint.json: rotated 602 items" in busy.stdout
