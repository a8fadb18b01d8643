"""Start-up cost of `asimov-hooks agent-event`, the agent hook on every file edit.

Each agent runs its write hooks (Claude Code's PreToolUse and PostToolUse, Codex's on
apply_patch, Gemini CLI's BeforeTool and AfterTool, Cursor's, Copilot CLI's and Qwen Code's
pre- and post-tool events) on every
file the agent writes; almost all of them touch files that are not protocol files,
where the hook has nothing to do. Its cost there must stay within 1.5x a bare
`python -c pass`. This measures it as a user has it: asimov-hooks installed as the
README installs it (`python3 -m venv`, `pip install -U pip`, then `pip install .`: a
wheel, compiled bytecode), each event a whole process fed its JSON on stdin, the way
the agents start it. `--maker virtualenv` builds the environment as pre-commit does.

    python benchmarks/bench_agent_event.py            # builds a venv in a temp dir
    python benchmarks/bench_agent_event.py --env .venv --runs 15

Rows are medians over `--runs` timed runs (round-robin over the rows, after one
warm-up run each), with the ratio to `python -c pass` of the same interpreter. The
markdown table goes to stdout and, with --out, to a file (benchmarks/agent-event.md).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKPOINT = (
    'timestamp: "2026-11-20T10:30:00Z"\nmilestone: "Bench"\nstatus: in_progress\n'
    'completed:\n  - "one"\nnext_steps:\n  - "two"\n'
)
# the other checkpoint shapes a user's agent writes: each is checked after its write
# within the same target (a row each; `tests/test_agent_event_imports.py` checks that
# none of them loads a YAML library)
CHECKPOINT_SHAPES = {
    "ADR-007's example, comments among the items": (
        'timestamp: "2025-01-15T10:30:00Z"\ntool_calls: 45\n'
        'milestone: "Add feature X"\nstatus: in_progress\n\n# last 3 completed only\n'
        'completed:\n  - "Task 8: Most recent"\n  - "Task 7"\n  - "Task 6"\n'
        "  # Tasks 1-5 trimmed\n\n"
        'in_progress: "Task 9: Current work"\n\nnext_steps:\n  - "Task 10"\n'
        '  - "Task 11"\n  # more in sprint.yaml\n\non_confusion: "cat warmup.yaml"\n'
    ),
    "a new session's empty lists": (
        'timestamp: "2026-11-20T10:30:00Z"\ntool_calls: 0\nmilestone: "Start"\n'
        'status: planned\ncompleted: []\nin_progress: "Reading the code"\n'
        'next_steps: []\non_confusion: "cat warmup.yaml"\n'
    ),
    "init's example": (
        "# Example checkpoint written by asimov-hooks init: replace every value with your own state.\n"
        "# Current state only (ADR-007): re-read after every compaction; git ignores it.\n"
        'timestamp: "2026-11-20T10:30:00Z"\ntool_calls: 0\n'
        'milestone: "Example: the milestone you are working on"\nstatus: planned\n'
        'completed:\n  - "Example: the last task you finished"\n'
        'in_progress: "Example: the task you are on now"\n'
        'next_steps:\n  - "Example: the next step"\non_confusion: "cat warmup.yaml"\n'
    ),
}
TARGET = 1.5  # x python -c pass, for edits of files that are not protocol files
CHECKPOINT_TARGET = 3.0  # x python -c pass, after a checkpoint write (PostToolUse)


def build_env(directory: str, maker: str = "venv") -> str:
    """A fresh environment with `pip install ROOT` (a wheel, bytecode compiled), made by
    the standard venv module with its pip upgraded, as the README says
    (`maker="virtualenv"`: as pre-commit makes its hook environments). Its bin dir."""
    quiet = ["-q"] if maker == "virtualenv" else []  # the venv module has no -q
    subprocess.run([sys.executable, "-m", maker, *quiet, directory], check=True)
    bindir = os.path.join(directory, "Scripts" if os.name == "nt" else "bin")
    pip = [os.path.join(bindir, "python"), "-m", "pip", "install", "-q"]
    if maker == "venv":  # the README upgrades the pip that venv brings, then installs
        subprocess.run([*pip, "--disable-pip-version-check", "-U", "pip"], check=True)
    subprocess.run([*pip, "--disable-pip-version-check", ROOT], check=True)
    return bindir


def _init_repo(repo: str, checkpoint: str) -> None:
    """A git repository with an ignored checkpoint and one source file."""
    os.makedirs(os.path.join(repo, "src"))
    subprocess.run(["git", "init", "-q", repo], check=True)
    files = {
        ".gitignore": ".claude_checkpoint.yaml\n*.archive.yaml\n",
        ".claude_checkpoint.yaml": checkpoint,
        "src/app.py": "x = 1\n",
    }
    for rel, text in files.items():
        with open(os.path.join(repo, rel), "w", encoding="utf-8") as fh:
            fh.write(text)


def make_project(directory: str) -> dict[str, Any]:
    """A git repository with an ignored checkpoint (and one per other checkpoint shape);
    (agent, payload file) of each case."""
    repo = os.path.join(directory, "project")
    _init_repo(repo, CHECKPOINT)

    def event(name: str, where: str = repo, **fields: object) -> dict[str, object]:
        return {
            "session_id": "bench",
            "transcript_path": os.path.join(directory, "t.jsonl"),
            "cwd": where,
            "hook_event_name": name,
            **fields,
        }

    def tool(
        name: str, tool_name: str, rel: str, where: str = repo, **tool_input: object
    ) -> dict[str, object]:
        path = os.path.join(where, rel)
        fields = {"tool_name": tool_name, "tool_input": {"file_path": path, **tool_input}}
        return event(name, where, **fields)

    def codex(name: str, rel: str) -> dict[str, object]:
        patch = f"*** Begin Patch\n*** Update File: {rel}\n@@\n-x = 1\n+x = 2\n*** End Patch\n"
        fields = {"tool_name": "apply_patch", "tool_input": {"command": patch}}
        return event(name, model="gpt-5-codex", permission_mode="default", turn_id="t1", **fields)

    def cursor_tool(name: str, rel: str) -> dict[str, object]:
        return {
            "conversation_id": "bench",
            "generation_id": "g1",
            "cursor_version": "3.1.17",
            "hook_event_name": name,
            "workspace_roots": [repo],
            "tool_name": "Write",
            "tool_input": {"file_path": os.path.join(repo, rel), "content": "x = 2\n"},
            "tool_use_id": "t1",
            "cwd": repo,
        }

    def copilot_tool(name: str, rel: str) -> dict[str, object]:
        # as Copilot CLI 1.0.102 sends it: toolArgs an object, no event name
        args = {"path": os.path.join(repo, rel), "old_str": "x = 1", "new_str": "x = 2"}
        fields: dict[str, object] = {"toolName": "edit", "toolArgs": args}
        if name == "postToolUse":
            fields["toolResult"] = {"resultType": "success", "textResultForLlm": "updated"}
        return {"sessionId": "bench", "timestamp": 1764061310000, "cwd": repo, **fields}

    cases: dict[str, tuple[str, dict[str, object]]] = {
        "PreToolUse Write src/app.py (not a protocol file)": (
            "claude",
            tool("PreToolUse", "Write", "src/app.py", content="x = 2\n"),
        ),
        "PostToolUse Edit src/app.py (not a protocol file)": (
            "claude",
            tool("PostToolUse", "Edit", "src/app.py", old_string="x = 1", new_string="x = 1"),
        ),
        "PreToolUse Write .claude_checkpoint.yaml (valid)": (
            "claude",
            tool("PreToolUse", "Write", ".claude_checkpoint.yaml", content=CHECKPOINT),
        ),
        "PostToolUse Write .claude_checkpoint.yaml (nothing to trim)": (
            "claude",
            tool("PostToolUse", "Write", ".claude_checkpoint.yaml", content=CHECKPOINT),
        ),
        "UserPromptSubmit": ("claude", event("UserPromptSubmit", prompt="go on")),
        "Stop (turn under the threshold)": ("claude", event("Stop", stop_hook_active=False)),
        "Codex PreToolUse apply_patch src/app.py (not a protocol file)": (
            "codex",
            codex("PreToolUse", "src/app.py"),
        ),
        "Codex PostToolUse apply_patch src/app.py (not a protocol file)": (
            "codex",
            codex("PostToolUse", "src/app.py"),
        ),
        "Gemini CLI BeforeTool write_file src/app.py (not a protocol file)": (
            "gemini",
            tool("BeforeTool", "write_file", "src/app.py", content="x = 2\n"),
        ),
        "Gemini CLI AfterTool replace src/app.py (not a protocol file)": (
            "gemini",
            tool("AfterTool", "replace", "src/app.py", old_string="x = 1", new_string="x = 2"),
        ),
        "Cursor preToolUse Write src/app.py (not a protocol file)": (
            "cursor",
            cursor_tool("preToolUse", "src/app.py"),
        ),
        "Cursor postToolUse Write src/app.py (not a protocol file)": (
            "cursor",
            cursor_tool("postToolUse", "src/app.py"),
        ),
        "Copilot CLI preToolUse edit src/app.py (not a protocol file)": (
            "copilot",
            copilot_tool("preToolUse", "src/app.py"),
        ),
        "Copilot CLI postToolUse edit src/app.py (not a protocol file)": (
            "copilot",
            copilot_tool("postToolUse", "src/app.py"),
        ),
        "Qwen Code PreToolUse write_file src/app.py (not a protocol file)": (
            "qwen",
            tool("PreToolUse", "write_file", "src/app.py", content="x = 2\n"),
        ),
        "Qwen Code PostToolUse edit src/app.py (not a protocol file)": (
            "qwen",
            tool("PostToolUse", "edit", "src/app.py", old_string="x = 1", new_string="x = 2"),
        ),
    }
    for i, (label, text) in enumerate(CHECKPOINT_SHAPES.items()):
        where = os.path.join(directory, f"shape-{i}")
        _init_repo(where, text)
        cases[f"PostToolUse Write .claude_checkpoint.yaml ({label})"] = (
            "claude",
            tool("PostToolUse", "Write", ".claude_checkpoint.yaml", where, content=text),
        )
    out = {}
    for i, (name, (agent, payload)) in enumerate(cases.items()):
        path = os.path.join(directory, f"payload-{i}.json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(payload, fh)
        out[name] = (agent, path)
    out["_repo"] = repo
    return out


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], stdin_path: str | None, cwd: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child: user + system)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115
    try:
        cpu = _cpu()
        start = time.perf_counter()
        proc = subprocess.run(
            command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd
        )
        elapsed = time.perf_counter() - start
        cpu = _cpu() - cpu
    finally:
        if stdin_path:
            stdin.close()  # type: ignore[union-attr]
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {proc.stderr[:300]!r}")
    return elapsed, cpu


Samples = tuple[list[float], list[float]]  # wall, CPU


def measure(bindir: str, runs: int, workdir: str) -> list[tuple[str, Samples]]:
    python = os.path.join(bindir, "python")
    hooks = os.path.join(bindir, "asimov-hooks")
    payloads = make_project(workdir)
    repo = payloads.pop("_repo")
    rows: list[tuple[str, list[str], str | None]] = [
        ("python -c pass", [python, "-c", "pass"], None)
    ]
    with open(hooks, encoding="utf-8", errors="replace") as fh:
        script = fh.read()
    if "\nimport re\n" in script:  # pip's console script of older pips: a floor of its own
        rows.append(
            (
                "python -c 'import re' (the installed script's first import)",
                [python, "-c", "import re"],
                None,
            )
        )
    rows += [
        (name, [hooks, "agent-event", "--agent", agent], path)
        for name, (agent, path) in payloads.items()
    ]
    samples: dict[str, Samples] = {name: ([], []) for name, _, _ in rows}
    for _name, command, stdin in rows:  # warm-up: bytecode, page cache, the state db
        timed(command, stdin, repo)
    for _ in range(runs):
        for name, command, stdin in rows:
            wall, cpu = timed(command, stdin, repo)
            samples[name][0].append(wall)
            samples[name][1].append(cpu)
    return [(name, samples[name]) for name, _, _ in rows]


def table(results: list[tuple[str, Samples]], runs: int, how: str) -> str:
    floor = statistics.median(results[0][1][0])
    cpu_floor = statistics.median(results[0][1][1])
    lines = [
        "# `asimov-hooks agent-event` start-up",
        "",
        f"Generated by `python benchmarks/bench_agent_event.py` ({how}); median of {runs} runs "
        f"after one warm-up, Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}. CPU is the process's user + "
        "system time: on a shared machine it moves less with other load than wall time.",
        "",
        "| event (one whole process, JSON on stdin) | wall median | wall min "
        "| × python -c pass (wall) | CPU median | × python -c pass (CPU) |",
        "|---|---|---|---|---|---|",
    ]
    verdicts = []
    for name, (wall, cpu) in results:
        med, cpu_med = statistics.median(wall), statistics.median(cpu)
        ratio, cpu_ratio = med / floor, cpu_med / cpu_floor if cpu_floor else float("nan")
        lines.append(
            f"| {name} | {med * 1000:.1f} ms | {min(wall) * 1000:.1f} ms | {ratio:.2f}× "
            f"| {cpu_med * 1000:.1f} ms | {cpu_ratio:.2f}× |"
        )
        if "not a protocol file" in name:
            verdicts.append((name, ratio, cpu_ratio, TARGET))
        elif name.startswith("PostToolUse Write .claude_checkpoint.yaml"):
            verdicts.append((name, ratio, cpu_ratio, CHECKPOINT_TARGET))
    lines.append("")
    for name, ratio, cpu_ratio, target in verdicts:
        ok = "met" if max(ratio, cpu_ratio) <= target else "NOT met"
        lines.append(
            f"- target ≤ {target:g}× `python -c pass` for {name}: {ratio:.2f}× wall, "
            f"{cpu_ratio:.2f}× CPU ({ok})"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=31, help="timed runs per row (default 31)")
    parser.add_argument(
        "--env", help="use this existing environment (its bin/) instead of building one"
    )
    parser.add_argument("--out", help="also write the markdown table to this file")
    parser.add_argument(
        "--maker",
        choices=("venv", "virtualenv"),
        default="venv",
        help="how to build the environment: venv as the README installs (default), "
        "virtualenv as pre-commit does",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-agent-") as tmp:
        if args.env:
            bindir = os.path.join(os.path.abspath(args.env), "bin")
            how = f"environment {args.env}"
        else:
            bindir = build_env(os.path.join(tmp, "venv"), args.maker)
            how = (
                "`python3 -m venv`, `pip install -U pip`, `pip install .` as the README installs, "
                "compiled bytecode"
                if args.maker == "venv"
                else "fresh virtualenv as pre-commit makes it, `pip install .`, compiled bytecode"
            )
        for name in ("ASIMOV_HOOKS_CONFIG", "ASIMOV_HOOKS_STATE_DIR", "PYTHONDONTWRITEBYTECODE"):
            os.environ.pop(name, None)  # state goes to the temporary repository's .git
        results = measure(bindir, max(1, args.runs), os.path.join(tmp, "work"))
    text = table(results, max(1, args.runs), how)
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
