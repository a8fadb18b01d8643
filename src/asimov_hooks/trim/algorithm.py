"""ADR-007's trim on a checkpoint's text (`trim_text`): cap the lists, then, over the soft
line limit, cut them to their windows and drop the optional fields; the result is
parsed again and must hold exactly the kept data. Files, locks, the archive and the
command are `trimmer`'s."""

from __future__ import annotations

from ..measure import count_lines
from .settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing and dataclasses cost every commit ~10 ms
    from typing import Any


class TrimResult:
    __slots__ = (
        "after",
        "before",
        "comments",
        "messages",
        "over_hard",
        "removed",
        "skipped",
        "step",
        "text",
    )

    def __init__(self, text: str, before: int, after: int) -> None:
        self.text, self.before, self.after = text, before, after
        self.step = 0  # 0 nothing removed, 1 caps, 2 soft-limit trim
        self.removed: dict[str, Any] = {}
        self.comments: list[str] = []
        self.messages: list[str] = []
        self.over_hard: str | None = None
        self.skipped: str | None = None


def _check_shapes(layout: Any, settings: Settings) -> None:
    from .layout import Refused, shape_name

    for name in settings.caps:
        fld = layout.fields.get(name)
        if fld is None or fld.value is None:
            continue
        if not isinstance(fld.value, list):
            raise Refused(
                f"{name} is {shape_name(fld.value)}, expected a list of strings", fld.key_line + 1
            )
        for index, item in enumerate(fld.items):
            if not isinstance(item.value, str):
                raise Refused(
                    f"{name}[{index}] is {shape_name(item.value)}; lists of non-strings are not trimmed",
                    item.node.start_mark.line + 1,
                )


def trim_text(
    text: str,
    settings: Settings,
    soft: int | None,
    hard: int | None,
    *,
    identify: dict[str, Any] | None = None,
    max_nodes: int = 100_000,
    limits: dict[str, int] | None = None,
) -> TrimResult:
    """Apply the algorithm to a checkpoint's text; raises Refused when it cannot."""
    before = count_lines(text)
    if _untouched(text, settings, before, soft, hard, identify, limits):
        return TrimResult(text, before, before)
    from .cut import cut_anchor, expected_data, plan_cut, removed_comments, render
    from .layout import Refused, analyze

    layout = analyze(text, settings.list_fields(), max_nodes, limits)
    result = TrimResult(text, before, before)
    if not layout.fields:
        return result
    if identify is not None:
        from ..config.identify import foreign_reason

        reason = foreign_reason(layout.fields.keys(), identify)
        if reason:
            result.skipped = reason
            return result
    _check_shapes(layout, settings)
    ends = settings.ends({k: [i.value for i in f.items or ()] for k, f in layout.fields.items()})
    caps = {name: (ends[name], cap.max) for name, cap in settings.caps.items()}
    cut = plan_cut(layout, caps, [], "cap")
    new_text = render(layout, cut)
    step = 1 if cut.removed else 0
    after = count_lines(new_text)
    if soft is not None and after > soft:
        windows = {
            name: (ends[name], min(cap.max, settings.window.get(name, cap.max)))
            for name, cap in settings.caps.items()
        }
        drop = [k for k in layout.fields if k in settings.optional and k not in settings.keep]
        if len(drop) == len(layout.fields):
            drop = []  # never leave an empty document
        soft_cut = plan_cut(layout, windows, drop, "window")
        if soft_cut.removed:
            result.messages.append(
                f"{after} lines after capping the lists, over the soft limit of {soft}: "
                "cutting the lists to their windows and removing optional fields"
            )
            cut, new_text, step = soft_cut, render(layout, soft_cut), 2
            after = count_lines(new_text)
    result.messages += cut.messages
    result.step, result.after = step, after
    if cut.removed:
        dangling = cut_anchor(layout, cut)
        if dangling is not None:
            name, line = dangling
            raise Refused(
                f"the part trimming removes holds the anchor &{name}, which a kept part "
                f"refers to (*{name}); cannot trim safely",
                line,
            )
        expected = expected_data(layout, cut)
        checked = _verified(new_text, expected, settings, max_nodes, limits)
        if checked is None and not text.endswith("\n"):
            new_text = render(layout, cut, final_newline_as_before=False)
            checked = _verified(new_text, expected, settings, max_nodes, limits)
        if checked is None:
            raise Refused(
                "the trimmed text would not hold exactly the kept data (anchors, aliases or "
                "unusual layout in a removed part?); file left untouched"
            )
        result.text = new_text
        result.removed = cut.removed
        result.comments = removed_comments(layout, cut)
        layout = checked
    if hard is not None and after > hard:
        result.over_hard = _too_large(layout, after, hard)
    return result


