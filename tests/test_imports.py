"""The package's import graph has no cycles.

Every import counts (module level, inside functions, under TYPE_CHECKING): a lazy
import still ties two modules together, and a cycle is where a change in one breaks
the other in ways that show only at run time.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "asimov_hooks"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["asimov_hooks", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> Iterator[tuple[int, str]]:
    """(line, module of the package) for every import in module `name`."""
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
                yield node.lineno, target


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {target for _, target in _imports(name, path, modules)}
        for name, path in modules.items()
    }


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
    assert "asimov_hooks.config.config" in graph["asimov_hooks.checks.schema"]


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


# The package layering, stated once in docs/architecture.md: one line, lowest layer first,
# `a → b` (b may import a), `a / b` (one level, neither imports the other), and a group of
# top-level modules as `name (module, module)`. Every package and top-level module of
# asimov_hooks must be placed on it, so a new one cannot slip in unplaced.
LAYERS_MARK = "Layers, lowest first:"
EXCUSE = "# layering:"


def stated_layers(text: str | None = None) -> dict[str, tuple[int, str]]:
    """{package or top-level module: (its level, its layer's name)} from the one line."""
    if text is None:
        text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith(LAYERS_MARK)]
    assert len(lines) == 1, f"docs/architecture.md states the layers on one line: {lines}"
    placed: dict[str, tuple[int, str]] = {}
    stated = lines[0][len(LAYERS_MARK) :].strip().strip("`")
    for level, step in enumerate(stated.split("→")):
        for layer in step.split("/"):
            found = re.fullmatch(r"\s*([\w.]+)(?:\s*\(([^)]*)\))?\s*", layer)
            assert found, f"cannot read the layer {layer!r}"
            name, members = found.group(1), found.group(2)
            for member in [m.strip() for m in members.split(",")] if members else [name]:
                assert member not in placed, f"{member} is placed twice"
                placed[member] = (level, name)
    return placed


def layer_of(module: str, placed: dict[str, tuple[int, str]]) -> tuple[int, str]:
    parts = module.split(".")
    return placed[parts[1] if len(parts) > 1 else "__init__"]  # __init__: the package's own


def against_layering(
    graph: dict[str, set[str]], placed: dict[str, tuple[int, str]]
) -> list[tuple[str, str]]:
    """Every import of a module of a higher layer, or of a sibling on the same level."""
    wrong = []
    for name, targets in graph.items():
        here = layer_of(name, placed)
        for target in targets:
            there = layer_of(target, placed)
            if there[0] > here[0] or (there[0] == here[0] and there[1] != here[1]):
                wrong.append((name, target))
    return sorted(wrong)


def mutual_layers(
    graph: dict[str, set[str]], placed: dict[str, tuple[int, str]]
) -> list[tuple[str, str]]:
    edges = {
        (layer_of(name, placed)[1], layer_of(target, placed)[1])
        for name, targets in graph.items()
        for target in targets
    }
    return sorted((a, b) for a, b in edges if a < b and (b, a) in edges)


def test_every_package_and_top_level_module_is_placed_on_the_layers_line() -> None:
    placed = stated_layers()
    present = {name.split(".")[1] if "." in name else "__init__" for name in _modules()}
    assert sorted(present - set(placed)) == [], "place these in docs/architecture.md's layers"
    assert sorted(set(placed) - present) == [], "the layers line names what does not exist"
    groups = {layer for member, (_, layer) in placed.items() if layer != member}
    assert not groups & present, "a group of modules is named like a package or module"


def test_no_two_packages_import_each_other() -> None:
    assert mutual_layers(import_graph(), stated_layers()) == []


def test_every_import_against_the_layering_says_why() -> None:
    """An import of a higher layer carries `# layering: why` on its line or the line
    above; moving the code down is the usual fix."""
    placed = stated_layers()
    modules = _modules()
    wrong = set(against_layering(import_graph(), placed))
    silent = []
    for name, path in modules.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for lineno, target in _imports(name, path, modules):
            if (name, target) in wrong and not any(
                EXCUSE in lines[at] for at in (lineno - 1, lineno - 2) if at >= 0
            ):
                silent.append(f"{path.relative_to(PACKAGE)}:{lineno}: {name} -> {target}")
    assert not silent, silent


def test_the_layering_check_finds_an_import_upwards() -> None:
    placed = stated_layers(
        "Layers, lowest first: `fs → base (__init__, gitutil) → readers / oc → cli`"
    )
    graph = {
        "asimov_hooks.readers.a": {"asimov_hooks.fs.x", "asimov_hooks.gitutil"},
        "asimov_hooks.fs.x": {"asimov_hooks.readers.a"},
        "asimov_hooks.oc.b": {"asimov_hooks.readers.a"},
        "asimov_hooks.cli.c": {"asimov_hooks.oc.b", "asimov_hooks"},
        "asimov_hooks.gitutil": set(),
    }
    assert against_layering(graph, placed) == [
        ("asimov_hooks.fs.x", "asimov_hooks.readers.a"),
        ("asimov_hooks.oc.b", "asimov_hooks.readers.a"),
    ]
    assert mutual_layers(graph, placed) == [("fs", "readers")]
    assert ("asimov_hooks.cli.c", "asimov_hooks") not in against_layering(graph, placed)
