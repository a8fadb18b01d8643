"""The limits study page (benchmarks/limits-study.md) is what its script makes of the
data in tests/data, and its limits are the shipped rule packs', not numbers of its own."""

from __future__ import annotations

import copy
import os

from conftest import ROOT, bench_module

study = bench_module("limits_study")


def test_page_is_regenerated_from_the_data() -> None:
    with open(os.path.join(ROOT, "benchmarks", "limits-study.md"), encoding="utf-8") as fh:
        assert fh.read() == study.render()


def test_limits_come_from_the_rule_packs(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from asimov_hooks.config import packs

    real = packs.default_data

    def changed():  # type: ignore[no-untyped-def]
        data = copy.deepcopy(real())  # the packs are cached for the process: never changed
        data["kinds"]["asimov-warmup"]["rules"]["max-lines-soft"]["max"] = 7777
        return data

    monkeypatch.setattr(packs, "default_data", changed)
    page = study.render()
    assert "max-lines-soft 7,777 (warning)" in page
    assert "max-lines-soft 200 (warning)" not in page.split("## Asimov Protocol warmup")[1]


def test_measurements_hold_numbers_only() -> None:
    import json

    with open(study.MEASUREMENTS, encoding="utf-8") as fh:
        data = json.load(fh)
    keys = {"path", "kind", "blob", "head", "lines", "chars", "bytes", "words"}
    for source in data["sources"]:
        assert source["files"], source["repo"]
        for row in source["files"]:
            assert set(row) == keys
            assert all(isinstance(row[k], int) for k in ("lines", "chars", "bytes", "words"))
    assert study.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9) == 9
