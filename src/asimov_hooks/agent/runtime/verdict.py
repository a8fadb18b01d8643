"""Which errors a write makes worse: the ones it adds, and sizes over a limit it grows.

Findings of the file before and after are matched by rule and message with the
numbers left out (line numbers and counts move with any edit; the message still names
the field or the problem). An error of the result with no counterpart in the current
file is new. A size rule's error (lines, bytes, characters, tokens, items over a
limit) that has its counterpart is new only when its measure (the first number of its
message: "45 lines, over ...") grows. When the current file cannot be read as data
(invalid YAML or JSON, bad encoding, conflict markers) and the result can, the write
repairs it: the result's data errors were there all along, hidden, and are not new.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from ...findings import Finding

SIZE_RULES = frozenset(
    {
        "max-lines-soft",
        "max-lines-hard",
        "max-tokens",
        "max-bytes-hard",
        "max-bytes-soft",
        "max-chars",
        "shared-byte-budget",
        "max-length",
        "max-items",
    }
)


# problems that stop a file from being read as data: its other errors stay unseen
READING_RULES = frozenset(
    {
        "io-error",
        "encoding",
        "conflict-markers",
        "empty-file",
        "syntax",
        "duplicate-key",
        "yaml-aliases",
    }
)


def _key(finding: Finding) -> tuple[str, str]:
    import re

    return finding.rule, re.sub(r"~?\d[\d,.]*", "#", finding.message)


def _measure(finding: Finding) -> float:
    import re

    found = re.search(r"\d[\d,]*(?:\.\d+)?", finding.message)
    return float(found.group().replace(",", "")) if found else 0.0


def worse(before: list[Finding], after: list[Finding]) -> list[Finding]:
    """The findings of `after` that are new or grown compared with `before`."""
    pool: dict[tuple[str, str], list[float]] = {}
    for finding in before:
        pool.setdefault(_key(finding), []).append(_measure(finding))
    repaired = any(f.rule in READING_RULES for f in before) and not any(
        f.rule in READING_RULES for f in after
    )
    new = []
    for finding in after:
        measures = pool.get(_key(finding))
        if not measures:
            if not repaired or finding.rule in SIZE_RULES:
                new.append(finding)
            continue
        if finding.rule in SIZE_RULES:
            largest = max(measures)
            measures.remove(largest)
            if _measure(finding) > largest:
                new.append(finding)
        else:
            measures.pop()
    return new
