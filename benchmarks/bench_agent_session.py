"""Wall time of a scripted session of the real agents, with and without the hooks.

The end-to-end suite's harness (tests/e2e/) runs the real Claude Code, Codex CLI, Gemini
CLI, GitHub Copilot CLI and Qwen Code, at the versions its lockfile pins, against a
scripted model server on 127.0.0.1. Here each agent runs the same short session twice over: in a repository with
`asimov-hooks agent install` and in an identical one without it. The model answers at
once, so the difference is what the hooks add to a session as the user waits for it:
one prompt, a write of a source file, a write of the checkpoint, a shell command and a
final answer (each agent's own tools; every hook the agent runs for them, and the end of
the turn, included).

    python benchmarks/bench_agent_session.py                      # all five, 7 runs each
    python benchmarks/bench_agent_session.py --runs 3 --agents claude --out /tmp/x.md

asimov-hooks is the one installed beside the interpreter that runs this script (its
`bin` directory goes first on the agents' PATH). Rows are medians over `--runs` sessions,
run round-robin (with hooks, without, with, ...) after one warm-up session of each. The
markdown table goes to stdout and, with --out, to a file (benchmarks/agent-session.md).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))

from e2e_agents import AGENTS, Agent  # noqa: E402
from e2e_servers import Sink, Turn, say  # noqa: E402
from install_agents import install  # noqa: E402

CHECKPOINT = (
    '# Session checkpoint (ADR-007): current state only.\ntimestamp: "2026-11-25T10:00:00Z"\n'
    'milestone: "Benchmark"\nstatus: in_progress\ncompleted:\n  - "one"\n'
    'in_progress: "two"\nnext_steps:\n  - "three"\n'
)
SESSION_PROMPT = "Update the app and save the checkpoint."


def make_repo(path: str, hooks: bool, agent: str) -> str:
    os.makedirs(os.path.join(path, "src"))
    subprocess.run(["git", "init", "-q", path], check=True)
    files = {
        ".claude_checkpoint.yaml": CHECKPOINT,
        "warmup.yaml": "identity:\n  project: bench\n",
        ".gitignore": "/.claude_checkpoint.yaml\n/.claude_checkpoint.archive.yaml\n",
        "src/app.py": "print('hello')\n",
    }
    for rel, text in files.items():
        with open(os.path.join(path, rel), "w", encoding="utf-8") as fh:
            fh.write(text)
    if hooks:
        bindir = os.path.dirname(sys.executable)
        subprocess.run(
            [os.path.join(bindir, "asimov-hooks"), "agent", "install", "--agent", agent],
            cwd=path,
            check=True,
            capture_output=True,
        )
    return path


def script(agent: Agent) -> list[Turn]:
    fresh = CHECKPOINT.replace('"two"', '"two and a half"')
    return [
        agent.write("src/app.py", "print('hello, world')\n"),
        agent.write(".claude_checkpoint.yaml", fresh),
        agent.shell("git status --short"),
        say("The app is updated and the checkpoint saved."),
    ]


def session(agent: Agent, sink: Sink) -> float:
    """One session from a clean copy of the repository: its wall time in seconds."""
    with open(os.path.join(agent.project, "src", "app.py"), "w", encoding="utf-8") as fh:
        fh.write("print('hello')\n")
    with open(os.path.join(agent.project, ".claude_checkpoint.yaml"), "w", encoding="utf-8") as fh:
        fh.write(CHECKPOINT)
    turns = script(agent)
    with agent.server_class(turns) as server:
        start = time.perf_counter()
        done = agent.run(server, SESSION_PROMPT)
        wall = time.perf_counter() - start
        used = server.turns_used()
    if done.returncode != 0 or used < len(turns):
        raise SystemExit(
            f"{agent.name}: the session did not run to its end "
            f"(exit {done.returncode}, {used} of {len(turns)} turns)"
        )
    if sink.attempts:
        raise SystemExit(f"{agent.name} tried to leave 127.0.0.1: {sink.attempts}")
    return wall


def measure(name: str, command: list[str], runs: int, work: str, sink: Sink) -> dict:
    agents = {}
    for hooks in (True, False):
        repo = make_repo(
            os.path.join(work, f"{name}-{'with' if hooks else 'without'}"), hooks, name
        )
        made = AGENTS[name](command, repo)
        made.sink_url = sink.url
        agents[hooks] = made
    samples: dict[bool, list[float]] = {True: [], False: []}
    try:
        for hooks in (True, False):  # warm-up: caches, first-run files in HOME
            session(agents[hooks], sink)
        for _ in range(runs):
            for hooks in (True, False):
                samples[hooks].append(session(agents[hooks], sink))
    finally:
        for made in agents.values():
            made.cleanup()
    return {hooks: statistics.median(values) for hooks, values in samples.items()} | {
        "min": {hooks: min(values) for hooks, values in samples.items()}
    }


def version(command: list[str]) -> str:
    done = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60)
    return (done.stdout.strip().splitlines() or ["?"])[0]


def render(rows: list[tuple[str, str, dict]], runs: int) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# A real agent session, with and without the hooks",
        "",
        "Generated by `python benchmarks/bench_agent_session.py`: the real agents, at the "
        "versions the end-to-end suite pins (tests/e2e/agents/package-lock.json), against "
        "a scripted model on 127.0.0.1 that answers at once. One session: a prompt, a write "
        "of `src/app.py`, a write of `.claude_checkpoint.yaml`, `git status --short` "
        "through the agent's shell tool and a final answer; with the hooks every event of "
        "it runs `asimov-hooks agent-event` (the checkpoint write is checked before and "
        "trimmed after). "
        f"Median of {runs} sessions each, round-robin after one warm-up of each, "
        f"Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load {load:.2f}.",
        "",
        "| agent | version | without hooks | with hooks | added by the hooks | min without | "
        "min with |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, ver, got in rows:
        added = got[True] - got[False]
        share = added / got[False] * 100 if got[False] else float("nan")
        lines.append(
            f"| {name} | {ver} | {got[False]:.2f} s | {got[True]:.2f} s | "
            f"{added:+.2f} s ({share:+.0f} %) | {got['min'][False]:.2f} s | "
            f"{got['min'][True]:.2f} s |"
        )
    lines += [
        "",
        "A real model takes seconds per answer; here it takes none, so the share the hooks "
        "add is an upper bound: in a real session the same seconds are a smaller part of "
        "the wait. The machine is shared, so single sessions vary by a second or more; "
        "compare the medians.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--agents", default="claude,codex,gemini,copilot,qwen")
    parser.add_argument("--out", help="also write the markdown page here")
    args = parser.parse_args(argv)
    commands = install()
    rows = []
    work = tempfile.mkdtemp(prefix="agent-session-")
    try:
        with Sink() as sink:
            for name in args.agents.split(","):
                got = measure(name, commands[name], args.runs, work, sink)
                rows.append((name, version(commands[name]), got))
                print(
                    f"{name}: {got[False]:.2f} s without, {got[True]:.2f} s with", file=sys.stderr
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    page = render(rows, args.runs)
    print(page)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
