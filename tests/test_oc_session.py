"""`asimov-hooks oc new / show / list / reset` (the protocol's `/checkpoint` show, list and
Restart), `oc done --updated_at`, `oc rotate --over-limit` without names and the status
lines, each run as its own process on the examples and on checkpoints written the way
the protocol's Node writer writes them."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from conftest import git, git_init, run_script
from oc_data import ago, make_project, oc, read, rewrite, serialise

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples", "oc-checkpoints")


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "gtrack"
    git_init(root)
    return root, make_project(root)


@pytest.fixture
def example(tmp_path):
    """The good example project, in a git work tree of its own."""
    root = tmp_path / "example"
    shutil.copytree(os.path.join(EXAMPLES, "good"), root)
    git_init(root)
    return root


def validate(root, *paths: str):
    proc = run_script("asimov-validate", *paths, cwd=root)
    assert "Traceback" not in proc.stderr
    return proc


# ------------------------------------------------------------------------- new
def test_new_writes_a_valid_checkpoint_that_update_and_done_accept(example):
    proc = oc(
        example,
        "new",
        "oc-code-auditor",
        "--phase=audit",
        "--step=scan",
        "--summary=Auditing the auth module.",
        "--next=Read src/auth.ts",
        "--next=Write the findings",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[0] == (
        ".checkpoints/oc-code-auditor.checkpoint.json: created (in_progress)"
    )
    path = example / ".checkpoints" / "oc-code-auditor.checkpoint.json"
    doc = json.loads(read(path))
    assert read(path) == serialise(doc)  # the protocol writer's layout
    assert list(doc)[:10] == [
        "protocol_version",
        "skill",
        "project",
        "project_dir",
        "created_at",
        "updated_at",
        "phase",
        "step",
        "status",
        "progress_summary",
    ]
    assert doc["project"] == "gtrack"  # the name the project's other checkpoint uses
    assert doc["project_dir"] == str(example)
    assert (doc["phase"], doc["step"], doc["status"]) == ("audit", "scan", "in_progress")
    assert doc["next_actions"] == ["Read src/auth.ts", "Write the findings"]
    assert doc["created_at"] == doc["updated_at"]
    checked = validate(example, "--strict", ".checkpoints/oc-code-auditor.checkpoint.json")
    assert checked.returncode == 0, checked.stdout
    done = oc(example, "done", "oc-code-auditor")
    assert done.returncode == 0, done.stdout + done.stderr
    updated = oc(example, "update", "oc-code-auditor", "--step=report")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    doc = json.loads(read(path))
    assert doc["next_actions"] == ["Write the findings"]
    assert doc["recently_done"][0]["action"] == "Read src/auth.ts"
    assert doc["step"] == "report"


def test_new_defaults_and_refuses_an_existing_file(tmp_path):
    root = tmp_path / "fresh-app"
    git_init(root)
    proc = oc(root, "new", "oc-app-architect")
    assert proc.returncode == 0, proc.stderr
    path = root / ".checkpoints" / "oc-app-architect.checkpoint.json"
    before = read(path)
    doc = json.loads(before)
    assert doc["project"] == "fresh-app"  # no other checkpoint: the directory's name
    assert (doc["phase"], doc["step"]) == ("start", "start")
    again = oc(root, "new", "oc-app-architect", "--phase=other")
    assert again.returncode == 2
    assert again.stderr.startswith("asimov-hooks oc: error: .checkpoints/oc-app-architect")
    assert "already exists" in again.stderr and len(again.stderr.splitlines()) == 1
    assert read(path) == before
    bad = oc(root, "new", "../escape")
    assert bad.returncode == 2 and "is not a skill name" in bad.stderr
    empty = oc(root, "new", "oc-x", "--summary=")
    assert empty.returncode == 0  # an empty option takes the default
    assert validate(root, ".checkpoints").returncode == 0


# ------------------------------------------------------------------------ show
def test_show_one_checkpoint_readable_and_as_json(project):
    root, paths = project
    proc = oc(root, "show", "oc-app-architect", COLUMNS="60")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert text.startswith(
        "oc-app-architect on gtrack  (.checkpoints/oc-app-architect.checkpoint.json)\n"
    )
    for expected in (
        "status: in_progress\n",
        "phase: build-loop\n",
        "summary: Sprint 1 passed (8.2/10). Sprint 2 generator built, evaluator running.\n",
        "  [x] planning  Planner  (complete)\n",
        "  [>] sprint-2  Sprint 2: CRUD  (in_progress)\n",
        "  [ ] sprint-3  Sprint 3: UI  (not_started)\n",
        "  - Two users: Aidan (admin), Dan (viewer) \u2014 r\u00f4les in D1.\n",
        "generated files (2):\n",
        "  \u26d4 b1 (user_decision, blocking sprint-2): Evaluator flagged",
        "     done when: npm test\n",
        "  - PLAT-4471 (source, linear)\n",
        '  "pass_threshold": 6.0\n',  # skill_state as written, not cut to the terminal
    ):
        assert expected in text, (expected, text)
    as_json = oc(root, "show", "oc-app-architect", "--json")
    assert json.loads(as_json.stdout) == json.loads(read(paths["oc-app-architect"]))


def test_show_everything_and_an_unreadable_checkpoint(example, tmp_path):
    shutil.copy(
        os.path.join(EXAMPLES, "bad", ".checkpoints", "oc-deploy-ops.checkpoint.json"),
        example / ".checkpoints",
    )
    proc = oc(example, "show")
    assert proc.returncode == 1  # a checkpoint shown does not parse
    assert "oc-app-architect on gtrack" in proc.stdout
    assert "oc-deploy-ops  (.checkpoints/oc-deploy-ops.checkpoint.json)\n  unreadable: " in (
        proc.stdout
    )
    doc = json.loads(oc(example, "show", "--json").stdout)
    assert [c["skill"] for c in doc["checkpoints"]] == ["oc-app-architect", "oc-deploy-ops"]
    assert doc["checkpoints"][1]["checkpoint"] is None and doc["checkpoints"][1]["problem"]
    missing = oc(example, "show", "oc-nope")
    assert missing.returncode == 2 and "no checkpoint for skill 'oc-nope'" in missing.stderr


def test_show_makes_control_characters_visible(project):
    root, paths = project
    rewrite(paths["oc-stack-forge"], lambda d: d.update(progress_summary="ok\x1b[31m red"))
    proc = oc(root, "show", "oc-stack-forge")
    assert "\x1b" not in proc.stdout and "summary: ok\\x1b[31m red" in proc.stdout


# ------------------------------------------------------------------------ list
def test_list_one_line_per_checkpoint(project):
    root, paths = project
    proc = oc(root, "list")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[0] for line in lines] == sorted(paths)
    arch = next(line for line in lines if line.startswith("oc-app-architect "))
    assert arch.split() == [
        "oc-app-architect",
        "in_progress",
        "2h",
        "ago",
        ".checkpoints/oc-app-architect.checkpoint.json",
    ]
    assert "\u26a0" in next(line for line in lines if line.startswith("oc-git-ops "))  # stale
    doc = json.loads(oc(root, "list", "--format", "json").stdout)
    rows = {r["skill"]: r for r in doc["checkpoints"]}
    assert rows["oc-deploy-ops"]["status"] == "failed"
    assert rows["oc-git-ops"]["stale_days"] > 7
    empty = oc(root / "src", "list", "--dir", str(root / "src"))
    assert empty.returncode == 0 and empty.stdout.startswith("no checkpoints in ")


# ----------------------------------------------------------------------- reset
def test_reset_archives_every_time_and_starts_afresh(project):
    root, paths = project
    path = paths["oc-app-architect"]
    first = read(path)
    proc = oc(root, "reset", "oc-app-architect", "--phase=planning")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    history = root / ".checkpoints" / "history"
    archives = sorted(p for p in os.listdir(history) if p.endswith(".bak"))
    assert len(archives) == 1 and archives[0].startswith("oc-app-architect.")
    assert archives[0].endswith(".checkpoint.json.bak")
    assert f"archived to .checkpoints/history/{archives[0]}; started afresh" in proc.stdout
    assert read(history / archives[0]) == first  # byte for byte
    doc = json.loads(read(path))
    assert (doc["project"], doc["project_dir"], doc["phase"]) == ("gtrack", str(root), "planning")
    assert doc["status"] == "in_progress" and doc["next_actions"] == []
    second = read(path)
    again = oc(root, "reset", "oc-app-architect")
    assert again.returncode == 0, again.stderr
    archives = sorted(p for p in os.listdir(history) if p.endswith(".bak"))
    assert len(archives) == 2  # the same second too: both archives kept
    assert {read(history / a) for a in archives} == {first, second}
    checked = validate(root, "--strict", ".checkpoints/oc-app-architect.checkpoint.json")
    assert checked.returncode == 0, checked.stdout


def test_reset_restarts_a_checkpoint_that_does_not_parse(example):
    broken = os.path.join(EXAMPLES, "bad", ".checkpoints", "oc-deploy-ops.checkpoint.json")
    shutil.copy(broken, example / ".checkpoints")
    proc = oc(example, "reset", "oc-deploy-ops")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    history = example / ".checkpoints" / "history"
    (archive,) = [p for p in os.listdir(history) if p.endswith(".bak")]
    assert read(history / archive) == read(broken)
    assert validate(example, ".checkpoints").returncode == 0
    missing = oc(example, "reset", "oc-nope")
    assert missing.returncode == 2 and "no checkpoint for skill" in missing.stderr


# ----------------------------------------------------- done, rotate, status lines
def test_done_with_an_explicit_time_stamps_it_everywhere(project):
    root, paths = project
    doc_action = "Read evaluator report: sprints/sprint-2/eval-round-1.md"
    when = ago(hours=1)
    proc = oc(root, "done", "oc-app-architect", f"--updated_at={when}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(read(paths["oc-app-architect"]))
    assert doc["updated_at"] == when
    assert doc["recently_done"][0] == {"action": doc_action, "at": when}


def test_rotate_over_limit_without_names_rotates_every_big_checkpoint(project):
    root, paths = project
    prs = [{"pr": n, "title": "x" * 400} for n in range(100)]
    for skill in ("oc-git-ops", "oc-code-auditor"):
        rewrite(paths[skill], lambda d: d.setdefault("skill_state", {}).update(merged_prs=prs))
    small = read(paths["oc-app-architect"])
    proc = oc(root, "rotate", "--over-limit")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # files changed, as every fixer
    rotated = sorted(line.split(":")[0] for line in proc.stdout.splitlines())
    assert rotated == [
        ".checkpoints/oc-code-auditor.checkpoint.json",
        ".checkpoints/oc-git-ops.checkpoint.json",
    ]
    for skill in ("oc-git-ops", "oc-code-auditor"):
        assert json.loads(read(paths[skill]))["skill_state"]["merged_prs"] == []
    assert read(paths["oc-app-architect"]) == small
    assert oc(root, "rotate", "--over-limit").returncode == 0  # nothing left over
    usage = oc(root, "rotate")
    assert usage.returncode == 2 and "--over-limit" in usage.stderr


def test_status_names_the_project_and_links_deploy_tickets_upstream(project):
    root, paths = project
    deploy = [
        {"provider": "linear", "id": "PLAT-4485", "role": "deploy"},
        {"provider": "linear", "id": "PLAT-4471", "role": "linked"},
    ]
    rewrite(paths["oc-deploy-ops"], lambda d: d.update(pm_refs=deploy))
    incident = [
        {"provider": "linear", "id": "PLAT-4503", "role": "incident", "upstream": "PLAT-4485"}
    ]
    rewrite(paths["oc-stack-forge"], lambda d: d.update(pm_refs=incident))
    proc = oc(root, "status", COLUMNS="150")
    assert proc.returncode == 0, proc.stderr
    assert "    PM: PLAT-4471 (source) + 2 children\n" in proc.stdout
    assert "    PM: PLAT-4485 (deploy) \u2192 PLAT-4471\n" in proc.stdout
    assert "    PM: PLAT-4503 (incident) \u2192 PLAT-4485\n" in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("gtrack: 6 checkpoints")
    doc = json.loads(oc(root, "status", "--format", "json").stdout)
    assert doc["project"] == "gtrack"


def test_the_checkpoint_command_table_maps_one_to_one(project):
    """/checkpoint, /checkpoint next|doctor|show|reset|list: each is `asimov-hooks oc <it>`."""
    root, _ = project
    git(root, "add", "-A")
    git(root, "commit", "-qm", "checkpoints")
    for args in (("status",), ("next",), ("doctor",), ("show",), ("list",)):
        proc = oc(root, *args)
        assert proc.returncode in (0, 1), (args, proc.stderr)
        assert proc.stdout, args
    proc = oc(root, "reset", "oc-stack-forge")
    assert proc.returncode == 0, proc.stderr


def test_reset_without_a_skill_takes_the_only_checkpoint(example, project):
    proc = oc(example, "reset")  # the good example holds one checkpoint
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(".checkpoints/oc-app-architect.checkpoint.json: archived to ")
    root, _ = project
    several = oc(root, "reset")
    assert several.returncode == 2
    assert "name the skill to reset (the project's checkpoints: oc-app-architect, " in (
        several.stderr
    )


def test_reset_never_writes_through_a_link_out_of_the_repository(project, tmp_path):
    root, paths = project
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(root / ".checkpoints" / "history")
    os.symlink(outside, root / ".checkpoints" / "history")
    before = read(paths["oc-app-architect"])
    proc = oc(root, "reset", "oc-app-architect")
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "leads outside the repository" in proc.stderr
    assert os.listdir(outside) == [] and read(paths["oc-app-architect"]) == before
