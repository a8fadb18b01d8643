"""A big batch says exactly what each file says on its own.

`asimov-validate` over many files takes short cuts a one-file run does not: the
directories the files share are opened once and their descriptors kept (fs.walk), a
base name's kind is worked out once (globs.FirstMatch), the size rules reuse the parse,
and big batches are spread over forked workers (validation/parallel). None of that may
change a finding, its order, its message or the exit status. Over the benchmark corpus
(every family, with valid, oversized, schema-breaking, unparsable and look-alike files,
in a real git repository) this checks that:

- one batch run, in one process and on two workers, reports what the files report run
  one at a time, in the order given, with the same exit status, byte for byte;
- an unparsable file's message, line and column are the round-trip reader's (the
  reference reading every faster reader hands its errors to).
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import bench_module

from asimov_hooks.readers.loaders import YAMLProblem
from asimov_hooks.readers.yamlio import ROUND_TRIP, load_all, single
from asimov_hooks.validation.run import validate

SEED = 18  # with 50 files a family, every variant of every family is there
COUNT = 50


@pytest.fixture(scope="module")
def corpus_root(tmp_path_factory):
    corpus = bench_module("corpus")
    root = str(tmp_path_factory.mktemp("corpus") / "repo")
    manifest = corpus.generate(root, COUNT, seed=SEED)
    for family in corpus.FAMILIES:  # the test means nothing without every variant
        assert set(manifest["variants"][family]) == {
            "valid", "oversized", "schema", "syntax", "foreign"
        }, family  # fmt: skip
    return root, manifest


def _run(capsys, files: list[str], fmt: str, jobs: int) -> tuple[int, str]:
    capsys.readouterr()
    code = validate(files, fmt=fmt, jobs=jobs)
    out = capsys.readouterr()
    assert out.err == ""
    return code, out.out


@pytest.mark.parametrize("family", ["asimov", "warmup", "oc", "claude-md"])
def test_a_batch_reports_what_each_file_reports(corpus_root, capsys, monkeypatch, family):
    root, manifest = corpus_root
    monkeypatch.chdir(root)
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    files = manifest["files"][family]
    one_by_one, codes = [], []
    for name in files:
        code, out = _run(capsys, [name], "json", 1)
        codes.append(code)
        one_by_one += json.loads(out)["files"]
    assert {r["status"] for r in one_by_one} >= {"valid", "error"}
    serial_code, serial = _run(capsys, files, "json", 1)
    assert serial_code == max(codes)
    assert json.loads(serial)["files"] == one_by_one
    workers_code, workers = _run(capsys, files, "json", 2)
    assert (workers_code, workers) == (serial_code, serial)
    text_serial = _run(capsys, files, "text", 1)
    assert _run(capsys, files, "text", 2) == text_serial


@pytest.mark.parametrize("family", ["asimov", "warmup"])
def test_an_unparsable_file_says_what_the_round_trip_reader_says(
    corpus_root, capsys, monkeypatch, family
):
    root, manifest = corpus_root
    monkeypatch.chdir(root)
    corpus = bench_module("corpus")
    broken = [
        rel
        for index, rel in enumerate(manifest["files"][family])
        if corpus.render(family, SEED, index)[2] == "syntax"
    ]
    assert broken
    _, out = _run(capsys, broken, "json", 1)
    reported = {entry["path"]: entry["findings"] for entry in json.loads(out)["files"]}
    compared = 0
    for rel in broken:
        with open(os.path.join(root, rel), encoding="utf-8") as fh:
            text = fh.read()
        with pytest.raises(YAMLProblem) as reference:
            single(load_all(text, ROUND_TRIP))  # the round trip, the reference
        syntax = [f for f in reported[rel] if f["rule"] == "syntax"]
        assert len(syntax) <= 1, rel
        if not syntax:  # conflict markers: reported as such, not as a syntax error
            assert any(f["rule"] == "conflict-markers" for f in reported[rel]), rel
            continue
        compared += 1
        problem = reference.value
        assert (syntax[0]["line"], syntax[0]["col"], syntax[0]["message"]) == (
            problem.line,
            problem.col,
            problem.message,
        ), rel
    assert compared


def test_a_kept_directory_never_leads_outside(tmp_path) -> None:
    """A folder is opened once per run and its descriptor kept: a folder swapped for a
    link out of the repository after its first file was read still gives nothing from
    outside (the kept descriptor is the folder that was opened, inside; the link is not
    followed), and a run that starts after the swap refuses the path."""
    import subprocess

    from asimov_hooks.fs.access import FileProblem, read_bytes
    from asimov_hooks.fs.walk import remembered_trees

    repo, outside = tmp_path / "repo", tmp_path / "outside"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "d").mkdir()
    (repo / "d" / "a.yaml").write_text("a: 1\n")
    (repo / "d" / "b.yaml").write_text("b: inside\n")
    outside.mkdir()
    (outside / "b.yaml").write_text("SECRET\n")
    with remembered_trees():
        assert read_bytes(str(repo / "d" / "a.yaml")) == b"a: 1\n"
        os.rename(repo / "d", repo / "d.old")
        os.symlink(outside, repo / "d")
        try:
            got = read_bytes(str(repo / "d" / "b.yaml"))
        except FileProblem:
            got = b""
        assert b"SECRET" not in got
        assert got in (b"", b"b: inside\n")
    with remembered_trees(), pytest.raises(FileProblem) as refused:
        read_bytes(str(repo / "d" / "b.yaml"))
    assert "outside the repository" in refused.value.message


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_a_run_leaves_no_descriptor_open(corpus_root, capsys, monkeypatch) -> None:
    root, manifest = corpus_root
    monkeypatch.chdir(root)
    files = [name for family in ("asimov", "oc") for name in manifest["files"][family]]
    before = sorted(os.listdir("/proc/self/fd"))
    _run(capsys, files, "text", 1)
    _run(capsys, files, "text", 2)
    assert sorted(os.listdir("/proc/self/fd")) == before


BATCH_PROBE = """
import sys
from asimov_hooks.cli.entrypoints import validate_main
try:
    code = validate_main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print("LOADED", [m for m in ("yaml", "ruamel.yaml") if m in sys.modules])
