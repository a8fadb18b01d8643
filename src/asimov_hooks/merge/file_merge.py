"""The merge of three file contents, checked before it is trusted (`merge_bytes`).

Each side is parsed, the trees are merged under the field policies, and every clean
result is re-parsed, compared with the computed merge and checked against the kind's
schema; what cannot be vouched for becomes a conflict, or git's line merge (an
`Outcome` with no data). Pure: no files, no git, so tests and benchmarks call it directly.
"""

from __future__ import annotations

from ..conflict_markers import find_conflict_marker

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from .core import Policies
    from .settings import Settings


class Outcome:
    """What the driver decided; `data` None means: run git's line merge on the files."""

    __slots__ = ("conflicts", "cut", "data", "how", "reason", "status")

    def __init__(
        self,
        status: int,
        data: bytes | None = None,
        how: str = "clean",  # clean | conflict | line-merge
        conflicts: list[str] | None = None,
        reason: str = "",
    ) -> None:
        self.status, self.data, self.how, self.reason = status, data, how, reason
        self.conflicts = conflicts or []
        # what a clean union cut from lists over their trim caps: field -> items
        self.cut: dict[str, list] = {}

    def __repr__(self) -> str:
        return f"Outcome({self.status}, {self.how}, {self.reason!r}, {self.conflicts})"


# ---------------------------------------------------------------- in-process API
def _loader(fmt: str) -> Any:
    if fmt == "yaml":
        from . import yaml_merge as merge_yaml

        return merge_yaml
    from . import json_merge as merge_json

    return merge_json


def _keyed(policies: Policies) -> Any:
    def keyed(item_path: tuple) -> str | None:
        spec = policies.for_path(item_path[:-1])
        return spec.get("key", "id") if spec.get("policy") == "by-key" else None

    return keyed


def _parse(
    mod: Any, raw: bytes | None, limits: tuple[int, int, int]
) -> tuple[Any, Any, str | None]:
    """(Text, data, problem) for one side; data is None when the side is unusable."""
    from .text_merge import Text

    if raw is None:
        return None, None, "missing"
    try:
        text = Text(raw)
    except UnicodeDecodeError:
        return None, None, "not UTF-8 text"
    if not text.body.strip():
        return text, None, "empty"
    line = find_conflict_marker(text.body)
    if line is not None:
        return text, None, f"already holds conflict markers (line {line})"
    try:
        data = mod.load(text.body, *limits)
    except mod.ParseError as exc:
        return text, None, str(exc)
    if data is None:
        return text, None, "empty"
    return text, data, None


class _Unchecked(Exception):
    """The kind's schema cannot be run on this file: the merge is not vouched for."""


def _error_keys(settings: Settings, data: Any) -> set[tuple]:
    """The schema's errors, through the same entry point as validate (jsonschema for a
    keyword minischema does not implement), as comparable keys."""
    if settings.schema is None:
        return set()
    from ..minischema import PatternTimeout, compile_schema
    from ..minischema.fallback import InvalidSchema

    if settings.fmt == "yaml":  # round-trip values (`&f true`, `!!str k`) as validate reads them
        from ..readers.loaders import to_plain

        data = to_plain(data)
    try:
        errors = compile_schema(settings.schema, settings.schema_seconds).errors(data)
    except InvalidSchema as exc:
        raise _Unchecked(exc.message) from None
    except PatternTimeout as exc:
        raise _Unchecked(f"a pattern ran longer than {exc.seconds:g} s") from None
    except RecursionError:
        raise _Unchecked("the schema nests or refers to itself too deeply") from None
    keys = set()
    for err in errors:
        if err.keyword == "maxItems" and len(err.path) == 1 and err.path[0] in settings.fixable:
            continue
        where = tuple("#" if isinstance(p, int) else p for p in err.path)
        detail = err.message if err.keyword in ("required", "additionalProperties") else ""
        keys.add((where, err.keyword, detail))
    return keys


def merge_bytes(base: bytes | None, ours: bytes, theirs: bytes, settings: Settings) -> Outcome:
    """The merge of three file contents; pure, so tests and benchmarks call it directly."""
    from .core import memoized

    with memoized():
        try:
            outcome = _merge_bytes(base, ours, theirs, settings)
        except _Unchecked as exc:
            reason = f"the schema cannot check the merge ({exc})"
            return Outcome(1, None, "line-merge", reason=reason)
    bom = b"\xef\xbb\xbf"
    if outcome.data is not None and outcome.data.startswith(bom * 2):
        # a side's doubled BOM is not carried into the result: every reader refuses it
        data = outcome.data
        while data.startswith(bom * 2):
            data = data[len(bom) :]
        outcome.data = data
    return outcome


