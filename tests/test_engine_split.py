"""engine.py was split (issue 11): file discovery lives in discovery.py; the old import
paths keep working and both stay under the 400-line budget of a module."""

from __future__ import annotations

from pathlib import Path

import pytest

from asimov_hooks import discovery, engine

MOVED = ("ensure_exists", "ephemeral_kinds", "ignored_ephemeral", "iter_files")


@pytest.mark.parametrize("name", MOVED)
def test_old_import_path_is_the_moved_function(name: str) -> None:
    assert getattr(engine, name) is getattr(discovery, name)
    assert name in engine.__all__


@pytest.mark.parametrize("module", [engine, discovery])
def test_module_stays_under_the_line_budget(module) -> None:
    lines = Path(module.__file__).read_text(encoding="utf-8").count("\n")
    assert lines <= 400, f"{module.__name__}: {lines} lines"
