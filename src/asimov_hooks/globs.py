"""File-name patterns for rule packs.

Patterns are gitignore-like: `*` stays inside one path segment, `**` spans segments,
a pattern with no `/` matches the base name anywhere, and any other pattern matches
the end of the path (a leading `/` anchors it to the repository root).

Matching works on path segments with string methods rather than regular expressions:
every hook run matches every file against every kind, and importing `re` alone costs
the size-only hook about a third of its own start-up. Only a segment with `?` or a
`[...]` class is handed to a regular expression.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Callable

    SegmentMatcher = Callable[[str], bool]

ANY_DEPTH = None  # a `**` segment in a compiled pattern

_COMPILED: dict[str, tuple[bool, tuple]] = {}


def _literal(seg: str) -> SegmentMatcher:
    return seg.__eq__


def _stars(seg: str) -> SegmentMatcher:
    """`*` only: the literal pieces in order, the first at the start, the last at the end."""
    pieces = seg.split("*")
    head, tail, middle = pieces[0], pieces[-1], pieces[1:-1]
    least = len(head) + len(tail) + sum(map(len, middle))

    def match(name: str) -> bool:
        if len(name) < least or not name.startswith(head) or not name.endswith(tail):
            return False
        pos, end = len(head), len(name) - len(tail)
        for piece in middle:
            pos = name.find(piece, pos, end)
            if pos < 0:
                return False
            pos += len(piece)
        return True

    return match


def _regex(seg: str) -> SegmentMatcher:
    """`?` and `[...]` (with `[!...]` negation); an unclosed or empty `[` is a literal."""
    import re

    out = []
    j = 0
    while j < len(seg):
        ch = seg[j]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[" and seg.find("]", j + 1) not in (-1, j + 1) and seg[j + 1 : j + 3] != "!]":
            end = seg.find("]", j + 1)
            body = seg[j + 1 : end].replace("\\", "\\\\").replace("[", "\\[")
            out.append(f"[^{body[1:]}]" if body.startswith("!") else f"[{body}]")
            j = end
        else:
            out.append(re.escape(ch))
        j += 1
    try:
        return re.compile("".join(out)).fullmatch  # type: ignore[return-value]
    except re.error:  # an empty or malformed class (`[]`, `[!]`): the text itself
        return _literal(seg)


def _segment(seg: str) -> SegmentMatcher | None:
    if seg == "**":
        return ANY_DEPTH
    if "?" in seg or "[" in seg:
        return _regex(seg)
    return _stars(seg) if "*" in seg else _literal(seg)


def compile_glob(pattern: str) -> tuple[bool, tuple]:
    """(anchored, one matcher per segment, ANY_DEPTH for `**`)."""
    compiled = _COMPILED.get(pattern)
    if compiled is None:
        anchored = pattern.startswith("/")
        segments = pattern.strip("/").split("/")
        compiled = _COMPILED[pattern] = (anchored, tuple(_segment(s) for s in segments))
    return compiled


def _match_from(parts: list[str], i: int, segs: tuple, k: int) -> bool:
    """Whether parts[i:] match segs[k:] exactly."""
    while k < len(segs):
        seg = segs[k]
        if seg is ANY_DEPTH:
            if k == len(segs) - 1:  # a trailing `**`: one or more segments
                return i < len(parts)
            # zero or more whole segments, then the rest of the pattern
            return any(_match_from(parts, j, segs, k + 1) for j in range(i, len(parts)))
        if i >= len(parts) or not seg(parts[i]):
            return False
        i += 1
        k += 1
    return i == len(parts)


def glob_match(path: str, pattern: str) -> bool:
    """True when the POSIX relative `path` matches `pattern`."""
    anchored, segs = compile_glob(pattern)
    parts = path.split("/")
    if anchored:
        return _match_from(parts, 0, segs, 0)
    last = segs[-1]
    if last is not ANY_DEPTH and not last(parts[-1]):
        return False  # the common case: the base name already differs
    if ANY_DEPTH not in segs:  # fixed depth: only one place it can start
        start = len(parts) - len(segs)
        return start >= 0 and _match_from(parts, start, segs, 0)
    return any(_match_from(parts, i, segs, 0) for i in range(len(parts)))


def match_any(path: str, patterns: list[str] | tuple[str, ...]) -> bool:
    """True when the POSIX relative `path` matches one of `patterns`."""
    return any(glob_match(path, p) for p in patterns)
