"""The speed targets at the top of results.md: each case's time against its anchor's,
as wall-clock and as CPU (user + system time of the processes) ratios with their ranges.
On a shared machine other work stretches wall time far more than CPU time, so both are
shown; a target is met when the median ratio is within it on both, or on CPU alone
(said so) when only the wall clock missed it under load."""

from __future__ import annotations

import os

from measuring import FLOOR, SERIAL, Results, Stats
from rendering import fmt_time

HERE = os.path.dirname(os.path.abspath(__file__))

# (case, anchor, target ratio, where to find ours and the anchor's figures)
BATCH, ONE = "batch", "one"


def _ratios(ours: Stats, anchor: Stats) -> tuple[float, float, float, float, float, float]:
    """(wall median, low, high, cpu median, low, high) of ours ÷ anchor: each range from
    ours' fastest over the anchor's slowest run to ours' slowest over its fastest."""
    return (
        ours.median / anchor.median,
        ours.low / anchor.high,
        ours.high / anchor.low,
        ours.cpu / anchor.cpu if anchor.cpu else 0.0,
        ours.cpu_low / anchor.cpu_high if anchor.cpu_high else 0.0,
        ours.cpu_high / anchor.cpu_low if anchor.cpu_low else 0.0,
    )


def _verdict(wall: float, cpu: float, target: float) -> str:
    if wall <= target and cpu <= target:
        return "**met**"
    if cpu <= target:
        return "**met on CPU** (wall missed under load)"
    return "**missed**"


def _agent_rows(markdown: str) -> dict[str, tuple[str, str, str]]:
    """event -> (wall median, × wall, × CPU) from bench_agent_event.py's table."""
    rows = {}
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] and not cells[0].startswith(("event", "---")):
            rows[cells[0]] = (cells[1], cells[3], cells[5])
    return rows


def _number(cell: str) -> float | None:
    try:
        return float(cell.rstrip("×"))
    except ValueError:
        return None


def section(res: Results, load_start: float, load_end: float) -> list[str]:
    lines = [
        "## Speed targets",
        "",
        "Each case's time divided by its anchor's, measured in the same run, round-robin. "
        "Wall ratios are what a user waits; CPU ratios (user + system time of the "
        "processes) move much less with other work on the machine. Ranges run from our "
        "fastest run over the anchor's slowest to our slowest over its fastest. "
        f"This run's load average was {load_start:.1f} at the start and {load_end:.1f} at "
        f"the end on {os.cpu_count()} cores"
        + (
            ": a busy machine, so trust the CPU ratios over the wall ones."
            if max(load_start, load_end) > (os.cpu_count() or 1)
            else "."
        ),
        "",
        "| case | target | wall ratio (range) | CPU ratio (range) | verdict | figures |",
        "|---|---:|---:|---:|---|---|",
    ]
    cases = [
        (
            "`asimov-validate` on 1,000 checkpoints (one per folder) vs check-jsonschema",
            (1000, "asimov-validate", "asimov"),
            (1000, "check-jsonschema", "asimov"),
            0.2,
        ),
        (
            "the same vs a floor that only reads and libyaml-parses the files",
            (1000, "asimov-validate", "asimov"),
            (1000, FLOOR, "asimov"),
            1.3,
        ),
        (
            "the same in one process (`--jobs 1`) vs the floor",
            (1000, SERIAL, "asimov"),
            (1000, FLOOR, "asimov"),
            1.3,
        ),
        (
            "one file, `asimov-validate` vs `python -c pass`",
            ("asimov-validate", "asimov"),
            ("python -c pass", "asimov"),
            2.5,
        ),
        (
            "one file, size only (`asimov-check-size`) vs `python -c pass`",
            ("asimov-check-size", "asimov"),
            ("python -c pass", "asimov"),
            1.5,
        ),
    ]
    for name, ours_key, anchor_key, target in cases:
        table = res.batch if len(ours_key) == 3 else res.single
        ours, anchor = table.get(ours_key), table.get(anchor_key)
        if not (ours and ours.ok and anchor and anchor.ok):
            lines.append(f"| {name} | ≤ {target:g}× | — | — | not measured | |")
            continue
        w, wl, wh, c, cl, ch = _ratios(ours, anchor)
        lines.append(
            f"| {name} | ≤ {target:g}× | {w:.2f}× ({wl:.2f}–{wh:.2f}) | "
            f"{c:.2f}× ({cl:.2f}–{ch:.2f}) | {_verdict(w, c, target)} | "
            f"{fmt_time(ours.median)} vs {fmt_time(anchor.median)} wall; "
            f"{fmt_time(ours.cpu)} vs {fmt_time(anchor.cpu)} CPU |"
        )
    agent = _agent_rows(res.extra.get("bench_agent_event.py", ""))
    for name, event, target in (
        (
            "agent event on a file that is not a protocol file vs `python -c pass`",
            "PostToolUse Edit src/app.py (not a protocol file)",
            1.5,
        ),
        (
            "agent event after a checkpoint write (PostToolUse) vs `python -c pass`",
            "PostToolUse Write .claude_checkpoint.yaml (nothing to trim)",
            3.0,
        ),
    ):
        found = agent.get(event)
        wall, cpu = (_number(found[1]), _number(found[2])) if found else (None, None)
        if wall is None or cpu is None:
            lines.append(f"| {name} | ≤ {target:g}× | — | — | not measured | |")
            continue
        lines.append(
            f"| {name} | ≤ {target:g}× | {wall:.2f}× | {cpu:.2f}× | "
            f"{_verdict(wall, cpu, target)} | {found[0]} wall median; "
            "see the agent event table below |"
        )
    lines += ["", *_session_lines()]
    return lines


def _session_lines() -> list[str]:
    """The real-agent session overhead, from agent-session.md (its own script)."""
    path = os.path.join(HERE, "agent-session.md")
    if not os.path.isfile(path):
        return ["A real agent session's overhead: not measured yet (`bench_agent_session.py`)."]
    with open(path, encoding="utf-8") as fh:
        table = [line for line in fh.read().splitlines() if line.startswith("|")]
    return [
        "What the hooks add to a whole agent session (the real agents against a scripted "
        "model that answers at once, so an upper bound), "
        "from [agent-session.md](agent-session.md) (`python benchmarks/bench_agent_session.py`, "
        "run on its own: it needs the agents installed):",
        "",
        *table,
    ]
