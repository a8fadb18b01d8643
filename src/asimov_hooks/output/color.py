"""ANSI colours for the text output on a terminal (imported only when colouring)."""

from __future__ import annotations

RESET = "\033[0m"
STYLES = {
    "error": "\033[1;31m",  # bold red
    "warning": "\033[33m",  # yellow
    "info": "\033[36m",  # cyan
    "valid": "\033[32m",  # green
    "rule": "\033[35m",  # magenta
    "path": "\033[1m",  # bold
}


def paint(role: str, text: str) -> str:
    style = STYLES.get(role)
    return f"{style}{text}{RESET}" if style else text
