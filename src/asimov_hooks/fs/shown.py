"""Showing a value from the repository: a path, a key, a file's text, escaped for the
terminal, a CI log or a web page it is printed to (every text printer goes through
`show`; GitHub workflow commands through `github_escape` after it). JSON and SARIF
escape through their encoders instead."""

from __future__ import annotations

_CONTROL = {i: f"\\x{i:02x}" for i in [*range(0x20), 0x7F]}
_CONTROL.update({0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x1B: "\\x1b"})
for _c in range(0x80, 0xA0):  # C1 controls (CSI and friends)
    _CONTROL[_c] = f"\\x{_c:02x}"
_CONTROL.update({0x2028: "\\u2028", 0x2029: "\\u2029"})


# what a CI runner reads as a command at the start of a line: GitHub's `::error ...::`,
# `::stop-commands::`, and its older `##[command]` form
_COMMAND_STARTS = ("::", "##[")


def show(text: str, *, line_start: bool = True) -> str:
    """`text` (a path or a value from the repository) with control characters made
    visible, so it cannot end a line, forge a CI annotation or drive a terminal. Text
    that begins (after blanks) like a workflow command (`::`, `##[`) has its first
    character escaped too (`\\x3a:error::`), unless `line_start=False` (a part never
    printed at the start of a line: a workflow command's value)."""
    if not text.isprintable():
        text = text.translate(_CONTROL)
        if not text.isprintable():
            text = _format_escaped(text)
    head = text.lstrip()
    if line_start and head.startswith(_COMMAND_STARTS):
        at = len(text) - len(head)
        text = f"{text[:at]}\\x{ord(head[0]):02x}{head[1:]}"
    return text


# what else a terminal, a CI log or a web page reorders or hides: Unicode format characters
# (bidirectional overrides and isolates U+202A-U+202E and U+2066-U+2069, zero-width
# characters, tags), lone surrogates and the line and paragraph separators
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))


def _format_escaped(text: str) -> str:
    from unicodedata import category

    return "".join(
        (f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
        if not c.isprintable() and category(c) in _HIDDEN
        else c
        for c in text
    )


def github_escape(text: str, *, property_value: bool = False) -> str:
    """A value for a GitHub Actions workflow command: the data part escapes `%`, CR and
    LF; a property (`file=`, `title=`) also `:` and `,`."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text
