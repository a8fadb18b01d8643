"""Targets: each goal of the benchmark issue, met or missed, from the measured figures."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import corpus
from measuring import SERIAL, Results, Stats
from rendering import fmt_time


@dataclass
class Target:
    name: str
    verdict: str  # met | missed | not measured
    figures: str


def evaluate(res: Results, sizes: Sequence[int]) -> list[Target]:
    """The issue's targets, each met or missed with the figures it rests on."""
    out: list[Target] = []

    def get(table: dict, key: tuple) -> Stats | None:
        st = table.get(key)
        return st if st and st.ok else None

    for family in corpus.SCHEMAS:
        ours, theirs = (
            get(res.single, ("asimov-validate", family)),
            get(res.single, ("check-jsonschema", family)),
        )
        if ours and theirs:
            r = ours.median / theirs.median
            out.append(
                Target(
                    f"one file, size+schema ≤ 0.25× check-jsonschema ({family})",
                    "met" if r <= 0.25 else "missed",
                    f"{fmt_time(ours.median)} vs {fmt_time(theirs.median)} = {r:.2f}×",
                )
            )
    for family in corpus.FAMILIES:
        ours, py = (
            get(res.single, ("asimov-check-size", family)),
            get(res.single, ("python -c pass", family)),
        )
        if ours and py:
            r = ours.median / py.median
            out.append(
                Target(
                    f"one file, size only ≤ 2× bare Python start ({family})",
                    "met" if r <= 2 else "missed",
                    f"{fmt_time(ours.median)} vs {fmt_time(py.median)} = {r:.2f}×",
                )
            )
    if 1000 in sizes:
        for family in corpus.SCHEMAS:
            ours = get(res.batch, (1000, "asimov-validate", family))
            serial = get(res.batch, (1000, SERIAL, family))
            for other, need in (("check-jsonschema", 5.0), ("yamllint", 3.0)):
                theirs = get(res.batch, (1000, other, family))
                if ours and theirs:
                    speed = theirs.median / ours.median
                    one = (
                        f"; in one process (`--jobs 1`) {fmt_time(serial.median)} = "
                        f"{theirs.median / serial.median:.2f}× as fast"
                        if serial
                        else ""
                    )
                    out.append(
                        Target(
                            f"1,000 files ≥ {need:g}× faster than {other} ({family})",
                            "met" if speed >= need else "missed",
                            f"{fmt_time(ours.median)} vs {fmt_time(theirs.median)} = "
                            f"{speed:.2f}× as fast (default `--jobs`){one}",
                        )
                    )
    for tool in ("asimov-check-size", "asimov-validate", SERIAL):
        for family in corpus.FAMILIES:
            target = linearity(res, tool, family, sizes)
            if target:
                out.append(target)
    top = max(sizes) if sizes else 0
    if top >= 10_000:
        for tool in ("asimov-check-size", "asimov-validate", SERIAL):
            for family in corpus.FAMILIES:
                if (top, tool, family) not in res.batch:
                    continue
                st = get(res.batch, (top, tool, family))
                out.append(
                    Target(
                        f"{top:,} files under 100 MB: {tool} ({family})",
                        "not measured" if not st else ("met" if st.rss_mb < 100 else "missed"),
                        f"peak RSS {st.rss_mb:.0f} MB" if st else "not run",
                    )
                )
    return out


def linearity(res: Results, tool: str, family: str, sizes: Sequence[int]) -> Target | None:
    """Linear growth: k times the files never costs more than k times the time.

    Start-up is shared by more files as batches grow, so a linear tool's time grows by
    less than the file count; a super-linear one (a quadratic scan, a cache that stops
    fitting) grows by more. Each step between consecutive batch sizes must stay within
    1.25x the file ratio, a margin for noise. Time ratios are robust to the start-up
    noise that makes marginal cost per file unreliable at 100 files.
    """
    points = [(n, res.batch.get((n, tool, family))) for n in sorted(sizes) if n > 1]
    if all(st is None for _, st in points):
        return None  # not part of this run
    name = f"linear growth: {tool} ({family})"
    have = [(n, st) for n, st in points if st is not None and st.ok]
    per_file = ", ".join(f"{fmt_time(st.median / n)} @ {n:,}" for n, st in have)
    if len(have) < 2:
        missing = [f"{n:,}" for n, st in points if st is None or not st.ok]
        why = f"no figure at {', '.join(missing)} files" if missing else "needs two sizes"
        return Target(name, "not measured", f"{why}; per file {per_file}")
    steps, ok = [], True
    for (n1, s1), (n2, s2) in itertools.pairwise(have):
        grew = s2.median / s1.median
        ok = ok and grew <= 1.25 * n2 / n1
        steps.append(f"{n2 / n1:g}× files → {grew:.1f}× time ({n1:,}→{n2:,})")
    missing = [f"{n:,}" for n, st in points if st is None or not st.ok]
    note = f" (no figure at {', '.join(missing)})" if missing else ""
    verdict = "met" if ok else "missed"
    return Target(name, verdict, f"per file {per_file}; {'; '.join(steps)}{note}")
