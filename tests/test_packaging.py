"""The wheel: rule packs inside the package, no generic top-level names, works alone."""

from __future__ import annotations

import glob
import os
import subprocess
import sys
import zipfile

import pytest
from conftest import GOOD_CHECKPOINT, script_env, write

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(head_clone, tmp_path_factory) -> str:
    out = str(tmp_path_factory.mktemp("wheel"))
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, head_clone],
        capture_output=True,
        text=True,
        env=script_env(PIP_DISABLE_PIP_VERSION_CHECK="1"),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (path,) = glob.glob(os.path.join(out, "asimov_hooks-*.whl"))
    return path


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> str:
    target = str(tmp_path_factory.mktemp("target"))
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", target, wheel],
        capture_output=True,
        text=True,
        env=script_env(PIP_DISABLE_PIP_VERSION_CHECK="1"),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return target


def test_wheel_contents(wheel, head_clone) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "asimov_hooks/rules/kinds.json" in names
    schemas = sorted(os.path.basename(p) for p in glob.glob(f"{head_clone}/rules/schemas/*.json"))
    assert schemas
    for schema in schemas:
        assert f"asimov_hooks/rules/schemas/{schema}" in names
    for pack in glob.glob(f"{head_clone}/rules/*.json"):
        assert f"asimov_hooks/rules/{os.path.basename(pack)}" in names
    tops = {name.split("/", 1)[0] for name in names}
    assert tops == {"asimov_hooks", os.path.basename(wheel).split("-py3")[0] + ".dist-info"}, tops
    assert not any(name.startswith(("rules/", "hooks/", "tests/")) for name in names)


def test_wheel_entry_points(wheel) -> None:
    with zipfile.ZipFile(wheel) as zf:
        (entry_points,) = [n for n in zf.namelist() if n.endswith("entry_points.txt")]
        text = zf.read(entry_points).decode()
    for script in ("asimov-hooks", "asimov-validate", "asimov-check-size"):
        assert f"{script} = asimov_hooks." in text


def run_installed(target: str, cwd: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=script_env(PYTHONPATH=target),
        timeout=120,
    )


def test_installed_wheel_finds_its_rules(installed, tmp_path) -> None:
    proc = run_installed(
        installed,
        str(tmp_path),
        "-c",
        "import asimov_hooks, asimov_hooks.config.config as c; print(asimov_hooks.__file__); print(c.rules_dir())",
    )
    assert proc.returncode == 0, proc.stderr
    module_file, rules = proc.stdout.splitlines()
    assert module_file.startswith(installed + os.sep), module_file
    assert rules == os.path.join(installed, "asimov_hooks", "rules")


def test_installed_wheel_validates(installed, tmp_path) -> None:
    good = write(tmp_path, "ok/.claude_checkpoint.yaml", GOOD_CHECKPOINT)
    bad = write(tmp_path, "bad/.claude_checkpoint.yaml", "milestone: m\nstatus: finished\n")
    proc = run_installed(installed, str(tmp_path), "-m", "asimov_hooks", "validate", good)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = run_installed(installed, str(tmp_path), "-m", "asimov_hooks", "validate", bad)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "bad/.claude_checkpoint.yaml:2:9: error schema status" in proc.stdout
    assert "Traceback" not in proc.stderr
    proc = run_installed(
        installed,
        str(tmp_path),
        "-c",
        "import sys; from asimov_hooks.cli.entrypoints import check_size_main as m; sys.exit(m())",
        bad,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_installed_wheel_documents_rules_and_schemas(installed, tmp_path) -> None:
    """`rules`, `schema` and `--format sarif` read their data from the installed package."""
    proc = run_installed(installed, str(tmp_path), "-m", "asimov_hooks", "rules", "schema")
    assert proc.returncode == 0 and proc.stdout.startswith("schema: "), proc.stderr
    proc = run_installed(
        installed, str(tmp_path), "-m", "asimov_hooks", "schema", "oc-checkpoint", "--path"
    )
    assert proc.returncode == 0, proc.stderr
    expected = os.path.join(
        installed, "asimov_hooks", "rules", "schemas", "oc-checkpoint.schema.json"
    )
    assert proc.stdout.strip() == expected
    bad = write(tmp_path, ".claude_checkpoint.yaml", "milestone: m\nstatus: finished\n")
    proc = run_installed(
        installed, str(tmp_path), "-m", "asimov_hooks", "validate", "--format", "sarif", bad
    )
    assert proc.returncode == 1, proc.stderr
    assert '"ruleId": "schema"' in proc.stdout and '"uri": ".claude_checkpoint.yaml"' in proc.stdout


def test_wheel_declares_its_dependency_range(wheel) -> None:
    """ruamel.yaml 0.18 and 0.19 are admitted; libyaml (ruamel.yaml.clib) is declared for
    CPython, since ruamel.yaml 0.19 no longer pulls it in and YAML would read ~100x slower."""
    with zipfile.ZipFile(wheel) as zf:
        (metadata,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        requires = []
        for line in zf.read(metadata).decode().splitlines():
            if line.startswith("Requires-Dist:"):
                # the name as written, or normalized (ruamel-yaml-clib); the marker as is
                name, sep, rest = line.split(":", 1)[1].strip().partition(";")
                requires.append(name.replace("-", ".").replace("_", ".") + sep + rest)
    ruamel = next(r for r in requires if r.startswith("ruamel.yaml") and "clib" not in r)
    assert ">=0.18" in ruamel and "<0.20" in ruamel, ruamel
    clib = next(r for r in requires if r.startswith("ruamel.yaml.clib"))
    assert "platform_python_implementation" in clib and "CPython" in clib, clib
    assert "extra ==" not in clib


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="libyaml is declared for CPython")
def test_installed_package_reads_yaml_with_libyaml(installed, tmp_path) -> None:
    """The fast path is on where the package is installed with its dependencies."""
    proc = run_installed(
        installed,
        str(tmp_path),
        "-c",
        "import asimov_hooks.readers.fast_yaml as f, ruamel.yaml as r; "
        "print(f.__file__); print(r.__version__); print(f._fast_loader_class() is not None)",
    )
    assert proc.returncode == 0, proc.stderr
    module_file, version, fast = proc.stdout.splitlines()
    assert module_file.startswith(installed + os.sep), module_file
    assert fast == "True", f"ruamel.yaml {version} without libyaml (ruamel.yaml.clib)"
