"""What a shell command an agent runs says about protocol files, read from its text.

- `patches(command)`: the patches it hands to `apply_patch` / `applypatch` in a
  heredoc (`apply_patch <<'EOF' ... EOF`, optionally after `cd DIR &&`) or as one
  quoted argument: Codex applies these itself when a model runs them through its
  shell tool, and its hooks see only the shell command (`tool_name: "Bash"`).
- `writes_checkpoint(command)`: whether it runs a documented OC checkpoint writer
  (`asimov-hooks oc update`, `oc done`, `oc new`).

Only the text is read: nothing is run, and a command this cannot follow is left to
the comparison of the protocol files before and after it (`agent.runtime.shellwatch`).
"""

from __future__ import annotations

import re

PATCH_COMMANDS = ("apply_patch", "applypatch")
# `[cd DIR &&] apply_patch <<['"]TAG['"]` up to the end of that line; the body runs to
# a line that is exactly TAG (leading tabs too with <<-)
_HEREDOC = re.compile(
    r"(?:^|[;&|(\n]\s*)(?:cd\s+(?P<dir>'[^']*'|\"[^\"]*\"|[^\s;&|]+)\s*&&\s*)?"
    r"(?:apply_patch|applypatch)\s*<<(?P<dash>-?)\s*"
    r"(?P<q>['\"]?)(?P<tag>[A-Za-z_][A-Za-z0-9_]*)(?P=q)[^\n]*\n"
)
_OC_WRITER = re.compile(
    r"(?:^|[\s;&|(/])(?:asimov-hooks|asimov_hooks)\s+oc\s+(?:update|done|new)(?:\s|$)"
)


def command_text(value: object) -> str | None:
    """The shell command of a tool input: a string, or an argv list (`["bash", "-lc",
    SCRIPT]`: the script; otherwise the words joined)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if len(value) >= 3 and value[-2] in ("-c", "-lc", "-ic"):
            return value[-1]
        import shlex

        return " ".join(shlex.quote(v) for v in value)
    return None


def _unquote(word: str) -> str:
    return word[1:-1] if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"" else word


def patches(command: str) -> list[tuple[str | None, str]]:
    """(the directory it `cd`s into first or None, the patch text) for each patch the
    command hands to apply_patch, in order."""
    found: list[tuple[str | None, str]] = []
    for match in _HEREDOC.finditer(command):
        lines = command[match.end() :].split("\n")
        body: list[str] = []
        for line in lines:
            probe = line.lstrip("\t") if match.group("dash") else line
            if probe.rstrip("\r") == match.group("tag"):
                break
            body.append(probe if match.group("dash") else line)
        else:
            continue  # no end marker: the shell rejects it
        directory = match.group("dir")
        found.append((_unquote(directory) if directory else None, "\n".join(body) + "\n"))
    if not found:
        found += _argument_patches(command)
    return found


def _argument_patches(command: str) -> list[tuple[str | None, str]]:
    """`apply_patch '*** Begin Patch ...'` (the patch as one argument)."""
    if not any(name in command for name in PATCH_COMMANDS) or "*** Begin Patch" not in command:
        return []
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return []
    found: list[tuple[str | None, str]] = []
    directory: str | None = None
    for i, word in enumerate(words):
        if word == "cd" and i + 1 < len(words):
            directory = words[i + 1]
        if word in PATCH_COMMANDS and i + 1 < len(words) and "*** Begin Patch" in words[i + 1]:
            found.append((directory, words[i + 1]))
    return found


def writes_checkpoint(command: str) -> bool:
    """Whether the command runs `asimov-hooks oc update`, `oc done` or `oc new`."""
    return _OC_WRITER.search(command) is not None
