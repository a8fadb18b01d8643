"""Every reader of a checkpoint's JSON goes through one door (readers.json_loader.parse),
so `asimov-validate`, the `oc` commands and the merge driver cannot disagree on a file:
each hostile text below is refused by all of them, with validate's words and place, or
accepted by all of them. And no printer writes `NaN` or `Infinity`, which are not JSON.

Each case runs the real commands in a git repository.
"""

from __future__ import annotations

import json
import os
import re

import pytest
from conftest import git_init, oc_checkpoint, run_script, write
from oc_data import oc

from asimov_hooks.merge.json_merge import ParseError
from asimov_hooks.merge.json_merge import load as merge_load

SKILL = "oc-app-architect"
FILE = f".checkpoints/{SKILL}.checkpoint.json"


def _nested(depth: int) -> str:
    """skill_state's value (an object) making the whole document `depth` levels deep:
    the document's own object and skill_state's are two of them."""
    if depth == 2:
        return "{}"
    return '{"deep": ' + "[" * (depth - 2) + "]" * (depth - 2) + "}"


# (case, what replaces skill_state's value, refused)
HOSTILE = [
    ("overflow", '{"n": 1e999}', True),
    ("negative-overflow", '{"n": -1e999}', True),
    ("overflow-in-a-list", '{"n": [1, 2.5E+400]}', True),
    ("nan", '{"n": NaN}', True),
    ("infinity", '{"n": Infinity}', True),
    ("minus-infinity", '{"n": -Infinity}', True),
    ("high-surrogate", '{"n": "a\\ud800b"}', True),
    ("low-surrogate", '{"n": "\\udc00"}', True),
    ("surrogate-in-a-key", '{"\\uD800": 1}', True),
    ("reversed-pair", '{"n": "\\ude00\\ud83d"}', True),
    ("high-then-text", '{"n": "\\ud83d\\u0041"}', True),
    ("duplicate-key", '{"n": 1, "n": 2}', True),
    ("depth-101", _nested(101), True),
    ("depth-499", _nested(499), True),
    ("depth-500", _nested(500), True),
    ("depth-501", _nested(501), True),
    ("pair", '{"n": "\\ud83d\\ude00"}', False),
    ("upper-case-pair", '{"n": "\\uD83D\\uDE00"}', False),
    ("escaped-backslash", '{"n": "\\\\ud800"}', False),
    ("largest-double", '{"n": 1.7976931348623157e308}', False),
    ("underflow", '{"n": 1e-999}', False),
    ("depth-99", _nested(99), False),
    ("depth-100", _nested(100), False),
]

VALIDATE_LINE = re.compile(r"^\S+:(\d+):(\d+): error (syntax|duplicate-key) (.*)$")


def _checkpoint_text(value: str) -> str:
    doc = oc_checkpoint(skill_state={"probe": "PROBE"})
    return json.dumps(doc, indent=2).replace('{\n    "probe": "PROBE"\n  }', value) + "\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> str:
    return git_init(tmp_path_factory.mktemp("door") / "repo")


