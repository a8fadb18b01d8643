"""Whatever a user stages: each problem is one line naming the file, a documented exit
code, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from conftest import GOOD_CHECKPOINT, oc_checkpoint, script_env, write

pytestmark = pytest.mark.usefixtures("in_tmp")

CP = ".claude_checkpoint.yaml"
OC = ".checkpoints/oc-app-architect.checkpoint.json"


def finding_lines(run, path: str) -> list[str]:
    """Finding lines of `path`, without the path prefix."""
    prefix = f"{path}:"
    return [
        line[len(prefix) :]
        for line in run.out.splitlines()
        if line.startswith(prefix) and line[len(prefix) : len(prefix) + 1].isdigit()
    ]


def test_invalid_yaml_line_and_column(tmp_path, cli) -> None:
    path = write(tmp_path, CP, "milestone: m\nstatus: [in_progress\nnext_steps: []\n")
    run = cli(path)
    assert run.code == 1
    (line,) = finding_lines(run, path)
    assert line.startswith("3:11: error syntax invalid YAML: "), line
    path2 = write(tmp_path, "other/" + CP, "milestone: m\n  status: bad indent\n")
    (line,) = finding_lines(cli(path2), path2)
    assert line.startswith("2:9: error syntax invalid YAML: mapping values are not allowed"), line


def test_invalid_json_line_and_column(tmp_path, cli) -> None:
    path = write(tmp_path, OC, '{\n  "protocol_version": "1.0",\n  "skill": ,\n}\n')
    run = cli(path)
    assert run.code == 1
    assert finding_lines(run, path) == ["3:12: error syntax invalid JSON: Expecting value"]
    # a trailing comma: Python 3.13's json words it and places it otherwise than 3.10-3.12
    # ("Illegal trailing comma before end of object" at the comma); the finding is json's
    write(tmp_path, OC, '{"a": 1,}')
    with pytest.raises(json.JSONDecodeError) as said:
        json.loads('{"a": 1,}')
    where = f"{said.value.lineno}:{said.value.colno}"
    assert where in ("1:8", "1:9"), where
    assert finding_lines(cli(path), path) == [
        f"{where}: error syntax invalid JSON: {said.value.msg}"
    ]


@pytest.mark.parametrize(
    ("text", "token", "expected"),
    [
        ('{"status": "in_progress",\n "cost": {"total_usd": NaN}}', "NaN", "2:24"),
        ('{"note": "NaN", "x": -Infinity}', "-Infinity", "1:22"),
        ('{"x": Infinity}', "Infinity", "1:7"),
    ],
)
def test_json_constants_are_not_json(tmp_path, cli, text: str, token: str, expected: str) -> None:
    path = write(tmp_path, OC, text)
    run = cli(path)
    assert run.code == 1
    assert f"{expected}: error syntax invalid JSON: {token} is not a JSON value" in finding_lines(
        run, path
    )


def test_json_integer_too_long(tmp_path, cli) -> None:
    path = write(tmp_path, OC, '{"a": "' + "9" * 200 + '",\n "b": ' + "1" * 5000 + "}")
    run = cli(path)
    assert run.code == 1
    (line,) = finding_lines(run, path)
    assert line.startswith("2:7: error syntax invalid JSON: Exceeds the limit"), line
    assert "set_int_max_str_digits" not in line


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ("2026-13-45", "3:12"),
        ("2026-02-30T10:00:00Z", "3:12"),
        ("!!int foo", "3:12"),
        ("!!bool maybe", "3:12"),
        ("1" * 5000, "3:12"),
    ],
)
def test_yaml_values_that_do_not_convert(tmp_path, cli, value: str, where: str) -> None:
    path = write(tmp_path, CP, f"milestone: m\nstatus: done\ntimestamp: {value}\n")
    run = cli("--ignore", "max-tokens", path)
    assert run.code == 1, run
    (line,) = finding_lines(run, path)
    assert line.startswith(f"{where}: error syntax invalid YAML: a value cannot be read"), line


def test_duplicate_keys_yaml(tmp_path, cli) -> None:
    path = write(tmp_path, CP, "milestone: a\nstatus: done\nmilestone: b\n")
    run = cli(path)
    assert run.code == 1
    assert finding_lines(run, path) == ["3:1: error duplicate-key duplicate key 'milestone'"]
    assert "suggestion: remove one of the keys" in run.out
    nested = write(tmp_path, "n/" + CP, "milestone: a\nnotes:\n  x: 1\n  x: 2\n")
    assert finding_lines(cli(nested), nested) == ["4:3: error duplicate-key duplicate key 'x'"]


def test_duplicate_keys_json(tmp_path, cli) -> None:
    path = write(
        tmp_path, OC, '{\n  "status": "blocked",\n  "skill": "x",\n  "status": "failed"\n}\n'
    )
    run = cli(path)
    assert run.code == 1
    assert finding_lines(run, path) == ["4:3: error duplicate-key duplicate key 'status'"]
    nested = write(tmp_path, "n/" + OC, '{"a": {"k": 1}, "b": {"k": 1, "k": 2}}')
    assert finding_lines(cli(nested), nested) == ["1:31: error duplicate-key duplicate key 'k'"]


def test_duplicate_key_hook_selection(tmp_path, cli) -> None:
    """The conflicts hook: --select conflict-markers,syntax,duplicate-key."""
    path = write(tmp_path, CP, "milestone: a\nmilestone: b\nstatus: weird\n")
    run = cli("--select", "conflict-markers,syntax,duplicate-key", path)
    assert run.code == 1 and "duplicate-key" in run.out
    write(tmp_path, CP, "milestone: a\nstatus: weird\n" + "# c\n" * 40)
    assert cli("--select", "conflict-markers,syntax,duplicate-key", path).code == 0


@pytest.mark.parametrize("name", [CP, OC, "warmup.yaml", ".code-intel/sessions/s.json"])
@pytest.mark.parametrize("content", ["", "\n\n  \n"])
def test_empty_file(tmp_path, cli, name: str, content: str) -> None:
    path = write(tmp_path, name, content)
    run = cli(path)
    assert run.code == 1, run
    (line,) = finding_lines(run, path)
    assert line.startswith("1:1: error empty-file file is empty; expected a"), line


def test_empty_claude_md_is_fine(tmp_path, cli) -> None:
    path = write(tmp_path, "CLAUDE.md", "")
    assert cli(path).code == 0


def test_binary_file(tmp_path, cli, size_cli) -> None:
    path = write(tmp_path, CP, b"milestone: m\n\x00\x01\x02binary")
    run = cli(path)
    assert run.code == 1
    assert finding_lines(run, path) == [
        "2:1: error encoding binary content (NUL byte at offset 13)"
    ]
    assert "save the file as UTF-8 text" in run.out
    assert size_cli(path).code == 1  # the size hook cannot count lines of a binary either


def test_not_utf8(tmp_path, cli) -> None:
    path = write(tmp_path, "CLAUDE.md", "first\nsecond caf\xe9\n".encode("latin-1"))
    run = cli(path)
    assert run.code == 1
    assert finding_lines(run, path) == [
        "2:11: error encoding not valid UTF-8 (byte 0xe9 at line 2, column 11)"
    ]


def test_utf8_bom_is_valid_and_parsed(tmp_path, cli) -> None:
    path = write(tmp_path, CP, b"\xef\xbb\xbf" + GOOD_CHECKPOINT.encode())
    run = cli("-v", path)
    assert run.code == 0 and f"{path}: valid" in run.out
    write(tmp_path, CP, b"\xef\xbb\xbfmilestone: m\nstatus: nope\n")
    run = cli("-v", path)  # still parsed: the schema error is found on its line
    assert finding_lines(run, path)[0].startswith("2:9: error schema status: 'nope'")
    oc = write(tmp_path, OC, b"\xef\xbb\xbf" + json.dumps(oc_checkpoint(status="nope")).encode())
    run = cli("-v", oc)
    assert run.code == 1 and "error schema status: 'nope'" in run.out
    write(tmp_path, OC, b"\xef\xbb\xbf" + json.dumps(oc_checkpoint()).encode())
    assert f"{oc}: valid" in cli("-v", oc).out


def test_second_bom_is_an_encoding_error(tmp_path, cli) -> None:
    path = write(tmp_path, CP, b"\xef\xbb\xbf\xef\xbb\xbf" + GOOD_CHECKPOINT.encode())
    run = cli(path)
    assert run.code == 1
    assert finding_lines(run, path) == [
        "1:1: error encoding a second byte-order mark (U+FEFF) after the first"
    ]


def test_crlf(tmp_path, cli) -> None:
    path = write(tmp_path, CP, "milestone: m\r\nstatus: nope\r\n")
    assert finding_lines(cli(path), path)[0].startswith("2:9: error schema status")
    doc = json.dumps(oc_checkpoint(status="nope"), indent=2).replace("\n", "\r\n")
    oc = write(tmp_path, OC, doc)
    line = next(i for i, s in enumerate(doc.split("\r\n")) if '"nope"' in s) + 1
    assert any(f.startswith(f"{line}:13: error schema status") for f in finding_lines(cli(oc), oc))


def test_conflict_markers(tmp_path, cli) -> None:
    text = "milestone: m\n<<<<<<< HEAD\nstatus: done\n=======\nstatus: blocked\n>>>>>>> feature\n"
    path = write(tmp_path, CP, text)
    run = cli(path)
    assert run.code == 1
    assert finding_lines(run, path) == [
        "2:1: error conflict-markers unresolved merge conflict markers"
    ]
    oc = write(tmp_path, OC, '{\n<<<<<<< ours\n"a": 1\n=======\n"a": 2\n>>>>>>> theirs\n}\n')
    assert finding_lines(cli(oc), oc) == [
        "2:1: error conflict-markers unresolved merge conflict markers"
    ]


def test_nonexistent_path(tmp_path, cli, size_cli) -> None:
    write(tmp_path, "CLAUDE.md", "ok\n")
    run = cli("CLAUDE.md", "nope/.claude_checkpoint.yaml")
    assert run.code == 2
    assert (
        run.err
        == "asimov-validate: error: nope/.claude_checkpoint.yaml: no such file or directory\n"
    )
    assert run.out == ""
    run = size_cli("missing.md")
    assert run.code == 2 and "missing.md: no such file or directory" in run.err


def test_directory_is_walked(tmp_path, cli) -> None:
    write(tmp_path, "d/CLAUDE.md", "line\n" * 16)
    run = cli("d")
    assert run.code == 1 and "d/CLAUDE.md:16:1: error max-lines-hard" in run.out
    os.makedirs(tmp_path / "e" / "CLAUDE.md")  # a directory with a protocol file's name
    run = cli("e")  # reported, not passed over in silence (issue 10)
    assert run.code == 1
    assert finding_lines(run, "e/CLAUDE.md") == [
        "1:1: error io-error is a directory, expected a file"
    ]


def test_symlink_is_followed(tmp_path, cli) -> None:
    target = write(tmp_path, "real/notes.txt", "line\n" * 16)
    os.makedirs(tmp_path / "repo")
    os.symlink(target, tmp_path / "repo" / "CLAUDE.md")
    run = cli("repo/CLAUDE.md")
    assert run.code == 1 and "repo/CLAUDE.md:16:1: error max-lines-hard" in run.out
    run = cli("repo")
    assert run.code == 1 and "repo/CLAUDE.md:16:1: error max-lines-hard" in run.out
    os.symlink(tmp_path / "repo", tmp_path / "linked-dir")
    assert "linked-dir/CLAUDE.md:16:1" in cli("linked-dir").out


def test_broken_symlink(tmp_path, cli) -> None:
    os.makedirs(tmp_path / "repo")
    os.symlink(tmp_path / "gone.md", tmp_path / "repo" / "CLAUDE.md")
    run = cli("repo/CLAUDE.md")  # named or found, a dangling link is a finding (as for trim)
    assert run.code == 1
    assert finding_lines(run, "repo/CLAUDE.md") == ["1:1: error io-error broken symbolic link"]
    run = cli("repo")  # found while searching a directory: a finding
    assert run.code == 1
    assert finding_lines(run, "repo/CLAUDE.md") == ["1:1: error io-error broken symbolic link"]


def test_fifo_is_not_read(tmp_path, cli) -> None:
    os.mkfifo(tmp_path / "CLAUDE.md")
    started = time.monotonic()
    run = cli("CLAUDE.md")
    assert time.monotonic() - started < 5
    assert run.code == 1 and "io-error not a regular file" in run.out


ALIAS_BOMB = (
    "milestone: m\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)


def test_yaml_alias_bomb(tmp_path, cli) -> None:
    path = write(tmp_path, CP, ALIAS_BOMB)
    started = time.monotonic()
    run = cli(path)
    assert time.monotonic() - started < 5
    assert run.code == 1
    assert finding_lines(run, path) == [
        "1:1: error yaml-aliases aliases expand to more than 100,000 nodes (alias bomb?); not checked"
    ]
    warm = write(
        tmp_path, "warmup.yaml", ALIAS_BOMB.replace("milestone: m", "identity: {project: p}")
    )
    assert "yaml-aliases" in cli(warm).out


def test_recursive_alias(tmp_path, cli) -> None:
    path = write(tmp_path, "warmup.yaml", "identity: {project: p}\nfiles: &f\n  self: *f\n")
    run = cli(path)
    assert run.code in (0, 1) and "Traceback" not in run.err


def test_deep_nesting(tmp_path, cli) -> None:
    path = write(tmp_path, OC, "[" * 100_000 + "]" * 100_000)
    run = cli("--ignore", "max-bytes-soft", path)
    assert (
        run.code == 1 and "error syntax invalid JSON: nested more than 100 levels deep" in run.out
    )
    cp = write(tmp_path, CP, "milestone: " + "[" * 600 + "]" * 600 + "\n")
    run = cli("--ignore", "max-tokens", cp)
    assert run.code == 1 and "error syntax invalid YAML" in run.out


def test_50mb_file(tmp_path, cli, size_cli) -> None:
    path = tmp_path / CP
    with open(path, "w") as fh:
        fh.write("milestone: m\nnotes: |\n")
        line = "  " + "x" * 98 + "\n"
        fh.write(line * (50 * 1024 * 1024 // len(line)))
    started = time.monotonic()
    run = cli(CP)
    assert time.monotonic() - started < 5
    assert run.code == 1
    assert finding_lines(run, CP) == [
        f"1:1: error max-bytes-hard {os.path.getsize(path):,} bytes, over the 262,144-byte limit; not parsed"
    ]
    run = size_cli(CP)
    assert run.code == 1 and "max-bytes-hard" in run.out
    os.rename(path, tmp_path / "CLAUDE.md")
    assert "max-bytes-hard" in cli("CLAUDE.md").out


def test_surrogates_are_printed_escaped(tmp_path, cli) -> None:
    path = write(tmp_path, CP, 'milestone: m\n"\\ud800": 1\n')
    run = cli(path)
    assert run.code == 0
    assert finding_lines(run, path) == [
        "2:1: warning unknown-key unknown key '\\ud800' (not one of the checkpoint's known keys)"
    ]
    assert "\\ud800" in cli("--format", "github", path).out
    assert (
        "unknown key"
        in json.loads(cli("--format", "json", path).out)["files"][0]["findings"][0]["message"]
    )


def test_non_utf8_file_name_whole_process(tmp_path) -> None:
    name = os.fsencode(tmp_path) + b"/caf\xe9"
    os.makedirs(name)
    with open(name + b"/CLAUDE.md", "wb") as fh:
        fh.write(b"line\n" * 16)
    proc = subprocess.run(
        [
            os.path.join(os.path.dirname(sys.executable), "asimov-validate"),
            name + b"/CLAUDE.md",
            ".",
        ],
        capture_output=True,
        env=script_env(),
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc
    assert b"Traceback" not in proc.stderr and b"internal error" not in proc.stderr
    assert b"max-lines-hard" in proc.stdout


@pytest.mark.parametrize(
    "text",
    [
        "1: a\nmilestone: m\n",
        "? [a, b]\n: c\nmilestone: m\n",
        "null: 1\nmilestone: m\n",
        "- a\n- b\n",
        "just text\n",
        "# only a comment\n",
        "milestone: !!binary aGVsbG8=\n",
        "milestone: !custom foo\n",
        "milestone: m\nstatus: !!set {a, b}\n",
        "<<: {milestone: m}\nstatus: done\n",
        "%YAML 1.1\n---\nmilestone: m\nstatus: yes\n",
        "milestone: m\n\ttool_calls: 1\n",
        "milestone: m\ntool_calls: .inf\n",
    ],
)
def test_odd_yaml_never_crashes(tmp_path, cli, text: str) -> None:
    path = write(tmp_path, CP, text)
    run = cli("-v", path)  # the fixture asserts: no traceback, no internal error
    assert run.code in (0, 1)
    assert run.out.splitlines()[-1].startswith("1 file checked")


@pytest.mark.parametrize(
    "text",
    ['"just a string"', "null", "[]", "42", '{"a": 1} {"b": 2}', '{"skill": "\\ud800"}'],
)
def test_odd_json_never_crashes(tmp_path, cli, text: str) -> None:
    path = write(tmp_path, OC, text)
    run = cli(path)
    assert run.code == 1
    assert run.out.splitlines()[-1].startswith("1 file checked")


# Hostile input (issue 10): every reader refuses these with one finding, quickly, before
# or instead of a parser that would crash, hang or expand them. tests/test_hardening.py
# runs the same classes through trim, the archive, the merge driver and real processes.
_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
    for i in range(8)
)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (CP, "milestone: " + "[" * 50_000 + "]" * 50_000 + "\n", "syntax invalid YAML: nested"),
        (CP, "milestone: m\nn:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 200)), "nested"),
        (CP, "milestone: m\nn:\n  " + "- " * 5_000 + "x\n", "syntax invalid YAML: nested"),
        (OC, "[" * 50_000 + "]" * 50_000, "syntax invalid JSON: nested"),
        (CP, "milestone: m\n" + _BOMB, "yaml-aliases"),
        (CP, "milestone: !!python/object:os.system x\n", "unsupported YAML tag"),
        (CP, "milestone: !local x\n", "unsupported YAML tag '!local'"),
        (CP, "milestone: m\n---\nmilestone: n\n", "syntax invalid YAML: a stream of 2"),
        (CP, "milestone: m\ntimestamp: 2026-13-45\n", "a value cannot be read"),
        (CP, "milestone: m\ntool_calls: !!int foo\n", "a value cannot be read"),
        (OC, '{"a": 1e999}', "out of range"),
        (OC, '{"a": NaN}', "NaN is not a JSON value"),
        (OC, '{"a": ' + "9" * 5_000 + "}", "Exceeds the limit"),
        (CP, "milestone: m\n<<<<<<<<< ours\nstatus: done\n=========\n>>>>>>>>> x\n", "conflict"),
    ],
    ids=[
        "yaml-flow-depth",
        "yaml-block-depth",
        "yaml-compact-depth",
        "json-depth",
        "alias-bomb",
        "python-tag",
        "local-tag",
        "multi-document",
        "bad-timestamp",
        "bad-int-tag",
        "json-1e999",
        "json-nan",
        "json-5000-digits",
        "markers-size-9",
    ],
)
def test_hostile_input_table(tmp_path, cli, name: str, text: str, expected: str) -> None:
    path = write(tmp_path, name, text)
    run = cli("--ignore", "max-tokens,max-bytes-soft,max-lines-soft,max-lines-hard", path)
    assert run.code == 1, run
    assert expected in run.out, run
    assert len(finding_lines(run, path)) == 1
