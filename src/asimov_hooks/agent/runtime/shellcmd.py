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
# `[cd DIR &&] apply_patch <<['"]TAG['"]`; the body starts on the next line and runs to
# a line that is exactly TAG (leading tabs too with <<-). The blanks before a command do
# not cross a line end (a line end is itself the separator): otherwise every line of a
# run of blank lines would be tried against the whole rest of the run.
_HEREDOC = re.compile(
    r"(?:^|[;&|(\n][^\S\n]*)(?:cd\s+(?P<dir>'[^']*'|\"[^\"]*\"|[^\s;&|]+)\s*&&\s*)?"
    r"(?:apply_patch|applypatch)\s*<<(?P<dash>-?)\s*"
    r"(?P<q>['\"]?)(?P<tag>[A-Za-z_][A-Za-z0-9_]*)(?P=q)"
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
    command hands to apply_patch, in order.

    One pass: each heredoc's body is read line by line up to its end marker, and the
    next heredoc is looked for after it (a body is text, not commands)."""
    found: list[tuple[str | None, str]] = []
    pos = 0
    while True:
        match = _HEREDOC.search(command, pos)
        if match is None:
            break
        start = command.find("\n", match.end())
        if start < 0:
            break  # no line after the operator: no body, here or further on
        tag, dash = match.group("tag"), match.group("dash")
        body: list[str] = []
        at = start + 1
        end = -1
        while at <= len(command):
            stop = command.find("\n", at)
            line = command[at:] if stop < 0 else command[at:stop]
            probe = line.lstrip("\t") if dash else line
            if probe.rstrip("\r") == tag:
                end = len(command) if stop < 0 else stop  # the line end separates
                break
            body.append(probe)
            if stop < 0:
                break
            at = stop + 1
        if end < 0:
            break  # no end marker: the shell rejects it, and it runs to the end
        directory = match.group("dir")
        found.append((_unquote(directory) if directory else None, "\n".join(body) + "\n"))
        pos = end
    if not found:
        found += _argument_patches(command)
    return found


def _argument_patches(command: str) -> list[tuple[str | None, str]]:
    """`apply_patch '*** Begin Patch ...'` (the patch as one argument)."""
    if not any(name in command for name in PATCH_COMMANDS) or "*** Begin Patch" not in command:
        return []
    from .shellwords import split

    try:
        words = split(command)
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