def _merge_bytes(base: bytes | None, ours: bytes, theirs: bytes, settings: Settings) -> Outcome:
    from .core import MISSING, has_conflicts, merge_trees, resolve, same
    from .text_merge import merge3, with_markers

    if ours == theirs or base == theirs:
        return Outcome(0, ours)
    if base == ours:
        return Outcome(0, theirs)
    if settings.fmt == "archive":
        from .archive_merge import merge_archive

        largest = max(len(ours), len(theirs), len(base or b""))
        if settings.max_bytes is not None and largest > settings.max_bytes:
            reason = (
                f"{largest:,} bytes, over the archive's {settings.max_bytes:,}-byte cap "
                "(max-bytes-hard), so its entries are not merged one by one: keep both "
                "sides' new entries when you resolve the conflict"
            )
            return Outcome(1, None, "line-merge", reason=reason)

        merged = merge_archive(base, ours, theirs)
        if merged is None:
            return Outcome(1, None, "line-merge", reason="a side is not a plain archive list")
        if settings.bounds is not None:
            from .bounds import over

            past = over(settings.bounds, merged.decode("utf-8", "replace"), len(merged))
            if past is not None:  # an archive is append-only: nothing may be trimmed
                reason = (
                    f"the merged archive would be {past}, so it is not merged: keep both "
                    "sides' new entries when you resolve the conflict, moving older entries "
                    "to another file (`asimov-hooks trim` starts a new archive when one is full)"
                )
                return Outcome(1, None, "line-merge", reason=reason)
        return Outcome(0, merged)
    if settings.max_bytes is not None and max(len(ours), len(theirs)) > settings.max_bytes:
        return Outcome(1, None, "line-merge", reason=f"over {settings.max_bytes:,} bytes")
    mod = _loader(settings.fmt)
    o_text, o_data, o_problem = _parse(mod, ours, settings.limits)
    t_text, t_data, t_problem = _parse(mod, theirs, settings.limits)
    if o_problem or t_problem:
        side, problem = ("ours", o_problem) if o_problem else ("theirs", t_problem)
        return Outcome(1, None, "line-merge", reason=f"{side} {_phrase(problem)}")
    b_text, b_data, _ = _parse(mod, base, settings.limits)
    b_value = MISSING if b_data is None else b_data

    tree, conflicts = merge_trees(b_value, o_data, t_data, settings.policies)
    keyed = _keyed(settings.policies)
    cut: dict[str, list] = {}
    if not conflicts and settings.caps:
        tree, cut = _cap(tree, o_data, t_data, settings.caps, settings.cap_order)

    def render(value: Any) -> str:
        if settings.fmt == "yaml":
            return mod.render(o_text.body, value, keyed, o_data)
        return mod.render(o_text.body, value, keyed, t_text.body, o_data, t_data)

    def parses_kept(body: str) -> Any:
        """The data of a trimmed merge (the trimmer checked it holds what it kept)."""
        if find_conflict_marker(body) is not None:
            return None
        try:
            return mod.load(body, *settings.limits)
        except mod.ParseError:
            return None

    def parses_to(body: str, value: Any) -> Any:
        if find_conflict_marker(body) is not None:
            return None
        try:
            parsed = mod.load(body, *settings.limits)
        except mod.ParseError:
            return None
        return parsed if same(parsed, value) else None

    if not conflicts:

        def candidates() -> Any:
            """git-style line merge first (keeps both sides' comment edits), then ours'
            text with the merged values written in; each is only built if needed."""
            if b_data is not None:
                line_merged = merge3(b_text.body, o_text.body, t_text.body)
                if line_merged is not None:
                    yield line_merged
            yield render(tree)

        allowed = _error_keys(settings, o_data) | _error_keys(settings, t_data)
        for body in candidates():
            parsed = parses_to(body, tree)
            if parsed is None:
                continue
            new_errors = _error_keys(settings, parsed) - allowed
            if not new_errors:
                return _within_bounds(body, cut, settings, o_text, allowed, parses_kept)
            tree = _schema_conflicts(tree, new_errors, b_value, o_data, t_data)
            if tree is None:
                reason = "the merged file would fail its schema"
                return Outcome(1, None, "line-merge", reason=reason)
            break
        else:
            return Outcome(1, None, "line-merge", reason="the merged text did not re-parse")
    if not has_conflicts(tree):  # pragma: no cover - defensive
        return Outcome(1, None, "line-merge", reason="internal: no conflict to show")
    sides = []
    for side in ("ours", "theirs"):
        value = resolve(tree, side)
        body = render(value)
        if parses_to(body, value) is None:
            return Outcome(1, None, "line-merge", reason="the conflict could not be laid out")
        sides.append(body)
    if sides[0] == sides[1]:
        return Outcome(1, None, "line-merge", reason="the conflict could not be laid out")
    marked = with_markers(sides[0], sides[1], settings.marker_size, settings.labels)
    paths = _conflict_paths(tree)
    return Outcome(1, o_text.encode(marked), "conflict", paths)


