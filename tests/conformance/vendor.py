"""Refresh the vendored suites from local clones of their repositories.

    python tests/conformance/vendor.py JSON-Schema-Test-Suite yaml-test-suite JSONTestSuite

Each argument is a clone (work tree or bare git directory) of
github.com/json-schema-org/JSON-Schema-Test-Suite (its default branch),
github.com/yaml/yaml-test-suite (its `data` branch: one directory per case) and
github.com/nst/JSONTestSuite; only the files the tests read are kept, with the
licences. Update README.md's commits after a refresh.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def _files(repo: str, rev: str, under: str) -> list[str]:
    out = _git(repo, "ls-tree", "-r", "--name-only", rev, "--", under).decode()
    return [line for line in out.splitlines() if line]


def _write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def schema_suite(repo: str) -> str:
    target = os.path.join(HERE, "json-schema-test-suite")
    for name in _files(repo, "HEAD", "tests/draft2020-12"):
        if "/optional/" not in name:  # the required tests only
            _write(os.path.join(target, os.path.basename(name)), _git(repo, "show", f"HEAD:{name}"))
    _write(os.path.join(target, "LICENSE"), _git(repo, "show", "HEAD:LICENSE"))
    return _git(repo, "rev-parse", "HEAD").decode().strip()


def yaml_suite(repo: str) -> str:
    target = os.path.join(HERE, "yaml-test-suite")
    cases: dict[str, dict[str, object]] = {}
    names = set(_files(repo, "data", "."))
    for name in sorted(names):
        if not name.endswith("/in.yaml"):
            continue
        case = name[: -len("/in.yaml")]
        title = f"{case}/===" if f"{case}/===" in names else f"{case.split('/')[0]}/==="
        cases[case] = {
            "name": _git(repo, "show", f"data:{title}").decode().strip() if title in names else "",
            "yaml": _git(repo, "show", f"data:{name}").decode("utf-8"),
            "error": f"{case}/error" in names,
        }
    text = json.dumps(cases, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    _write(os.path.join(target, "cases.json"), text.encode("utf-8"))
    _write(os.path.join(target, "License"), _git(repo, "show", "main:License"))
    return _git(repo, "rev-parse", "data").decode().strip()


def json_suite(repo: str) -> str:
    target = os.path.join(HERE, "json-test-suite")
    for name in _files(repo, "HEAD", "test_parsing"):
        _write(
            os.path.join(target, "test_parsing", os.path.basename(name)),
            _git(repo, "show", f"HEAD:{name}"),
        )
    _write(os.path.join(target, "LICENSE"), _git(repo, "show", "HEAD:LICENSE"))
    return _git(repo, "rev-parse", "HEAD").decode().strip()


if __name__ == "__main__":
    schema, yaml, json_ = sys.argv[1:4]
    print("JSON-Schema-Test-Suite", schema_suite(schema))
    print("yaml-test-suite (data)", yaml_suite(yaml))
    print("JSONTestSuite", json_suite(json_))
