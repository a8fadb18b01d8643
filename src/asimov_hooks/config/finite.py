"""Numbers no setting can mean: NaN and the infinities.

YAML reads `.nan` and `.inf` as floats, and a NaN passes every `minimum` and `maximum`
(`turn-threshold: .nan` passed the config schema and then blocked every Stop). JSON,
which editors check configs as, cannot hold either, so a config holding one is refused
with the place it sits.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

_INF = float("inf")


def non_finite(data: Any) -> tuple[str, float] | None:
    """(where, value) of the first NaN or infinite number in `data`, else None."""
    todo: list[tuple[str, Any]] = [("", data)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, float) and (value != value or value in (_INF, -_INF)):
            return where or "(top level)", value
        if isinstance(value, dict):
            todo.extend((f"{where}.{k}" if where else str(k), v) for k, v in value.items())
        elif isinstance(value, list):
            todo.extend((f"{where}[{i}]", v) for i, v in enumerate(value))
    return None


def with_nul(data: Any) -> str | None:
    """Where the first string (key or value) holding a NUL character sits, else None:
    no path, pattern or name can hold one (the operating system refuses it)."""
    todo: list[tuple[str, Any]] = [("", data)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, str) and "\x00" in value:
            return where or "(top level)"
        if isinstance(value, dict):
            for k, v in value.items():
                inner = f"{where}.{k}" if where else str(k)
                if isinstance(k, str) and "\x00" in k:
                    return where or "(top level)"
                todo.append((inner, v))
        elif isinstance(value, list):
            todo.extend((f"{where}[{i}]", v) for i, v in enumerate(value))
    return None