def _within_bounds(
    body: str, cut: dict[str, list], settings: Settings, text: Any, allowed: set, parse: Any
) -> Outcome:
    """The clean merge `body`, checked against the kind's hard limits (merge/bounds):
    within them as it is; past them, trimmed by the trimmer's rules (what it removes
    joins the union's cuts on their way to the archive); else git's line merge."""
    done = Outcome(0, text.encode(body))
    done.cut = cut
    if settings.bounds is None:
        return done
    from .bounds import joined, over, trimmed

    past = over(settings.bounds, body, len(done.data or b""))
    if past is None:
        return done
    fitted = trimmed(settings.bounds, body, text.encode)
    if isinstance(fitted, str):
        reason = f"the merged file would be {past}, and {fitted}; resolve it by hand"
        return Outcome(1, None, "line-merge", reason=reason)
    short, removed = fitted
    data = parse(short)
    if data is None or _error_keys(settings, data) - allowed:
        reason = f"the merged file would be {past}, and trimming it would fail its schema"
        return Outcome(1, None, "line-merge", reason=reason)
    done = Outcome(0, text.encode(short))
    done.cut = joined(cut, removed)
    done.reason = past
    return done


def _cap(
    tree: Any, ours: Any, theirs: Any, caps: dict[str, tuple[str, int]], order: str = "auto"
) -> tuple[Any, dict[str, list]]:
    """Cut each top-level list the union took past its trim cap, keeping the end the
    trimmer keeps: the newest of a history list (`completed`), at whichever end the
    list's `order` (trim/order) puts them; (tree, field -> cut items)."""
    if not isinstance(tree, dict):
        return tree, {}
    from ..trim.order import keep_for
    from .core import same

    cut: dict[str, list] = {}
    out = tree
    for name, (keep, most) in caps.items():
        value = tree.get(name)
        if not isinstance(value, list) or len(value) <= most:
            continue
        if any(isinstance(side, dict) and same(side.get(name), value) for side in (ours, theirs)):
            continue  # not the union's doing: a side already had this list
        if out is tree:
            out = dict(tree)
        if keep_for(keep, _order_of(name, order, ours, theirs), value) == "last":
            cut[name], out[name] = value[: len(value) - most], value[len(value) - most :]
        else:
            cut[name], out[name] = value[most:], value[:most]
    return out, cut


def _order_of(name: str, order: str, ours: Any, theirs: Any) -> str:
    """The order of list `name` (trim/order): as configured, else as either side shows it
    (each side's list is in one order; the union of two may interleave their dates)."""
    from ..trim.order import AUTO, detect

    if order != AUTO:
        return order
    for side in (ours, theirs):
        items = side.get(name) if isinstance(side, dict) else None
        found = detect(items) if isinstance(items, list) else None
        if found:
            return found
    return AUTO


def _phrase(problem: str | None) -> str:
    if problem in ("empty", "missing", "not UTF-8 text"):
        return f"is {problem}" if problem != "not UTF-8 text" else "is not UTF-8 text"
    if problem and problem.startswith("already"):
        return problem
    return f"does not parse ({problem})"


def _schema_conflicts(
    tree: dict, new_errors: set[tuple], base: Any, ours: dict, theirs: dict
) -> dict | None:
    """Turn the top-level fields a schema error points at into conflicts."""
    from .core import MISSING, Conflict

    keys = {where[0] for where, _, _ in new_errors if where}
    if any(not where for where, _, _ in new_errors) or not keys:
        return None
    out = dict(tree)
    for key in keys:
        b = base.get(key, MISSING) if isinstance(base, dict) else MISSING
        o, t = ours.get(key, MISSING), theirs.get(key, MISSING)
        if o is MISSING and t is MISSING:
            return None
        out[key] = Conflict((key,), b, o, t, "the merged value fails the schema")
    return out


def _conflict_paths(tree: Any) -> list[str]:
    from .core import Conflict, show_path

    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, Conflict):
            found.append(f"{show_path(node.path)}: {node.why}")
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(tree)
    return found
