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

The harness is split by concern: `measuring.py` (the commands, batching, timing),
`targets.py` (each goal met or missed), `rendering.py` (the tables); this module plans
the runs and writes results.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402  (a sibling module, not an installed package)
from measuring import (  # noqa: E402  (measuring, targets, rendering: the harness's parts)
    ANCHORS,
    FULL_SIZES,
    MAX_ARGS,
    MAX_LENGTH,
    QUICK_SIZES,
    REPO,
    ROTATE,
    SERIAL,
    SINGLE_MIN_RUNS,
    Case,
    Results,
    Spawner,
    Stats,
    Tool,
    child_env,
    executable,
    make_tools,
    measure,
    partition,
)
from rendering import (  # noqa: E402
    _load,
    as_markdown,
    batch_tables,
    fmt_time,
    machine,
    ratio,
    scaling_table,
    single_table,
    versions,
)
from targets import evaluate, linearity  # noqa: E402

# what tests/test_benchmarks_smoke.py and bench scripts reach through this module
__all__ = [
    "Results",
    "Stats",
    "as_markdown",
    "executable",
    "fmt_time",
    "linearity",
    "main",
    "partition",
    "ratio",
]


class Runner:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.tools = make_tools()
        self.env = child_env(os.path.join(args.corpus_dir, ".pycache"))
        self.root = os.path.join(args.corpus_dir, f"seed-{args.seed}")
        self.results = Results()
        self.started = time.perf_counter()
        self.load = (_load(),)

    def log(self, message: str) -> None:
        elapsed = time.perf_counter() - self.started
        print(f"[{elapsed:6.1f}s] {message}", file=sys.stderr, flush=True)

    def prepare(self) -> dict[str, list[str]]:
        largest = max([1, *self.args.sizes])
        manifest = corpus.generate(self.root, largest, self.args.seed, progress=self.log)
        self.spawner = Spawner(self.root, self.env)
        return manifest["files"]  # type: ignore[return-value]

    def single_file(self, files: dict[str, list[str]]) -> None:
        """Each hook on one ordinary file, as one commit pays it, with the same anchors."""
        for family in self.args.families:
            target = files[family][0]
            cases = []
            for tool in self.tools.values():
                if family not in tool.families or not self._wanted(tool) or tool.name == SERIAL:
                    continue  # (one file is always checked in one process)
                path, before = target, None
                if tool.name in ("asimov-hooks trim", ROTATE):  # may rewrite: use a fresh copy
                    path, before = self._scratch(target)
                argv = [*tool.prefix(family), path]
                cases.append(
                    Case((tool.name, family), [argv], tool.discard_output, tool.ok_codes, before)
                )
            self.log(f"1 file   {family:9} {len(cases)} commands")
            runs = max(self.args.runs, SINGLE_MIN_RUNS)
            self.results.single.update(measure(self.spawner, cases, runs))

    def _scratch(self, rel: str) -> tuple[str, Callable[[], None]]:
        copy = os.path.join("scratch", rel)
        source, dest = os.path.join(self.root, rel), os.path.join(self.root, copy)

        def restore() -> None:
            shutil.rmtree(os.path.join(self.root, "scratch"), ignore_errors=True)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(source, dest)

        return copy, restore

    def batches(self, files: dict[str, list[str]]) -> None:
        for n in self.args.sizes:
            for family in self.args.families:
                cases = []
                for tool in self.tools.values():
                    if family not in tool.families or tool.name in ("asimov-hooks trim", ROTATE):
                        continue  # fixers: a batch would rewrite the corpus under the others
                    if not self._wanted(tool):
                        continue
                    if tool.name.startswith("asimov-validate --select"):
                        continue  # a subset of asimov-validate; timed on one file only
                    key = (n, tool.name, family)
                    skip = self._skip(n, tool, family)
                    if skip:
                        self.results.batch[key] = Stats(note=skip)
                        continue
                    commands = partition(tool.prefix(family), files[family][:n])
                    cases.append(Case(key, commands, tool.discard_output, tool.ok_codes))
                names = ", ".join(c.key[1] for c in cases)
                self.log(f"{n:>6,} files {family:9} {names}")
                self.results.batch.update(measure(self.spawner, cases, self.args.runs))

    def _wanted(self, tool: Tool) -> bool:
        """--tools filter; the anchors always run, every ratio needs them."""
        if not self.args.tools or tool.name in ANCHORS:
            return True
        return any(word in tool.name for word in self.args.tools)

    def _skip(self, n: int, tool: Tool, family: str) -> str:
        """Why a case is not run: the time budget, or competitors left out at the top size."""
        if (
            n >= 10_000
            and not tool.ours
            and tool.name not in ("cat", "python -c pass")
            and not self.args.competitors_at_top
        ):
            return "not run at 10,000 (--competitors-at-top)"
        smaller = [m for m in self.args.sizes if m < n]
        if not smaller or not self.args.max_run_seconds:
            return ""
        prev = self.results.batch.get((max(smaller), tool.name, family))
        if prev is None or not prev.ok:
            return ""
        estimate = prev.median * n / max(smaller)
        if estimate > self.args.max_run_seconds:
            return (
                f"not run: ~{estimate:.0f} s per run estimated from {max(smaller):,} files, "
                f"over --max-run-seconds {self.args.max_run_seconds:g}"
            )
        return ""

    def others(self) -> None:
        """Tables from the trim and merge benchmarks written alongside this one, if present."""
        for name in ("bench_trim.py", "bench_merge.py"):
            path = os.path.join(HERE, name)
            if not os.path.isfile(path):
                self.results.extra[name] = f"`benchmarks/{name}` does not exist yet: not measured."
                continue
            argv = [sys.executable, path]
            try:
                usage = subprocess.run(
                    [*argv, "--help"],
                    capture_output=True,
                    text=True,
                    cwd=REPO,
                    env=self.env,
                    timeout=60,
                )
                if self.args.quick and "--quick" in usage.stdout:
                    argv.append("--quick")
                self.log(f"{name}: {' '.join(argv[1:])}")
                proc = subprocess.run(
                    argv,
                    capture_output=True,
                    text=True,
                    cwd=REPO,
                    env=self.env,
                    timeout=self.args.other_timeout,
                )
            except subprocess.TimeoutExpired:
                self.results.extra[name] = (
                    f"`{name}` did not finish within {self.args.other_timeout} s."
                )
                continue
            if proc.returncode != 0:
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
                self.results.extra[name] = (
                    f"`{name}` failed (exit {proc.returncode}): {tail[0][:200]}"
                )
            else:
                self.results.extra[name] = as_markdown(proc.stdout.strip())


