"""`asimov-hooks oc doctor`: the drift checks for every checkpoint, as a whole process."""

from __future__ import annotations

import json
import os
import re

import pytest
from conftest import git, git_init, run_script
from oc_data import make_project, oc, read, rewrite


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "gtrack"
    git_init(root)
    paths = make_project(root)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Checkpoints")
    git(root, "commit", "-q", "--allow-empty", "-m", "Merge pull request #12 from team/release")
    git(root, "commit", "-q", "--allow-empty", "-m", "Ship the audit tickets (#15)\n\nPLAT-4480")
    return root, paths


def findings(stdout: str) -> list[tuple[str, str, str]]:
    return re.findall(
        r"^\.checkpoints/([\w-]+)\.checkpoint\.json:\d+:\d+: (\w+) ([\w-]+) ", stdout, re.M
    )


def test_doctor_reports_every_drift(project):
    root, paths = project
    rewrite(paths["oc-deploy-ops"], lambda d: d.update(project_dir="/nonexistent/gtrack"))
    rewrite(
        paths["oc-code-auditor"],
        lambda d: d.update(next_actions=["Close PLAT-4480 in Linear", "Follow up on #15"]),
    )
    before = {p: read(p) for p in paths.values()}
    proc = oc(root, "doctor")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # warnings do not fail
    found = findings(proc.stdout)
    assert ("oc-deploy-ops", "info", "project-dir-exists") in found
    assert ("oc-git-ops", "warning", "stale-checkpoint") in found
    assert ("oc-app-architect", "warning", "generated-files-exist") in found
    assert ("oc-git-ops", "warning", "next-action-merged") in found
    assert found.count(("oc-code-auditor", "warning", "next-action-merged")) == 2
    assert "points at #12, which git log shows as merged already" in proc.stdout
    assert "points at PLAT-4480, which git log shows as merged already" in proc.stdout
    assert "'src/auth/passkey.ts' does not exist" in proc.stdout
    # only drift rules: the content warnings of asimov-validate are not doctor's
    assert {rule for _, _, rule in found} <= {
        "project-dir-exists",
        "stale-checkpoint",
        "generated-files-exist",
        "next-action-merged",
        "checkpoints-tracked",
    }
    assert proc.stdout.splitlines()[-1].startswith("6 files checked: ")
    assert {p: read(p) for p in paths.values()} == before  # doctor never writes
    strict = oc(root, "doctor", "--strict")
    assert strict.returncode == 1
    doc = json.loads(oc(root, "doctor", "--format", "json").stdout)
    assert doc["summary"]["files"] == 6 and doc["summary"]["warnings"] == 5


def test_doctor_fails_when_checkpoints_are_ignored(project):
    root, _ = project
    (root / ".gitignore").write_text(".checkpoints/\n", encoding="utf-8")
    proc = oc(root, "doctor")
    assert proc.returncode == 1
    assert findings(proc.stdout).count(("oc-app-architect", "error", "checkpoints-tracked")) == 1
    assert "is git-ignored: .checkpoints/ must be tracked" in proc.stdout


def test_doctor_reports_a_broken_checkpoint_and_online_needs_a_url(project, tmp_path):
    root, paths = project
    with open(paths["oc-stack-forge"], "w", encoding="utf-8") as fh:
        fh.write('{"a": 1, "a": 2}\n')
    proc = oc(root, "doctor", "--format", "github")
    assert proc.returncode == 1
    assert "::error file=.checkpoints/oc-stack-forge.checkpoint.json" in proc.stdout
    assert "title=duplicate-key" in proc.stdout
    online = oc(root, "doctor", "--online")
    assert online.returncode == 2 and "--online needs the deployed health endpoint" in online.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    none = oc(empty, "doctor")
    assert (none.returncode, none.stdout) == (
        0,
        "no checkpoints in .checkpoints/; nothing to check\n",
    )


def test_doctor_agrees_with_asimov_validate(project):
    root, _ = project
    doctor = findings(oc(root, "doctor").stdout)
    validate = run_script(
        "asimov-validate",
        "--select",
        "stale-checkpoint,next-action-merged,"
        "generated-files-exist,project-dir-exists,checkpoints-tracked",
        ".checkpoints",
        cwd=root,
    )
    assert sorted(doctor) == sorted(findings(validate.stdout))
    assert os.path.isdir(root / ".checkpoints" / "history")
