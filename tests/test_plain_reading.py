"""The common case of YAML reading needs no YAML library: the plain reader types plain
scalars as ruamel's YAML 1.2 resolvers and SafeConstructor type them (or hands them
over), works out positions where libyaml's node marks put them (held here to the
node-based fast path's), and a one-file validate of an ordinary checkpoint, with or
without findings, does not import ruamel at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import pytest
from conftest import GOOD_CHECKPOINT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_formats import script_env
from test_trim_properties import checkpoints

from asimov_hooks.readers import fast_yaml, loaders
from asimov_hooks.readers.plain_yaml import HandOver, plain_data, plain_locator

SUITE = os.path.join(os.path.dirname(__file__), "conformance", "yaml-test-suite", "cases.json")
with open(SUITE, encoding="utf-8") as _fh:
    CASES = json.load(_fh)


def typed(value):
    return (type(value).__name__, value)


def plain(text: str):
    try:
        return True, plain_data(text)[0]
    except (HandOver, loaders.YAMLProblem):
        return False, None


def assert_typed_as_ruamel_types(text: str) -> bool:
    read, data = plain(text)
    if not read:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = loaders.to_plain(loaders._rt_document(text, 100_000).data)
    assert [typed(v) for v in data.values()] == [typed(v) for v in reference.values()], text
    return True


SCALAR_CHARS = "0123456789+-._:eEoxbTtZ nNuUlLaArRfFsS~<=!&*yYO٣ "


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=SCALAR_CHARS, max_size=12))
def test_plain_scalars_are_typed_as_ruamel_types_them(value: str) -> None:
    assert_typed_as_ruamel_types(f"v: {value}\n")
    assert_typed_as_ruamel_types(f"v: [{value}]\n")


@pytest.mark.parametrize(
    "value",
    ["true", "True", "TRUE", "tRue", "yes", "on", "off", "y", "n", "No", "~", "null", "NULL",
     "nUll", "", "0", "-0", "+7", "012", "0o17", "0x1f", "1_000", "1.5", ".5", ".inf",
     "2026-01-02", "2026-01-02 03:04:05", "12:30", "<<", "=", "-", "+", "--1", "٣", ".x",
     ".", "...", "-3", "-12", "+0"],
)  # fmt: skip
def test_named_scalars_are_typed_as_ruamel_types_them(value: str) -> None:
    assert_typed_as_ruamel_types(f"v: {value}\n")


def paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths(value, (*prefix, index))


def assert_same_positions(text: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        read, data = plain(text)
        if not read:
            return False
        nodes = fast_yaml._fast_document(text, 100_000) or loaders._rt_document(text, 100_000)
        locate = plain_locator(text)
        for path in [*paths(data), ("missing",), (99,)]:
            for on_key in (False, True):
                assert locate(path, on_key) == nodes.locate(path, on_key), (path, on_key)
    return True


def test_positions_are_the_node_based_ones_on_the_suite() -> None:
    read = sum(assert_same_positions(spec["yaml"]) for spec in CASES.values())
    assert read > 10


def test_positions_of_a_checkpoint() -> None:
    assert assert_same_positions(GOOD_CHECKPOINT)
    doc = loaders.load_yaml(GOOD_CHECKPOINT)
    assert doc.locate(("status",)) == loaders._fast_document(GOOD_CHECKPOINT, 1).locate(("status",))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints())
def test_positions_of_generated_checkpoints(generated) -> None:
    assert_same_positions(generated.text)


PROBE = """
import sys
from asimov_hooks.cli.entrypoints import validate_main
code = 0
try:
    code = validate_main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print("RUAMEL:", "ruamel.yaml" in sys.modules)
sys.exit(code)
"""


@pytest.mark.parametrize(
    "text, code",
    [
        (GOOD_CHECKPOINT, 0),
        (GOOD_CHECKPOINT.replace("status: in_progress", "status: sideways"), 1),
    ],
)
def test_one_file_validate_does_not_import_ruamel(tmp_path, text: str, code: int) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".claude_checkpoint.yaml").write_text(text, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, ".claude_checkpoint.yaml"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=script_env(),
    )
    assert proc.returncode == code, proc
    assert "RUAMEL: False" in proc.stdout, proc.stdout
    if code:
        assert ".claude_checkpoint.yaml:" in proc.stdout
