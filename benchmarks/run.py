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
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import marshal
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import corpus  # noqa: E402  (a sibling module, not an installed package)

MAX_ARGS = 4000  # pre-commit-style xargs limits
MAX_LENGTH = 128 * 1024
ANCHORS = ("python -c pass", "cat", "check-jsonschema", "yamllint")
FULL_SIZES = (100, 1000, 10_000)
# one file takes a few milliseconds, where a scheduler hiccup is a large share: the
# one-file table takes at least this many timed runs (still cheap: ~1 minute in all)
SINGLE_MIN_RUNS = 15
QUICK_SIZES = (100,)
CONFLICT_RULES = "conflict-markers,syntax,duplicate-key"
SERIAL = "asimov-validate --jobs 1"
ROTATE = "asimov-hooks oc rotate --over-limit"  # a fixer: one file (under ~32 KB), on a copy  # one process, as check-jsonschema and yamllint run


# ------------------------------------------------------------------------ commands
@dataclass(frozen=True)
class Tool:
    """A command measured on a family's files; `prefix` is everything before the files."""

    name: str
    families: tuple[str, ...]
    prefix: Callable[[str], list[str]]
    ours: bool = False
    discard_output: bool = False  # cat: the floor is reading, not writing 100 MB
    ok_codes: frozenset[int] = frozenset({0, 1})
    hook: str = ""  # the pre-commit hook id this command is the entry of


def executable(name: str) -> str | None:
    """A console script next to this interpreter (the venv) first, then on PATH."""
    local = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.isfile(local) and os.access(local, os.X_OK):
        return local
    return shutil.which(name)


def _schema(family: str) -> str:
    return os.path.join(REPO, "rules", "schemas", corpus.SCHEMAS[family])


def _has_command(exe: str, name: str) -> bool:
    """Whether a subcommand exists yet (trim is being written alongside this harness)."""
    proc = subprocess.run([exe, name, "--help"], capture_output=True, check=False)
    return proc.returncode == 0


def make_tools() -> dict[str, Tool]:
    """Every command compared; a tool that is not installed gets no entry."""
    all_families = corpus.FAMILIES
    tools = [
        Tool("python -c pass", all_families, lambda f: [sys.executable, "-c", "pass"]),
        Tool("cat", all_families, lambda f: ["cat"], discard_output=True, ok_codes=frozenset({0})),
    ]
    found = {n: executable(n) for n in ("asimov-check-size", "asimov-validate", "asimov-hooks")}
    found["check-jsonschema"] = executable("check-jsonschema")
    found["yamllint"] = executable("yamllint")
    if found["asimov-check-size"]:
        exe = found["asimov-check-size"]
        tools.append(
            Tool("asimov-check-size", all_families, lambda f: [exe], True, hook="asimov-size")
        )
    if found["asimov-validate"]:
        val = found["asimov-validate"]
        tools.append(
            Tool("asimov-validate", all_families, lambda f: [val], True, hook="asimov-validate")
        )
        tools.append(Tool(SERIAL, all_families, lambda f: [val, "--jobs", "1"], True))
        tools.append(
            Tool(
                "asimov-validate --select " + CONFLICT_RULES,
                ("asimov", "oc"),
                lambda f: [val, "--select", CONFLICT_RULES],
                True,
                hook="asimov-checkpoint-conflicts",
            )
        )
    if found["asimov-hooks"] and _has_command(found["asimov-hooks"], "trim"):
        hooks = found["asimov-hooks"]
        tools.append(
            Tool(
                "asimov-hooks trim",
                ("asimov",),
                lambda f: [hooks, "trim"],
                True,
                hook="asimov-trim",
            )
        )
    if found["asimov-hooks"] and _has_command(found["asimov-hooks"], "oc"):
        hooks = found["asimov-hooks"]
        tools.append(
            Tool(
                ROTATE,
                ("oc",),
                lambda f: [hooks, "oc", "rotate", "--over-limit"],
                True,
                hook="asimov-oc-rotate",
            )
        )
    if found["check-jsonschema"]:
        cjs = found["check-jsonschema"]
        tools.append(
            Tool(
                "check-jsonschema",
                tuple(corpus.SCHEMAS),
                lambda f: [cjs, "--schemafile", _schema(f)],
            )
        )
    if found["yamllint"]:
        yl = found["yamllint"]
        tools.append(Tool("yamllint", corpus.YAML_FAMILIES, lambda f: [yl]))
    return {t.name: t for t in tools}


def partition(
    prefix: Sequence[str],
    files: Sequence[str],
    max_args: int = MAX_ARGS,
    max_length: int = MAX_LENGTH,
) -> list[list[str]]:
    """Command lines as pre-commit's xargs builds them: bounded argument count and length."""
    base = sum(len(a) + 1 for a in prefix)
    chunks: list[list[str]] = []
    current: list[str] = []
    length = base
    for name in files:
        size = len(name) + 1
        if current and (len(current) >= max_args or length + size > max_length):
            chunks.append([*prefix, *current])
            current, length = [], base
        current.append(name)
        length += size
    if current or not chunks:
        chunks.append([*prefix, *current])
    return chunks


# ------------------------------------------------------------------------ measuring
@dataclass
class Sample:
    wall: float
    cpu: float
    rss_kb: int
    codes: list[int]
    output: str = ""


@dataclass
class Stats:
    """The summary of one case: medians of the timed runs, or why there are none."""

    median: float = 0.0
    low: float = 0.0
    high: float = 0.0
    cpu: float = 0.0
    rss_mb: float = 0.0
    runs: int = 0
    chunks: int = 0
    codes: list[int] = field(default_factory=list)
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.runs > 0


