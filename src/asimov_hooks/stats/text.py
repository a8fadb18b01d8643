"""The text report of `asimov-hooks stats`, and what the data says about the limits:
plain sentences and the exact config lines that change a limit."""

from __future__ import annotations

import time

from .summary import share, would_fire

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

STEP = 5  # the other line limits a verdict compares against: the limit -5 and +5


def when(stamp: float | None) -> str:
    if stamp is None:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(stamp))


def _spread(values: dict[str, int]) -> str:
    return f"{values['median']:>6,} {values['p90']:>6,} {values['max']:>6,}"


def render(summary: dict[str, Any], records: list[dict[str, Any]], where: str) -> str:
    """The report; empty when nothing is recorded."""
    if not summary["records"]:
        return ""
    out = [
        f"asimov-hooks stats: {summary['records']:,} records, {when(summary['from'])} to "
        f"{when(summary['to'])} ({where})",
    ]
    kinds = summary["kinds"]
    for kind, data in sorted(kinds.items(), key=lambda kv: (not kv[1]["checkpoint"], kv[0])):
        out += ["", f"{'Checkpoint' if data['checkpoint'] else 'File'} writes ({kind}): "
                f"{data['writes']:,}"]  # fmt: skip
        out.append(f"  {'':<20}{'median':>6} {'p90':>6} {'max':>6}")
        out.append(f"  {'lines as written':<20}{_spread(data['written']['lines'])}")
        out.append(f"  {'lines as kept':<20}{_spread(data['kept']['lines'])}")
        out.append(f"  {'tokens as written':<20}{_spread(data['written']['tokens'])}")
        out.append(f"  {'tokens as kept':<20}{_spread(data['kept']['tokens'])}")
        for rule, limit in data["limits"].items():
            out.append(
                f"  {rule} {limit['max']:,} ({limit['level']}): over as written on "
                f"{limit['written_over']:,} of {data['writes']:,} writes "
                f"({share(limit['written_over'], data['writes'])}); still over as kept: "
                f"{limit['kept_over']:,}"
            )
        if data["trimmed"]:
            out.append(
                f"  trimmed {data['trimmed']:,} write{'s' if data['trimmed'] != 1 else ''}: {data['lines_cut']:,} lines cut, "
                f"{data['items_archived']:,} items archived"
            )
        else:
            out.append("  trimmed: none")
    refusals = summary["refusals"]
    out += ["", "Refusals by rule: " + (
        ", ".join(f"{rule} {n:,}" for rule, n in refusals.items()) if refusals else "none")]  # fmt: skip
    rr = summary["rereads"]
    if rr["count"]:
        sources = ", ".join(f"{src} {n:,}" for src, n in rr["by_source"].items())
        out.append(
            f"Re-reads after a restart: {rr['count']:,} ({sources}): characters median "
            f"{rr['chars']['median']:,}, p90 {rr['chars']['p90']:,}, max {rr['chars']['max']:,}; "
            f"tokens median {rr['tokens']['median']:,}, max {rr['tokens']['max']:,}"
        )
    else:
        out.append("Re-reads after a restart: none")
    rq = summary["requests"]
    answer = (
        f", median {rq['median_seconds']:g} s to answer" if rq["median_seconds"] is not None else ""
    )
    out.append(
        f"Checkpoint requests: {rq['made']:,} made ({rq['at_turn_end']:,} at a turn end, "
        f"{rq['after_restart']:,} after a restart), {rq['answered']:,} answered by a "
        f"checkpoint write{answer}"
    )
    said = verdicts(summary, records)
    if said:
        out += ["", "What the data says about the limits:", *said]
    return "\n".join(out) + "\n"


def verdicts(summary: dict[str, Any], records: list[dict[str, Any]]) -> list[str]:
    """Plain sentences per kind with line limits, then the config lines to change them."""
    out: list[str] = []
    changes: list[tuple[str, str, int]] = []
    for kind, data in summary["kinds"].items():
        limits, writes = data["limits"], data["writes"]
        p90 = data["written"]["lines"]["p90"]
        soft = limits.get("max-lines-soft")
        hard = limits.get("max-lines-hard")
        if soft is None and hard is None:
            continue
        noun = "checkpoint writes" if data["checkpoint"] else f"{kind} writes"
        first = soft or hard
        rule = "max-lines-soft" if soft else "max-lines-hard"
        what = "soft" if soft else "hard"
        alternatives = [
            f"a {n}-line limit would have fired on "
            f"{share(would_fire(records, kind, rule, n), writes)}"
            for n in (first["max"] - STEP, first["max"] + STEP)
            if n > 0
        ]
        out.append(
            f"  {kind}: p90 of your {noun} is {p90:,} lines: the {first['max']:,}-line {what} "
            f"limit fired on {share(first['written_over'], writes)} of writes; "
            + "; ".join(alternatives)
            + "."
        )
        fired = first["written_over"] / writes if writes else 0
        if fired > 0.5:
            out.append(
                "    It fires on most writes: either the writes carry history the file does "
                "not need, or the limit is low for your work."
            )
        elif fired > 0.1:
            out.append("    It fires on a fair share of writes, and the trim brings them back.")
        elif p90 * 2 <= first["max"]:
            out.append("    Your writes stay well under it: a lower limit would cost you nothing.")
        else:
            out.append("    It fits your writes: it fires on the few long ones.")
        if hard is not None:
            kept = hard["kept_over"]
            out.append(
                f"    After the trim, {kept:,} of {writes:,} writes stayed over the "
                f"{hard['max']:,}-line hard limit ({share(kept, writes)})."
            )
        suggest = max(1, p90)
        if hard is not None and soft is not None and suggest >= hard["max"]:
            suggest = hard["max"] - 1
        if suggest != first["max"]:
            changes.append((kind, rule, suggest))
    if changes:
        out += [
            "",
            "  To set a limit at your p90, in .asimov-hooks.yaml (any number works the same way):",
            "    kinds:",
        ]
        for kind, rule, value in changes:
            out += [f"      {kind}:", "        rules:", f"          {rule}: {{max: {value}}}"]
    return out
