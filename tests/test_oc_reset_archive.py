"""`oc reset` (the protocol's Restart) against what the rest of the suite says about its
output: the archive is named as the history schema and the `reset-archive` setting say
(`<skill>.<time>.checkpoint.json.bak`, the protocol's rename), and the fresh checkpoint
keeps the protocol version the old one declared."""

from __future__ import annotations

import json
import os
import re

import pytest
from conftest import ROOT, git_init
from oc_data import make_project, oc, rewrite


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "gtrack"
    git_init(root)
    return root, make_project(root)


def history_description() -> str:
    path = os.path.join(ROOT, "rules", "schemas", "oc-checkpoint-history.schema.json")
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["description"]


def test_the_archive_is_named_as_the_history_schema_says(project) -> None:
    root, _ = project
    done = oc(root, "reset", "oc-app-architect")
    assert done.returncode == 0, done.stdout + done.stderr
    history = root / ".checkpoints" / "history"
    (archive,) = [name for name in os.listdir(history) if name.startswith("oc-app-architect.2")]
    named = re.findall(r"<skill>\.<time>((?:\.[a-z]+)+)", history_description())
    assert named == [".checkpoint.json.bak"], history_description()
    assert re.fullmatch(r"oc-app-architect\.\d{8}T\d{6}Z" + re.escape(named[0]), archive)
    with open(os.path.join(ROOT, "rules", "oc.json"), encoding="utf-8") as fh:
        setting = json.load(fh)["oc"]["reset-archive"]
    assert setting == "history/{skill}.{time}" + named[0]


@pytest.mark.parametrize("version", ["1.0", "1.1"])
def test_reset_keeps_the_protocol_version(project, version) -> None:
    root, paths = project
    path = paths["oc-app-architect"]
    rewrite(path, lambda doc: doc.update(protocol_version=version))
    done = oc(root, "reset", "oc-app-architect")
    assert done.returncode == 0, done.stdout + done.stderr
    with open(path, encoding="utf-8") as fh:
        assert json.load(fh)["protocol_version"] == version


def test_the_known_versions_are_the_schemas() -> None:
    from asimov_hooks.oc.fresh import VERSIONS

    path = os.path.join(ROOT, "rules", "schemas", "oc-checkpoint.schema.json")
    with open(path, encoding="utf-8") as fh:
        schema = json.load(fh)
    assert list(VERSIONS) == schema["properties"]["protocol_version"]["enum"]
