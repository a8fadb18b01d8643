"""No module of the package or the benchmarks grows past about 400 lines.

A module that long usually holds two things; split it where the seam is (a pure move,
re-exporting the old names) instead of raising the bound.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 400


def _sources() -> list[Path]:
    return sorted([*(ROOT / "src").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")])


def test_the_sources_are_found() -> None:
    names = {path.name for path in _sources()}
    assert {"engine.py", "registry.py", "run.py", "measuring.py"} <= names


def test_no_module_is_over_the_bound() -> None:
    over = {}
    for path in _sources():
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > MAX_LINES:
            over[str(path.relative_to(ROOT))] = lines
    assert not over, f"modules over {MAX_LINES} lines (split them): {over}"


MAX_TOP_MODULES = 10


def test_the_package_top_shows_the_design() -> None:
    """The package top holds only shared pieces; the rest lives in packages named for what
    they hold (docs/architecture.md)."""
    top = sorted(path.name for path in (ROOT / "src" / "asimov_hooks").glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, f"{len(top)} modules at the package top: {top}"