def render(runner: Runner, files: dict[str, list[str]], elapsed: float) -> str:
    args, res = runner.args, runner.results
    manifest = corpus.load_manifest(runner.root) or {}
    variants = manifest.get("variants", {})
    lines = [
        "# asimov-hooks benchmarks",
        "",
        f"Generated by `python benchmarks/run.py{' --quick' if args.quick else ''}` "
        f"in {elapsed / 60:.1f} minutes. Figures from real runs only; see benchmarks/README.md "
        "for the method.",
        "",
        f"- Machine: {machine()}",
        f"- Load average (1 min) at start / end: {runner.load[0]:.2f} / {_load():.2f} "
        f"on {os.cpu_count()} cores (other work on the machine shows as wide min–max ranges)",
        f"- Tools: {versions(runner.tools)}",
        f"- Corpus: seed {args.seed}, generator v{corpus.GENERATOR_VERSION}, "
        f"sha256 {str(manifest.get('sha256', '?'))[:16]}…; variants among the "
        f"{manifest.get('count', 0):,} files generated per family: "
        + "; ".join(
            f"{f}: " + ", ".join(f"{c:,} {v}" for v, c in sorted(t.items(), key=lambda x: -x[1]))
            for f, t in variants.items()
        ),
        f"- Each figure: median of {args.runs} runs after one warm-up "
        f"({max(args.runs, SINGLE_MIN_RUNS)} for one file); ratios are "
        "time ÷ the anchor's time on the same files (below 1× = faster than the anchor).",
        "",
        "## Targets",
        "",
        "| target | verdict | figures |",
        "|---|---|---|",
    ]
    for t in evaluate(res, [1, *args.sizes]):
        mark = {"met": "**met**", "missed": "**missed**"}.get(t.verdict, t.verdict)
        lines.append(f"| {t.name} | {mark} | {t.figures} |")
    lines += [
        "",
        "## One file, as a commit pays it",
        "",
        "File 0 of each family (an ordinary valid file).",
        "",
    ]
    lines += single_table(res)
    lines += [
        "",
        "## Batches",
        "",
        "Files passed on the command line in pre-commit-style chunks "
        f"(≤ {MAX_ARGS:,} arguments, ≤ {MAX_LENGTH // 1024} KiB per command line), run "
        "one after another; the time is the total.",
    ]
    lines += batch_tables(res, args.sizes)
    if len(args.sizes) >= 2:
        lines += [
            "",
            "## Scaling",
            "",
            "Per-file time (total ÷ files) and the marginal cost of each added file.",
            "",
        ]
        lines += scaling_table(res, args.sizes)
    for name, title in (("bench_trim.py", "Trim fixer"), ("bench_merge.py", "Merge driver")):
        lines += ["", f"## {title} (`benchmarks/{name}`)", "", res.extra.get(name, "not run")]
    return "\n".join(lines) + "\n"


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
