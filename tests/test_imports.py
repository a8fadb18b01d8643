"""The package's import graph has no cycles.

Every import counts (module level, inside functions, under TYPE_CHECKING): a lazy
import still ties two modules together, and a cycle is where a change in one breaks
the other in ways that show only at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "asimov_hooks"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["asimov_hooks", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join([*base, node.module] if node.module else base)
                else:
                    stem = node.module or ""
                # `from pkg import sub` imports the submodule; `from mod import name` the module
                targets = [
                    f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem
                    for alias in node.names
                ]
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_lazy_and_relative_imports() -> None:
    graph = import_graph()
    # engine imports the loaders inside a method, by a relative import
    assert "asimov_hooks.readers.loaders" in graph["asimov_hooks.validation.engine"]
    assert "asimov_hooks.validation.config" in graph["asimov_hooks.checks.schema"]


def test_every_import_of_the_package_names_a_module_of_it() -> None:
    """A relative import resolved against the wrong package (one dot too few after a
    move) fails only when its line runs, often lazily: catch it here, statically."""
    modules = _modules()
    missing = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join([*base, node.module] if node.module else base)
                if stem not in modules:
                    missing.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {stem}")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                missing += [
                    f"{path.relative_to(PACKAGE)}:{node.lineno}: {n}"
                    for n in names
                    if n.startswith("asimov_hooks.") and n not in modules
                ]
    assert not missing, missing


def _agent_layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["asimov_hooks", "agent"] or len(parts) < 3:
        return None
    return parts[2]  # runtime, install, agents, cli, ephemeral


# The agent package's layers: `runtime` runs on every agent event and loads neither the
# install machinery nor the click commands; the adapters (`agents`) build on `runtime`
# alone; `install` (settings splicing, doctor) never loads an adapter. Only
# `runtime.event` reaches the adapters, through the `agents` loader.
FORBIDDEN_AGENT_EDGES = {
    ("runtime", "install"),
    ("runtime", "cli"),
    ("runtime", "ephemeral"),
    ("agents", "install"),
    ("agents", "cli"),
    ("agents", "ephemeral"),
    ("install", "agents"),
    ("install", "cli"),
    ("install", "ephemeral"),
}
ALLOWED_RUNTIME_TO_AGENTS = {("asimov_hooks.agent.runtime.event", "asimov_hooks.agent.agents")}


def test_the_agent_package_keeps_its_layers() -> None:
    wrong = []
    for name, targets in import_graph().items():
        for target in targets:
            edge = (_agent_layer(name), _agent_layer(target))
            if edge in FORBIDDEN_AGENT_EDGES or (
                edge == ("runtime", "agents") and (name, target) not in ALLOWED_RUNTIME_TO_AGENTS
            ):
                wrong.append(f"{name} -> {target}")
    assert not wrong, wrong
