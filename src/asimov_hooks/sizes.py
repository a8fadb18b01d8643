"""Line and token counting as ADR-007 means them.

Lines are counted the way git and editors count them: a `\\n` ends a line (a `\\r\\n`
is one break) and a final newline does not open another line. Tokens are only an
estimate; the estimator is data so a team can match it to the model it uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

ESTIMATOR_METHODS = ("chars", "bytes", "words")
_METHOD_NAMES = {"chars": "characters", "bytes": "UTF-8 bytes", "words": "words"}


def count_lines(text: str) -> int:
    if not text:
        return 0
    lines = text.count("\n")
    if not text.endswith("\n"):
        lines += 1
    return lines


def offset_of_line(text: str, line: int) -> int:
    """Offset of the start of 1-based `line` (len(text) when past the end)."""
    pos = 0
    for _ in range(line - 1):
        nxt = text.find("\n", pos)
        if nxt == -1:
            return len(text)
        pos = nxt + 1
    return pos


@dataclass(frozen=True)
class TokenEstimator:
    method: str = "chars"
    divisor: float = 4

    @property
    def name(self) -> str:
        divisor = int(self.divisor) if float(self.divisor).is_integer() else self.divisor
        return f"{_METHOD_NAMES[self.method]}/{divisor}"

    def estimate(self, text: str) -> int:
        if self.method == "chars":
            amount = len(text)
        elif self.method == "bytes":
            amount = len(text.encode("utf-8"))
        else:
            amount = len(text.split())
        return math.ceil(amount / self.divisor)
