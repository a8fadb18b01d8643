"""Rendering: the markdown tables of results.md and the formatting of figures."""

from __future__ import annotations

import itertools
import os
import platform
import subprocess
from collections.abc import Sequence

import corpus
from measuring import (
    ANCHORS,
    CONFLICT_RULES,
    REPO,
    ROTATE,
    SERIAL,
    Results,
    Stats,
    Tool,
    executable,
)


# ------------------------------------------------------------------------ reporting
def as_markdown(text: str) -> str:
    """Another script's output as it is if it is markdown (has a table), else fenced."""
    if any(line.lstrip().startswith("|---") for line in text.splitlines()):
        return text
    return f"```text\n{text}\n```"


def ratio(value: Stats | None, anchor: Stats | None) -> str:
    """`value` time as a multiple of `anchor` time (below 1: faster than the anchor)."""
    if value is None or anchor is None or not value.ok or not anchor.ok or anchor.median <= 0:
        return "—"
    r = value.median / anchor.median
    return f"{r:.2f}×" if r < 10 else f"{r:.0f}×"


def fmt_time(seconds: float) -> str:
    if abs(seconds) < 0.001:
        return f"{seconds * 1e6:.0f} µs"
    if abs(seconds) < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def machine() -> str:
    """CPU model, cores, Python and OS: the line every figure depends on."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores; Python {platform.python_version()} "
        f"({platform.python_implementation()}); {platform.platform()}"
    )


def versions(tools: dict[str, Tool]) -> str:
    out = []
    for name, flag in (
        ("asimov-validate", "--version"),
        ("check-jsonschema", "--version"),
        ("yamllint", "--version"),
    ):
        exe = executable(name)
        if not exe:
            out.append(f"{name}: not installed")
            continue
        proc = subprocess.run([exe, flag], capture_output=True, text=True, check=False)
        out.append(
            (proc.stdout or proc.stderr).strip().splitlines()[0]
            if proc.stdout or proc.stderr
            else name
        )
    commit = subprocess.run(
        ["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", REPO, "status", "--porcelain", "--", "src", "rules"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    out.append(
        f"asimov-hooks commit {commit or '?'}" + (" (+ uncommitted changes)" if dirty else "")
    )
    return "; ".join(out)


def single_table(res: Results) -> list[str]:
    lines = [
        "| hook | command | file | median | min–max | peak RSS | × python -c pass | × cat "
        "| × check-jsonschema | × yamllint |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for tool, family in sorted(res.single, key=lambda k: _row_order((1, *k))):
        st = res.single[(tool, family)]
        hook = _hook_of(tool)
        name = corpus.file_name(family).replace("oc-app-architect", "<skill>")
        if not st.ok:
            lines.append(f"| {hook} | `{tool}` | {name} | {st.note} | | | | | | |")
            continue
        anchors = [ratio(st, res.single.get((a, family))) for a in ANCHORS]
        lines.append(
            f"| {hook} | `{tool}` | {name} | {fmt_time(st.median)} | "
            f"{fmt_time(st.low)}–{fmt_time(st.high)} | {st.rss_mb:.0f} MB | "
            + " | ".join(anchors)
            + " |"
        )
    return lines


TOOL_ORDER = (
    "python -c pass",
    "cat",
    "asimov-check-size",
    "asimov-validate",
    SERIAL,
    "asimov-validate --select " + CONFLICT_RULES,
    "asimov-hooks trim",
    ROTATE,
    "check-jsonschema",
    "yamllint",
)


def _row_order(key: tuple[int, str, str]) -> tuple[int, int]:
    _, tool, family = key
    order = TOOL_ORDER.index(tool) if tool in TOOL_ORDER else len(TOOL_ORDER)
    return corpus.FAMILIES.index(family), order


def _hook_of(tool: str) -> str:
    return {
        "asimov-check-size": "asimov-size",
        "asimov-validate": "asimov-validate",
        "asimov-validate --select " + CONFLICT_RULES: "asimov-checkpoint-conflicts",
        "asimov-hooks trim": "asimov-trim",
        ROTATE: "asimov-oc-rotate",
    }.get(tool, "—")


def batch_tables(res: Results, sizes: Sequence[int]) -> list[str]:
    lines: list[str] = []
    for n in sizes:
        lines += [
            "",
            f"### {n:,} files of each family",
            "",
            "| family | command | median | per file | min–max | peak RSS | runs×chunks "
            "| × python -c pass | × cat | × check-jsonschema | × yamllint |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        rows = sorted((k for k in res.batch if k[0] == n), key=_row_order)
        for key in rows:
            _, tool, family = key
            st = res.batch[key]
            if not st.ok:
                lines.append(f"| {family} | `{tool}` | {st.note} | | | | | | | | |")
                continue
            anchors = [ratio(st, res.batch.get((n, a, family))) for a in ANCHORS]
            lines.append(
                f"| {family} | `{tool}` | {fmt_time(st.median)} | {fmt_time(st.median / n)} | "
                f"{fmt_time(st.low)}–{fmt_time(st.high)} | {st.rss_mb:.0f} MB | {st.runs}×{st.chunks} | "
                + " | ".join(anchors)
                + " |"
            )
    return lines


def scaling_table(res: Results, sizes: Sequence[int]) -> list[str]:
    """Per-file time and the marginal cost per added file between sizes."""
    ordered = sorted(sizes)
    head = " | ".join(f"per file @ {n:,}" for n in ordered)
    margins = [f"marginal {a:,}→{b:,}" for a, b in itertools.pairwise(ordered)]
    lines = [
        f"| family | command | {head} | " + " | ".join(margins) + " |",
        "|---|---|" + "---:|" * (len(ordered) + len(margins)),
    ]
    for tool in ("asimov-check-size", "asimov-validate", SERIAL):
        for family in corpus.FAMILIES:
            if not any((n, tool, family) in res.batch for n in ordered):
                continue
            cells = []
            for n in ordered:
                st = res.batch.get((n, tool, family))
                cells.append(fmt_time(st.median / n) if st and st.ok else "—")
            for a, b in itertools.pairwise(ordered):
                cells.append(_marginal(res, tool, family, a, b))
            lines.append(f"| {family} | `{tool}` | " + " | ".join(cells) + " |")
    return lines


def _marginal(res: Results, tool: str, family: str, a: int, b: int) -> str:
    sa, sb = res.batch.get((a, tool, family)), res.batch.get((b, tool, family))
    if not (sa and sb and sa.ok and sb.ok):
        return "—"
    return fmt_time((sb.median - sa.median) / (b - a))


# ------------------------------------------------------------------------ targets
