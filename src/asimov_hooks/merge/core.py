"""Three-way merge of parsed checkpoint trees, field by field, under policies from rules/.

The values a merge works with (MISSING, Item, Conflict, equality) are in `values`, the
field policies and timestamps in `policies`; this module re-exports them.

The merge is format-free: it sees mappings, lists and scalars (plain Python or ruamel
round-trip objects, which subclass them) and returns a tree built from the sides' own
objects, with `Conflict` nodes where no policy gives an obviously right answer. Every
decision is symmetric in ours/theirs, because a rebase swaps the two and must not get a
different answer.
"""

from __future__ import annotations

from collections import Counter

from ..timestamps import parse_timestamp
from .policies import POLICIES, Policies
from .values import (
    MISSING,
    Conflict,
    Item,
    ItemFinder,
    PathT,
    canon,
    memoized,
    same,
    show_path,
    unmemoized,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Iterable
    from typing import Any


__all__ = [
    "MISSING",
    "POLICIES",
    "Conflict",
    "Item",
    "ItemFinder",
    "Merger",
    "PathT",
    "Policies",
    "canon",
    "has_conflicts",
    "memoized",
    "merge_trees",
    "parse_timestamp",
    "resolve",
    "same",
    "show_path",
    "unmemoized",
]


# ------------------------------------------------------------------ the merge
class Merger:
    """merge(base, ours, theirs) for one kind; records every conflict it leaves."""

    def __init__(self, policies: Policies) -> None:
        self.policies = policies
        self.conflicts: list[Conflict] = []

    def conflict(self, path: PathT, b: Any, o: Any, t: Any, why: str) -> Conflict:
        found = Conflict(path, b, o, t, why)
        self.conflicts.append(found)
        return found

    def merge(self, b: Any, o: Any, t: Any, path: PathT = ()) -> Any:
        if same(o, t):
            return o
        if same(b, o):  # MISSING is the same as MISSING: an addition by one side
            return t
        if same(b, t):
            return o
        if o is MISSING or t is MISSING:
            return self.conflict(path, b, o, t, "deleted on one side, changed on the other")
        if isinstance(o, dict) and isinstance(t, dict) and (b is MISSING or isinstance(b, dict)):
            return self._merge_map({} if b is MISSING else b, o, t, path)
        spec = self.policies.for_path(path)
        policy = spec.get("policy", "conflict")
        if policy in ("latest", "earliest"):
            return self._pick_time(b, o, t, path, latest=policy == "latest")
        if policy in ("max", "min"):
            return self._pick_number(b, o, t, path, highest=policy == "max")
        if policy == "union":
            return self._union(b, o, t, path, spec)
        if policy == "by-key":
            return self._by_key(b, o, t, path, spec.get("key", "id"))
        why = "changed on both sides"
        return self.conflict(path, b, o, t, why + ("" if path else " (not a mapping)"))

    # -------------------------------------------------------------- mappings
    def _merge_map(self, b: dict, o: dict, t: dict, path: PathT) -> dict:
        merged: dict[Any, Any] = {}
        for key in _key_union(b, o, t):
            value = self.merge(
                b.get(key, MISSING), o.get(key, MISSING), t.get(key, MISSING), (*path, key)
            )
            if value is not MISSING:
                merged[key] = value
        order = [k for k in o if k in merged]
        placed = set(order)
        for source in (t, b):  # each key the side adds goes right after the key before it
            order = _placed_after(order, source, merged, placed)
        return {k: merged[k] for k in order}

    # -------------------------------------------------------------- scalars
    def _pick_time(self, b: Any, o: Any, t: Any, path: PathT, latest: bool) -> Any:
        to, tt = parse_timestamp(o), parse_timestamp(t)
        if to is None or tt is None:
            bad = o if to is None else t
            return self.conflict(path, b, o, t, f"not a timestamp: {str(bad)[:40]!r}")
        if (to.tzinfo is None) != (tt.tzinfo is None):
            return self.conflict(path, b, o, t, "one timestamp has a time zone, one has not")
        if to == tt:
            return min((o, t), key=canon)
        return (max if latest else min)((o, t), key=lambda v: parse_timestamp(v))

    def _pick_number(self, b: Any, o: Any, t: Any, path: PathT, highest: bool) -> Any:
        def number(v: Any) -> bool:
            return isinstance(v, (int, float)) and not isinstance(v, bool)

        if not (number(o) and number(t)):
            return self.conflict(path, b, o, t, "changed on both sides (not numbers)")
        if o == t:
            return min((o, t), key=canon)
        return (max if highest else min)((o, t))

    # -------------------------------------------------------------- lists
    def _union(self, b: Any, o: Any, t: Any, path: PathT, spec: dict[str, Any]) -> Any:
        """Base order minus what either side removed, plus both sides' additions.

        `dedupe: false` (pm_refs: an audit trail the protocol never deduplicates) keeps
        every entry a side appended, an identical one included; `order: newest-first`
        (recently_done) puts the additions first and sorts by the `time-key` field."""
        if not (isinstance(o, list) and isinstance(t, list)):
            return self.conflict(path, b, o, t, "changed on both sides (not lists)")
        base = b if isinstance(b, list) else []
        kb, ko, kt = [canon(x) for x in base], [canon(x) for x in o], [canon(x) for x in t]
        count_o, count_t, seen = Counter(ko), Counter(kt), Counter()
        kept = []
        for item, key in zip(base, kb, strict=True):
            seen[key] += 1
            if seen[key] <= min(count_o[key], count_t[key]):
                kept.append(item)
        if spec.get("dedupe", True):
            in_base = set(kb)
            adds = [
                _dedupe([(k, x) for k, x in zip(keys, side, strict=True) if k not in in_base])
                for keys, side in ((ko, o), (kt, t))
            ]
        else:  # each copy a side holds beyond the base's count is an entry it appended
            in_base_count = Counter(kb)
            adds = []
            for keys, side in ((ko, o), (kt, t)):
                mine: Counter = Counter()
                pairs = []
                for k, x in zip(keys, side, strict=True):
                    mine[k] += 1
                    if mine[k] > in_base_count[k]:
                        pairs.append((k, x))
                adds.append(pairs)
        first, second = sorted(adds, key=lambda pairs: [k for k, _ in pairs])
        taken = {k for k, _ in first} if spec.get("dedupe", True) else set()
        added = [x for _, x in first] + [x for k, x in second if k not in taken]
        if spec.get("order") == "newest-first":
            return _newest_first(added, kept, spec.get("time-key", "at"))
        if _grows_at_front(set(kb), ko, kt):  # a newest-first history: additions on top
            return added + kept
        return kept + added

    def _by_key(self, b: Any, o: Any, t: Any, path: PathT, key: str) -> Any:
        if not (isinstance(o, list) and isinstance(t, list)):
            return self.conflict(path, b, o, t, "changed on both sides (not lists)")
        base = b if isinstance(b, list) else []
        ib, io, it = _index(base, key), _index(o, key), _index(t, key)
        if ib is None or io is None or it is None:
            return self.conflict(
                path, b, o, t, f"changed on both sides (items without a unique {key!r})"
            )
        merged: dict[tuple, Any] = {}
        for ident in _key_union(ib, io, it):
            label = f"{key}={_label(ident)}"
            value = self.merge(
                ib.get(ident, MISSING),
                io.get(ident, MISSING),
                it.get(ident, MISSING),
                (*path, Item(label)),
            )
            if value is not MISSING:
                merged[ident] = value
        order = _keyed_order(list(ib), list(io), list(it), merged)
        if order is None:
            for found in [c for c in self.conflicts if c.path[: len(path)] == path]:
                self.conflicts.remove(found)
            return self.conflict(path, b, o, t, "items reordered differently on both sides")
        return [merged[ident] for ident in order]


def _placed_after(order: list, source: Any, merged: dict, placed: set) -> list:
    """`order` with each key of `source` that is merged but not yet placed put right
    after the nearest key before it in `source` that is placed (at the front when there
    is none), in one pass: each key is followed by the chain of keys put after it."""
    after: dict[Any, Any] = {}
    front: list = []
    anchor: Any = MISSING
    for key in source:
        if key in placed:
            anchor = key
        elif key in merged:
            if anchor is MISSING:
                front.insert(0, key)
            else:
                after[anchor] = key  # a later key has this one, not `anchor`, before it
            placed.add(key)
            anchor = key
    if not front and not after:
        return order
    out: list = []
    for key in front + order:
        while key is not MISSING:
            out.append(key)
            key = after.pop(key, MISSING)
    return out


def _grows_at_front(in_base: set, *sides: list) -> bool:
    """Whether every side that added items put them all before the base items it kept
    (a list kept newest first, as ADR-007's example writes `completed`); the union then
    puts the additions first too, so the list keeps its order and its newest end."""
    grew = False
    for keys in sides:
        added = [i for i, k in enumerate(keys) if k not in in_base]
        kept = [i for i, k in enumerate(keys) if k in in_base]
        if not added:
            continue
        if not kept or max(added) > min(kept):
            return False
        grew = True
    return grew


def _key_union(*maps: Iterable) -> list:
    out: dict = {}
    for m in maps:
        for k in m:
            out.setdefault(k, None)
    return list(out)


def _newest_first(added: list, kept: list, key: str) -> list:
    """A newest-first list after a union: the additions before the kept items; when
    every item has a `key` time, all of them ordered by it, newest first (ties keep the
    union's order, which does not depend on which side is ours)."""
    items = added + kept
    times = [parse_timestamp(x.get(key)) if isinstance(x, dict) else None for x in items]
    if items and all(t is not None for t in times):
        aware = {t.tzinfo is None for t in times}  # type: ignore[union-attr]
        if len(aware) == 1:
            order = sorted(range(len(items)), key=lambda i: times[i], reverse=True)  # type: ignore[arg-type,return-value]
            # sorted() is stable, but reverse=True keeps ties in order too
            return [items[i] for i in order]
    return items


def _dedupe(pairs: list[tuple[tuple, Any]]) -> list[tuple[tuple, Any]]:
    seen: set[tuple] = set()
    out = []
    for key, item in pairs:
        if key not in seen:
            seen.add(key)
            out.append((key, item))
    return out


def _label(ident: tuple) -> str:
    return str(ident[1]) if len(ident) == 2 else repr(ident)


def _index(items: list, key: str) -> dict[tuple, Any] | None:
    """Items by canonical id, or None when some item has no id or an id repeats."""
    out: dict[tuple, Any] = {}
    for item in items:
        if not isinstance(item, dict) or key not in item:
            return None
        ident = canon(item[key])
        if ident in out:
            return None
        out[ident] = item
    return out


def _keyed_order(b: list, o: list, t: list, merged: dict) -> list | None:
    """Order of the merged ids: the base order as changed by whichever side reordered,
    then each side's new items after the item they follow on that side."""
    in_o, in_t = set(o), set(t)
    common = [i for i in b if i in merged and i in in_o and i in in_t]
    keep = set(common)
    rel = {name: [i for i in seq if i in keep] for name, seq in (("o", o), ("t", t))}
    if rel["o"] == common:
        order = list(rel["t"])
    elif rel["t"] == common or rel["o"] == rel["t"]:
        order = list(rel["o"])
    else:
        return None
    placed = set(order)
    # kept from base but not on both sides (conflicts): each right after the base item
    # before it, in one pass rather than a search of `order` per item
    order = _placed_after(order, b, merged, placed)
    groups: dict[Any, list[list]] = {}
    for seq in (o, t):
        current: Any = None
        run: dict[Any, list] = {}
        for ident in seq:
            if ident in placed:
                current = ident
            elif ident in merged:
                run.setdefault(current, []).append(ident)
        for anchor, ids in run.items():
            groups.setdefault(anchor, []).append(ids)
    out: list = []
    emitted: set = set()  # beside `out`: a list search per new item grows with the square

    def emit(anchor: Any) -> None:
        for ids in sorted(groups.get(anchor, []), key=lambda g: g):
            for i in ids:
                if i not in emitted:
                    emitted.add(i)
                    out.append(i)

    emit(None)
    for ident in order:
        out.append(ident)
        emit(ident)
    return out


# ------------------------------------------------------------------ resolving
def resolve(tree: Any, side: str) -> Any:
    """The merged tree with every conflict decided for `side` ('ours' or 'theirs')."""
    if isinstance(tree, Conflict):
        return resolve(getattr(tree, side), side)
    if isinstance(tree, dict):
        out = {}
        for k, v in tree.items():
            r = resolve(v, side)
            if r is not MISSING:
                out[k] = r
        return out
    if isinstance(tree, list):
        return [r for r in (resolve(v, side) for v in tree) if r is not MISSING]
    return tree


def has_conflicts(tree: Any) -> bool:
    if isinstance(tree, Conflict):
        return True
    if isinstance(tree, dict):
        return any(has_conflicts(v) for v in tree.values())
    if isinstance(tree, list):
        return any(has_conflicts(v) for v in tree)
    return False


def merge_trees(
    base: Any, ours: Any, theirs: Any, policies: Policies
) -> tuple[Any, list[Conflict]]:
    """The merged tree (with Conflict nodes) and the conflicts, in document order."""
    merger = Merger(policies)
    tree = merger.merge(base, ours, theirs)
    return tree, merger.conflicts