sys.exit(code)
"""


def test_a_batch_loads_one_yaml_library(tmp_path) -> None:
    """A batch reads what the plain reader hands over with ruamel's libyaml binding,
    which the round trip of a broken file needs anyway: PyYAML is not loaded too."""
    import subprocess
    import sys

    from conftest import GOOD_CHECKPOINT, script_env

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    files = []
    for index in range(40):
        text = GOOD_CHECKPOINT
        if index == 7:
            text += "notes: |\n  a block scalar\n"
        if index == 30:
            text = text.replace("status: in_progress", "status: [in_progress")
        folder = tmp_path / f"{index:02}"
        folder.mkdir()
        (folder / ".claude_checkpoint.yaml").write_text(text, encoding="utf-8")
        files.append(f"{index:02}/.claude_checkpoint.yaml")
    for jobs in ("1", "2"):
        proc = subprocess.run(
            [sys.executable, "-c", BATCH_PROBE, "--jobs", jobs, *files],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=script_env(),
        )
        assert proc.returncode == 1, proc
        assert "30/.claude_checkpoint.yaml:" in proc.stdout
        assert "LOADED ['ruamel.yaml']" in proc.stdout, proc.stdout[-300:]


def test_a_normal_absolute_path_is_taken_as_it_is() -> None:
    """fs.trees.absolute skips abspath's normalising pass only where it changes nothing."""
    import itertools

    from asimov_hooks.fs.trees import absolute

    parts = ["a", ".", "..", "", ".git", "b c", "x.", "..y"]
    for n in range(4):
        for combo in itertools.product(parts, repeat=n):
            for lead, tail in itertools.product(("", "/", "//", "///"), ("", "/")):
                path = lead + "/".join(combo) + tail
                if path:
                    assert absolute(path) == os.path.abspath(path), path
