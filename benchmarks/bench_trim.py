"""How fast is `asimov-hooks trim`?

Two questions from issue 3:

1. A hook pays interpreter start-up on every commit. How does trimming a 30-line
   checkpoint, as a whole process, compare with `python -c pass`?
2. Does trimming stay roughly linear when a list grows to 10,000 items?

Usage: python benchmarks/bench_trim.py [--runs N] [--sizes 1000,2000,5000,10000]
Run it from an environment where asimov-hooks is installed.
"""

from __future__ import annotations

import argparse
import copy
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The ADR-007 example grown to 30 lines: over the soft limit, so all steps run.
CHECKPOINT_30 = """\
# .claude_checkpoint.yaml
timestamp: "2025-01-15T10:30:00Z"
tool_calls: 45
milestone: "Add feature X"
status: in_progress

completed:
  - "Task 1"
  - "Task 2"
  - "Task 3"
  - "Task 4"
  - "Task 5"
  - "Task 6"
  - "Task 7: Most recent"

in_progress: "Task 9: Current work"

next_steps:
  - "Task 10"
  - "Task 11"
  - "Task 12"
  - "Task 13"
  - "Task 14"
  - "Task 15"
notes: |
  the flaky test is in tests/test_io.py
  cache must be cleared after a schema change
context: "pairing with the merge driver work"

on_confusion: "cat warmup.yaml"
"""


def _console_script() -> list[str]:
    script = shutil.which("asimov-hooks", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "asimov_hooks"]


# As in an installed hook environment: byte code is cached after the first run.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _time_process(argv: list[str], runs: int, prepare=None, cwd: str | None = None) -> list[float]:
    if prepare:
        prepare()
    subprocess.run(argv, cwd=cwd, env=ENV, capture_output=True, check=False)  # warm-up
    times = []
    for _ in range(runs):
        if prepare:
            prepare()
        start = time.perf_counter()
        subprocess.run(
            argv,
            cwd=cwd,
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        times.append(time.perf_counter() - start)
    return times


def startup(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, ".git"))
        path = os.path.join(tmp, ".claude_checkpoint.yaml")
        assert CHECKPOINT_30.count("\n") == 30

        def fresh() -> None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(CHECKPOINT_30)
            archive = os.path.join(tmp, ".claude_checkpoint.archive.yaml")
            if os.path.exists(archive):
                os.unlink(archive)

        base = _time_process([sys.executable, "-c", "pass"], runs)
        trim = _time_process([*_console_script(), "trim", path], runs, fresh, tmp)
        fresh()
        subprocess.run(
            [*_console_script(), "trim", path], cwd=tmp, capture_output=True, check=False
        )
        noop = _time_process([*_console_script(), "trim", path], runs, None, tmp)
    b = statistics.median(base)
    print(f"process start-up, median of {runs} runs")
    print(f"  python -c pass                          {b * 1000:7.1f} ms   1.0x")
    for label, times in (
        ("asimov-hooks trim (30 lines, trims)", trim),
        ("asimov-hooks trim (nothing to do)", noop),
    ):
        m = statistics.median(times)
        print(f"  {label:<39} {m * 1000:7.1f} ms  {m / b:4.1f}x")


def scaling(sizes: list[int], runs: int) -> None:
    from asimov_hooks.config.config import Config, default_data
    from asimov_hooks.trim.trimmer import fix_file

    print(
        "\nscaling: fix_file on a checkpoint whose `completed` and `next_steps` have N items "
        f"each (best of {runs}, archive on)"
    )
    print(f"  {'N':>8} {'lines':>8} {'bytes':>10} {'seconds':>9} {'us/line':>8}")
    # a copy: default_data() shares the rule packs every Config of this process reads
    data = copy.deepcopy(default_data())
    # the default 256 KB byte cap would refuse the big files before trimming
    data["kinds"]["asimov-checkpoint"]["rules"]["max-bytes-hard"]["max"] = 10**9
    first = None
    for size in sizes:
        text = (
            "milestone: M\nstatus: in_progress\ncompleted:\n"
            + "".join(f'  - "task {i}: did a thing"  # {i}\n' for i in range(size))
            + "next_steps:\n"
            + "".join(f"  - step {i}\n" for i in range(size))
        )
        best = float("inf")
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as tmp:
                os.mkdir(os.path.join(tmp, ".git"))
                path = os.path.join(tmp, ".claude_checkpoint.yaml")
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
                config = Config(data, None, tmp)
                start = time.perf_counter()
                outcome = fix_file(path, config)
                best = min(best, time.perf_counter() - start)
                assert outcome.changed and outcome.error is None, outcome.error
        lines = text.count("\n")
        first = first or (size, best)
        print(f"  {size:>8} {lines:>8} {len(text):>10,} {best:>9.3f} {best / lines * 1e6:>8.1f}")
    if first and len(sizes) > 1:
        size, best_time = first
        print(
            f"  time(N={sizes[-1]}) / time(N={size}) = {best / best_time:.1f} "
            f"for {sizes[-1] / size:.0f}x the items (linear: {sizes[-1] / size:.0f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--sizes", default="1000,2500,5000,10000", help="items in each of the two lists"
    )
    args = parser.parse_args()
    startup(args.runs)
    scaling([int(s) for s in args.sizes.split(",")], max(1, args.runs // 5))


if __name__ == "__main__":
    main()
