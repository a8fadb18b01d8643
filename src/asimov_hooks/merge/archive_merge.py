"""Merging trim archives: append-only YAML lists, one entry per trim.

Both branches of a merge may have trimmed their checkpoint, each appending an entry to
the archive. The right merge keeps every entry: ours as it is, then each entry only
theirs added, copied as its own text. git's `union` line merge would also keep both
sides' lines, but it interleaves lines of entries that look alike (the same source and
reason), which can re-group items under the wrong entry.

Archives only grow, so the merge is linear in their size. Each side is cut into its
top-level items by their text; the three sides share most items, so each distinct item
is read once: an item of the trimmer's own shape line by line (`readers.plain_yaml`, no
YAML parser), the others parsed together (libyaml when installed, as the trimmer reads
it). Entries
are compared by a hashable key rather than against every other entry. A side that is
not such a plain list (a header that is not comments, anchors, tags) is parsed whole,
and the result then parsed once more: it must read as ours followed by the entries
taken from theirs, or git's line merge runs instead. The driver merges archives up to
the archive kind's byte cap (`max-bytes-hard`); past it, git's line merge runs and says
so, both sides' entries kept.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Hashable
    from typing import Any


def _load(text: str) -> Any:
    """The archive's data; guarded like every reader (depth, tags, alias expansion)."""
    return _read(text)[0]


def _read(text: str) -> tuple[Any, bool]:
    """(the archive's data, whether it holds aliases); guarded like every reader."""
    from ..readers.document import guard
    from ..readers.guards import InputProblem, alias_expansion, limits
    from ..readers.loaders import load_data

    lim = limits()
    guard(text, "yaml", lim)
    data, shared = load_data(text)
    if not shared:
        return data, False
    try:
        # a plain archive has about as many nodes as bytes: only aliases may expand it
        aliases, _ = alias_expansion(data, lim["max-aliases"], lim["max-alias-nodes"])
    except InputProblem as exc:
        raise ValueError(exc.message) from None
    return data, aliases > 0


def _split(text: str) -> tuple[str, list[str]]:
    """(the text before the first top-level `- ` item, the text of each item)."""
    import re

    # a line that starts a top-level item: `- ...` or a lone `-` (a C-speed search for
    # the line break and dash before each)
    starts = [0] if re.match(r"-(?: |\r?\n|\Z)", text) else []
    starts += [found.start() + 1 for found in re.finditer(r"\n-(?= |\r?\n|\Z)", text)]
    if not starts:
        return text, []
    ends = [*starts[1:], len(text)]
    return text[: starts[0]], [text[a:b] for a, b in zip(starts, ends, strict=True)]


def _chunks(text: str) -> list[str]:
    """The text of each top-level `- ` item (comments before the first one dropped)."""
    return _split(text)[1]


def _entries(text: str) -> list[Any] | None:
    """The entries of an archive, or None when it is not a plain list of `- ` items."""
    try:
        data = _load(text)
    except Exception:  # any parse failure: the caller falls back to a line merge
        return None
    if data is None:
        return []
    if not isinstance(data, list):
        return None
    return data if len(_chunks(text)) == len(data) else None


