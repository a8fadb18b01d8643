"""Terminal output for the read commands: width, colour, symbols, relative ages.

Lines are cut to the terminal's width ($COLUMNS, else the terminal, else 100).
Colour as everywhere in asimov-hooks (report.wants_color): --color always|never, else
only on a terminal, never with NO_COLOR set, always with FORCE_COLOR set.
"""

from __future__ import annotations

import datetime
import shutil
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

CODES = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "bold": "1", "dim": "2"}


class _Ours:
    """Splits a line around the colour codes `paint` writes (kept in odd places)."""

    def split(self, text: str) -> list[str]:
        import re

        codes = "|".join([*sorted(CODES.values()), "0"])
        return re.split(f"(\033\\[(?:{codes})m)", text)


_OURS = _Ours()


class Out:
    def __init__(self, stream: TextIO | None = None, color: str = "auto") -> None:
        from ..output.report import wants_color

        self.stream = stream or sys.stdout
        self.width = max(40, shutil.get_terminal_size((100, 24)).columns)
        self.color = wants_color(color, self.stream)
        encoding = (getattr(self.stream, "encoding", None) or "utf-8").lower()
        self.unicode = encoding.replace("-", "") in ("utf8", "utf16", "utf32")
        self.stop = "\u26d4" if self.unicode else "!!"
        self.warn = "\u26a0" if self.unicode else "!"
        self.more = "\u2026" if self.unicode else "..."
        self.arrow = "\u2192" if self.unicode else "->"

    def paint(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        return "".join(f"\033[{CODES[s]}m" for s in styles) + text + "\033[0m"

    def fit(self, text: str, indent: int = 0) -> str:
        """One line of at most the terminal's width (before colour is added), control
        characters of checkpoint values made visible."""
        from ..fs.access import show

        text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
        text = show(text)
        room = self.width - indent
        if len(text) <= room:
            return text
        return text[: max(1, room - len(self.more))].rstrip() + self.more

    def wrap(self, text: str, indent: int, max_lines: int = 3) -> list[str]:
        import textwrap

        from ..fs.access import show

        lines = textwrap.wrap(show(" ".join(text.split())), self.width - indent) or [""]
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = self.fit(lines[-1] + " " + self.more, indent)
        return lines

    def line(self, text: str = "") -> None:
        """Print one line. Control characters are made visible, so a checkpoint value
        cannot drive the terminal (move the cursor, set the title, clear the screen);
        only the colour codes `paint` adds stay, and only when colour is on. A line that
        starts with a skill name or a value cannot start a CI workflow command (`::`)."""
        from ..fs.access import show

        if self.color and not text.isprintable():
            parts = _OURS.split(text)
            text = "".join(p if i % 2 else show(p) for i, p in enumerate(parts))
        else:
            text = show(text)
        self.stream.write(text + "\n")


def age(seconds: float | None) -> str:
    """A relative age: `just now`, `5m ago`, `3h ago`, `12d ago`."""
    if seconds is None:
        return "no time"
    if seconds < 0:
        return "in the future"
    if seconds < 60:
        return "just now"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit} ago"
    return "just now"


def seconds_since(stamp: datetime.datetime | None, now: datetime.datetime) -> float | None:
    return None if stamp is None else (now - stamp).total_seconds()


def dump_json(doc: object) -> None:
    """A document as indented JSON on stdout (`--json` of the read commands): through
    the JSON door's printer, never `NaN` or `Infinity`, a lone surrogate escaped."""
    from ..readers.json_loader import dump_text

    sys.stdout.write(dump_text(doc) + "\n")
