"""benchmarks/bench_agent_event.py runs (one timed run on this environment's install);
its figures are not asserted: tests never assert a timing."""

from __future__ import annotations

import os
import sys

from conftest import ROOT


def test_agent_event_benchmark_runs(tmp_path, isolated_home) -> None:
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        import bench_agent_event
    finally:
        sys.path.pop(0)
    out = tmp_path / "agent-event.md"
    assert bench_agent_event.main(["--env", sys.prefix, "--runs", "1", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "| python -c pass |" in text
    assert "PreToolUse Write src/app.py (not a protocol file)" in text
    assert "× `python -c pass` for PostToolUse Edit src/app.py" in text
    for row in (
        "Codex PreToolUse apply_patch src/app.py (not a protocol file)",
        "Gemini CLI BeforeTool write_file src/app.py (not a protocol file)",
        "Cursor preToolUse Write src/app.py (not a protocol file)",
        "Cursor postToolUse Write src/app.py (not a protocol file)",
        "Copilot CLI preToolUse edit src/app.py (not a protocol file)",
        "Copilot CLI postToolUse edit src/app.py (not a protocol file)",
        "Qwen Code PreToolUse write_file src/app.py (not a protocol file)",
        "Qwen Code PostToolUse edit src/app.py (not a protocol file)",
    ):
        assert f"| {row} |" in text and f"for {row}:" in text
    for label in bench_agent_event.CHECKPOINT_SHAPES:  # each shape within the write target
        row = f"PostToolUse Write .claude_checkpoint.yaml ({label})"
        assert f"| {row} |" in text and f"≤ 3× `python -c pass` for {row}:" in text
