"""What the agent hooks read from a Claude Code hook event, shared by the event
dispatcher (`event`) and the handlers (`handlers`)."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

FILE_TOOLS = frozenset({"Write", "Edit", "MultiEdit"})


class EventError(Exception):
    """The event cannot be handled; one line on stderr, exit 1."""


def tool_path(payload: dict[str, Any]) -> str | None:
    """The absolute path a Write/Edit/MultiEdit targets, or None for any other tool."""
    if payload.get("tool_name") not in FILE_TOOLS:
        return None
    tool_input = payload.get("tool_input")
    path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
    if not isinstance(path, str) or not path:
        raise EventError(f"{payload.get('tool_name')} event without tool_input.file_path")
    if not os.path.isabs(path):
        cwd = payload.get("cwd")
        path = os.path.join(cwd if isinstance(cwd, str) and cwd else os.getcwd(), path)
    # the directory's real path (the work tree and config are found by real paths), the
    # name as given: a checkpoint that is a symbolic link is still the checkpoint
    path = os.path.normpath(path)
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
