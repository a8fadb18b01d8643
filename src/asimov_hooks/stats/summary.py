"""The record read back and summed up: what `asimov-hooks stats` shows in every format.

The record (`agent.runtime.record`) holds one line per thing the agent hooks did. A
write trimmed before it happened leaves two (the trim, then the write of the trimmed
content): they are joined here into one write, as asked for and as kept; a trim that
no write of the trimmed content followed (the write was refused after the hook) is
no write, as its archive entry is never made. A checkpoint
request (the end of a turn, or the re-read after a restart) is answered by the next
checkpoint write of the same session before the next request.
"""

from __future__ import annotations

import os

from ..agent.runtime.record import PRETRIM, REFUSAL, REQUEST, REREAD, WRITE, parse

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..config.config import Config

LIMITS = ("max-lines-soft", "max-lines-hard", "max-tokens", "max-chars")
FORMAT_VERSION = 1


def load(path: str, since: float | None = None) -> list[dict[str, Any]]:
    """The records at `path` (and its previous generation), oldest first."""
    from ..fs.journal import read

    records = [r for r in (parse(line) for line in read(path)) if r is not None]
    if since is not None:
        records = [r for r in records if r["t"] >= since]
    return sorted(records, key=lambda r: r["t"])


def writes(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every write, as asked for (`w*`) and as kept (`k*`): a trim before the write is
    joined to the write that followed it."""
    out: list[dict[str, Any]] = []
    pending: dict[tuple[str, str], dict[str, Any]] = {}
    for rec in records:
        key = (rec["s"], rec["k"])
        if rec["e"] == PRETRIM:
            pending[key] = dict(rec)  # one before it that no write followed did not land
        elif rec["e"] == WRITE:
            before = pending.get(key)
            if (
                before is not None
                and not rec.get("tr")
                and (before["kl"], before["kc"]) == (rec["wl"], rec["wc"])
            ):
                del pending[key]
                out.append({**rec, **{k: before[k] for k in ("wl", "wc", "wt", "tr", "ar")}})
            else:
                out.append(dict(rec))
    return out  # a trim before a write that never happened (refused after the hook) is no write


def percentile(values: list[int], share: float) -> int:
    """The nearest-rank percentile: a value that occurs (0 for no values)."""
    if not values:
        return 0
    ordered = sorted(values)
    rank = -(-len(ordered) * share // 1)
    return ordered[max(1, int(rank)) - 1]


def spread(values: list[int]) -> dict[str, int]:
    return {
        "median": percentile(values, 0.5),
        "p90": percentile(values, 0.9),
        "max": max(values, default=0),
    }


def limits_of(config: Config, kind: str) -> dict[str, dict[str, Any]]:
    """The size limits in force for `kind` (its first file pattern's rules)."""
    files = config.kinds.get(kind, {}).get("files") or [kind]
    rules = config.rules_for(kind, files[0]) if kind in config.kinds else {}
    return {
        rule: {"max": rules[rule]["max"], "level": rules[rule].get("level", "error")}
        for rule in LIMITS
        if rule in rules and isinstance(rules[rule].get("max"), (int, float))
    }


def _measure(rule: str, write: dict[str, Any], prefix: str) -> int:
    unit = "l" if rule.startswith("max-lines") else "t" if rule == "max-tokens" else "c"
    return int(write.get(prefix + unit, 0))


def summarize(
    records: list[dict[str, Any]], config: Config, checkpoint_kinds: list[str]
) -> dict[str, Any]:
    """Everything every format shows, as plain data."""
    done = writes(records)
    kinds: dict[str, Any] = {}
    for kind in sorted({w["k"] for w in done}):
        mine = [w for w in done if w["k"] == kind]
        trimmed = [w for w in mine if w.get("tr")]
        limits = limits_of(config, kind)
        fired = {}
        for rule, limit in limits.items():
            written = sum(1 for w in mine if _measure(rule, w, "w") > limit["max"])
            kept = sum(1 for w in mine if _measure(rule, w, "k") > limit["max"])
            fired[rule] = {**limit, "written_over": written, "kept_over": kept}
        kinds[kind] = {
            "checkpoint": kind in checkpoint_kinds,
            "writes": len(mine),
            "written": {
                "lines": spread([w["wl"] for w in mine]),
                "tokens": spread([w["wt"] for w in mine]),
            },
            "kept": {
                "lines": spread([w["kl"] for w in mine]),
                "tokens": spread([w["kt"] for w in mine]),
            },
            "trimmed": len(trimmed),
            "items_archived": sum(w.get("ar", 0) for w in trimmed),
            "lines_cut": sum(w["wl"] - w["kl"] for w in trimmed),
            "limits": fired,
        }
    refusals: dict[str, int] = {}
    for rec in records:
        if rec["e"] == REFUSAL:
            for rule in rec.get("r", "").split(","):
                if rule:
                    refusals[rule] = refusals.get(rule, 0) + 1
    rereads = [r for r in records if r["e"] == REREAD]
    by_source: dict[str, int] = {}
    for r in rereads:
        by_source[r.get("src", "?")] = by_source.get(r.get("src", "?"), 0) + 1
    return {
        "format": FORMAT_VERSION,
        "records": len(records),
        "from": records[0]["t"] if records else None,
        "to": records[-1]["t"] if records else None,
        "kinds": kinds,
        "refusals": dict(sorted(refusals.items())),
        "rereads": {
            "count": len(rereads),
            "by_source": dict(sorted(by_source.items())),
            "lines": spread([r.get("l", 0) for r in rereads]),
            "chars": spread([r.get("c", 0) for r in rereads]),
            "tokens": spread([r.get("tk", 0) for r in rereads]),
        },
        "requests": requests(records, done, checkpoint_kinds),
    }


def requests(
    records: list[dict[str, Any]], done: list[dict[str, Any]], checkpoint_kinds: list[str]
) -> dict[str, Any]:
    """Checkpoint requests made (turn ends and restarts), how many a checkpoint write of
    the same session answered before the next request, and how soon."""
    asked = [r for r in records if r["e"] in (REQUEST, REREAD)]
    wrote = [w for w in done if w["k"] in checkpoint_kinds]
    delays: list[float] = []
    for i, req in enumerate(asked):
        later = [a["t"] for a in asked[i + 1 :] if a["s"] == req["s"]]
        until = later[0] if later else float("inf")
        answer = next(
            (w["t"] for w in wrote if w["s"] == req["s"] and req["t"] <= w["t"] < until), None
        )
        if answer is not None:
            delays.append(answer - req["t"])
    ordered = sorted(delays)
    median = ordered[(len(ordered) - 1) // 2] if ordered else None
    return {
        "made": len(asked),
        "at_turn_end": sum(1 for r in asked if r["e"] == REQUEST),
        "after_restart": sum(1 for r in asked if r["e"] == REREAD),
        "answered": len(delays),
        "median_seconds": round(median, 1) if median is not None else None,
    }


def share(part: int, whole: int) -> str:
    """A share as the summary says it: whole percent."""
    return f"{round(100 * part / whole)} %" if whole else "0 %"


def would_fire(records: list[dict[str, Any]], kind: str, rule: str, limit: int) -> int:
    """How many of the kind's writes (as asked for) a limit of `limit` would have fired on."""
    return sum(1 for w in writes(records) if w["k"] == kind and _measure(rule, w, "w") > limit)


def parse_since(text: str, now: float) -> float:
    """`--since`: a duration back from now (`90s`, `30m`, `12h`, `7d`, `2w`) or an ISO
    8601 date or time; ValueError with the reason."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
    value = text.strip()
    if value[-1:] in units and value[:-1].replace(".", "", 1).isdigit():
        return now - float(value[:-1]) * units[value[-1]]
    from ..timestamps import parse_time

    moment = parse_time(value)
    if moment is None:
        raise ValueError(
            f"--since {text!r}: use a duration (90s, 30m, 12h, 7d, 2w) or an ISO 8601 date"
        )
    return moment.timestamp()  # a date without a zone is UTC, as everywhere in the checks


def record_path(top: str) -> str:
    from ..agent.runtime.record import path_of

    return path_of(top)


def exists(top: str) -> bool:
    path = record_path(top)
    return os.path.exists(path) or os.path.exists(path + ".1")


MAX_ADDED_BYTES = 64 * 1024 * 1024  # another member's report: far more than two generations
# what a record's names and values are made of (agent.runtime.record), and rule lists
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-,")


def entries_of(path: str, since: float | None = None) -> list[dict[str, Any]]:
    """The records in another member's `stats --format json` output, each checked as a
    line of the record is; ValueError with the reason for a file that is not one."""
    from ..fs.access import FileProblem, read_bytes
    from ..readers.fastjson import loads  # strict: no NaN, no Infinity, bounded depth

    try:
        # a file the user names, as a --config: wherever it is
        raw = read_bytes(path, MAX_ADDED_BYTES, confined=False, bound="size bound")
        data = loads(raw.decode("utf-8-sig"))
    except FileProblem as problem:
        raise ValueError(problem.message) from None
    except (OSError, ValueError) as exc:  # UnicodeDecodeError, fastjson.JSONError
        raise ValueError(f"not a `stats --format json` report ({exc})") from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError("not a `stats --format json` report (no entries)")
    out = []
    for entry in entries:
        fields = list(entry.items()) if isinstance(entry, dict) else []
        plain = all(
            _SAFE.issuperset(str(k)) and not isinstance(v, bool) and (
                isinstance(v, (int, float)) or (isinstance(v, str) and _SAFE.issuperset(v))
            )
            for k, v in fields
        )  # fmt: skip
        record = parse("\t".join(f"{k}={v}" for k, v in fields).encode()) if plain else None
        if record is None:
            raise ValueError("not a `stats --format json` report (an entry is not a record)")
        if since is None or record["t"] >= since:
            out.append(record)
    return out
