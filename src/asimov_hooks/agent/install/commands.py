"""The `/checkpoint` project command that `agent install` adds for agents with project commands.

The OC Checkpoint Protocol names `/checkpoint` (status, next, doctor, show, reset, list)
as the one command every checkpoint-aware skill understands; `asimov-hooks oc` does the
work. Claude Code (`.claude/commands/*.md`), Gemini CLI (`.gemini/commands/*.toml`) and
Cursor (`.cursor/commands/*.md`) read project commands from the repository. Codex CLI
keeps custom prompts in the user's home only; its project-level form is a skill in
`.agents/skills/`, invoked as `$checkpoint`, so that is what Codex gets.

The file carries a marker line. Install writes it when there is none, brings an unchanged
older one of ours up to date, and never replaces a file without the marker (the user's
own `/checkpoint`) or one of ours the user has edited. Uninstall removes it only while
it is ours and unchanged. Reads and writes go through fs.access, under the lock.
"""

from __future__ import annotations

import os

from ...fs.access import FileProblem, atomic_write, confine, locked, make_dirs, read_bytes, remove

MARKER = "Written by `asimov-hooks agent install` (the /checkpoint command)"
NOTE = f"{MARKER}; `asimov-hooks agent uninstall` removes it while it is unchanged."
FILES = {
    "claude": ".claude/commands/checkpoint.md",
    "gemini": ".gemini/commands/checkpoint.toml",
    "cursor": ".cursor/commands/checkpoint.md",
    "codex": ".agents/skills/checkpoint/SKILL.md",
}
DESCRIPTION = "OC checkpoints of this project: status, next, doctor, show, reset, list"
WHAT = (
    "The arguments are one of: `status` (where each skill left off), `next` (the single "
    "highest-priority next action), `doctor` (the checkpoints against git and the files), "
    "`show [SKILL]` (a checkpoint in full), `reset SKILL` (archive it and start afresh), "
    "`list` (every checkpoint in the project)."
)
SHOW = (
    "Show the user the command's output as it is. Do not edit any file under `.checkpoints/` "
    "yourself to answer; if the command fails, show its message."
)


def label(agent: str) -> str:
    """What the user types, as messages name it."""
    return "$checkpoint skill" if agent == "codex" else "/checkpoint command"


def render(agent: str) -> str:
    """The command file for `agent` (one of FILES)."""
    if agent == "gemini":
        return (
            f"# {NOTE}\n"
            f'description = "{DESCRIPTION}"\n'
            'prompt = """\n'
            "Run `asimov-hooks oc {{args}}` in the shell, from the repository root. "
            "With no arguments, run `asimov-hooks oc status`.\n\n"
            f"{WHAT}\n\n{SHOW}\n"
            '"""\n'
        )
    if agent == "codex":
        head = (
            "---\n"
            "name: checkpoint\n"
            f'description: "{DESCRIPTION} (asimov-hooks oc). Use when the user types '
            '$checkpoint or asks where the work left off."\n'
            "---\n"
        )
        run = "Run `asimov-hooks oc`, with the words the user typed after $checkpoint as its arguments,"
    elif agent == "claude":
        head = (
            "---\n"
            f'description: "{DESCRIPTION}"\n'
            'argument-hint: "[status | next | doctor | show [SKILL] | reset SKILL | list]"\n'
            "allowed-tools: Bash(asimov-hooks oc:*)\n"
            "---\n"
        )
        run = "Run `asimov-hooks oc $ARGUMENTS`"
    else:
        head = ""
        run = "Run `asimov-hooks oc`, with the words the user typed after /checkpoint as its arguments,"
    return (
        f"{head}<!-- {NOTE} -->\n\n"
        f"{run} in the shell, from the repository root. With no arguments, run "
        "`asimov-hooks oc status`.\n\n"
        f"{WHAT}\n\n{SHOW}\n"
    )


def path_for(top: str, agent: str) -> str | None:
    rel = FILES.get(agent)
    return os.path.join(top, *rel.split("/")) if rel else None


class CommandProblem(Exception):
    """The command file cannot be used (a link out of the repository, a special file)."""


