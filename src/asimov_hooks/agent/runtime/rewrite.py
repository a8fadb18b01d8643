"""Tool inputs that leave a file with given content: the changed input a hook hands
back so that a write lands trimmed (ADR-007's trim before the write, `agent.runtime.pretrim`).

Each builder takes the model's own input and {path: (current text or None, content
wanted)} and returns (the changed input, the paths it carries), or None when the tool
cannot carry that content exactly; the file is then trimmed after the write instead.
The changed input is always the same tool with the model's other arguments kept:
Claude Code and Codex take `updatedInput` only for the tool that was called, and
Gemini CLI validates the object as the tool's whole set of arguments.

- A whole-content write (`content`, `file_text`) carries the content itself.
- An exact-replacement edit replaces the whole current text, which occurs exactly once
  in itself, so every tool's uniqueness rule holds; a missing file is created from an
  empty old string where the tool does that. Not done for a file with CRLF line ends
  or a byte-order mark (the edit tools match on text they normalize), nor when the
  content is the current text (the tools refuse an edit that changes nothing).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    Plans = dict[str, tuple[str | None, str]]
    Built = tuple[dict[str, Any], list[str]] | None


def whole(tool_input: dict[str, Any], path: str, plans: Plans, field: str) -> Built:
    """A whole-content write: `field` carries the content."""
    if path not in plans:
        return None
    return {**tool_input, field: plans[path][1]}, [path]


def replaceable(current: str | None, content: str, *, create: bool, keeps_newline: bool) -> bool:
    """Whether replacing the whole of `current` (None: no file) by `content` is an edit
    the tool applies exactly. `create`: the tool creates a missing file from an empty
    old string; `keeps_newline`: the tool gives the result the current text's final
    newline, or its lack (Gemini CLI's and Qwen Code's edit tools)."""
    if current is None:
        return create
    if not current or current == content or "\r" in current or current.startswith("\ufeff"):
        return False
    if "\r" in content or content.startswith("\ufeff"):
        return False
    return not keeps_newline or current.endswith("\n") == content.endswith("\n")


def replace(
    tool_input: dict[str, Any],
    path: str,
    plans: Plans,
    keys: tuple[str, str],
    *,
    create: bool = True,
    keeps_newline: bool = False,
    reset: dict[str, Any] | None = None,
) -> Built:
    """An exact-replacement edit: `keys` (old, new) replace the whole current text;
    `reset`: other arguments to set (a replace-all flag), only where the model gave
    them."""
    if path not in plans:
        return None
    current, content = plans[path]
    if not replaceable(current, content, create=create, keeps_newline=keeps_newline):
        return None
    old, new = keys
    out = {**tool_input, old: current or "", new: content}
    for key, value in (reset or {}).items():
        if key in tool_input:
            out[key] = value
    return out, [path]


def edits(tool_input: dict[str, Any], path: str, plans: Plans) -> Built:
    """Claude Code's MultiEdit (`edits`, a list applied in order): one edit instead."""
    if path not in plans:
        return None
    current, content = plans[path]
    if not replaceable(current, content, create=True, keeps_newline=False):
        return None
    edit = {"old_string": current or "", "new_string": content, "replace_all": False}
    return {**tool_input, "edits": [edit]}, [path]