def _strict_json(text: str) -> object:
    def refuse(name: str) -> None:
        raise AssertionError(f"printed {name}, which is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(("case", "value", "refused"), HOSTILE, ids=[c[0] for c in HOSTILE])
def test_validate_oc_and_the_merge_driver_agree(repo: str, case: str, value: str, refused: bool):
    text = _checkpoint_text(value)
    write(repo, FILE, text)
    check = run_script("asimov-validate", FILE, cwd=repo)
    found = [VALIDATE_LINE.match(line) for line in check.stdout.splitlines()]
    errors = [m for m in found if m]
    assert bool(errors) == refused, check.stdout
    shown = oc(repo, "show", SKILL, "--json")
    listed = oc(repo, "list", "--format", "json")
    status = oc(repo, "status", COLUMNS="300")
    problem = _strict_json(listed.stdout)["checkpoints"][0]["problem"]
    if not refused:
        assert check.returncode == 0, check.stdout
        assert shown.returncode == 0 and shown.stderr == "", shown.stderr
        assert _strict_json(shown.stdout)["skill"] == SKILL
        assert problem is None
        merge_load(text)
        return
    line, col, _, message = errors[0].groups()
    expected = f"{message} (line {line}, column {col})"  # validate's words and place
    assert check.returncode == 1
    assert shown.returncode == 1  # docs/oc-toolkit.md: a checkpoint shown does not parse
    assert _strict_json(shown.stdout) == {"skill": SKILL, "file": FILE, "problem": expected}
    assert shown.stderr == f"{FILE}: {expected}\n"  # one line, naming the file
    assert problem == expected
    assert status.returncode == 0  # a broken checkpoint never blocks a session
    assert f"{SKILL}  unreadable: {message[:40]}" in status.stdout
    with pytest.raises(ParseError, match=re.escape(f"{message} (line {line})")):
        merge_load(text)


def test_oc_show_json_never_prints_infinity(repo: str) -> None:
    """`1e999` was read as infinity and printed as `Infinity`, which no JSON reader
    takes; now the file is refused as validate refuses it."""
    write(repo, FILE, _checkpoint_text('{"budget": 1e999, "spent": 2}'))
    for args in (("show", SKILL, "--json"), ("show", "--json"), ("list", "--format", "json")):
        proc = oc(repo, *args)
        assert "Infinity" not in proc.stdout
        _strict_json(proc.stdout)
    whole = _strict_json(oc(repo, "show", "--json").stdout)
    assert whole["checkpoints"][0]["problem"].startswith(
        "invalid JSON: 1e999 is out of range for a number (line "
    )
    assert whole["checkpoints"][0]["checkpoint"] is None


def test_deep_nesting_is_refused_by_oc_as_by_validate(repo: str) -> None:
    write(repo, FILE, _checkpoint_text(_nested(150)))
    shown = oc(repo, "show", SKILL)
    assert shown.returncode == 1
    assert "unreadable: invalid JSON: nested more than 100 levels deep; not parsed" in shown.stdout
    assert run_script("asimov-validate", FILE, cwd=repo).returncode == 1
    # the project's own limit is the one both use
    write(repo, ".asimov-hooks.yaml", "limits:\n  max-depth: 200\n")
    try:
        assert oc(repo, "show", SKILL).returncode == 0
        assert run_script("asimov-validate", FILE, cwd=repo).returncode == 0
    finally:
        os.remove(os.path.join(repo, ".asimov-hooks.yaml"))


@pytest.mark.parametrize("field", ["progress_summary", "phase", "status", "updated_at"])
def test_a_lone_surrogate_is_a_clear_error_in_every_read_command(repo: str, field: str) -> None:
    """A lone surrogate in a shown field ended `oc show`, `oc status` and `oc list` in an
    internal error (it cannot be written to the terminal as UTF-8)."""
    doc = oc_checkpoint()
    text = json.dumps(doc, indent=2).replace(f'"{field}": "', f'"{field}": "\\ud800', 1)
    write(repo, FILE, text + "\n")
    reason = "\\ud800 is a lone surrogate (half of a UTF-16 pair), not Unicode text"
    for args, code in ((("show",), 1), (("show", SKILL), 1), (("status",), 0), (("list",), 0)):
        proc = oc(repo, *args, COLUMNS="300")  # oc() asserts: no traceback, no internal error
        assert proc.returncode == code, (args, proc.stdout, proc.stderr)
        if args[0] != "list":
            assert reason in proc.stdout, (args, proc.stdout)
        else:
            assert f"{SKILL}  unreadable" in proc.stdout
    assert oc(repo, "next").returncode == 0
    check = run_script("asimov-validate", FILE, cwd=repo)
    assert check.returncode == 1 and reason in check.stdout


def test_the_printer_writes_no_nan_and_carries_any_text() -> None:
    """The printers' side of the door: NaN and the infinities (a YAML file's `.nan`, a
    computed ratio) are written null, as JSON.stringify writes them; a lone surrogate
    (a file name that is not UTF-8) as its escape, so the text can be encoded."""
    from asimov_hooks.readers.json_loader import dump_text

    value = {"a": [float("nan"), float("inf"), -float("inf"), 1.5], "b": "x\udcff"}
    text = dump_text(value)
    assert _strict_json(text) == {"a": [None, None, None, 1.5], "b": "x\udcff"}
    text.encode("utf-8")
    assert dump_text({"a": float("nan")}, indent=None, ascii=True) == '{"a": null}'


def test_the_number_that_overflows_is_the_one_placed(repo: str) -> None:
    """Not the first number with an exponent: the first one out of range."""
    write(repo, FILE, _checkpoint_text('{"small": 1e5, "big": 2.5E+400}'))
    lines = _checkpoint_text('{"small": 1e5, "big": 2.5E+400}').splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "2.5E+400" in text)
    col = lines[line - 1].index("2.5E+400") + 1
    check = run_script("asimov-validate", FILE, cwd=repo)
    assert f":{line}:{col}: error syntax invalid JSON: 2.5E+400 is out of range" in check.stdout
    shown = oc(repo, "show", SKILL, "--json")
    assert f"(line {line}, column {col})" in _strict_json(shown.stdout)["problem"]


