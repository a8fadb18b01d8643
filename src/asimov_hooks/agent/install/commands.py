"""The `/checkpoint` command that `agent install` adds, in the form each agent documents.

It runs `asimov-hooks checkpoint` (cli/checkpoint): the Asimov checkpoint in an Asimov
repository, `asimov-hooks oc` in an OC one, both where both are used. One file per agent
form, and no agent sees two:

- Claude Code reads project commands from `.claude/commands/*.md` (and skills from
  `.claude/skills/` only): it gets `.claude/commands/checkpoint.md`.
- Codex CLI, Cursor, Gemini CLI, Qwen Code and GitHub Copilot CLI all read project skills
  from `.agents/skills/`, and each offers a skill there as a command of its name
  (`$checkpoint` in Codex, `/checkpoint` in the others). They share one skill,
  `.agents/skills/checkpoint/SKILL.md`, whose text names no prefix. A second form of
  their own (`.cursor/commands/`, `.gemini/commands/`, `.qwen/commands/`) would show
  `/checkpoint` twice (Gemini CLI renames one of them), so none is written, and an
  unchanged one an earlier version wrote (`RETIRED`) is removed.

The file carries a marker line. Install writes it when there is none, brings an unchanged
older one of ours up to date (`PREVIOUS`), and never replaces a file without the marker
(the user's own `/checkpoint`) or one of ours the user has edited. Uninstall removes it
only while it is ours and unchanged, and the shared skill only when no other agent that
reads it keeps its hooks. Reads and writes go through fs.access, under the lock.
"""

from __future__ import annotations

import os

from ...fs.access import FileProblem, atomic_write, confine, locked, make_dirs, read_bytes, remove

MARKER = "Written by `asimov-hooks agent install` (the checkpoint command)"
MARKERS = (MARKER.encode(), b"Written by `asimov-hooks agent install` (the /checkpoint command)")
NOTE = f"{MARKER}; `asimov-hooks agent uninstall` removes it while it is unchanged."
CLAUDE = ".claude/commands/checkpoint.md"
SHARED = ".agents/skills/checkpoint/SKILL.md"
SHARERS = ("codex", "cursor", "gemini", "qwen", "copilot")  # they all read .agents/skills/
FILES = {"claude": CLAUDE, **{name: SHARED for name in SHARERS}}
# the forms earlier versions wrote that now duplicate the shared skill
RETIRED = {"gemini": ".gemini/commands/checkpoint.toml", "cursor": ".cursor/commands/checkpoint.md"}
# sha256 of every text an earlier version wrote there: still ours, brought up to date
PREVIOUS = {
    CLAUDE: {
        "b22c27356d2b88e79819b9f2c5b302cbdb5743c0f2fb2b3d02b77fcad367f43d",
        "35d5e7a83f68bab1d5db8647fc7f0d9a40cad75032531145367672b9ead459be",
    },
    SHARED: {
        "caedfa57a663e168362e4177179024233894c067f3007596e204ddcf6e5233be",
        "5dab49ef0d2b0718420e778c7bcc906c0cdd11f19cf23408b1586d0f02db30ce",
    },
    RETIRED["gemini"]: {"0a373c85f8cf03883619c532cc84494abefd9995fb69c151111d183ee4509fac"},
    RETIRED["cursor"]: {
        "2b3b28673380579caa05f9ddce0145bcee7f1bf9c79d10e5807f88c9d5a5fa97",
        "3217b73f89148fb65296667ff34bae589b32d500a41c7f787d086bf4069c3a0c",
    },
}
DESCRIPTION = (
    "This project's checkpoints: the Asimov checkpoint and the OC skill checkpoints "
    "(status, next, doctor, show, reset, list, stats)"
)
HINT = "[status | next | doctor | show [SKILL] | reset SKILL | list | stats]"
WHAT = (
    "The arguments are one of: `status` (the default: the Asimov checkpoint's state, its "
    "size against the limits, its problems and what `asimov-hooks trim` would cut; where "
    "each OC skill left off), `next` (the next step), `doctor` (the checkpoints checked; "
    "OC: against git and the files), `show [SKILL]` (a checkpoint in full), `reset SKILL` "
    "(archive an OC skill's checkpoint and start afresh), `list` (every checkpoint), "
    "`stats` (what the hooks recorded: checkpoint sizes written and kept, trims, "
    "refusals, re-reads, requests, and what that says about the limits)."
)
SHOW = (
    "Show the user the command's output as it is. Do not edit `.claude_checkpoint.yaml`, "
    "`.asimov/` or `.checkpoints/` yourself to answer; if the command fails, show its message."
)


def label(agent: str) -> str:
    """What the file is, as messages name it."""
    return "/checkpoint command" if agent == "claude" else "checkpoint skill"


