"""Valid input other tools read, read alike here: anchored and tagged scalars and keys,
comment blocks the round-trip reader cannot place, and strict, depth-bounded JSON on
every path (the rule packs' reader, an agent hook's stdin, command-line values)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import git_init, run_script, script_env, write

from asimov_hooks.merge.core import Policies
from asimov_hooks.merge.driver import Settings, merge_bytes
from asimov_hooks.readers.fastjson import JSONError, loads
from asimov_hooks.readers.loaders import load_yaml, load_yaml_plain, to_plain

CP = ".claude_checkpoint.yaml"
# a comment block under a key whose value sits on the next line, then blank lines
# (the shape of yaml-test-suite's P94K), with an anchor in the same file: ruamel's
# round-trip reader raises "overlap in comment" on it
UNKEPT = "milestone:    # Comment\n        # lines\n  value\n\n\nstatus: &s in_progress\n"


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("flag: &f true\n", "flag", True),
        ("flag: &f false\n", "flag", False),
        ("n: &n 0x1F\n", "n", 31),
        ("x: &x 1.5\n", "x", 1.5),
        ("!!str milestone: m\n", "milestone", "m"),
        ("&k !!str milestone: m\n", "milestone", "m"),
        ("m: !!str 3\n", "m", "3"),
        ("a: &a x\nb: *a\n", "b", "x"),
        ("&t true: 1\n", True, 1),
    ],
)
def test_anchors_and_tags_give_the_plain_value(text: str, key, value) -> None:
    found = load_yaml(text).data[key]
    assert found == value and type(found) is type(value), (text, found)
    if isinstance(key, str):  # the config's and jsonschema's readings too
        for data in (load_yaml_plain(text), to_plain(load_yaml(text).data)):
            assert data[key] == value and type(data[key]) is type(value), (text, data)


def test_tagged_key_that_repeats_a_key_is_a_duplicate() -> None:
    from asimov_hooks.readers.loaders import YAMLProblem

    with pytest.raises(YAMLProblem) as found:
        load_yaml("!!str a: 1\na: 2\n")
    assert found.value.rule == "duplicate-key" and found.value.line == 2


def test_anchored_boolean_and_tagged_key_on_the_command_line(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, ".asimov-hooks.yaml", "kinds:\n  asimov-checkpoint:\n    schema: ./s.json\n")
    schema = {"required": ["milestone"], "properties": {"flag": {"type": "boolean"}}}
    write(tmp_path, "s.json", json.dumps(schema))
    write(tmp_path, CP, "!!str milestone: m\nstatus: done\nflag: &f true\n")
    run = run_script("asimov-validate", "--select", "schema", CP, cwd=tmp_path)
    assert run.returncode == 0, run


def test_comments_the_round_trip_cannot_place(tmp_path) -> None:
    doc = load_yaml(UNKEPT)
    assert doc.data == {"milestone": "value", "status": "in_progress"}
    assert doc.locate(("status",), False) == (6, 9)
    assert load_yaml_plain(UNKEPT) == doc.data
    git_init(tmp_path)
    write(tmp_path, CP, UNKEPT)
    run = run_script("asimov-validate", CP, cwd=tmp_path)
    assert run.returncode == 0 and "internal error" not in run.stderr, run
    # the config loader reads the same shape
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "exclude:    # Comment\n        # x\n  - a\n\n\nextends: &d default\n",
    )
    run = run_script("asimov-validate", CP, cwd=tmp_path)
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr, run


def test_the_merge_driver_will_not_rewrite_such_a_file() -> None:
    settings = Settings("yaml", Policies({}, "conflict"))
    ours = UNKEPT + "next_steps:\n  - a\n"
    theirs = UNKEPT + "tool_calls: 3\n"
    out = merge_bytes(UNKEPT.encode(), ours.encode(), theirs.encode(), settings)
    assert out.how == "line-merge" and "cannot be rewritten safely" in out.reason, out


def test_the_trimmer_cuts_such_a_file_keeping_its_comments(tmp_path) -> None:
    git_init(tmp_path)
    text = UNKEPT + "completed:\n" + "".join(f"  - task {i}\n" for i in range(60))
    write(tmp_path, CP, text)
    run = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    assert run.returncode in (0, 1) and "internal error" not in run.stderr, run
    after = (tmp_path / CP).read_text()
    assert after.startswith(UNKEPT) and "task 59" in after and "task 0\n" not in after


# ------------------------------------------------------------------ JSON
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[NaN]", "NaN is not a JSON value: line 1 column 2"),
        ('{"a":\n Infinity}', "Infinity is not a JSON value: line 2 column 2"),
        ("[-Infinity]", "-Infinity is not a JSON value"),
        ("[1e999]", "1e999 is out of range"),
        ("[" * 100_000, "nested more than 100 levels deep"),
        ("[" * 101 + "]" * 101, "nested more than 100 levels deep; not parsed: line 1 column 101"),
        ('{"a": [1,]}', None),  # json's words, which Python 3.13 changed
    ],
)
def test_strict_json_refuses(text: str, says: str | None) -> None:
    if says is None:
        with pytest.raises(json.JSONDecodeError) as ref:
            json.loads(text)
        says = f"{ref.value.msg}: line {ref.value.lineno} column {ref.value.colno}"
        assert ref.value.msg in ("Expecting value", "Illegal trailing comma before end of array")
    with pytest.raises(JSONError) as found:
        loads(text)
    assert says in str(found.value)


def test_strict_json_reads_what_json_reads() -> None:
    text = '{"a": [1, 2.5, "NaN", "[[[["], "b": {"c": null, "d": true}, "e": 1e308}'
    assert loads(text) == json.loads(text)
    assert loads("[" * 100 + "]" * 100) == json.loads("[" * 100 + "]" * 100)
    assert loads("[" * 150 + "]" * 150, max_depth=None) == json.loads("[" * 150 + "]" * 150)


@pytest.mark.parametrize(
    "payload", [b"[" * 100_000, b'{"hook_event_name": "PreToolUse", "n": NaN}']
)
def test_agent_event_stdin_is_strict_and_bounded(tmp_path, payload: bytes) -> None:
    exe = [sys.executable, "-m", "asimov_hooks", "agent-event"]
    proc = subprocess.run(
        exe, input=payload, capture_output=True, cwd=tmp_path, env=script_env(), timeout=60
    )
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "stdin is not valid JSON" in err, err
    assert "internal error" not in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize("text", ["!!int \n", "a: !!int\n", "a: !!float\n", "a: !!bool\n"])
def test_an_empty_tagged_scalar_is_a_placed_finding(text: str) -> None:
    from asimov_hooks.readers.loaders import YAMLProblem

    with pytest.raises(YAMLProblem) as found:
        load_yaml(text)
    assert found.value.rule == "syntax" and found.value.placed, found.value