@pytest.mark.parametrize(
    "value", ['{"n": 1e999}', '{"n": "\\ud800"}', _nested(150)], ids=["1e999", "surrogate", "deep"]
)
def test_a_resumed_agent_is_not_given_a_checkpoint_validate_refuses(
    tmp_path, isolated_home, value: str
) -> None:
    """After a compaction the agent's re-read goes through the same door: a checkpoint
    validate refuses is named as not valid JSON, never briefed from what json.loads
    made of it."""
    from agent_support import answer, fixture, run_event

    repo = git_init(tmp_path / "agent")
    write(repo, FILE, _checkpoint_text(value))
    write(repo, ".checkpoints/oc-good.checkpoint.json", oc_checkpoint(skill="oc-good"))
    out = answer(run_event("claude", fixture("claude", "session_start_compact", repo), repo))
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "RESUMING: oc-good" in context
    assert f"RESUMING: {SKILL}" not in context
    assert f"{FILE}: not re-read: not valid JSON" in context


@pytest.mark.parametrize(
    "body",
    [b"[" * 30_000 + b"]" * 30_000, b'{"commit": NaN}', b'{"commit": 1e999}'],
    ids=["deep", "nan", "overflow"],
)
def test_a_health_answer_that_is_not_strict_json_names_no_commit(
    tmp_path, isolated_home, health_server, body: bytes
) -> None:
    """`oc doctor --online` reads the server's answer as strict, depth-bounded JSON: a
    hostile answer is an answer that names no commit, never an internal error."""
    from conftest import Reply, git

    repo = git_init(tmp_path / "proj")
    os.makedirs(os.path.join(repo, ".checkpoints"))
    git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "one")
    health_server.answers["/h"] = Reply(200, body)
    proc = oc(repo, "doctor", "--online", "--url", health_server.url + "/h")
    assert health_server.hits == ["/h"]
    assert "names no commit" in proc.stdout, proc.stdout


DEEP_TEXT = "[" * 5_000 + "]" * 5_000  # a JSON string inside the event: its own depth


@pytest.mark.parametrize(
    ("agent", "name", "field"),
    [
        ("copilot", "pre_tool_use_edit", "toolArgs"),
        ("cursor", "pre_tool_use_write", "tool_input"),
    ],
)
def test_json_inside_an_agent_event_is_depth_bounded(
    tmp_path, isolated_home, agent: str, name: str, field: str
) -> None:
    """A tool's input sent as JSON text is read as the event itself is (strict, 100
    levels at most): one line, exit 1 or nothing to do, never an internal error."""
    from agent_support import fixture, run_event

    repo = git_init(tmp_path / "agent")
    proc = run_event(agent, fixture(agent, name, repo, **{field: DEEP_TEXT}), repo)
    assert proc.returncode in (0, 1), proc.stderr  # run_event: no traceback, one line
    assert "internal error" not in proc.stderr
