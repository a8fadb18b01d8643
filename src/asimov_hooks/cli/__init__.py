"""The command line: click commands (`commands`), the click-free hook entry points
(`entrypoints`) and their argument scanner (`fastargs`).

`asimov_hooks.cli.main` / `validate_main` still name the click commands; they are
looked up on first use so that importing `asimov_hooks.cli.entrypoints` (every hook
run) does not import click.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any


_SUBMODULES = frozenset({"commands", "entrypoints", "fastargs", "guard"})


def __getattr__(name: str) -> Any:
    # submodules are found by the import system, never through click
    if name.startswith("__") or name in _SUBMODULES:
        raise AttributeError(name)
    from . import commands

    try:
        return getattr(commands, name)
    except AttributeError:
        raise AttributeError(f"module 'asimov_hooks.cli' has no attribute {name!r}") from None
