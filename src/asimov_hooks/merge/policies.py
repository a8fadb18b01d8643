"""Field policies of a kind (dotted patterns with `*`, `**`, `[]` to a policy). The ISO
8601 times the `latest` / `earliest` policies compare are read by `timestamps`."""

from __future__ import annotations

from functools import lru_cache

from .values import Item, PathT

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any


POLICIES = frozenset({"conflict", "latest", "earliest", "max", "min", "union", "by-key"})


@lru_cache(maxsize=256)
def _compile(pattern: str) -> tuple[str, ...]:
    """'progress_table[].status' -> ('progress_table', '[]', 'status')."""
    out: list[str] = []
    for seg in pattern.split("."):
        items = 0
        while seg.endswith("[]"):
            seg, items = seg[:-2], items + 1
        if seg:
            out.append(seg)
        out.extend(["[]"] * items)
    return tuple(out)


def _matches(pat: tuple[str, ...], path: PathT) -> bool:
    if not pat:
        return not path
    head, rest = pat[0], pat[1:]
    if head == "**":
        return any(_matches(rest, path[i:]) for i in range(len(path) + 1))
    if not path:
        return False
    part = path[0]
    if head == "[]":
        ok = isinstance(part, Item)
    elif head == "*":
        ok = not isinstance(part, Item)
    else:
        ok = not isinstance(part, Item) and str(part) == head
    return ok and _matches(rest, path[1:])


class Policies:
    """Field policies of one kind: dotted patterns (`*`, `**`, `[]`) to a policy."""

    def __init__(self, fields: dict[str, Any], default: str = "conflict") -> None:
        self.default = default
        ranked = []
        for order, (pattern, spec) in enumerate(fields.items()):
            pat = _compile(pattern)
            literal = sum(1 for p in pat if p not in ("*", "**"))
            ranked.append(((-literal, pat.count("**"), pat.count("*"), order), pat, spec))
        self._table = [(pat, spec) for _, pat, spec in sorted(ranked, key=lambda r: r[0])]
        self._cache: dict[tuple, dict[str, Any]] = {}

    def for_path(self, path: PathT) -> dict[str, Any]:
        key = tuple("[]" if isinstance(p, Item) else p for p in path)
        hit = self._cache.get(key)
        if hit is None:
            spec: Any = self.default
            for pat, candidate in self._table:
                if _matches(pat, path):
                    spec = candidate
                    break
            hit = {"policy": spec} if isinstance(spec, str) else dict(spec)
            self._cache[key] = hit
        return hit
