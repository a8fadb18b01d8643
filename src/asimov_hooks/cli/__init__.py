"""The command line: the click commands (`commands`, `checkpoint`, `info`, `guard`), built
from the option tables every command shares (asimov_hooks/options, read by click
through options/clickopts.py), and the click-free hook entry points
(`entrypoints`).

`asimov_hooks.cli.main` / `validate_main` still name the click commands; they are
looked up on first use so that importing `asimov_hooks.cli.entrypoints` (every hook
run) does not import click.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any


_SUBMODULES = frozenset({"checkpoint", "commands", "entrypoints", "guard", "info"})


def __getattr__(name: str) -> "Any":
    # submodules are found by the import system, never through click
    if name.startswith("__") or name in _SUBMODULES:
        raise AttributeError(name)
    from . import commands

    try:
        return getattr(commands, name)
    except AttributeError:
        raise AttributeError(f"module 'asimov_hooks.cli' has no attribute {name!r}") from None
