"""The package's own source read as syntax trees, for the tests that scan it for calls
no module may make unlisted (tests/test_file_access_sites.py, tests/test_output_sites.py).

Each scan finds (key, detail) pairs in a module's tree; `scan` gathers them per
(module, key), where a module is its path under src/asimov_hooks/ with "/" separators.
An ALLOWED table maps (module, key) to the reason the site is fine; `unlisted` names
the sites it does not cover and `stale` the entries that no longer match anything.
"""

from __future__ import annotations

import ast
import functools
import os
from collections.abc import Callable, Iterable

from conftest import ROOT

PACKAGE = os.path.join(ROOT, "src", "asimov_hooks")

Finder = Callable[[ast.AST], Iterable[tuple[str, object]]]


@functools.cache
def modules() -> tuple[tuple[str, ast.Module], ...]:
    """(module, syntax tree) of every module of the package, parsed once per process."""
    found = []
    for directory, _, files in os.walk(PACKAGE):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read(), path)
                found.append((os.path.relpath(path, PACKAGE).replace(os.sep, "/"), tree))
    return tuple(sorted(found, key=lambda item: item[0]))


def scan(find: Finder, skip: str | None = None) -> dict[tuple[str, str], list[object]]:
    """(module, key) -> the details `find` reported, over every module not under `skip`."""
    sites: dict[tuple[str, str], list[object]] = {}
    for rel, tree in modules():
        if skip is None or not rel.startswith(skip):
            for key, detail in find(tree):
                sites.setdefault((rel, key), []).append(detail)
    return sites


def unlisted(sites: dict[tuple[str, str], list[object]], allowed: dict) -> list[str]:
    """One line per site that `allowed` does not cover: `src/asimov_hooks/MODULE:DETAIL`
    followed by the key."""
    return [
        f"src/asimov_hooks/{rel}:{detail} ({key})"
        for (rel, key), details in sorted(sites.items())
        if (rel, key) not in allowed
        for detail in details
    ]


def stale(sites: dict[tuple[str, str], list[object]], allowed: dict) -> list[tuple[str, str]]:
    """The entries of `allowed` that match no site any more."""
    return sorted(set(allowed) - set(sites))