def _key(value: Any) -> Hashable:
    """A hashable stand-in that is equal exactly when the values are (`==`)."""
    if isinstance(value, dict):
        return (dict, frozenset((_key(k), _key(v)) for k, v in value.items()))
    if isinstance(value, list):
        return (list, tuple(_key(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return (set, frozenset(_key(v) for v in value))
    hash(value)  # TypeError for anything else unhashable: the caller compares by ==
    return value


def _bucket(value: Any) -> Hashable:
    """A cheap stand-in, equal whenever the values are: an entry's scalar fields."""
    if isinstance(value, dict):
        return frozenset(
            (k, v) for k, v in value.items() if v is None or isinstance(v, (str, int, float))
        )
    if isinstance(value, list):
        return (list, len(value))
    try:
        hash(value)
    except TypeError:
        return type(value)
    return value


class _Seen:
    """Entries of base and ours, looked up by key (by `==` only for odd values).

    An entry of theirs whose item has the same text as one of base or ours is the same
    object (each distinct item is parsed once) and never comes here: only the entries
    theirs wrote anew do, usually a few. When they are few (`expected`), each is
    compared with every distinct entry at C speed. Otherwise entries are grouped by
    their scalar fields, and only the groups an entry of theirs falls in get their full
    keys worked out, each entry's once: the merge costs a look at every entry, not a
    full key of every one."""

    SCANS = 8  # entries compared one by one rather than grouped

    def __init__(self, pool: list[Any], expected: int) -> None:
        self.groups: dict[Hashable, list[Any]] | None = None
        self.keyed: dict[Hashable, tuple[set[Hashable], list[Any]]] = {}
        self.pool = pool
        self.ids = {id(entry) for entry in pool}
        self.scan = expected <= self.SCANS
        # a mapping's field -> (size, value) -> the mappings of the pool that have them
        self.by_field: dict[Any, dict[Hashable, list[Any]]] = {}

    def __contains__(self, entry: Any) -> bool:
        if id(entry) in self.ids:
            return True
        if self.scan:
            return entry in self._likely(entry)
        if self.groups is None:
            self.groups = {}
            for other in self.pool:
                self.groups.setdefault(_bucket(other), []).append(other)
        group = _bucket(entry)
        if group not in self.groups:
            return False
        if group not in self.keyed:
            keys: set[Hashable] = set()
            odd: list[Any] = []
            for other in self.groups[group]:
                try:
                    keys.add(_key(other))
                except TypeError:
                    odd.append(other)
            self.keyed[group] = (keys, odd)
        keys, odd = self.keyed[group]
        try:
            if _key(entry) in keys:
                return True
        except TypeError:
            pass
        return any(entry == other for other in odd)

    def _likely(self, entry: Any) -> list[Any]:
        """The entries of the pool that can equal `entry`: for a mapping, those with as
        many fields and the same value in its first field with a scalar value (one
        pass over the pool per such field); otherwise the whole pool."""
        if type(entry) is not dict:
            return self.pool
        field = next((k for k, v in entry.items() if isinstance(v, _SCALARS)), _NONE)
        if field is _NONE:
            return self.pool
        if field not in self.by_field:
            groups: dict[Hashable, list[Any]] = {}
            for other in self.pool:
                if type(other) is not dict:
                    groups.setdefault(_NONE, []).append(other)  # compared with every entry
                    continue
                value = other.get(field, _NONE)
                if isinstance(value, _SCALARS):  # anything else never equals a scalar
                    groups.setdefault((len(other), value), []).append(other)
            self.by_field[field] = groups
        groups = self.by_field[field]
        return [*groups.get((len(entry), entry[field]), ()), *groups.get(_NONE, ())]


_NONE = object()
# values that are equal only to values of these types, and hash alike when equal
_SCALARS = (str, int, float, type(None))


def merge_archive(base: bytes | None, ours: bytes, theirs: bytes) -> bytes | None:
    """Ours plus the entries only theirs added; None when a side is not a plain archive."""
    try:
        o_text, t_text = ours.decode("utf-8-sig"), theirs.decode("utf-8-sig")
        b_text = base.decode("utf-8-sig") if base else ""
    except UnicodeDecodeError:
        return None
    texts = (b_text, o_text, t_text)
    from ..readers.plain_rows import no_gc

    with no_gc():  # every object built is alive until the merge is done
        added = _by_item(texts)
    if added is None:  # each side parsed whole, the result checked by a parse of its own
        sides = [_entries(t) for t in texts]
        if any(side is None for side in sides):
            return None
        b_data, o_data, t_data = sides  # type: ignore[misc]
        t_chunks = _chunks(t_text) if t_data else []
        pool = [*b_data, *o_data]  # type: ignore[misc]
        seen = _Seen(pool, len(t_data))  # type: ignore[arg-type]
        new = [(entry, chunk) for entry, chunk in zip(t_data, t_chunks, strict=True)]  # type: ignore[arg-type]
        taken = [(entry, chunk) for entry, chunk in new if entry not in seen]
        merged = _joined(o_text, [chunk for _, chunk in taken])
        try:
            if (_load(merged) or []) != o_data + [entry for entry, _ in taken]:  # type: ignore[operator]
                return None
        except Exception:
            return None
    else:
        merged = _joined(o_text, added)
    bom = b"\xef\xbb\xbf" if ours.startswith(b"\xef\xbb\xbf") else b""
    return bom + merged.encode("utf-8")


def _joined(o_text: str, chunks: list[str]) -> str:
    """Ours, then the items taken from theirs, each line break as ours writes it."""
    newline = "\r\n" if "\r\n" in o_text else "\n"
    joiner = "" if not o_text or o_text.endswith("\n") else newline
    merged = o_text + joiner + "".join(chunks)
    if not merged.endswith("\n"):
        merged += newline
    return merged


def _comments_only(header: str) -> bool:
    """Whether an archive's header (before its first item) is only blank lines and
    comments. Line by line: a pattern repeated over the lines could backtrack through
    every way of reading each `\r`, twice more work for each line of the header."""
    lines = header.split("\n")
    for i, line in enumerate(lines):
        rest = line.lstrip(" \t")
        if not (not rest or rest.startswith("#") or (rest == "\r" and i < len(lines) - 1)):
            return False
    return True


def _by_item(texts: tuple[str, ...]) -> list[str] | None:
    """The texts of the items theirs adds, each distinct item of the three sides parsed
    once, or None when a side is not a plain list of self-contained items (then each
    side is parsed whole). An item of a block list without anchors, aliases or tags
    means the same wherever it stands: a side is valid exactly when its header is only
    comments and each of its items reads as one entry. An item of theirs with the text
    of one of base or ours is that entry; only the others are compared by their data."""
    cut = [_bodies(text) for text in texts]
    if any(not _comments_only(header) for header, _, _ in cut):
        return None
    read = _parsed(dict.fromkeys(body for _, bodies, _ in cut for body in bodies))
    if read is None:
        return None
    known = set(cut[0][1]).union(cut[1][1])
    _, bodies, ended = cut[2]
    fresh = [i for i, body in enumerate(bodies) if body not in known]
    if not fresh:
        return []
    seen = _Seen([read[body] for body in known], len(fresh))
    last = len(bodies) - 1
    return [
        "-" + bodies[i] + ("\n" if i < last or ended else "")
        for i in fresh
        if read[bodies[i]] not in seen
    ]


def _parsed(distinct: dict[str, None]) -> dict[str, Any] | None:
    """Each distinct item's data by its text (after the dash), or None when one does not
    read as one entry. Items of the trimmer's own shape are recognised line by line
    (`readers.plain_yaml`); the others are parsed together, guarded, as one list."""
    from ..readers import plain_yaml

    read: dict[str, Any] = {}
    rest = []
    items = _plain_items(list(distinct))
    if items is not None:  # all read as one list, the rows from one expression
        read.update(zip(distinct, items, strict=True))
    else:
        for body in distinct:
            found = plain_yaml.item_data(body)
            if found is None:
                rest.append(body)
            else:
                read[body] = found
    if not rest:
        return read
    try:
        data, aliased = _read("-" + "\n-".join(rest) + "\n")
    except Exception:  # a side that does not parse: each is parsed whole, as before
        return None
    if aliased or not isinstance(data, list) or len(data) != len(rest):
        return None
    read.update(zip(rest, data, strict=True))
    return read


def _plain_items(bodies: list[str]) -> list[Any] | None:
    """The data of every item as the plain reader reads them together (one list, each
    item's text after its dash), or None when it hands one over."""
    from ..readers import plain_yaml
    from ..readers.problem import YAMLProblem

    if not bodies:
        return []
    try:
        data = plain_yaml.plain_data("-" + "\n-".join(bodies) + "\n")[0]
    except (plain_yaml.HandOver, YAMLProblem):
        return None
    return data if isinstance(data, list) and len(data) == len(bodies) else None


def _bodies(text: str) -> tuple[str, list[str], bool]:
    """(the text before the first item, each item's text between its dash and the line
    break that ends it, whether the last item ends with one): `_split`'s items without
    a copy of each."""
    import re

    if re.search(r"\n-(?! |\r?\n|\Z)", text) is not None:  # a dash line inside an item
        header, items = _split(text)
        ended = not items or items[-1].endswith("\n")
        return header, [item[1:-1] if item.endswith("\n") else item[1:] for item in items], ended
    pieces = text.split("\n-")  # every line that starts with a dash starts an item
    if re.match(r"-(?: |\r?\n|\Z)", text) is not None:
        header, pieces[0] = "", pieces[0][1:]
    elif len(pieces) == 1:
        return text, [], True
    else:
        header = pieces.pop(0) + "\n"
    ended = pieces[-1].endswith("\n")
    if ended:
        pieces[-1] = pieces[-1][:-1]
    return header, pieces, ended
