"""`asimov-hooks schema KIND`: the shipped JSON Schemas, with stable $ids, for editors."""

from __future__ import annotations

import json
import os

import jsonschema
import pytest
from conftest import GOOD_CHECKPOINT, ROOT, run_script

from asimov_hooks.readers.loaders import load_yaml_plain


def _json(path: str):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


KINDS = _json(os.path.join(ROOT, "rules", "kinds.json"))["kinds"]
WITH_SCHEMA = {kind: spec["schema"] for kind, spec in KINDS.items() if spec.get("schema")}
ID_BASE = "https://asimov-hooks.dev/schemas/"


def test_every_shipped_schema_has_a_stable_id() -> None:
    ids = set()
    for name in sorted(os.listdir(os.path.join(ROOT, "rules", "schemas"))):
        if name.endswith(".json"):
            with open(os.path.join(ROOT, "rules", "schemas", name), encoding="utf-8") as fh:
                schema = json.load(fh)
            assert schema["$id"] == ID_BASE + name, name
            assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
            ids.add(schema["$id"])
    assert len(ids) >= len(WITH_SCHEMA) + 1


@pytest.mark.parametrize("kind", [*sorted(WITH_SCHEMA), "config"])
def test_schema_prints_the_installed_file(tmp_path, kind) -> None:
    run = run_script("asimov-hooks", "schema", kind, cwd=tmp_path)
    assert run.returncode == 0 and run.stderr == "", run
    path = run_script("asimov-hooks", "schema", kind, "--path", cwd=tmp_path).stdout.strip()
    assert os.path.isabs(path) and os.path.isfile(path)
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == run.stdout
    name = WITH_SCHEMA.get(kind, "config.schema.json")
    assert json.loads(run.stdout)["$id"] == ID_BASE + name


def test_list_and_errors(tmp_path) -> None:
    listed = run_script("asimov-hooks", "schema", "--list", cwd=tmp_path)
    assert listed.returncode == 0
    rows = dict(line.split("\t") for line in listed.stdout.splitlines())
    assert set(rows) == {*WITH_SCHEMA, "config"}
    assert rows["asimov-checkpoint"] == ID_BASE + "asimov-checkpoint.schema.json"
    for args in (["no-such-kind"], ["claude-md"], []):
        run = run_script("asimov-hooks", "schema", *args, cwd=tmp_path)
        assert run.returncode == 2 and run.stdout == "", run
        assert run.stderr.startswith("asimov-hooks: error: ") and run.stderr.count("\n") == 1
        assert "asimov-checkpoint" in run.stderr


def test_an_editor_can_use_the_printed_schema(tmp_path) -> None:
    """What a YAML language server does with the schema: the same verdicts as the hook."""
    schema = json.loads(
        run_script("asimov-hooks", "schema", "asimov-checkpoint", cwd=tmp_path).stdout
    )
    check = jsonschema.Draft202012Validator(schema)
    assert not list(check.iter_errors(load_yaml_plain(GOOD_CHECKPOINT)))
    bad = load_yaml_plain('milestone: "m"\nstatus: finished\n')
    assert [e.validator for e in check.iter_errors(bad)] == ["enum"]
