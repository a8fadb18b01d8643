"""`--format sarif`: valid SARIF 2.1.0 that GitHub code scanning accepts, finding for
finding the same as the text output, with stable fingerprints."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil

import jsonschema
import pytest
from conftest import GOOD_CHECKPOINT, ROOT, git_init, oc_checkpoint, run_script, write

import asimov_hooks
from asimov_hooks.config.registry import ids as registry_ids

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sarif")
SCHEMA_FILE = os.path.join(DATA, "sarif-schema-2.1.0.json")
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
TEXT_FINDING = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<level>error|warning|info) (?P<rule>\S+) (?P<message>.*)$"
)
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


@pytest.fixture(scope="module")
def validator():
    with open(SCHEMA_FILE, "rb") as fh:
        raw = fh.read()
    assert hashlib.sha256(raw).hexdigest() == SCHEMA_SHA256, "the official schema was edited"
    schema = json.loads(raw)
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    return jsonschema.Draft4Validator(schema)


def _check(validator, doc) -> None:
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]


@pytest.fixture
def repo(tmp_path):
    """A repository with findings of several rules and levels, in sub-directories."""
    root = git_init(tmp_path / "repo")
    write(root, "good/.claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(root, "bad/.claude_checkpoint.yaml", 'milestone: "m"\nstatus: finished\ntool_calls: -1\n')
    write(root, "docs/CLAUDE.md", "line\n" * 16)
    write(root, "k8s/warmup.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: w\n")
    write(root, "sp ace/CLAUDE.md", "line\n" * 11)
    write(
        root,
        ".checkpoints/oc-app-architect.checkpoint.json",
        oc_checkpoint(skill="other", progress_summary="x" * 1300, progress_table=None),
    )
    write(root, ".code-intel/sessions/s1.json", {"session_id": "s2"})
    return root


def _sarif(cwd, *args, prog="asimov-validate", **env):
    run = run_script(prog, "--format", "sarif", *args, cwd=cwd, **env)
    assert run.returncode in (0, 1), run
    assert "\x1b[" not in run.stdout
    return run, json.loads(run.stdout)


def test_schema_copy_is_recorded() -> None:
    with open(os.path.join(DATA, "SOURCE.md"), encoding="utf-8") as fh:
        source = fh.read()
    assert "oasis-tcs/sarif-spec" in source and SCHEMA_SHA256 in source


def test_sarif_validates_and_describes_the_tool(repo, validator) -> None:
    run, doc = _sarif(repo)
    assert run.returncode == 1 and run.stderr == ""
    _check(validator, doc)
    assert doc["version"] == "2.1.0" and len(doc["runs"]) == 1
    driver = doc["runs"][0]["tool"]["driver"]
    assert driver["name"] == "asimov-hooks"
    assert driver["version"] == asimov_hooks.__version__
    assert driver["informationUri"].startswith("https://")
    ids = [rule["id"] for rule in driver["rules"]]
    assert sorted(ids) == sorted(registry_ids()) and len(set(ids)) == len(ids)
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"].startswith(f"{rule['id']}: ")
        assert rule["help"]["markdown"].startswith(f"### `{rule['id']}`")
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    by_id = {rule["id"]: rule for rule in driver["rules"]}
    assert by_id["max-lines-soft"]["defaultConfiguration"]["level"] == "warning"
    assert by_id["schema"]["defaultConfiguration"]["level"] == "error"


def test_rule_help_is_the_rules_command_text(repo) -> None:
    _, doc = _sarif(repo)
    for rule in (
        doc["runs"][0]["tool"]["driver"]["rules"][:3]
        + doc["runs"][0]["tool"]["driver"]["rules"][-2:]
    ):
        explained = run_script("asimov-hooks", "rules", rule["id"], cwd=repo).stdout
        assert rule["help"]["text"] == explained


def _text_findings(cwd, *args) -> list[dict]:
    run = run_script("asimov-validate", "--format", "text", *args, cwd=cwd)
    return [m.groupdict() for line in run.stdout.splitlines() if (m := TEXT_FINDING.match(line))]


@pytest.mark.parametrize("where", [".", "docs"])
def test_sarif_matches_text_finding_for_finding(repo, validator, where) -> None:
    """Same findings, same order; locations relative to the repository root wherever the
    command runs from and however the paths were given."""
    cwd = os.path.join(repo, where)
    args = [".."] if where == "docs" else []
    text = _text_findings(cwd, *args)
    _, doc = _sarif(cwd, *args)
    _check(validator, doc)
    results = doc["runs"][0]["results"]
    assert len(text) == len(results) >= 8
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    for t, r in zip(text, results, strict=True):
        assert r["ruleId"] == t["rule"]
        assert rules[r["ruleIndex"]]["id"] == t["rule"]
        assert r["level"] == LEVELS[t["level"]]
        assert r["message"]["text"].startswith(t["message"])
        loc = r["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        expected = os.path.relpath(os.path.join(cwd, t["path"]), repo).replace(os.sep, "/")
        assert uri == expected.replace(" ", "%20")
        assert not uri.startswith(("/", "..")) and "://" not in uri and ":" not in uri
        assert loc["region"]["startLine"] == int(t["line"]) >= 1
        assert loc["region"]["startColumn"] == int(t["col"]) >= 1
    assert {r["ruleId"] for r in results} >= {
        "schema",
        "max-lines-hard",
        "max-lines-soft",
        "skill-matches-name",
        "max-length",
        "recommended-field",
        "session-id-matches-name",
        "must-be-ignored",
    }
    assert "sp%20ace/CLAUDE.md" in {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results
    }


def test_skipped_files_are_notifications_not_results(repo) -> None:
    _, doc = _sarif(repo)
    notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    skipped = [n for n in notes if n["message"]["text"].startswith("skipped:")]
    assert [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in skipped] == [
        "k8s/warmup.yaml"
    ]
    # its only result is the note that says why (not-protocol-file, info)
    assert [
        (r["ruleId"], r["level"])
        for r in doc["runs"][0]["results"]
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "k8s/warmup.yaml"
    ] == [("not-protocol-file", "note")]


def _prints(doc) -> list[tuple[str, str, str]]:
    return [
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["partialFingerprints"]["asimovHooks/v1"],
        )
        for r in doc["runs"][0]["results"]
    ]


def test_fingerprints_are_stable_and_distinct(repo) -> None:
    _, first = _sarif(repo)
    prints = _prints(first)
    assert len({p[2] for p in prints}) == len(prints)  # no two results share one
    _, again = _sarif(repo)
    assert _prints(again) == prints
    # lines added above the findings, a line limit passed by more: the same alerts
    write(
        repo,
        "bad/.claude_checkpoint.yaml",
        '# note\n\nmilestone: "m"\nstatus: finished\ntool_calls: -1\n',
    )
    write(repo, "docs/CLAUDE.md", "line\n" * 19)
    _, moved = _sarif(repo)
    assert sorted(_prints(moved)) == sorted(prints)
    lines = {
        r["message"]["text"][:20]: r["locations"][0]["physicalLocation"]["region"]["startLine"]
        for r in moved["runs"][0]["results"]
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        == "bad/.claude_checkpoint.yaml"
    }
    assert sorted(lines.values()) == [4, 5]  # the locations did move
    # the same directory checked from a copy elsewhere: fingerprints do not hold paths
    copy = os.path.join(os.path.dirname(repo), "copy")
    shutil.copytree(repo, copy)
    _, copied = _sarif(copy)
    assert sorted(_prints(copied)) == sorted(prints)


def test_every_entry_point_writes_the_same_sarif(repo, validator) -> None:
    _, fast = _sarif(repo, "docs")
    _, quiet = _sarif(repo, "docs", "--quiet")
    run = run_script("asimov-hooks", "validate", "--format", "sarif", "docs", cwd=repo)
    assert run.returncode == 1 and json.loads(run.stdout) == fast == quiet
    size_run, size = _sarif(repo, "docs", prog="asimov-check-size")
    _check(validator, size)
    assert size_run.returncode == 1
    assert [r["ruleId"] for r in size["runs"][0]["results"]] == ["max-lines-hard"]
    # --format sarif wins over the GitHub Actions default, and colour never applies
    _, forced = _sarif(repo, "docs", "--color", "always", GITHUB_ACTIONS="true", FORCE_COLOR="1")
    assert forced == fast


def test_clean_run_is_valid_sarif_with_no_results(tmp_path, validator) -> None:
    repo = git_init(tmp_path / "r")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    run, doc = _sarif(repo)
    assert run.returncode == 0
    _check(validator, doc)
    assert doc["runs"][0]["results"] == []


def test_examples_directory_validates(validator) -> None:
    _, doc = _sarif(os.path.join(ROOT, "examples"))
    _check(validator, doc)
    assert doc["runs"][0]["results"], "the examples hold deliberately bad files"


@pytest.mark.parametrize("name", ["a b/CLAUDE.md", "ü/é.md", "x%y/[1]:z.md", "plain/dir/f.json"])
def test_artifact_uri_is_a_percent_encoded_relative_reference(tmp_path, name) -> None:
    from urllib.parse import quote, unquote

    from asimov_hooks.output.sarif import artifact_uri

    path = write(tmp_path, name, "x\n")
    uri = artifact_uri(path, str(tmp_path))
    assert uri == quote(name, safe="/") and unquote(uri) == name


def test_fix_reports_what_changed_as_notifications(tmp_path, validator) -> None:
    repo = git_init(tmp_path / "r")
    items = "".join(f'  - "task {i}"\n' for i in range(9))
    write(
        repo, ".claude_checkpoint.yaml", f'milestone: "m"\nstatus: in_progress\ncompleted:\n{items}'
    )
    run, doc = _sarif(repo, "--fix")
    assert run.returncode == 1  # a fixer changed a file, as pre-commit expects
    _check(validator, doc)
    notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    fixed = [n["message"]["text"] for n in notes if n["message"]["text"].startswith("fixed: ")]
    assert fixed and all(
        n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        == ".claude_checkpoint.yaml"
        for n in notes
    )
