"""Measuring: the commands compared, how pre-commit cuts a batch into command lines, and
whole-process timing (wall, CPU, peak RSS) through a small spawner interpreter."""

from __future__ import annotations

import contextlib
import marshal
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
if HERE not in sys.path:
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


# the floor of a YAML check: read each file and parse it with libyaml (PyYAML's C loader),
# nothing else; any exit but a crash is fine
FLOOR = "floor: read + libyaml parse"
FLOOR_SCRIPT = """
import sys, yaml
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
for name in sys.argv[1:]:
    with open(name, "rb") as fh:
        try:
            yaml.load(fh.read(), Loader=loader)
        except yaml.YAMLError:
            pass
"""


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
    tools.append(
        Tool(FLOOR, corpus.YAML_FAMILIES, lambda f: [sys.executable, "-c", FLOOR_SCRIPT], True)
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
    cpu_low: float = 0.0
    cpu_high: float = 0.0
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
            cpu_low=min(s.cpu for s in samples[case.key]),
            cpu_high=max(s.cpu for s in samples[case.key]),
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
