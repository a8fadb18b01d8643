"""The content a Write, Edit or MultiEdit would leave, worked out before it runs.

PreToolUse sees the tool's input, not its result. Write carries the whole new
content; Edit and MultiEdit carry exact string replacements, applied here to the
current file the way the tools apply them: `old_string` must occur exactly once
unless `replace_all`, the edits of a MultiEdit apply in order and all or none, and an
Edit with an empty `old_string` on a missing (or empty) file creates it. When the
tool itself would fail (text not found, not unique, no such file) there is nothing to
judge: `CannotSimulate`, and the tool's own error reaches the agent.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any


class CannotSimulate(Exception):
    """The tool would fail on its own (or its input is not what the tool takes)."""


class Unreadable(Exception):
    """The current file exists but cannot be read."""


def content_after(tool_name: str, tool_input: dict[str, Any], path: str) -> str:
    """The text `path` would hold after the tool ran."""
    if tool_name == "Write":
        content = tool_input.get("content")
        if not isinstance(content, str):
            raise CannotSimulate("Write without a string tool_input.content")
        return content
    if tool_name == "Edit":
        edits = [tool_input]
    elif tool_name == "MultiEdit":
        edits = tool_input.get("edits")
        if not isinstance(edits, list) or not edits:
            raise CannotSimulate("MultiEdit without a list of edits")
    else:
        raise CannotSimulate(f"{tool_name} does not write a file")
    text = current_text(path)
    for index, edit in enumerate(edits):
        text = apply_edit(text, edit, f"edit {index + 1}" if tool_name == "MultiEdit" else "edit")
    return text


def current_text(path: str) -> str | None:
    """The file's text (a BOM kept as U+FEFF), None when it does not exist."""
    import os

    from ..fs.access import FileProblem, read_bytes

    if not os.path.lexists(path):
        return None
    try:
        raw = read_bytes(path)
    except FileProblem as exc:
        if exc.message.startswith("is a directory"):
            raise CannotSimulate("the path is a directory") from None
        said = (
            exc.message if exc.message.startswith("cannot read") else f"cannot read: {exc.message}"
        )
        raise Unreadable(f"{path}: {said}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CannotSimulate("the current file is not UTF-8 text") from None


def apply_edit(text: str | None, edit: Any, where: str) -> str:
    if not isinstance(edit, dict):
        raise CannotSimulate(f"{where} is not an object")
    old, new = edit.get("old_string"), edit.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str):
        raise CannotSimulate(f"{where} needs string old_string and new_string")
    if text is None or (old == "" and text == ""):
        if old == "":
            return new  # creates the file (or fills an empty one)
        raise CannotSimulate("the file does not exist")
    if old == "":
        raise CannotSimulate(f"{where}: empty old_string on a file that has content")
    count = text.count(old)
    if count == 0:
        raise CannotSimulate(f"{where}: old_string not found")
    if edit.get("replace_all") is True:
        return text.replace(old, new)
    if count > 1:
        raise CannotSimulate(f"{where}: old_string occurs {count} times and replace_all is not set")
    return text.replace(old, new, 1)
