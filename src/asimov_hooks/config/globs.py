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
    from collections.abc import Callable, Iterator

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
    """`?` and `[...]` (with `[!...]` negation); an unclosed or empty `[` is a literal.

    Matched by stepping a set of positions in the pattern along the name (no
    backtracking), so a pattern from a committed config such as `*a*a*a*a*b?` costs
    time linear in the name's length; a regular expression would take polynomial time.
    """
    import re

    tokens: list[object] = []  # "*", "?", a one-character string, or a class matcher
    j = 0
    while j < len(seg):
        ch = seg[j]
        if ch in "*?":
            if not (ch == "*" and tokens and tokens[-1] == "*"):  # `**` in a segment is `*`
                tokens.append(ch)
        elif ch == "[" and seg.find("]", j + 1) not in (-1, j + 1) and seg[j + 1 : j + 3] != "!]":
            end = seg.find("]", j + 1)
            body = seg[j + 1 : end].replace("\\", "\\\\").replace("[", "\\[")
            try:
                one = re.compile(f"[^{body[1:]}]" if body.startswith("!") else f"[{body}]")
            except re.error:  # an empty or malformed class (`[]`, `[!]`): the text itself
                return _literal(seg)
            tokens.append(one.fullmatch)
            j = end
        else:
            tokens.append(ch)
        j += 1
    return _stepper(tuple(tokens))


def _stepper(tokens: tuple) -> SegmentMatcher:
    last = len(tokens)

    def close(states: set[int]) -> set[int]:
        # a `*` may match nothing: its position also stands for the one after it
        out = set(states)
        for k in sorted(states):
            while k < last and tokens[k] == "*":
                k += 1
                out.add(k)
        return out

    start = close({0})

    def match(name: str) -> bool:
        states = start
        for ch in name:
            step: set[int] = set()
            for k in states:
                if k == last:
                    continue
                token = tokens[k]
                if token == "*":
                    step.add(k)
                elif token == "?" or token == ch or (callable(token) and token(ch)):
                    step.add(k + 1)
            if not step:
                return False
            states = close(step)
        return last in states

    return match


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


def _match_from(parts: list[str], i: int, segs: tuple, k: int, anywhere: bool = False) -> bool:
    """Whether parts[i:] match segs[k:] exactly (with `anywhere`, any tail of parts[i:]).

    Steps the set of pattern positions along the path segments, so `**/**/**/x` costs
    time linear in the path length, never a search over every way to split it.
    """
    last = len(segs)

    def close(states: set[int]) -> set[int]:
        # a `**` that is not the last segment may match no segment at all
        out = set(states)
        for j in sorted(states):
            while j < last - 1 and segs[j] is ANY_DEPTH:
                j += 1
                out.add(j)
        return out

    states = close({k})
    for part in parts[i:]:
        if anywhere:
            states = states | close({0})
        step: set[int] = set()
        for j in states:
            if j == last:
                continue
            seg = segs[j]
            if seg is ANY_DEPTH:
                step.add(j)  # one more segment inside the `**`
                if j == last - 1:
                    step.add(last)  # a trailing `**`: one or more segments
            elif seg(part):
                step.add(j + 1)
        states = close(step)
        if not states and not anywhere:
            return False
    return last in states


def glob_match(path: str, pattern: str) -> bool:
    """True when the POSIX relative `path` matches `pattern`."""
    return _match_parts(path.split("/"), compile_glob(pattern))


def _match_parts(parts: list[str], compiled: tuple[bool, tuple]) -> bool:
    anchored, segs = compiled
    if anchored:
        return _match_from(parts, 0, segs, 0)
    last = segs[-1]
    if last is not ANY_DEPTH and not last(parts[-1]):
        return False  # the common case: the base name already differs
    if ANY_DEPTH not in segs:  # fixed depth: only one place it can start
        start = len(parts) - len(segs)
        return start >= 0 and _match_from(parts, start, segs, 0)
    return _match_from(parts, 0, segs, 0, anywhere=True)


def match_any(path: str, patterns: list[str] | tuple[str, ...]) -> bool:
    """True when the POSIX relative `path` matches one of `patterns`."""
    if len(patterns) > 8:
        return globset(patterns).match(path)
    return any(glob_match(path, p) for p in patterns)


_WILD = "*?[]"
_SETS: dict[tuple[str, ...], GlobSet] = {}


def globset(patterns: list[str] | tuple[str, ...]) -> GlobSet:
    """The compiled set of `patterns` (a config's lists are compiled once per process)."""
    key = tuple(patterns)
    found = _SETS.get(key)
    if found is None:
        found = _SETS[key] = GlobSet(key)
    return found


class _Index:
    """Patterns filed under what one of their segments requires of a path segment: the
    whole of it (no wildcard), or else its literal end, or else its literal start."""

    def __init__(self) -> None:
        self.names: dict[str, list[tuple[bool, tuple]]] = {}
        self.tails: dict[str, list[tuple[bool, tuple]]] = {}
        self.heads: dict[str, list[tuple[bool, tuple]]] = {}
        self.tail_sizes: list[int] = []
        self.head_sizes: list[int] = []

    def add(self, seg: str, compiled: tuple[bool, tuple]) -> bool:
        """File `compiled` under `seg`; False when `seg` requires nothing literal."""
        cut = [i for i, ch in enumerate(seg) if ch in _WILD]
        if not cut:
            self.names.setdefault(seg, []).append(compiled)
        elif cut[-1] < len(seg) - 1:  # literal characters after the last wildcard
            self.tails.setdefault(seg[cut[-1] + 1 :], []).append(compiled)
        elif cut[0] > 0:
            self.heads.setdefault(seg[: cut[0]], []).append(compiled)
        else:
            return False
        return True

    def done(self) -> None:
        self.tail_sizes = sorted({len(t) for t in self.tails})
        self.head_sizes = sorted({len(h) for h in self.heads})

    def candidates(self, name: str) -> Iterator[tuple[bool, tuple]]:
        yield from self.names.get(name, ())
        for size in self.tail_sizes:
            if size > len(name):
                break
            yield from self.tails.get(name[len(name) - size :], ())
        for size in self.head_sizes:
            if size > len(name):
                break
            yield from self.heads.get(name[:size], ())


