"""Benchmark the checkpoint merge driver as git runs it: one whole process per merge.

    python benchmarks/bench_merge.py            # 21 timed runs per row
    python benchmarks/bench_merge.py --quick    # 7 timed runs per row

Two triples (base, ours, theirs) with the concurrent edits the driver exists for:
a 30-line Asimov `.claude_checkpoint.yaml` (timestamps, counter, completed items on
both sides) and a ~20 KB OC checkpoint (updated_at, progress rows, key decisions and a
long merged-PR telemetry list on both sides). Each is merged by
`python -m asimov_hooks merge-driver %O %A %B %L %P`, by the same through the guarded
command `asimov-hooks install` writes into git config (run with `sh -c`, as git does),
and by `git merge-file` on the same files: the floor, git's own line merge (which
conflicts on these triples, which is why the driver exists). %A is restored before
every run. Prints markdown: median / min / max wall time (the
commands take turns, so load from elsewhere falls on all of them alike), the ratio to
the floor and the 150 ms target. Results are checked: the driver must merge cleanly, and to the
right data.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TARGET_MS = 150.0

YAML_BASE = """\
# Session checkpoint (ADR-007): current state only, re-read after compaction.
# Trimmed by asimov-hooks; history lives in sprint.yaml.
timestamp: "2026-11-20T10:30:00Z"
session_started: "2026-11-20T08:00:00Z"
tool_calls: 45
tool_calls_since_checkpoint: 6
milestone: "Add feature X"
status: in_progress

# Rolling window: the last completed tasks only
completed:
  - "Task 4: schema for the config file"
  - "Task 5: positions for JSON errors"
  - "Task 6: wire the parser"
  # older tasks trimmed

in_progress: "Task 9: benchmark the hot path"   # current

# Bounded: the first next steps only
next_steps:
  - "Task 10: release notes"
  - "Task 11: tag v1.2"
  - "Task 12: announce"

on_confusion: "cat warmup.yaml"
notes: |
  Keep the merge driver under 150 ms per file.
  Profile before optimising.