def _read(path: str, top: str) -> bytes | None:
    try:
        if not os.path.lexists(path):
            return None
        return read_bytes(path, 1 << 20, root=top)
    except FileProblem as exc:
        raise CommandProblem(f"{_rel(path, top)}: {exc.message}") from None


def _rel(path: str, top: str) -> str:
    return os.path.relpath(path, top).replace(os.sep, "/")


def install(top: str, agent: str, created: list[str]) -> tuple[str, str]:
    """(status, message): status is added, updated, unchanged, kept (the user's own file or
    our edited one: left alone) or refused. Directories it makes are appended to `created`."""
    path = path_for(top, agent)
    if path is None:
        return "none", ""
    rel = _rel(path, top)
    for _ in range(RETRIES):
        try:
            return _install(top, agent, path, created)
        except FileNotFoundError:  # a concurrent uninstall removed the directory: again
            continue
    return "refused", f"warning: {rel}: its directory was removed on every try; not written"


RETRIES = 20


def _install(top: str, agent: str, path: str, created: list[str]) -> tuple[str, str]:
    rel = _rel(path, top)
    wanted = render(agent).encode("utf-8")
    try:
        directory = os.path.dirname(path)
        confine(path, top, what="command file")
        missing = []
        probe = directory
        while not os.path.isdir(probe):
            missing.append(os.path.realpath(probe))
            probe = os.path.dirname(probe)
        make_dirs(directory, top)
        created.extend(reversed(missing))
        with locked(path):
            have = _read(path, top)
            if have == wanted:
                return "unchanged", f"{rel}: {label(agent)} already installed"
            if have is not None and MARKER.encode() not in have:
                return "kept", (
                    f"warning: {rel} exists and is not the asimov-hooks {label(agent)}; "
                    "left as it is (rename or remove it to get ours)"
                )
            if have is not None and not _ours_unchanged(have, agent):
                return "kept", (
                    f"warning: {rel} was edited since asimov-hooks installed it; left as it is "
                    "(remove it and install again for the current version)"
                )
            atomic_write(path, wanted, root=top)
    except (FileProblem, CommandProblem) as exc:
        message = exc.message if isinstance(exc, FileProblem) else str(exc)
        return "refused", f"warning: {rel}: {message}; {label(agent)} not written"
    if have is None:
        return "added", f"{rel}: added the {label(agent)} (runs `asimov-hooks oc`)"
    return "updated", f"{rel}: brought the {label(agent)} up to date"


def _ours_unchanged(have: bytes, agent: str) -> bool:
    """One of the versions we wrote, untouched since (only the current one so far)."""
    return have == render(agent).encode("utf-8")


def uninstall(top: str, agent: str) -> tuple[str, str]:
    """(status, message): removed, kept (not ours, or edited), absent, refused."""
    path = path_for(top, agent)
    if path is None:
        return "absent", ""
    rel = _rel(path, top)
    try:
        confine(path, top, what="command file")
        with locked(path):
            have = _read(path, top)
            if have is None:
                return "absent", ""
            if MARKER.encode() not in have:
                return "kept", ""  # the user's own /checkpoint: not ours to mention
            if not _ours_unchanged(have, agent):
                return "kept", f"warning: {rel} was edited since install; left as it is"
            remove(path, top)
    except (FileProblem, CommandProblem) as exc:
        message = exc.message if isinstance(exc, FileProblem) else str(exc)
        return "refused", f"warning: {rel}: {message}; left as it is"
    return "removed", f"{rel}: removed the {label(agent)}"


def state(top: str, agent: str) -> str | None:
    """For doctor: None (the agent has no project commands), "absent", "ours",
    "edited", "foreign" or "unusable"."""
    path = path_for(top, agent)
    if path is None:
        return None
    try:
        confine(path, top, what="command file")
        have = _read(path, top)
    except (FileProblem, CommandProblem):
        return "unusable"
    if have is None:
        return "absent"
    if MARKER.encode() not in have:
        return "foreign"
    return "ours" if _ours_unchanged(have, agent) else "edited"
