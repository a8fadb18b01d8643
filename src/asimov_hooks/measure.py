"""Line and token counting as ADR-007 means them.

Lines are counted the way git and editors count them: a `\\n` ends a line (a `\\r\\n`
is one break) and a final newline does not open another line. Tokens are only an
estimate; the estimator is data so a team can match it to the model it uses.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

_METHOD_NAMES = {"chars": "characters", "bytes": "UTF-8 bytes", "words": "words"}


def utf16_len(text: str) -> int:
    """Characters as JavaScript counts them (UTF-16 code units): how the agents that
    publish a character limit count."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def count_lines(text: str) -> int:
    if not text:
        return 0
    lines = text.count("\n")
    if not text.endswith("\n"):
        lines += 1
    return lines


class TokenEstimator:
    __slots__ = ("divisor", "method")

    def __init__(self, method: str = "chars", divisor: float = 4) -> None:
        self.method, self.divisor = method, divisor

    @classmethod
    def from_settings(
        cls, settings: dict[str, Any] | None, base: TokenEstimator | None = None
    ) -> TokenEstimator:
        """A `token-estimator:` section (a rule pack's or a kind's) over `base`, whose
        method and divisor it keeps where it names none (default: characters / 4)."""
        base = base or cls()
        if not settings:
            return base
        return cls(settings.get("method", base.method), settings.get("divisor", base.divisor))

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
        # math.ceil without importing math (the size hook's start-up): amount >= 0
        quotient = amount / self.divisor
        whole = int(quotient)
        return whole if whole == quotient else whole + 1