class GlobSet:
    """Many patterns matched as one, each compiled once and filed (`_Index`) under what
    its last segment requires of a path's last segment, or, for `dir/**`, what `dir`
    requires of a directory above it. A path is tried only against the patterns that
    can match it: 50,000 patterns cost a path a few dictionary look-ups per segment,
    not 50,000 matches. Only patterns with no literal character next to a wildcard
    there (`*`, `*[ab]`, `**`) are tried one by one. `tried` counts the tries."""

    def __init__(self, patterns: list[str] | tuple[str, ...]) -> None:
        self.last, self.deep = _Index(), _Index()
        self.rest: list[tuple[bool, tuple]] = []
        self.tried = 0
        for pattern in dict.fromkeys(patterns):
            compiled = compile_glob(pattern)
            segments = pattern.strip("/").split("/")
            if segments[-1] != "**":
                filed = self.last.add(segments[-1], compiled)
            else:
                above = [seg for seg in segments if seg != "**"]
                filed = bool(above) and self.deep.add(above[-1], compiled)
            if not filed:
                self.rest.append(compiled)
        self.last.done()
        self.deep.done()

    def match(self, path: str) -> bool:
        """True when the POSIX relative `path` matches one of the patterns."""
        return self.match_parts(path.split("/"))

    def match_parts(self, parts: list[str]) -> bool:
        seen: set[int] = set()
        for compiled in self._candidates(parts):
            if id(compiled) in seen:
                continue
            seen.add(id(compiled))
            self.tried += 1
            if _match_parts(parts, compiled):
                return True
        return False

    def _candidates(self, parts: list[str]) -> Iterator[tuple[bool, tuple]]:
        yield from self.last.candidates(parts[-1])
        if self.deep.names or self.deep.tails or self.deep.heads:
            for part in parts[:-1]:
                yield from self.deep.candidates(part)
        yield from self.rest


class FirstMatch:
    """Which of several named pattern lists is the first to match a path (a config's
    kinds, in order): every list's patterns compiled into one `GlobSet`, so a path is
    tried only against the patterns that can match it, once, instead of every kind's
    list in turn. What a base name settles is worked out once per base name (`_plan`):
    a pattern of one segment (`CLAUDE.md`, `*.mdc`) matches the base name anywhere, so a
    thousand `.claude_checkpoint.yaml` in a thousand folders cost one match; only the
    patterns that name a folder (`.asimov/checkpoint.yaml`) are tried path by path."""

    def __init__(self, lists: list[tuple[str, list[str] | tuple[str, ...]]]) -> None:
        self.names = [name for name, _ in lists]
        patterns = [pattern for _, group in lists for pattern in group]
        self.set = GlobSet(patterns)
        self.owner: dict[int, int] = {}  # id(compiled pattern) -> first list holding it
        for index, (_, group) in enumerate(lists):
            for pattern in group:
                self.owner.setdefault(id(compile_glob(pattern)), index)
        self.known: dict[str, str | None] = {}
        # base name -> (the patterns still to try on the path, in list order; the list
        # that matches when none of them does); only when no pattern ends in `**`
        self.plans: dict[str, tuple[list[tuple[int, tuple]], int]] | None = (
            None if self.set.deep.names or self.set.deep.tails or self.set.deep.heads else {}
        )

    def __call__(self, path: str) -> str | None:
        plans = self.plans
        if plans is not None:
            name = path[path.rfind("/") + 1 :]
            plan = plans.get(name)
            if plan is None:
                plan = self._plan(name)
                if len(plans) < 100_000:
                    plans[name] = plan
            tries, best = plan
            if tries:
                parts = path.split("/")
                for index, compiled in tries:
                    if _match_parts(parts, compiled):
                        best = index
                        break
            return self.names[best] if best < len(self.names) else None
        found = self.known.get(path, self)
        if found is not self:
            return found  # type: ignore[return-value]
        parts = path.split("/")
        best = len(self.names)
        owner = self.owner
        for compiled in self.set._candidates(parts):
            index = owner[id(compiled)]
            if index < best and _match_parts(parts, compiled):
                best = index
                if best == 0:
                    break
        answer = self.names[best] if best < len(self.names) else None
        if len(self.known) < 100_000:
            self.known[path] = answer
        return answer

    def _plan(self, name: str) -> tuple[list[tuple[int, tuple]], int]:
        """For paths whose base name is `name`: the patterns to try on the whole path,
        first list first, up to the first one-segment pattern `name` matches (its list
        is then the answer when none of them matches; no list: len(names))."""
        owner = self.owner
        candidates: dict[int, tuple[bool, tuple]] = {}
        for compiled in (*self.set.last.candidates(name), *self.set.rest):
            candidates.setdefault(id(compiled), compiled)
        ordered = sorted(candidates.values(), key=lambda c: owner[id(c)])
        tries: list[tuple[int, tuple]] = []
        for compiled in ordered:
            anchored, segs = compiled
            if not anchored and len(segs) == 1 and segs[0] is not ANY_DEPTH:
                if segs[0](name):  # matches wherever the name is: the answer
                    return tries, owner[id(compiled)]
                continue  # never matches this name
            tries.append((owner[id(compiled)], compiled))
        return tries, len(self.names)
