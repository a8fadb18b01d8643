"""The kind's hard limits on a merged file, checked before the driver calls a merge clean.

Each side may be within its limits while their union is not: two 23-line checkpoints that
each add keys merge into 43 lines, past the hard limit of 30, and two archives under
their byte cap merge into one over it. validate would then reject what the merge wrote.
So the merged text is measured as validate measures it (lines, bytes, and tokens where
the kind makes them an error); over a limit, a file the trimmer trims is trimmed as
`asimov-hooks trim` would trim it (its caps, its windows, its optional fields: what it
removes waits for the archive with the union's own cuts), and anything still over is
left to git's line merge, a conflict. A merge never exits 0 with a result validate
rejects.
"""

from __future__ import annotations

from ..measure import count_lines

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any


class Bounds:
    """A kind's limits at level error (None: no such limit), and what the trimmer needs
    to bring a merged file back within them (`trim` None: the kind is not trimmed)."""

    __slots__ = ("bytes", "estimator", "limits", "lines", "max_nodes", "soft", "tokens", "trim")

    def __init__(
        self,
        lines: int | None = None,
        size: int | None = None,
        tokens: int | None = None,
        estimator: Any = None,
        *,
        soft: int | None = None,
        trim: Any = None,
        max_nodes: int = 100_000,
        limits: dict[str, int] | None = None,
    ) -> None:
        self.lines, self.bytes, self.tokens, self.estimator = lines, size, tokens, estimator
        self.soft, self.trim, self.max_nodes, self.limits = soft, trim, max_nodes, limits


def bounds_for(config: Any, kind: str, relpath: str, trim: Any = None) -> Bounds | None:
    """The hard limits validate enforces on `relpath` (of `kind`) under `config`; None
    when it enforces none. `trim`: the trimmer's settings when it trims this kind."""

    def hard(rule: str) -> int | None:
        opts = rules.get(rule)
        if not opts or opts.get("level", "error") != "error":
            return None
        most = opts.get("max")
        return most if isinstance(most, int) and not isinstance(most, bool) else None

    rules = config.rules_for(kind, relpath)
    lines, size, tokens = hard("max-lines-hard"), hard("max-bytes-hard"), hard("max-tokens")
    if lines is None and size is None and tokens is None:
        return None
    return Bounds(
        lines,
        size,
        tokens,
        config.estimator_for(kind) if tokens is not None else None,
        soft=rules.get("max-lines-soft", {}).get("max"),
        trim=trim,
        max_nodes=rules.get("yaml-aliases", {}).get("max-nodes", 100_000),
        limits=config.limits,
    )


def over(bounds: Bounds, body: str, size: int) -> str | None:
    """Why a merged text (`body`, `size` bytes as written) breaks a hard limit, or None."""
    if bounds.bytes is not None and size > bounds.bytes:
        return f"{size:,} bytes, over the {bounds.bytes:,}-byte hard limit (max-bytes-hard)"
    if bounds.lines is not None:
        lines = count_lines(body)
        if lines > bounds.lines:
            return f"{lines} lines, over the hard limit of {bounds.lines} (max-lines-hard)"
    if bounds.tokens is not None and bounds.estimator is not None:
        tokens = bounds.estimator.estimate(body)
        if tokens > bounds.tokens:
            return f"~{tokens:,} tokens, over the cap of {bounds.tokens:,} (max-tokens)"
    return None


def trimmed(bounds: Bounds, body: str, encode: Any) -> tuple[str, dict[str, Any]] | str:
    """`body` trimmed by the trimmer's own rules until it is within every hard limit:
    (the trimmed text, what was removed: field -> items or value); else why it cannot
    be (the kind is not trimmed, the trimmer refuses it, or it is still over).
    `encode(text)` gives the bytes the merge would write."""
    if bounds.trim is None:
        return "the kind is not one `asimov-hooks trim` shortens"
    from ..trim.algorithm import trim_text
    from ..trim.parsing import Refused

    try:
        result = trim_text(
            body,
            bounds.trim,
            bounds.soft,
            bounds.lines,
            max_nodes=bounds.max_nodes,
            limits=bounds.limits,
        )
    except Refused as refused:
        return f"`asimov-hooks trim` cannot shorten it ({refused})"
    if result.skipped or not result.removed:
        return "`asimov-hooks trim` has nothing to remove from it"
    still = over(bounds, result.text, len(encode(result.text)))
    if still is not None:
        return f"still {still} after the trim rules"
    return result.text, result.removed


def joined(first: dict[str, Any], then: dict[str, Any]) -> dict[str, Any]:
    """The union's cuts (`first`) and the trim's (`then`) as one archive entry's
    `removed`: a list cut twice holds the items of both cuts, the first cut's first."""
    out = dict(first)
    for name, value in then.items():
        before = out.get(name)
        if isinstance(before, list) and isinstance(value, list):
            out[name] = before + value
        else:
            out[name] = value
    return out
