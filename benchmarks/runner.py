"""Planning the runs: which command runs on which files, in which case, and when a case
is skipped; then the one-file cases, the batches, and the other benchmark scripts.

`run.py` parses the command line and writes the results; `measuring.py` times what this
module plans.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import corpus  # noqa: E402  (a sibling module, not an installed package)
from measuring import (  # noqa: E402
    ANCHORS,
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
    make_tools,
    measure,
    partition,
)
from rendering import _load, as_markdown  # noqa: E402


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
        for name in ("bench_trim.py", "bench_merge.py", "bench_agent_event.py"):
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
                if name == "bench_agent_event.py":  # this environment, as installed here
                    argv += ["--env", sys.prefix, "--runs", "5" if self.args.quick else "21"]
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
