"""The content a write would leave, worked out before the tool runs.

A pre-write event carries the tool's input, not its result. `Write` carries the whole
new content; `Replace` carries exact string replacements (Claude Code's Edit and
MultiEdit), applied to the current file the way those tools apply them: `old_string`
must occur exactly once unless `replace_all`, the edits apply in order and all or
none, and an empty `old_string` on a missing (or empty) file creates it. When the
tool itself would fail (text not found, not unique, no such file) there is nothing to
judge: `CannotSimulate`, and the tool's own error reaches the agent.

The input comes from the agent, so the work is bounded: the result may not pass the
file's byte limit (checked before each replacement, from the counts, so a
`replace_all` cannot blow up memory first), and a tool call may carry at most
MAX_EDITS edits (more is refused: `OutOfBounds`). Each edit costs one pass over a text within the limit: linear.
Adapters of other agents build their own changes (a patch format) with the same
`apply(current, limit)` method (`agent.runtime.model.Change`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

MAX_EDITS = 1000  # edits in one tool call; more is not a tool call an agent makes


class CannotSimulate(Exception):
    """The tool would fail on its own (or its input is not what the tool takes)."""


class OutOfBounds(Exception):
    """The write cannot be worked out within the bounds: it is refused, with this text."""


class TooBig(OutOfBounds):
    """The result would pass the byte limit (a `max-bytes-hard` error)."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size:,} bytes or more, over the {limit:,}-byte limit")
        self.size, self.limit = size, limit


def utf8_len(text: str) -> int:
    """Bytes of `text` in UTF-8 (a lone surrogate counted as 3, as it would be escaped)."""
    return len(text.encode("utf-8", "surrogatepass"))


class Write:
    """The whole new content (Claude Code's Write, Gemini CLI's write_file, ...)."""

    __slots__ = ("content",)

    def __init__(self, content: Any) -> None:
        self.content = content

    def apply(self, current: str | None, limit: int) -> str:
        if not isinstance(self.content, str):
            raise CannotSimulate("a write without a string content")
        if len(self.content) > limit or utf8_len(self.content) > limit:
            raise TooBig(utf8_len(self.content), limit)
        return self.content


class Replace:
    """Exact string replacements applied in order (Claude Code's Edit: one; MultiEdit: a
    list). Each edit is a mapping with `old_string`, `new_string`, `replace_all`."""

    __slots__ = ("edits", "multi")

    def __init__(self, edits: Any, multi: bool = False) -> None:
        self.edits, self.multi = edits, multi

    def apply(self, current: str | None, limit: int) -> str:
        edits = self.edits
        if not isinstance(edits, list) or not edits:
            raise CannotSimulate("no list of edits")
        if len(edits) > MAX_EDITS:
            raise OutOfBounds(
                f"it carries {len(edits):,} edits, more than the {MAX_EDITS:,} one call may "
                "carry to be checked; split it"
            )
        text = current
        size = utf8_len(current) if current is not None else 0
        for index, edit in enumerate(edits):
            where = f"edit {index + 1}" if self.multi else "edit"
            text, size = apply_edit(text, size, edit, where, limit)
        assert text is not None
        return text


def apply_edit(text: str | None, size: int, edit: Any, where: str, limit: int) -> tuple[str, int]:
    """(the text after one edit, its size in bytes); TooBig before a result past `limit`."""
    if not isinstance(edit, dict):
        raise CannotSimulate(f"{where} is not an object")
    old, new = edit.get("old_string"), edit.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str):
        raise CannotSimulate(f"{where} needs string old_string and new_string")
    if text is None or (old == "" and text == ""):
        if old == "":  # creates the file (or fills an empty one)
            grown = utf8_len(new)
            if grown > limit:
                raise TooBig(grown, limit)
            return new, grown
        raise CannotSimulate("the file does not exist")
    if old == "":
        raise CannotSimulate(f"{where}: empty old_string on a file that has content")
    count = text.count(old)
    if count == 0:
        raise CannotSimulate(f"{where}: old_string not found")
    if count > 1 and edit.get("replace_all") is not True:
        raise CannotSimulate(f"{where}: old_string occurs {count} times and replace_all is not set")
    grown = size + count * (utf8_len(new) - utf8_len(old))
    if grown > limit:
        raise TooBig(grown, limit)
    return text.replace(old, new, count), grown


def set_max_edits(most: int) -> None:
    """The configured bound (`agent.max-edits` in rules/agent.json)."""
    global MAX_EDITS
    MAX_EDITS = max(1, most)
