"""The rules' checks: one module per rule or small family, each mapping its rule ids to
check functions in `RULES`.

Which module owns a rule, and what the rule needs, is the rule registry
(config/registry.py): data, so planning a run imports no rule module. A rule's module is
imported here, the first time a file selects the rule (`check`, `prefetch`).
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Callable, Iterable
    from typing import Any

    Check = Callable[..., Iterable[tuple[Any, ...]]]

_FUNCS: "dict[str, Check]" = {}


def module_of(rule_id: str) -> "Any":
    """The module that owns `rule_id`, imported on first use."""
    import sys

    from ..config.registry import module_name

    name = module_name(rule_id)
    module = sys.modules.get(name)
    if module is None:
        __import__(name)
        module = sys.modules[name]
    return module


def check(rule_id: str) -> "Check":
    """The check function of a rule that has one (not `emitted` rules)."""
    func = _FUNCS.get(rule_id)
    if func is None:
        func = _FUNCS[rule_id] = module_of(rule_id).RULES[rule_id]
    return func


def prefetch(wanted: "dict[str, list[str]]") -> None:
    """Hand each path rule's module the files it will be asked about (one git call per
    rule and run instead of one per file); modules without a `prefetch` skip it."""
    seen = set()
    for rid in wanted:
        module = module_of(rid)
        if id(module) not in seen and hasattr(module, "prefetch"):
            seen.add(id(module))
            module.prefetch({r: paths for r, paths in wanted.items() if module_of(r) is module})