def trim_kind_text(
    text: str, config: Any, kind: str, rel: str, settings: Settings
) -> tuple[str, TrimResult]:
    """`trim_text` of a file of `kind` at `rel` (relative to the config's base) as the
    config has it: the kind's soft and hard line limits, its `identify` keys, its
    alias bound and the config's input limits. A leading byte-order mark is set aside
    and handed back: (the mark or "", the result for the text after it). Raises
    Refused, like `trim_text`."""
    spec = config.kinds[kind]
    rules = config.rules_for(kind, rel)
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    result = trim_text(
        text[len(bom) :],
        settings,
        rules.get("max-lines-soft", {}).get("max"),
        rules.get("max-lines-hard", {}).get("max"),
        identify=spec if spec.get("identify") else None,
        max_nodes=rules.get("yaml-aliases", {}).get("max-nodes", 100_000),
        limits=config.limits,
    )
    return bom, result


def _plain_trimmable(
    text: str, settings: Settings, limits: dict[str, int] | None, document: Any = None
) -> Any:
    """The data of `text` when it is in the plain subset (`readers.plain_yaml`: block
    mappings and lists of one-line scalars, one-line flow lists; no anchor, alias, tag,
    block scalar, tab or odd line break) with every capped field absent, null or a list
    of strings, within the nesting limit; else None. The trimmer lays such a text out
    and cuts it by whole lines, and refuses none of them (`tests/test_trim_plain.py`).
    `document`: validate's reading of `text` under `limits`, whose data is the plain
    reader's when it says so (`Document.plain`), so the text is not read twice, nor its
    nesting measured again (the reader's guards measured it against the same limit)."""
    if document is not None and document.plain:
        return _capped_lists_plain(document.data, settings)
    from ..readers.guards import InputProblem, check_depth
    from ..readers.guards import limits as default_limits
    from ..readers.plain_yaml import HandOver, plain_data
    from ..readers.problem import YAMLProblem

    try:
        data = plain_data(text)[0]
    except (HandOver, YAMLProblem):
        return None
    if _capped_lists_plain(data, settings) is None:
        return None
    try:  # the trimmer's parse refuses what the guards refuse (the plain shape has no tags)
        check_depth(text, "yaml", (limits or default_limits())["max-depth"])
    except InputProblem:
        return None
    return data


def _capped_lists_plain(data: Any, settings: Settings) -> Any:
    """`data` (of a plain-shape text) when it is a mapping whose capped fields are each
    absent, null or a list of strings, else None."""
    if not isinstance(data, dict) or not data:
        return None
    for name in settings.caps:
        value = data.get(name)
        if value is not None and not (
            isinstance(value, list) and all(isinstance(item, str) for item in value)
        ):
            return None  # the trimmer refuses it, and says why
    return data


def _untouched(
    text: str,
    settings: Settings,
    lines: int,
    soft: int | None,
    hard: int | None,
    identify: dict[str, Any] | None,
    limits: dict[str, int] | None,
) -> bool:
    """Whether `trim_text` certainly leaves `text` as it is, with nothing to say, told
    from the plain reader's data without the trimmer's parse (which loads a YAML
    library): a plain-shape text (`_plain_trimmable`) within the hard line limit, not a
    look-alike, with nothing to remove (`removes_anything`). False leaves the answer to
    the full trim."""
    if hard is not None and lines > hard:
        return False  # the trimmer names what takes the space: it needs the layout
    data = _plain_trimmable(text, settings, limits)
    if data is None:
        return False
    if identify is not None:
        from ..config.identify import foreign_reason

        if foreign_reason(data.keys(), identify):
            return False
    return not removes_anything(data, settings, lines, soft)