"""


def yaml_triple() -> tuple[str, str, str]:
    ours = (
        YAML_BASE.replace("10:30:00Z", "11:05:00Z")
        .replace("tool_calls: 45", "tool_calls: 61")
        .replace("tool_calls_since_checkpoint: 6", "tool_calls_since_checkpoint: 3")
        .replace('  - "Task 4: schema for the config file"\n', "")
        .replace(
            '  - "Task 6: wire the parser"\n',
            '  - "Task 6: wire the parser"\n  - "Task 7: add tests"\n',
        )
    )
    theirs = (
        YAML_BASE.replace("10:30:00Z", "12:40:00Z")
        .replace("tool_calls: 45", "tool_calls: 52")
        .replace("tool_calls_since_checkpoint: 6", "tool_calls_since_checkpoint: 9")
        .replace('  - "Task 4: schema for the config file"\n', "")
        .replace(
            '  - "Task 6: wire the parser"\n',
            '  - "Task 6: wire the parser"\n  - "Task 8: update the docs"\n',
        )
    )
    return YAML_BASE, ours, theirs


def oc_base(prs: int = 85) -> dict:
    rows = [
        {
            "id": f"sprint-{i}",
            "label": f"Sprint {i}: feature area {i}",
            "status": "complete" if i < 6 else "not_started",
        }
        for i in range(1, 11)
    ]
    return {
        "protocol_version": "1.1",
        "skill": "oc-git-ops",
        "project": "gtrack",
        "project_dir": "/home/claude/gtrack",
        "created_at": "2026-10-01T09:00:00Z",
        "updated_at": "2026-11-20T15:30:00Z",
        "phase": "sync",
        "step": "reconcile",
        "status": "in_progress",
        "progress_summary": "Merged the auth branch; reconciling the tracker.",
        "progress_table": rows,
        "context_primer": {
            "key_decisions": [f"Decision {i}: settled in session {i}" for i in range(1, 16)],
            "generated_files": [f"src/module_{i}/index.ts" for i in range(20)],
        },
        "next_actions": ["Reconcile the tracker", {"text": "Re-run CI", "done_when": "npm test"}],
        "pm_refs": [{"provider": "linear", "id": "PLAT-4471", "role": "source"}],
        "skill_state": {
            "merged_prs": [
                {
                    "number": 1000 + i,
                    "title": f"Merge feature branch number {i} into main",
                    "merged_at": f"2026-11-{1 + i % 19:02d}T12:00:00Z",
                    "sha": f"{i:040x}",
                }
                for i in range(prs)
            ],
        },
    }


def oc_triple() -> tuple[str, str, str]:
    base = oc_base()
    ours, theirs = json.loads(json.dumps(base)), json.loads(json.dumps(base))
    ours["updated_at"], theirs["updated_at"] = "2026-11-21T09:00:00Z", "2026-11-21T10:00:00Z"
    ours["progress_table"][5]["status"] = "in_progress"
    theirs["progress_table"][9]["label"] = "Sprint 10: polish"
    ours["context_primer"]["key_decisions"].append("Decision 16: ours")
    theirs["context_primer"]["key_decisions"].append("Decision 16: theirs")
    for side, number in ((ours, 5000), (theirs, 6000)):
        side["skill_state"]["merged_prs"].append(
            {
                "number": number,
                "title": "stamp",
                "merged_at": "2026-11-21T08:00:00Z",
                "sha": f"{number:040x}",
            }
        )
    return tuple(json.dumps(d, indent=2) + "\n" for d in (base, ours, theirs))  # type: ignore[return-value]


# ---------------------------------------------------------------- timing
def child_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONDONTWRITEBYTECODE", "ASIMOV_HOOKS_MERGE_DRIVER", "ASIMOV_HOOKS_CONFIG")
    }
    env["PYTHONPYCACHEPREFIX"] = os.path.join(HERE, ".corpus", ".pycache")
    return env


def run_once(argv: list[str], cwd: str, restore: tuple[str, str], env: dict[str, str]):
    """(wall ms, exit status, %A afterwards) of one run; %A is restored first."""
    path, text = restore
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    elapsed = (time.perf_counter() - started) * 1000
    with open(path, encoding="utf-8") as fh:
        return elapsed, done.returncode, fh.read()


def in_process_ms(triple: tuple[str, str, str], rel: str, runs: int) -> float:
    sys.path.insert(0, os.path.join(REPO, "src"))
    from asimov_hooks.config.config import load_config
    from asimov_hooks.merge import yaml_merge as merge_yaml
    from asimov_hooks.merge.driver import merge_bytes, settings_for

    settings = settings_for(rel, 7, load_config(None, start=tempfile.gettempdir()))
    raw = [t.encode() for t in triple]
    times = []
    for _ in range(runs):
        merge_yaml.load.cache_clear()  # a process merges once: no warm cache
        merge_yaml._pristine.cache_clear()
        started = time.perf_counter()
        merge_bytes(*raw, settings)  # type: ignore[arg-type]
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def bench(name: str, rel: str, triple: tuple[str, str, str], runs: int, check) -> list[str]:
    from_repo = os.path.join(REPO, "src")
    sys.path.insert(0, from_repo)
    from asimov_hooks.gitutil import driver_command

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-merge-") as tmp:
        subprocess.run(["git", "init", "-q", tmp], check=True)
        files = {}
        for label, text in zip(("O", "A", "B"), triple, strict=True):
            files[label] = os.path.join(tmp, f".merge_file_{label}")
            with open(files[label], "w", encoding="utf-8") as fh:
                fh.write(text)
        o, a, b = files["O"], files["A"], files["B"]
        env = child_env()
        guarded = (
            driver_command()
            .replace("%O", shlex.quote(o))
            .replace("%A", shlex.quote(a))
            .replace("%B", shlex.quote(b))
            .replace("%L", "7")
            .replace("%P", shlex.quote(rel))
        )
        cases = [
            ("`python -c pass` (interpreter start-up)", [sys.executable, "-c", "pass"]),
            (
                "`git merge-file` (floor)",
                ["git", "merge-file", "-L", "ours", "-L", "base", "-L", "theirs", a, o, b],
            ),
            (
                "`python -m asimov_hooks merge-driver`",
                [sys.executable, "-m", "asimov_hooks", "merge-driver", o, a, b, "7", rel],
            ),
            ("installed driver command (`sh -c`, as git runs it)", ["sh", "-c", guarded]),
        ]
        restore = (a, triple[1])
        results: dict[str, tuple[list[float], int]] = {}
        for label, argv in cases:  # warm-up, exit status and result check
            _, code, merged = run_once(argv, tmp, restore, env)
            results[label] = ([], code)
            if label.startswith(("`python -m", "installed")):
                if code != 0:
                    raise SystemExit(f"bench_merge: {name}: {label} exited {code}")
                check(merged)
        for _ in range(runs):  # round-robin: load from elsewhere falls on all rows alike
            for label, argv in cases:
                results[label][0].append(run_once(argv, tmp, restore, env)[0])
        floor = statistics.median(results[cases[1][0]][0])
        size = len(triple[1].encode())
        lines = triple[1].count("\n")
        for label, (times, code) in results.items():
            med = statistics.median(times)
            ratio = med / floor if floor else float("nan")
            ours = label.startswith(("`python -m", "installed"))
            verdict = ("met" if med < TARGET_MS else "missed") if ours else ""
            rows.append(
                f"| {name} ({lines} lines, {size:,} B) | {label} | {code} | {med:.1f} | "
                f"{min(times):.1f} | {max(times):.1f} | {ratio:.1f}× | {verdict} |"
            )
        work = in_process_ms(triple, rel, runs)
        rows.append(
            f"| {name} ({lines} lines, {size:,} B) | in-process `merge_bytes` (no start-up) "
            f"| | {work:.1f} | | | {work / floor:.1f}× | |"
        )
    return rows


def check_yaml(text: str) -> None:
    assert 'timestamp: "2026-11-20T12:40:00Z"' in text, text
    assert "tool_calls: 61" in text and "tool_calls_since_checkpoint: 9" in text, text
    assert '"Task 7: add tests"' in text and '"Task 8: update the docs"' in text, text
    assert "Task 4" not in text and "# older tasks trimmed" in text, text


def check_oc(text: str) -> None:
    doc = json.loads(text)
    assert doc["updated_at"] == "2026-11-21T10:00:00Z"
    numbers = [p["number"] for p in doc["skill_state"]["merged_prs"]]
    assert 5000 in numbers and 6000 in numbers and len(numbers) == 87
    assert doc["progress_table"][5]["status"] == "in_progress"
    assert doc["progress_table"][9]["label"] == "Sprint 10: polish"


def archive_triple(cap: int = 8 << 20) -> tuple[str, str, str]:
    """Three trim archives just under the archive kind's byte cap (about 59,000 entries,
    the trimmer's own form): ours and theirs each appended five entries to base."""
    sys.path.insert(0, os.path.join(REPO, "src"))
    from asimov_hooks.trim.archive import HEADER

    def item(i: int, side: str) -> str:
        return (
            f"- archived_at: '2026-01-{i % 28 + 1:02d}T10:00:00Z'\n"
            "  source: .claude_checkpoint.yaml\n  reason: over the cap\n"
            f"  removed:\n    completed:\n      - {side} task {i}\n"
        )

    items, size = [], len(HEADER)
    while size + len(item(len(items), "b")) <= cap - 2000:
        items.append(item(len(items), "b"))
        size += len(items[-1])
    base = HEADER + "".join(items)
    count = len(items)
    ours = base + "".join(item(count + k, "o") for k in range(5))
    theirs = base + "".join(item(count + 10 + k, "t") for k in range(5))
    return base, ours, theirs


