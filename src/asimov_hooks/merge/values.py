"""What a three-way merge works with: MISSING (absent, not null), Item (a list element
in a path), Conflict (a node no policy decides), and equality of parsed values
(`canon`, `same`, memoized per merge), and finding the items of a list to reuse by it
(`ItemFinder`)."""

from __future__ import annotations

import datetime
from collections import deque

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable, Iterable
    from typing import Any


class _Missing:
    """A key or item that is absent on one side (distinct from a null value)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Item:
    """A list element in a path; `label` names it for people (`id=sprint-2` or an index)."""

    __slots__ = ("label",)

    def __init__(self, label: str) -> None:
        self.label = label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Item) and other.label == self.label

    def __hash__(self) -> int:
        return hash(("Item", self.label))

    def __str__(self) -> str:
        return f"[{self.label}]"

    __repr__ = __str__


PathT = tuple  # of str keys and Item


def show_path(path: PathT) -> str:
    out = ""
    for part in path:
        out += str(part) if isinstance(part, Item) else (f".{part}" if out else str(part))
    return out or "(whole file)"


class Conflict:
    """Both sides changed one node and the policy cannot choose; `why` is for people."""

    __slots__ = ("base", "ours", "path", "theirs", "why")

    def __init__(self, path: PathT, base: Any, ours: Any, theirs: Any, why: str) -> None:
        self.path, self.base, self.ours, self.theirs, self.why = path, base, ours, theirs, why

    def __repr__(self) -> str:
        return f"Conflict({show_path(self.path)}: {self.why})"


# ------------------------------------------------------------------ equality
class _Memo:
    """Canonical keys of containers, by identity, while a merge runs (see `memoized`).

    Only for trees nobody modifies meanwhile: the parsed sides and the merged tree.
    The memo holds each container, so an id cannot be reused while it is cached.
    """

    table: dict[int, tuple[Any, tuple]] | None = None


class memoized:
    """`with memoized():` makes `canon`/`same` linear over big, repeated comparisons."""

    def __enter__(self) -> None:
        self.saved = _Memo.table
        _Memo.table = {} if self.saved is None else self.saved

    def __exit__(self, *exc: object) -> None:
        _Memo.table = self.saved


class unmemoized(memoized):
    """For code that modifies trees while comparing them (the YAML applier)."""

    def __enter__(self) -> None:
        self.saved = _Memo.table
        _Memo.table = None


def canon(value: Any) -> tuple:
    """A hashable, totally ordered key: equal keys means the same data.

    Types are kept apart (1, 1.0, True and "1" differ) so a merge never treats two
    different values as one; ruamel's styled subclasses compare as their base type.
    """
    if isinstance(value, str):
        return ("s", str(value))
    if isinstance(value, (dict, list)):
        table = _Memo.table
        if table is not None:
            hit = table.get(id(value))
            if hit is not None and hit[0] is value:
                return hit[1]
        if isinstance(value, dict):
            key = ("d", tuple(sorted((canon(k), canon(v)) for k, v in value.items())))
        else:
            key = ("l", tuple(canon(v) for v in value))
        if table is not None:
            table[id(value)] = (value, key)
        return key
    if value is MISSING:
        return ("~",)
    if value is None:
        return ("n",)
    if isinstance(value, bool):
        return ("b", bool(value))
    if isinstance(value, int):
        return ("i", int(value))
    if isinstance(value, float):
        return ("f", repr(float(value)))
    if isinstance(value, datetime.datetime):
        return ("t", value.isoformat())
    if isinstance(value, datetime.date):
        return ("D", value.isoformat())
    return ("o", type(value).__name__, repr(value))


def same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if a is MISSING or b is MISSING:
        return False
    if _Memo.table is not None:
        return canon(a) == canon(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return canon(a) == canon(b)


# ------------------------------------------------------------------ matching
class ItemFinder:
    """The items of one side's list that the merged list's items reuse, as both renderers
    find them: an equal item first, else (with an id `key`) the mapping with the same
    id; each item once, `used` shared by every finder of the same items. Indexed, so a
    long list costs one look-up per merged item, not a scan."""

    __slots__ = ("by_key", "by_value", "key", "used")

    def __init__(
        self, pool: Iterable, key: str | None, value_of: Callable[[Any], Any], used: set[int]
    ) -> None:
        def ident(item: Any) -> Any:
            value = value_of(item)
            return canon(value.get(key, MISSING)) if isinstance(value, dict) else None

        pool = list(pool)
        self.key, self.used = key, used
        self.by_value = index_by(pool, lambda item: canon(value_of(item)))
        self.by_key = index_by(pool, ident) if key else {}

    def find(self, value: Any, canonical: Any) -> tuple[Any, bool]:
        """(the item for `value`, whose `canon` is `canonical`, or None; whether it was
        found by its id rather than equal)."""
        found = take(self.by_value.get(canonical), self.used)
        if found is None and self.key and isinstance(value, dict) and self.key in value:
            found = take(self.by_key.get(canon(value[self.key])), self.used)
            return found, found is not None
        return found, False


def index_by(pool: Iterable, key: Callable[[Any], Any]) -> dict[Any, deque]:
    """Items of `pool` by key, in order (a None key leaves the item out), so matching
    each item of a long list against another costs one look-up, not a scan."""
    out: dict[Any, deque] = {}
    for item in pool:
        k = key(item)
        if k is not None:
            out.setdefault(k, deque()).append(item)
    return out


def take(candidates: deque | None, used: set[int]) -> Any:
    """The first candidate not yet taken (by id, from any index of the same items), or
    None. Each item is taken once; the ones passed over are dropped, so a long run of
    equal items is walked once in all, not once per match."""
    while candidates:
        item = candidates.popleft()
        if id(item) not in used:
            used.add(id(item))
            return item
    return None