def removes_anything(data: Any, settings: Settings, lines: int, soft: int | None) -> bool:
    """Whether `trim_text` would remove anything from a checkpoint of `lines` lines whose
    parsed data is `data`: its plan (the caps; then, over the soft limit, the windows and
    the optional fields) asked of the data instead of the layout, so a caller that has
    the data (validate's line-limit advice) does not pay the trimmer's own parse, a
    hundred times the fast reader's. A capped field that is not a list of strings is
    refused by the trimmer: nothing removed. What only the layout shows (a merge key, an
    anchor in a removed part) is left to the trimmer, which says why when it is run;
    `tests/test_trim_properties.py` holds the two answers together."""
    if not isinstance(data, dict) or not data:
        return False
    lengths = {}
    for name in settings.caps:
        value = data.get(name)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return False
        lengths[name] = len(value)
    if any(total > settings.caps[name].max for name, total in lengths.items()):
        return True
    if soft is None or lines <= soft:
        return False
    drop = [key for key in data if key in settings.optional and key not in settings.keep]
    if drop and len(drop) < len(data):
        return True
    return any(
        total > min(settings.caps[name].max, settings.window.get(name, settings.caps[name].max))
        for name, total in lengths.items()
    )


def _verified(
    text: str, expected: Any, settings: Settings, max_nodes: int, limits: Any = None
) -> Any:
    """The layout of `text` if it parses to exactly `expected`, else None."""
    from .layout import Refused, analyze, same

    try:
        checked = analyze(text, settings.list_fields(), max_nodes, limits)
    except Refused as exc:
        raise Refused(
            f"the trimmed text would not parse ({exc}); an anchor in a removed part? "
            "file left untouched"
        ) from None
    return checked if same(checked.data, expected) else None


def _too_large(layout: Any, lines: int, hard: int) -> str:
    from .cut import lines_phrase

    parts = sorted(layout.fields.values(), key=lambda f: (-f.line_count, f.key_line))
    shown = [f"{f.key} ({lines_phrase(f.line_count)})" for f in parts[:3]]
    outside = lines - sum(f.line_count for f in parts)
    if outside > 0:
        shown.append(f"comments and blank lines outside the fields ({lines_phrase(outside)})")
    return (
        f"still {lines} lines after trimming, over the hard limit of {hard}: the checkpoint "
        f"structure itself is too large; taking the space: {', '.join(shown)}. Shorten these "
        "or move detail to sprint.yaml"
    )


def trim_refusal(ctx: Any) -> str | None:
    """Why the trimmer would refuse the file a check is looking at (`checks.context`),
    or None; asked once per file (kept in `ctx.memo`), only where validate would tell
    the user to run trim: that advice must not send them round in a loop."""
    if "trim-refusal" not in ctx.memo:
        reason = None
        rules = ctx.rules
        settings = Settings.from_config(ctx.config)
        document = ctx.memo.get("document") or ctx.document
        if _plain_trimmable(ctx.text.text, settings, ctx.config.limits, document) is not None:
            ctx.memo["trim-refusal"] = None  # never refused: no trial trim needed
            return None
        from .parsing import Refused

        try:
            trim_text(
                ctx.text.text,
                settings,
                rules.get("max-lines-soft", {}).get("max"),
                rules.get("max-lines-hard", {}).get("max"),
                max_nodes=rules.get("yaml-aliases", {}).get("max-nodes", 100_000),
                limits=ctx.config.limits,
            )
        except Refused as refused:
            reason = str(refused)
        ctx.memo["trim-refusal"] = reason
    return ctx.memo["trim-refusal"]
