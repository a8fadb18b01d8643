"""engine.py was split (issue 11): file discovery lives in discovery.py; the old import
paths keep working (tests/test_module_size.py holds every module to its line budget)."""

from __future__ import annotations

import pytest

from asimov_hooks.config import discovery
from asimov_hooks.validation import engine

MOVED = ("ensure_exists", "ephemeral_kinds", "ignored_ephemeral", "iter_files")


@pytest.mark.parametrize("name", MOVED)
def test_old_import_path_is_the_moved_function(name: str) -> None:
    assert getattr(engine, name) is getattr(discovery, name)
    assert name in engine.__all__
