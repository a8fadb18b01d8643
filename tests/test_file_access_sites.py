"""Every file the package opens, writes, renames or removes goes through `fs/`.

A checkout is untrusted, its symlinks and committed config included; `fs.access` is
where a path is confined to the work tree (and kept out of `.git/`), where a read is
bounded and never blocks, and where a write is atomic. This test reads every module of
`src/` (its syntax tree, not its text) and fails on any other way of touching a file:
`open(`, `os.open`, `os.replace`, `os.remove`, `tempfile.mkstemp`, `Path.read_text`, ...
The few modules that open files that are not the repository's are listed below, each
with the reason; an entry that no longer matches anything fails too, so the list stays
honest.
"""

from __future__ import annotations

import ast

from source_scan import scan, stale, unlisted

EXEMPT_PACKAGE = "fs/"  # the one place: confinement, bounded reads, atomic writes, locks

# module -> attribute calls that touch the file system
MODULE_CALLS = {
    "os": {
        "open", "fdopen", "replace", "rename", "renames", "remove", "unlink", "makedirs",
        "mkdir", "rmdir", "removedirs", "truncate", "chmod", "chown", "lchown", "symlink",
        "link", "mkfifo", "mknod", "utime",
    },
    "io": {"open", "FileIO"},
    "shutil": {
        "copy", "copy2", "copyfile", "copytree", "copymode", "copystat", "move", "rmtree",
    },
    "tempfile": {
        "mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile",
        "TemporaryDirectory",
    },
    "sqlite3": {"connect"},
}  # fmt: skip
# pathlib.Path methods (any receiver but our own modules)
PATH_METHODS = {
    "read_text", "write_text", "read_bytes", "write_bytes", "open", "touch", "mkdir",
    "rmdir", "unlink", "symlink_to", "hardlink_to",
}  # fmt: skip
OUR_MODULES = {"access", "textio"}  # `access.read_bytes(...)` is the way, not a bypass

# (module, call) -> why this is not a repository file
ALLOWED = {
    (
        "config/packs.py",
        "open",
    ): "the shipped rule packs and schemas (rules/), the package's own data",
    ("readers/guards.py", "open"): "the shipped rules/limits.json, the package's own data",
    ("adoption/source.py", "open"): "the shipped .pre-commit-hooks.yaml, the package's own data",
    ("checks/online.py", ".open"): "an HTTP request (urllib's opener), not a file",
    ("cli/info.py", "open"): "`asimov-hooks schema` prints a shipped schema from rules/",
    ("agent/ephemeral.py", "open"): "the terminal the commit runs in (/dev/tty), not a file",
    ("validation/hooktypes.py", "open"): "the terminal the commit runs in (/dev/tty), not a file",
    ("cli/guard.py", "os.open"): "/dev/null in place of a closed stdout or stderr",
    ("agent/runtime/event.py", "os.open"): "/dev/null in place of a closed stdout or stderr",
    ("validation/parallel.py", "os.fdopen"): "the pipes between the parent and its forked workers",
    ("doctor/diagnosis.py", "tempfile.TemporaryDirectory"): (
        "the doctor's smoke-test merge runs in a temporary directory of its own, outside "
        "the checkout (its files are then written and read through fs.access)"
    ),
    ("agent/runtime/state.py", "os.makedirs"): (
        "the agent's own state directory (in the git directory, or the user's XDG state "
        "directory), never a file of the checkout"
    ),
    ("agent/runtime/state.py", "sqlite3.connect"): "the agent's own state database, as above",
}


def _sites(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in MODULE_CALLS and not node.level:
            for alias in node.names:
                if alias.name in MODULE_CALLS[node.module]:
                    found.append((node.lineno, f"from {node.module} import {alias.name}"))
        if isinstance(node, ast.ImportFrom) and node.module == "pathlib":
            found.append((node.lineno, "from pathlib import ..."))
        if isinstance(node, ast.Import) and any(a.name == "pathlib" for a in node.names):
            found.append((node.lineno, "import pathlib"))
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            found.append((node.lineno, "open"))
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            if owner in MODULE_CALLS and func.attr in MODULE_CALLS[owner]:
                found.append((node.lineno, f"{owner}.{func.attr}"))
            elif func.attr in PATH_METHODS and owner not in OUR_MODULES | set(MODULE_CALLS):
                found.append((node.lineno, f".{func.attr}"))
    return found


def _scan() -> dict[tuple[str, str], list[object]]:
    """(module, call) -> the lines of each way of touching a file outside fs/."""
    return scan(lambda tree: ((call, line) for line, call in _sites(tree)), skip=EXEMPT_PACKAGE)


def test_no_module_touches_files_except_through_fs() -> None:
    bypass = unlisted(_scan(), ALLOWED)
    assert not bypass, (
        "these read or write files without fs.access (use fs.access.read_bytes, "
        "atomic_write, make_dirs, remove; or, for a file that is not the repository's, "
        "add it to ALLOWED with the reason):\n" + "\n".join(bypass)
    )


def test_every_allowed_site_still_exists() -> None:
    gone = stale(_scan(), ALLOWED)
    assert not gone, f"ALLOWED lists calls no module makes any more: {gone}"


def test_the_scan_finds_every_way_in() -> None:
    """The scanner itself: each form it must catch, and what it must leave alone."""
    source = (
        "import os, shutil, tempfile, sqlite3\n"
        "from os import replace\n"
        "from pathlib import Path\n"
        "open('x')\n"
        "os.open('x', 0)\n"
        "os.replace('a', 'b')\n"
        "os.makedirs('d')\n"
        "tempfile.mkstemp()\n"
        "shutil.rmtree('d')\n"
        "sqlite3.connect('db')\n"
        "Path('x').write_text('y')\n"
        "p.read_bytes()\n"
        "'a'.replace('a', 'b')\n"  # not a file operation
        "access.read_bytes('x')\n"  # the way
        "os.path.join('a', 'b')\n"
    )
    calls = [call for _, call in _sites(ast.parse(source))]
    assert calls.count("open") == 1
    for expected in (
        "from os import replace",
        "from pathlib import ...",
        "os.open",
        "os.replace",
        "os.makedirs",
        "tempfile.mkstemp",
        "shutil.rmtree",
        "sqlite3.connect",
        ".write_text",
        ".read_bytes",
    ):
        assert expected in calls, expected
    assert len(calls) == 11, calls
