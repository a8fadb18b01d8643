"""Benchmark asimov-hooks against check-jsonschema, yamllint and the floors, as whole processes.

One command, run from the repository root:

    python benchmarks/run.py            # the full run (~10 minutes on 2 cores)
    python benchmarks/run.py --quick    # a ~1-minute subset
    python benchmarks/run.py --out benchmarks/results.md

Every figure is the median of --runs timed runs after one warm-up run, of whole
processes started the way pre-commit starts them: big batches are cut into command
lines of at most 4,000 arguments and 128 KiB, run one after another, and the total is
counted. Peak memory is the largest maximum resident set size any one process of a run
reached (wait4). Child processes get a bytecode cache (PYTHONPYCACHEPREFIX under the
corpus directory) even when the caller sets PYTHONDONTWRITEBYTECODE, because installed
tools always have one: without it every run would time the compiler, not the tool.

The harness is split by concern: `runner.py` (the runs planned and carried out),
`measuring.py` (the commands, batching, timing), `targets.py` (each goal met or missed),
`rendering.py` (the tables), `results_page.py` (results.md); this module reads the
command line and writes the results.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402  (a sibling module, not an installed package)
from measuring import (  # noqa: E402  (the harness's parts: see the docstring)
    FULL_SIZES,
    QUICK_SIZES,
    Results,
    Stats,
    executable,
    partition,
)
from rendering import as_markdown, fmt_time, ratio  # noqa: E402
from results_page import render  # noqa: E402
from runner import Runner  # noqa: E402
from targets import linearity  # noqa: E402

# what tests/test_benchmarks_smoke.py and bench scripts reach through this module
__all__ = [
    "Results",
    "Runner",
    "Stats",
    "as_markdown",
    "executable",
    "fmt_time",
    "linearity",
    "main",
    "partition",
    "ratio",
    "render",
]


# ------------------------------------------------------------------------ main
def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--quick", action="store_true", help="one file and 100 files only (~1 minute)"
    )
    parser.add_argument(
        "--out",
        default=None,
        help="markdown file to write (default: benchmarks/results.md; "
        "benchmarks/.corpus/results-quick.md for --quick)",
    )
    parser.add_argument("--runs", type=int, default=5, help="timed runs per case (default 5)")
    parser.add_argument(
        "--sizes",
        type=lambda s: [int(x) for x in s.split(",")],
        default=None,
        help="comma-separated batch sizes (default 100,1000,10000; quick: 100)",
    )
    parser.add_argument("--seed", type=int, default=corpus.DEFAULT_SEED)
    parser.add_argument("--corpus-dir", default=corpus.DEFAULT_ROOT)
    parser.add_argument(
        "--max-run-seconds",
        type=float,
        default=None,
        help="skip a case whose run is estimated (from the next smaller size) to "
        "take longer; 0 = never skip (default 30; quick 5)",
    )
    parser.add_argument(
        "--competitors-at-top",
        action="store_true",
        help="also run check-jsonschema and yamllint on 10,000 files",
    )
    parser.add_argument(
        "--families",
        type=lambda s: [f for f in s.split(",") if f],
        default=list(corpus.FAMILIES),
        help=f"comma-separated subset of {','.join(corpus.FAMILIES)}",
    )
    parser.add_argument(
        "--tools",
        type=lambda s: [t for t in s.split(",") if t],
        default=[],
        help="only commands containing one of these words (anchors always run)",
    )
    parser.add_argument("--no-single", action="store_true", help="skip the one-file table")
    parser.add_argument(
        "--no-others", action="store_true", help="skip bench_trim.py and bench_merge.py"
    )
    parser.add_argument(
        "--other-timeout",
        type=int,
        default=120,
        help="seconds allowed for bench_trim.py / bench_merge.py each (default 120)",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    unknown = set(args.families) - set(corpus.FAMILIES)
    if unknown:
        parser.error(f"unknown families: {', '.join(sorted(unknown))}")
    if args.sizes is None:
        args.sizes = list(QUICK_SIZES if args.quick else FULL_SIZES)
    args.sizes = sorted({n for n in args.sizes if n > 1})
    if args.max_run_seconds is None:
        args.max_run_seconds = 5.0 if args.quick else 30.0
    if args.out is None:
        args.out = (
            os.path.join(args.corpus_dir, "results-quick.md")
            if args.quick
            else os.path.join(HERE, "results.md")
        )
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    runner = Runner(args)
    if not any(t.ours for t in runner.tools.values()):
        print(
            "asimov-hooks is not installed in this environment: pip install -e '.[bench]'",
            file=sys.stderr,
        )
        return 2
    files = runner.prepare()
    if not args.no_single:
        runner.single_file(files)
    runner.batches(files)
    runner.spawner.close()
    if not args.no_others:
        runner.others()
    elapsed = time.perf_counter() - runner.started
    text = render(runner, files, elapsed)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(text)
    raw = os.path.join(args.corpus_dir, "results-quick.json" if args.quick else "results.json")
    with open(raw, "w", encoding="utf-8") as fh:
        json.dump(
            {
                "single": {f"{t} | {f}": vars(s) for (t, f), s in runner.results.single.items()},
                "batch": {
                    f"{n} | {t} | {f}": vars(s) for (n, t, f), s in runner.results.batch.items()
                },
            },
            fh,
            indent=1,
        )
    runner.log(f"wrote {args.out} (raw figures: {raw})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
