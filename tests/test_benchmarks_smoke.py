"""Smoke tests for benchmarks/: the corpus is deterministic and the runner's parts work.

No timing assertions: these only guard the harness against rot, the figures come from
`python benchmarks/run.py`.
"""

from __future__ import annotations

import os

import pytest
from conftest import bench_module

corpus = bench_module("corpus")
bench = bench_module("run")


def test_render_is_deterministic_and_independent_of_count() -> None:
    for family in corpus.FAMILIES:
        assert corpus.render(family, 7, 3) == corpus.render(family, 7, 3)
    first = [corpus.render("oc", 7, i) for i in range(20)]
    assert first == [corpus.render("oc", 7, i) for i in range(20)]
    assert corpus.render("asimov", 7, 1) != corpus.render("asimov", 8, 1)


def test_file_zero_is_an_ordinary_valid_file() -> None:
    for family in corpus.FAMILIES:
        assert corpus.render(family, 1, 0)[2] == "valid"


def test_generate_same_seed_same_bytes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    a = corpus.generate(str(tmp_path / "a"), 30, seed=5)
    b = corpus.generate(str(tmp_path / "b"), 30, seed=5)
    c = corpus.generate(str(tmp_path / "c"), 30, seed=6)
    assert a["sha256"] == b["sha256"] != c["sha256"]
    assert a["files"]["asimov"][4] == "asimov/00004/.claude_checkpoint.yaml"
    for family, paths in a["files"].items():
        assert len(paths) == 30
        assert all(os.path.isfile(tmp_path / "a" / p) for p in paths), family
    # a larger corpus holds the smaller one as its prefix
    d = corpus.generate(str(tmp_path / "d"), 40, seed=5)
    assert d["files"]["oc"][:30] == a["files"]["oc"]
    assert (tmp_path / "d" / a["files"]["warmup"][7]).read_bytes() == (
        tmp_path / "a" / a["files"]["warmup"][7]
    ).read_bytes()
    # generating again reuses what is there
    assert corpus.generate(str(tmp_path / "a"), 10, seed=5)["sha256"] == a["sha256"]


def test_variants_are_mixed() -> None:
    seen = {corpus.render("warmup", 11, i)[2] for i in range(400)}
    assert {"valid", "oversized", "schema", "syntax", "foreign"} <= seen


def test_partition_respects_limits_and_keeps_order() -> None:
    files = [f"dir/{i:05d}/.claude_checkpoint.yaml" for i in range(9000)]
    chunks = bench.partition(["tool", "--flag"], files, max_args=4000, max_length=100_000)
    assert all(c[:2] == ["tool", "--flag"] for c in chunks)
    assert [f for c in chunks for f in c[2:]] == files
    assert all(len(c) - 2 <= 4000 for c in chunks)
    assert all(sum(len(a) + 1 for a in c) <= 100_000 for c in chunks)
    assert bench.partition(["tool"], []) == [["tool"]]
    assert len(bench.partition(["t"], ["a", "b", "c"], max_args=2)) == 2


def test_ratio_and_format() -> None:
    fast, slow = bench.Stats(median=0.02, runs=5), bench.Stats(median=0.2, runs=5)
    assert bench.ratio(fast, slow) == "0.10×"
    assert bench.ratio(slow, fast) == "10×"
    assert bench.ratio(fast, bench.Stats(note="failed")) == "—"
    assert bench.fmt_time(0.0005) == "500 µs"
    assert bench.fmt_time(0.25) == "250.0 ms"
    assert bench.fmt_time(2.5) == "2.50 s"


def test_other_output_is_fenced_unless_markdown() -> None:
    table = "| a | b |\n|---|---|\n| 1 | 2 |"
    assert bench.as_markdown(table) == table
    assert bench.as_markdown("python -c pass  15 ms") == "```text\npython -c pass  15 ms\n```"


def test_linearity_compares_time_growth_with_file_growth() -> None:
    res = bench.Results()
    tool, family = "asimov-validate", "asimov"
    for n, total in ((100, 0.15), (1000, 1.05), (10_000, 10.05)):
        res.batch[(n, tool, family)] = bench.Stats(median=total, runs=5)
    assert bench.linearity(res, tool, family, [100, 1000, 10_000]).verdict == "met"
    res.batch[(10_000, tool, family)] = bench.Stats(median=40.0, runs=5)
    assert bench.linearity(res, tool, family, [100, 1000, 10_000]).verdict == "missed"
    assert bench.linearity(res, tool, family, [100]).verdict == "not measured"
    assert bench.linearity(res, "asimov-check-size", family, [100]) is None


@pytest.mark.skipif(
    not bench.executable("asimov-check-size"), reason="asimov-hooks is not installed"
)
def test_runner_end_to_end_tiny(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "results.md"
    code = bench.main(
        [
            "--sizes", "3", "--runs", "1", "--families", "claude-md", "--tools", "check-size",
            "--no-others", "--corpus-dir", str(tmp_path / "corpus"), "--out", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert "## One file, as a commit pays it" in text
    assert "`asimov-check-size`" in text
    assert "### 3 files of each family" in text
    assert "Machine:" in text
