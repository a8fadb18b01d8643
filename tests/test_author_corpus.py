"""The protocol as its author writes it: every shape the author's public repositories
used, from protocol v3 to v12, validates without a schema error; a status outside the
documented set is a warning naming the documented values. The corpus and where each
shape comes from: tests/data/author-corpus/SOURCES.md."""

from __future__ import annotations

import glob
import json
import os
import shutil

import pytest
from conftest import ROOT, commit_all, git_init, run_script

CORPUS = os.path.join(ROOT, "tests", "data", "author-corpus")
CASES = sorted(name for name in os.listdir(CORPUS) if os.path.isdir(os.path.join(CORPUS, name)))
ROADMAP_STATUSES = "planned, in_progress, blocked, released, done"


def _validate(repo: str) -> dict:
    run = run_script("asimov-validate", "--format", "json", ".", cwd=repo)
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def _committed_copy(src: str, dest: str) -> str:
    shutil.copytree(src, dest)
    git_init(dest)
    if os.path.exists(os.path.join(dest, ".claude_checkpoint.yaml")):
        with open(os.path.join(dest, ".gitignore"), "w") as fh:
            fh.write(".claude_checkpoint.yaml\n")
    commit_all(dest, "protocol files")
    return dest


def _schema_errors(report: dict) -> list[str]:
    return [
        f"{item['path']}:{finding['line']}: {finding['message']}"
        for item in report["files"]
        for finding in item["findings"]
        if finding["rule"] == "schema"
    ]


@pytest.mark.parametrize("case", CASES)
def test_every_corpus_file_validates_without_a_schema_error(case: str, tmp_path) -> None:
    repo = _committed_copy(os.path.join(CORPUS, case), str(tmp_path / case))
    report = _validate(repo)
    checked = {item["path"] for item in report["files"] if item["status"] != "skipped"}
    on_disk = {
        os.path.relpath(os.path.join(top, name), repo)
        for top, _, names in os.walk(repo)
        if ".git" not in top.split(os.sep)
        for name in names
        if name.endswith(".yaml")
    }
    assert checked == on_disk, report  # every protocol file was checked, none skipped
    assert _schema_errors(report) == []
    errors = [f for item in report["files"] for f in item["findings"] if f["level"] == "error"]
    assert errors == []  # nothing else fails either: these files are small and well-formed


def test_undocumented_statuses_are_warnings_that_name_the_documented_values(tmp_path) -> None:
    repo = _committed_copy(os.path.join(CORPUS, "v8-forge"), str(tmp_path / "repo"))
    report = _validate(repo)
    roadmap = next(item for item in report["files"] if item["path"] == ".asimov/roadmap.yaml")
    assert roadmap["status"] == "warning"
    found = {(f["rule"], f["level"], f["message"]) for f in roadmap["findings"]}
    for where, value in (
        ("current.status", "ready"),
        ("next[0].status", "pending"),
        ("next[1].status", "research"),
    ):
        message = f"{where}: {value!r} is not one of the documented statuses ({ROADMAP_STATUSES})"
        assert ("unknown-status", "warning", message) in found, found
    # a deliverable's own status is not a milestone status: not warned about
    assert not any("deliverables" in message for _, _, message in found)


def test_a_wrong_type_at_the_top_level_is_still_a_schema_error(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    with open(os.path.join(repo, "roadmap.yaml"), "w") as fh:
        fh.write('current: "1.0 in progress"\nbacklog: 3\n')
    commit_all(repo, "roadmap")
    report = _validate(repo)
    assert _schema_errors(report) == [
        "roadmap.yaml:1: current: '1.0 in progress' is not any of the allowed shapes",
        "roadmap.yaml:2: backlog: 3 is not any of the allowed shapes",
    ]


AUTHOR_CORPUS = os.environ.get("ASIMOV_AUTHOR_CORPUS", "")


@pytest.mark.skipif(not AUTHOR_CORPUS, reason="ASIMOV_AUTHOR_CORPUS names no local copy")
def test_the_authors_own_files_when_a_local_copy_is_given(tmp_path) -> None:
    """Real copies kept outside the repository (see SOURCES.md): <repo>/<commit>/ trees."""
    bad: list[str] = []
    roots = sorted(glob.glob(os.path.join(AUTHOR_CORPUS, "*", "*", "")))
    assert roots, f"no <repository>/<commit>/ directories under {AUTHOR_CORPUS}"
    for n, root in enumerate(roots):
        repo = _committed_copy(root, str(tmp_path / str(n)))
        bad += [f"{root}: {line}" for line in _schema_errors(_validate(repo))]
    assert bad == []
