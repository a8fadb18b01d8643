"""Size rules (ADR-007): max-lines-hard, max-lines-soft, max-tokens, max-bytes-soft.

Lines and tokens are counted as `measure` counts them. (max-bytes-hard is enforced by
the reader: a file over the cap is never read into memory.)
"""

from __future__ import annotations

from ..measure import TokenEstimator, count_lines

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterable
    from typing import Any

    from .context import Context

__all__ = ["RULES", "TokenEstimator", "count_lines"]


# ------------------------------------------------------------------ the rules
def _nothing_to_trim(ctx: Context, opts: dict[str, Any]) -> str | None:
    """The option `suggestion-trimmed`, filled in, when the file is of a trimmed kind
    and the trimmer would change nothing: then "run trim" would be advice that does
    nothing. Only where the file is parsed anyway (not in the size-only hook, which
    never loads a YAML parser); the answer is asked of the data (the validate path's
    fast reader), not of a trial trim, and kept for the file's other line limit."""
    template = opts.get("suggestion-trimmed")
    if template is None or "schema" not in ctx.rules:
        return None
    found = ctx.memo.get("untrimmed")  # both line limits ask: worked out once
    if found is None:
        found = ctx.memo["untrimmed"] = _untrimmed(ctx)
    if found is False:
        return None
    if isinstance(found, str):
        return f"`asimov-hooks trim` cannot shorten this file ({found}); shorten it by hand"
    return template.format(**found)


# what the advice asks of the reader and the trimmer, imported on its first use (the
# size-only hook never needs them) and kept: an import statement per file costs more
_TRIM: list[Any] = []


def _trim() -> list[Any]:
    """[Settings, load_yaml, YAMLProblem, removes_anything, trim_refusal]."""
    if not _TRIM:
        from ..readers.loaders import YAMLProblem, load_yaml
        from ..trim.algorithm import removes_anything, trim_refusal
        from ..trim.settings import Settings

        _TRIM.extend((Settings, load_yaml, YAMLProblem, removes_anything, trim_refusal))
    return _TRIM


def _untrimmed(ctx: Context) -> bool | str | dict[str, int]:
    """Why trim cannot shorten the file (its refusal), what it holds besides what trim
    removes (comments, blank lines, lines), or False when there is nothing to say."""
    settings = (_TRIM or _trim())[0].from_config(ctx.config)  # the one reading of `trim`
    if ctx.kind not in settings.kinds:
        return False
    text = ctx.text.text
    if _trims(ctx, text, settings):
        refused = _TRIM[4](ctx)  # trim_refusal: "run trim" only where trim would run
        return False if refused is None else refused
    rows = text.splitlines()
    comments = sum(1 for row in rows if row.lstrip().startswith("#"))
    blank = sum(1 for row in rows if not row.strip())
    return {"comments": comments, "blank": blank, "lines": len(rows)}


def _trims(ctx: Context, text: str, settings: Any) -> bool:
    """Whether the trimmer would remove anything from this file (asked once per file)."""
    known = ctx.memo.get("trims")
    if known is None:
        _, load_yaml, YAMLProblem, removes_anything, _ = _TRIM or _trim()
        soft = ctx.rules.get("max-lines-soft", {}).get("max")
        max_nodes = ctx.rules.get("yaml-aliases", {}).get("max-nodes", 100_000)
        try:
            document = load_yaml(text, max_nodes, ctx.config.limits)
        except YAMLProblem as problem:  # the trimmer refuses what cannot be read: nothing to trim
            ctx.memo["problem"] = problem  # the engine's parse, failed already: not read again
            data = None
        else:
            ctx.memo["document"] = document  # the engine's parse, done already
            data = document.data
        known = ctx.memo["trims"] = removes_anything(data, settings, count_lines(text), soft)
    return bool(known)


def _over_lines(ctx: Context, opts: dict[str, Any], which: str, other: str) -> Iterable[tuple]:
    """Both line limits word their message alike and name the other limit. (The size
    checks, asked of every file, hand back a tuple, not a generator, for what they find.)"""
    limit, lines = opts["max"], count_lines(ctx.text.text)
    if lines <= limit:
        return ()
    paired = ctx.rules.get(f"max-lines-{other}", {}).get("max")
    also = f" ({other} limit {paired})" if paired is not None else ""
    message = f"{lines} lines, over the {which} limit of {limit}{also}"
    return ((limit + 1, message, False, _nothing_to_trim(ctx, opts)),)


def max_lines_hard(ctx: Context, opts: dict[str, Any]) -> Iterable[tuple]:
    return _over_lines(ctx, opts, "hard", "soft")


def max_lines_soft(ctx: Context, opts: dict[str, Any]) -> Iterable[tuple]:
    """Found with the hard one; only the most severe is reported (`Checker.check`
    drops this one after inline suppressions, so a suppressed hard limit leaves it)."""
    return _over_lines(ctx, opts, "soft", "hard")


def max_tokens(ctx: Context, opts: dict[str, Any]) -> Iterable[tuple[int, str]]:
    text, cap, est = ctx.text.text, opts["max"], ctx.config.estimator_for(ctx.kind)
    tokens = est.estimate(text)
    if tokens <= cap:
        return ()
    line = 1
    if est.method == "chars":
        line = text.count("\n", 0, int(cap * est.divisor)) + 1
    message = f"~{tokens:,} tokens, over the cap of {cap:,} (estimated as {est.name}, rounded up)"
    return ((line, message),)


def max_bytes_soft(ctx: Context, opts: dict[str, Any]) -> Iterable[tuple[int, str]]:
    cap, size = opts["max"], len(ctx.text.raw)
    if size <= cap:
        return ()
    line = ctx.text.raw.count(b"\n", 0, cap) + 1
    return ((line, f"{size:,} bytes, over the {cap:,}-byte guideline"),)


RULES = {
    "max-lines-hard": max_lines_hard,
    "max-lines-soft": max_lines_soft,
    "max-tokens": max_tokens,
    "max-bytes-soft": max_bytes_soft,
}