def child_env(pycache: str) -> dict[str, str]:
    """The environment a user's hook sees, with a bytecode cache and plain text output."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for name in ("GITHUB_ACTIONS", "ASIMOV_HOOKS_CONFIG", "PYTHONPROFILEIMPORTTIME"):
        env.pop(name, None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    return env


# The processes are started by a small helper interpreter, not by this one. On Linux a
# child's peak RSS (ru_maxrss) includes the pages it held before exec: with fork, a copy
# of its parent's anonymous memory; with vfork (posix_spawn), all of the parent's. This
# process holds the corpus manifest; the helper holds ~3 MB of anonymous memory. So the
# warm-up run forks (its peak RSS is the tool's own, give or take those ~3 MB: only
# `cat` shows the floor) and the timed runs use posix_spawn, which starts a process
# ~1.5 ms sooner than fork and so keeps the launcher's cost out of the ratios.
SPAWNER = r"""
import marshal, os, sys, time
inp, out = sys.stdin.buffer, sys.stdout.buffer
null = os.open(os.devnull, os.O_RDWR)
while True:
    head = inp.read(8)
    if len(head) < 8:
        break
    commands, sink, use_fork = marshal.loads(inp.read(int.from_bytes(head, "little")))
    fd = os.open(sink, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) if sink else null
    actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, fd, 1),
               (os.POSIX_SPAWN_DUP2, fd, 2)]
    codes, rss, cpu = [], 0, 0.0
    start = time.perf_counter()
    for argv in commands:
        if use_fork:
            pid = os.fork()
            if pid == 0:
                try:
                    os.dup2(null, 0)
                    os.dup2(fd, 1)
                    os.dup2(fd, 2)
                    os.execvp(argv[0], argv)
                finally:
                    os._exit(127)
        else:
            pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        codes.append(os.waitstatus_to_exitcode(status))
        rss = max(rss, usage.ru_maxrss)
        cpu += usage.ru_utime + usage.ru_stime
    wall = time.perf_counter() - start
    if fd != null:
        os.close(fd)
    reply = marshal.dumps((wall, cpu, rss, codes))
    out.write(len(reply).to_bytes(8, "little") + reply)
    out.flush()
"""


class Spawner:
    """Runs command lines in the helper interpreter and returns what wait4 reported."""

    def __init__(self, cwd: str, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", SPAWNER],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        handle, self.sink_path = tempfile.mkstemp(prefix="asimov-bench-")
        os.close(handle)

    def run(self, commands: list[list[str]], discard: bool, use_fork: bool = False) -> Sample:
        """Run the command lines one after another; wall time, CPU time and peak RSS."""
        assert self.proc.stdin and self.proc.stdout
        sink = "" if discard else self.sink_path
        payload = marshal.dumps(([list(c) for c in commands], sink, use_fork))
        self.proc.stdin.write(len(payload).to_bytes(8, "little") + payload)
        self.proc.stdin.flush()
        head = self.proc.stdout.read(8)
        if len(head) < 8:
            raise RuntimeError("the benchmark helper process died")
        wall, cpu, rss, codes = marshal.loads(self.proc.stdout.read(int.from_bytes(head, "little")))
        text = ""
        if not discard:
            with open(self.sink_path, "rb") as fh:
                text = fh.read(4000).decode("utf-8", "replace")
        return Sample(wall, cpu, rss, codes, text)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()
        with contextlib.suppress(OSError):
            os.unlink(self.sink_path)


@dataclass
class Case:
    """One command (or chunked batch) to time, with the exit codes that mean it worked."""

    key: tuple
    commands: list[list[str]]
    discard: bool = False
    ok_codes: frozenset[int] = frozenset({0, 1})
    before: Callable[[], None] | None = None  # restores files a fixer may rewrite


def measure(spawner: Spawner, cases: Sequence[Case], runs: int) -> dict[tuple, Stats]:
    """A warm-up run of each case (exit codes checked, peak RSS taken), then timed runs.

    The timed runs go round-robin over the cases, so that load from elsewhere on the
    machine falls on every case compared in one table alike, not on whichever ran then.
    """
    out: dict[tuple, Stats] = {}
    live: list[tuple[Case, Sample]] = []
    for case in cases:
        if case.before:
            case.before()
        warm = spawner.run(case.commands, case.discard, use_fork=True)
        bad = [c for c in warm.codes if c not in case.ok_codes]
        if bad:
            first = next((ln for ln in warm.output.splitlines() if ln.strip()), "")
            out[case.key] = Stats(note=f"failed: exit {bad[0]}: {first[:120]}", codes=warm.codes)
        else:
            live.append((case, warm))
    samples: dict[tuple, list[Sample]] = {case.key: [] for case, _ in live}
    for _ in range(runs):
        for case, _ in live:
            if case.before:
                case.before()
            samples[case.key].append(spawner.run(case.commands, case.discard))
    for case, warm in live:
        walls = [s.wall for s in samples[case.key]]
        out[case.key] = Stats(
            median=statistics.median(walls),
            low=min(walls),
            high=max(walls),
            cpu=statistics.median(s.cpu for s in samples[case.key]),
            rss_mb=warm.rss_kb / 1024,
            runs=runs,
            chunks=len(case.commands),
            codes=sorted(set(warm.codes)),
        )
    return out


# ------------------------------------------------------------------------ the plan
@dataclass
class Results:
    single: dict[tuple[str, str], Stats] = field(default_factory=dict)  # (tool, family)
    batch: dict[tuple[int, str, str], Stats] = field(default_factory=dict)  # (n, tool, family)
    extra: dict[str, str] = field(default_factory=dict)  # bench_trim / bench_merge sections


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
                            f"{speed:.2f}× as fast (default: one worker per core){one}",
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
