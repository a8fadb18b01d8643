"""`asimov-hooks oc update / done / init` as whole processes: written bytes, refusals,
layout kept as the protocol's writer writes it."""

from __future__ import annotations

import datetime
import json
import os
import re
import stat

import pytest
from conftest import git, git_init
from oc_data import make_project, oc, read

STAMP = re.compile(rb'"updated_at": "(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?Z)"')


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "gtrack"
    git_init(root)
    return root, make_project(root)


def restamped(before: bytes, after: bytes, started: datetime.datetime) -> bytes:
    """`before` with its updated_at replaced by the one in `after` (checked to be fresh)."""
    stamps = STAMP.findall(after)
    assert len(stamps) == 1, after
    when = datetime.datetime.strptime(stamps[0].decode()[:19], "%Y-%m-%dT%H:%M:%S")
    when = when.replace(tzinfo=datetime.timezone.utc)
    assert started.replace(microsecond=0) <= when <= datetime.datetime.now(datetime.timezone.utc)
    return STAMP.sub(b'"updated_at": "' + stamps[0] + b'"', before)


def now():
    return datetime.datetime.now(datetime.timezone.utc)


def test_update_is_a_minimal_diff(project):
    root, paths = project
    path = paths["oc-app-architect"]
    before = read(path)
    started = now()
    proc = oc(
        root,
        "update",
        "oc-app-architect",
        "--step=sprint-2-eval-round-2",
        "--context_primer.key_decisions+=Rate limiting: 10 req/min per IP.",
        "--progress_table.sprint-2.status=complete",
        "--skill_state.current_sprint:json=3",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith(".checkpoints/oc-app-architect.checkpoint.json: updated step = ")
    after = read(path)
    expected = restamped(before, after, started)
    expected = expected.replace(
        b'"step": "sprint-2-eval-round-1"', b'"step": "sprint-2-eval-round-2"'
    )
    expected = expected.replace(
        b'"Two users: Aidan (admin), Dan (viewer) \xe2\x80\x94 r\xc3\xb4les in D1."\n',
        b'"Two users: Aidan (admin), Dan (viewer) \xe2\x80\x94 r\xc3\xb4les in D1.",\n'
        b'      "Rate limiting: 10 req/min per IP."\n',
    )
    expected = expected.replace(
        b'"label": "Sprint 2: CRUD",\n      "status": "in_progress"',
        b'"label": "Sprint 2: CRUD",\n      "status": "complete"',
    )
    expected = expected.replace(b'"current_sprint": 2', b'"current_sprint": 3')
    assert after == expected
    assert b'"pass_threshold": 6.0' in after  # a hand-written number keeps its text


def test_refused_update_leaves_the_file_untouched(project):
    root, paths = project
    path = paths["oc-app-architect"]
    os.chmod(path, 0o640)
    before = read(path)
    proc = oc(root, "update", "oc-app-architect", "--status=paused", "--step=x")
    assert proc.returncode == 1
    assert read(path) == before
    assert "not written: the result would have errors" in proc.stdout
    assert re.search(
        r"^\.checkpoints/oc-app-architect\.checkpoint\.json:\d+:\d+: error schema status: 'paused'",
        proc.stdout,
        re.M,
    )
    # a valid update afterwards keeps the permissions
    assert oc(root, "update", "oc-app-architect", "--step=x").returncode == 0
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert [n for n in os.listdir(root / ".checkpoints") if n.endswith(".tmp")] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--field=value"], "would add a top-level key 'field' that the OC checkpoint schema"),
        (["--progess_summary=Done."], "did you mean 'progress_summary'?"),
        (["--context_primer.key_decision+=x"], "did you mean 'key_decisions'?"),
        (["--skill_state.current_sprint=3"], "holds a number; --skill_state.current_sprint:json"),
        (["--next_actions=Do it"], "holds an array; += appends to it"),
        (["--status+=complete"], "status is a string, not an array to append to"),
        (["--progress_table.sprint-9.status=complete"], "has no item with id 'sprint-9'"),
        (["--progress_table.7.status=complete"], "has 4 items, no index 7"),
        (["--blockers:json={oops"], "the value is not JSON"),
        (["--skill_state.current_sprint:json=NaN"], "NaN is not a JSON value"),
        (["--status", "complete"], "expected --PATH=VALUE"),
        ([], "nothing to update"),
    ],
)
def test_update_usage_mistakes(project, args, message):
    root, paths = project
    before = read(paths["oc-app-architect"])
    proc = oc(root, "update", "oc-app-architect", *args)
    assert proc.returncode == 2, proc.stdout
    assert message in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert read(paths["oc-app-architect"]) == before


