"""ISO 8601 times as checkpoints write them: one parser for the merge policies (latest
wins) and the drift and structure rules (stale, in order), kept apart from them so that
a check comparing two times loads neither the merge driver nor the git plumbing."""

from __future__ import annotations

import datetime
import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

__all__ = ["parse_time", "parse_timestamp"]

_TS = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?"
    r"[ \t]*(Z|z|[+-]\d{2}(?::?\d{2})?)?"
)


def parse_timestamp(value: Any) -> datetime.datetime | None:
    """An ISO 8601 time (string or YAML timestamp) as a datetime, or None."""
    if isinstance(value, datetime.datetime):
        return value
    if isinstance(value, datetime.date):
        return datetime.datetime(value.year, value.month, value.day)
    if not isinstance(value, str):
        return None
    m = _TS.fullmatch(value.strip())
    if not m:
        return None
    y, mo, d, h, mi, s, frac, tz = m.groups()
    micro = int((frac or "0")[:6].ljust(6, "0"))
    tzinfo = None
    if tz:
        if tz in "Zz":
            tzinfo = datetime.timezone.utc
        else:
            digits = tz[1:].replace(":", "")
            offset = datetime.timedelta(hours=int(digits[:2]), minutes=int(digits[2:] or 0))
            tzinfo = datetime.timezone(-offset if tz[0] == "-" else offset)
    try:
        return datetime.datetime(
            int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0), micro, tzinfo
        )
    except ValueError:
        return None


def parse_time(value: Any) -> datetime.datetime | None:
    """A timestamp as an aware datetime (naive ones are taken as UTC), or None."""
    stamp = parse_timestamp(value)
    if stamp is not None and stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=datetime.timezone.utc)
    return stamp
