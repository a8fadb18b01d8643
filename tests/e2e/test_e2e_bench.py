"""The real-agent session benchmark (benchmarks/bench_agent_session.py) runs and writes
its page: one session each way with Codex CLI, the quickest of them to start."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from install_agents import LOCK_DIR, REPO, Unavailable, install, unavailable


def test_session_benchmark_writes_its_page(tmp_path) -> None:
    try:
        install()
    except Unavailable as why:
        unavailable(why)
    page = tmp_path / "agent-session.md"
    done = subprocess.run(
        [
            sys.executable,
            os.path.join(REPO, "benchmarks", "bench_agent_session.py"),
            "--runs",
            "1",
            "--agents",
            "codex",
            "--out",
            str(page),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    text = page.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| codex |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    with open(LOCK_DIR / "package.json", encoding="utf-8") as fh:
        pinned = json.load(fh)["dependencies"]["@openai/codex"]
    assert cells[1] == f"codex-cli {pinned}"
    assert cells[2].endswith(" s") and cells[3].endswith(" s")  # measured, both ways
    assert text.strip() == done.stdout.strip()