def render(agent: str) -> str:
    """The text of `agent`'s file (one of FILES); the sharers' is one text."""
    if agent == "claude":
        return (
            "---\n"
            f'description: "{DESCRIPTION}"\n'
            f'argument-hint: "{HINT}"\n'
            "allowed-tools: Bash(asimov-hooks checkpoint:*)\n"
            "---\n"
            f"<!-- {NOTE} -->\n\n"
            "Run `asimov-hooks checkpoint $ARGUMENTS` in the shell, from the repository root. "
            "With no arguments that is `asimov-hooks checkpoint`, the status.\n\n"
            f"{WHAT}\n\n{SHOW}\n"
        )
    return (
        "---\n"
        "name: checkpoint\n"
        f'description: "{DESCRIPTION}, with asimov-hooks checkpoint. Use when the user '
        'invokes the checkpoint command or skill, or asks where the work left off."\n'
        "---\n"
        f"<!-- {NOTE} -->\n\n"
        "Run `asimov-hooks checkpoint` in the shell, from the repository root, with the "
        "words that follow the command's name in the user's message as its arguments "
        "(none: `asimov-hooks checkpoint` alone, the status).\n\n"
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


def _marked(data: bytes) -> bool:
    """Whether the file carries our marker (this version's or the earlier one)."""
    return any(marker in data for marker in MARKERS)


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _ours_unchanged(have: bytes, rel: str, wanted: bytes | None) -> bool:
    """One of the texts we wrote at `rel` (this version's or an earlier one), untouched."""
    return have == wanted or _digest(have) in PREVIOUS.get(rel, ())


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
            if have is not None and not _marked(have):
                return "kept", (
                    f"warning: {rel} exists and is not the asimov-hooks {label(agent)}; "
                    "left as it is (rename or remove it to get ours)"
                )
            if have is not None and not _ours_unchanged(have, rel, wanted):
                return "kept", (
                    f"warning: {rel} was edited since asimov-hooks installed it; left as it is "
                    "(remove it and install again for the current version)"
                )
            atomic_write(path, wanted, root=top)
    except (FileProblem, CommandProblem) as exc:
        message = exc.message if isinstance(exc, FileProblem) else str(exc)
        return "refused", f"warning: {rel}: {message}; {label(agent)} not written"
    if have is None:
        return "added", f"{rel}: added the {label(agent)} (runs `asimov-hooks checkpoint`)"
    return "updated", f"{rel}: brought the {label(agent)} up to date"


def retire(top: str, agent: str) -> tuple[str, str]:
    """Take out the form an earlier version wrote for `agent` (RETIRED), which would be a
    second `/checkpoint` beside the shared skill. (status, message): absent, removed,
    kept (the user's own or an edited one: said, left alone) or refused."""
    rel = RETIRED.get(agent)
    if rel is None:
        return "absent", ""
    path = os.path.join(top, *rel.split("/"))
    twice = f"{_title(agent)} also lists the skill in {SHARED}, so it would show /checkpoint twice"
    try:
        confine(path, top, what="command file")
        with locked(path):
            have = _read(path, top)
            if have is None:
                return "absent", ""
            if not _marked(have) or not _ours_unchanged(have, rel, None):
                whose = "was edited" if _marked(have) else "is not ours"
                return "kept", (
                    f"warning: {rel} {whose}: {twice}; left as it is (rename or remove it)"
                )
            remove(path, top)
    except (FileProblem, CommandProblem) as exc:
        message = exc.message if isinstance(exc, FileProblem) else str(exc)
        return "refused", f"warning: {rel}: {message}; left as it is"
    return "removed", f"{rel}: removed the older /checkpoint command ({twice})"


def retired_path(top: str, agent: str) -> str | None:
    rel = RETIRED.get(agent)
    return os.path.join(top, *rel.split("/")) if rel else None


def _title(agent: str) -> str:
    from .targets import AGENTS

    return AGENTS[agent].title if agent in AGENTS else agent


def uninstall(top: str, agent: str, users: tuple[str, ...] = ()) -> tuple[str, str]:
    """(status, message): removed, kept (not ours, edited, or still read by `users`, the
    other agents whose hooks stay), absent, refused."""
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
            if not _marked(have):
                return "kept", ""  # the user's own /checkpoint: not ours to mention
            if not _ours_unchanged(have, rel, render(agent).encode("utf-8")):
                return "kept", f"warning: {rel} was edited since install; left as it is"
            if users:
                named = [_title(name) for name in users]
                titles = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
                verb, whose = ("reads", "its") if len(named) == 1 else ("read", "their")
                return "kept", f"{rel}: kept: {titles} still {verb} it ({whose} hooks stay)"
            remove(path, top)
    except (FileProblem, CommandProblem) as exc:
        message = exc.message if isinstance(exc, FileProblem) else str(exc)
        return "refused", f"warning: {rel}: {message}; left as it is"
    return "removed", f"{rel}: removed the {label(agent)}"


def state(top: str, agent: str) -> str | None:
    """For doctor: None (the agent has no project commands), "absent", "ours", "old"
    (ours, from an earlier version), "edited", "foreign" or "unusable"."""
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
    if not _marked(have):
        return "foreign"
    wanted = render(agent).encode("utf-8")
    if have == wanted:
        return "ours"
    return "old" if _ours_unchanged(have, _rel(path, top), wanted) else "edited"