def test_new_key_and_json_operations(project):
    root, paths = project
    path = paths["oc-app-architect"]
    blocker = {"id": "b2", "description": "Pick a CDN", "needs": "user_decision"}
    proc = oc(
        root,
        "update",
        "oc-app-architect",
        "--blockers:json+=" + json.dumps(blocker),
        "--blockers.b1.resolved:json=true",
        "--next_actions.-1.done_when=npm run eval",
        "--skill_state.scores.10:json=7.5",
        "--skill_state.scores.3:json=1e21",
        "--skill_state.scores.a:json=0.000001",
        "--depends_on=oc-reverse-spec checkpoint shows spec approved",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(read(path))
    assert doc["blockers"][-1] == blocker
    assert doc["blockers"][0]["resolved"] is True
    assert doc["next_actions"][-1] == {
        "text": "Re-run evaluator on sprint 2",
        "done_when": "npm run eval",
    }
    assert list(doc["skill_state"]["scores"]) == ["3", "10", "a"]  # as JavaScript orders keys
    text = read(path).decode()
    assert '"3": 1e+21,' in text and '"a": 0.000001' in text  # numbers as JavaScript prints them
    assert list(doc)[-1] == "depends_on"
    custom = oc(root, "update", "oc-app-architect", "--reviewed_by=dan")
    assert custom.returncode == 2
    assert oc(root, "update", "oc-app-architect", "--reviewed_by=dan", "--new-key").returncode == 0
    assert json.loads(read(path))["reviewed_by"] == "dan"
    assert oc(root, "status", "--brief").stdout.count("\u26d4 b2 (user_decision)") == 1


def test_layout_of_the_file_is_kept(project):
    root, paths = project
    path = paths["oc-deploy-ops"]
    doc = json.loads(read(path))
    doc["updated_at"] = "2026-01-05T17:30:00.000Z"
    original = ("\ufeff" + json.dumps(doc, indent=4, ensure_ascii=False)).replace("\n", "\r\n")
    with open(path, "wb") as fh:
        fh.write(original.encode("utf-8"))
    before = read(path)
    started = now()
    assert oc(root, "update", "oc-deploy-ops", "--step=rollback").returncode == 0
    after = read(path)
    assert after.startswith(b'\xef\xbb\xbf{\r\n    "protocol_version"')
    assert not after.endswith(b"\n")
    stamp = STAMP.findall(after)[0]
    assert re.fullmatch(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamp)  # milliseconds kept
    expected = restamped(before, after, started).replace(
        b'"step": "staging"', b'"step": "rollback"'
    )
    assert after == expected


def test_done_moves_the_first_action(project):
    root, paths = project
    path = paths["oc-code-auditor"]
    proc = oc(root, "done", "oc-code-auditor")
    assert proc.returncode == 0, proc.stderr
    assert "done: File tickets for the 2 medium findings" in proc.stdout
    doc = json.loads(read(path))
    assert doc["next_actions"] == []
    assert doc["recently_done"][0]["action"] == "File tickets for the 2 medium findings"
    assert doc["recently_done"][0]["at"] == doc["updated_at"]
    assert doc["recently_done"][1]["action"] == "Write the audit report"
    again = oc(root, "done", "oc-code-auditor")
    assert again.returncode == 2 and "no next_actions to mark done" in again.stderr

    # the last action of a skill, and its status, in one write
    spec = paths["oc-reverse-spec"]
    proc = oc(
        root,
        "done",
        "oc-reverse-spec",
        "--status=complete",
        "--progress_table.approval.status=complete",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(read(spec))
    assert doc["status"] == "complete" and doc["next_actions"] == []
    assert list(doc)[-1] == "recently_done"
    assert doc["recently_done"] == [
        {"action": "Walk the user through spec.md for approval", "at": doc["updated_at"]}
    ]


def test_done_refused_on_an_invalid_result(project):
    root, paths = project
    path = paths["oc-git-ops"]
    doc = json.loads(read(path))
    doc["status"] = "paused"  # hand-edited into an invalid state
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(doc, indent=2) + "\n")
    before = read(path)
    proc = oc(root, "done", "oc-git-ops")
    assert proc.returncode == 1
    assert "error schema status: 'paused'" in proc.stdout
    assert read(path) == before
    fixed = oc(root, "done", "oc-git-ops", "--status=in_progress")
    assert fixed.returncode == 0, fixed.stdout


def test_unknown_skill_and_broken_file(project):
    root, paths = project
    proc = oc(root, "update", "oc-nope", "--status=complete")
    assert proc.returncode == 2
    assert "no checkpoint for skill 'oc-nope'" in proc.stderr
    assert "oc-app-architect, oc-code-auditor" in proc.stderr
    with open(paths["oc-stack-forge"], "w", encoding="utf-8") as fh:
        fh.write("{\n")
    broken = oc(root, "done", "oc-stack-forge")
    assert broken.returncode == 2
    assert "oc-stack-forge.checkpoint.json: invalid JSON" in broken.stderr
    by_path = oc(root, "update", ".checkpoints/oc-deploy-ops.checkpoint.json", "--step=x")
    assert by_path.returncode == 0, by_path.stderr


def test_init_scaffolds_and_never_overwrites(tmp_path):
    root = tmp_path / "fresh"
    git_init(root)
    proc = oc(root, "init")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "created .checkpoints/README.md" in proc.stdout
    readme = (root / ".checkpoints" / "README.md").read_text(encoding="utf-8")
    assert "Do not add this directory to `.gitignore`" in readme
    attributes = (root / ".gitattributes").read_text(encoding="utf-8")
    assert ".checkpoints/*.checkpoint.json merge=asimov-checkpoint" in attributes
    assert git(root, "config", "merge.asimov-checkpoint.driver").stdout.strip()
    again = oc(root, "init")
    assert again.returncode == 0
    assert again.stdout == ".checkpoints/ already set up; nothing to do\n"

    other = tmp_path / "other"
    git_init(other)
    (other / ".checkpoints").mkdir()
    (other / ".checkpoints" / "README.md").write_text("ours\n", encoding="utf-8")
    (other / ".gitignore").write_text("dist/\n.checkpoints/\n", encoding="utf-8")
    proc = oc(other, "init", "--no-merge-driver")
    assert proc.returncode == 1
    assert (other / ".checkpoints" / "README.md").read_text(encoding="utf-8") == "ours\n"
    assert not (other / ".gitattributes").exists()
    assert "warning: .checkpoints/ is git-ignored (.gitignore:2:.checkpoints/)" in proc.stdout
    assert (other / ".gitignore").read_text(encoding="utf-8") == "dist/\n.checkpoints/\n"