def bench_archive(runs: int) -> list[str]:
    """CPU seconds (user + system) of one whole driver process merging three archives
    at the byte cap; the machine's load average is printed with the figures."""
    base, ours, theirs = archive_triple()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-merge-archive-") as tmp:
        subprocess.run(["git", "init", "-q", tmp], check=True)
        files = {}
        for label, text in zip(("O", "A", "B"), (base, ours, theirs), strict=True):
            files[label] = os.path.join(tmp, f".merge_file_{label}")
            with open(files[label], "w", encoding="utf-8") as fh:
                fh.write(text)
        argv = [
            sys.executable, "-m", "asimov_hooks", "merge-driver",
            files["O"], files["A"], files["B"], "7", ".claude_checkpoint.archive.yaml",
        ]  # fmt: skip
        cpu = []
        for _ in range(runs):
            with open(files["A"], "w", encoding="utf-8") as fh:
                fh.write(ours)
            before = os.times()
            done = subprocess.run(argv, cwd=tmp, env=child_env(), capture_output=True)
            after = os.times()
            if done.returncode != 0:
                raise SystemExit(f"bench_merge: archive merge exited {done.returncode}")
            cpu.append(
                after.children_user
                + after.children_system
                - before.children_user
                - before.children_system
            )
            with open(files["A"], encoding="utf-8") as fh:
                merged = fh.read()
            assert (
                merged.startswith(ours)
                and merged.count("- archived_at:") == ours.count("- archived_at:") + 5
            ), "the merge must keep ours and add theirs' five entries"
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        rows.append(
            f"| trim archives at the byte cap ({len(ours.encode()):,} B, "
            f"{ours.count('- archived_at:'):,} entries) | {statistics.median(cpu):.2f} | "
            f"{min(cpu):.2f} | {max(cpu):.2f} | {load:.1f} |"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="7 timed runs instead of 21")
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument(
        "--archive", action="store_true", help="only the merge of three archives at the byte cap"
    )
    args = parser.parse_args(argv)
    runs = args.runs or (7 if args.quick else 21)
    if shutil.which("git") is None:
        print("bench_merge: git not found")
        return 2
    if args.archive:
        print("### Merge driver: three trim archives at the byte cap (one process each)\n")
        print("| triple | median CPU s | min | max | load average (1 min) |")
        print("|---|---|---|---|---|")
        print("\n".join(bench_archive(min(runs, 7))))
        return 0
    rows = bench("Asimov checkpoint", ".claude_checkpoint.yaml", yaml_triple(), runs, check_yaml)
    rows += bench(
        "OC checkpoint", ".checkpoints/oc-git-ops.checkpoint.json", oc_triple(), runs, check_oc
    )
    print("### Merge driver: one invocation per merge (whole process)\n")
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, "
        f"{subprocess.run(['git', '--version'], capture_output=True, text=True).stdout.strip()}"
        f"; median of {runs} runs after one warm-up; target < {TARGET_MS:.0f} ms.\n"
    )
    print("| triple | command | exit | median ms | min | max | × floor | target |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(
        "\n`git merge-file` conflicts on both triples (exit ≥ 1): that is the line merge the "
        "driver replaces. The in-process row is the merge itself, without interpreter start-up."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
