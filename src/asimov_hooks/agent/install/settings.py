"""`asimov-hooks agent install / uninstall`: our entries in each agent's settings file.

A settings file is the user's, often committed and written by hand, so an edit here
changes our entries and nothing else, byte for byte (agent.install.hookedit on a spliced text,
agent.install.jsonedit): install followed by uninstall gives back the same bytes. Every read
and write goes through fs.access: the file and its directory must stay inside the work
tree and out of `.git/`, only a regular file is read or replaced, and the edit runs
under a lock with a fresh read, so a concurrent writer's change is never dropped.

What install created (a settings file or its directory) and the text of a container it
found empty is recorded next to the agent state (`.git/asimov-hooks/agent-install.json`,
or the user's state directory outside git): uninstall deletes only what install created
and nothing else has joined, and gives an emptied container its own text back.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time

from ...fs.access import (
    Changed,
    FileProblem,
    atomic_write,
    confine,
    locked,
    make_dirs,
    read_bytes,
    remove,
    remove_dir,
)
from . import hookedit
from .jsonedit import Document, JsonEditError
from .targets import Agent

RECORD = "agent-install.json"
MAX_SETTINGS_BYTES = 4 * 1024 * 1024  # far above any real settings file
RETRIES = 20


class SettingsError(Exception):
    """A settings file we must not touch; the message names it. Exit 2."""


class Outcome:
    """What one install or uninstall did to one file (for the report)."""

    def __init__(self, path: str, agent: Agent) -> None:
        self.path, self.agent = path, agent
        self.added: list[str] = []
        self.repaired: list[str] = []
        self.removed: list[str] = []
        self.file_removed = False
        self.notes: list[str] = []


def command_for(agent: str, scope: str) -> str:
    """project: the portable command a team commits (asimov-hooks on PATH, guarded:
    agent.install.guard); local:
    the absolute path of this installation's script, so it works without PATH."""
    portable = f"asimov-hooks agent-event --agent {agent}"
    if scope == "project":
        from .guard import guarded

        return guarded(portable, agent)  # a clone without the CLI is told how to install it
    script = os.path.join(os.path.dirname(sys.executable), "asimov-hooks")
    found = script if os.access(script, os.X_OK) else shutil.which("asimov-hooks")
    if not found:
        return portable
    return f"{shlex.quote(os.path.abspath(found))} agent-event --agent {agent}"


def settings_path(top: str, agent: Agent, scope: str) -> str:
    return os.path.join(top, *agent.files[scope].split("/"))


def _rel(path: str, top: str) -> str:
    return os.path.relpath(path, top).replace(os.sep, "/")


# ------------------------------------------------------------------ reading
def _read(path: str, top: str, *, git_internal: bool = False) -> bytes | None:
    """The file's bytes, None when it does not exist; refusals as SettingsError."""
    try:
        if not os.path.lexists(path):
            return None
        confine(path, top, what="file", git_internal=git_internal)
        return read_bytes(path, MAX_SETTINGS_BYTES, root=top, git_internal=git_internal)
    except FileProblem as exc:
        if exc.message == "no such file":  # removed meanwhile (a concurrent uninstall)
            return None
        raise SettingsError(f"{_rel(path, top)}: {exc.message}; nothing changed") from None


def load(path: str, top: str, agent: Agent) -> Document | None:
    """The settings document, None when there is no file. Raises SettingsError."""
    raw = _read(path, top)
    return None if raw is None else _document(raw, path, top, agent)


def _document(raw: bytes, path: str, top: str, agent: Agent) -> Document:
    try:
        doc = Document(raw.decode("utf-8"), comments=agent.comments)
        hookedit.check_shape(doc, agent)
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"{_rel(path, top)}: not UTF-8 ({exc.reason}); nothing changed"
        ) from None
    except JsonEditError as exc:
        raise SettingsError(f"{_rel(path, top)}: {exc}; nothing changed") from None
    return doc


def installed(top: str, agent: Agent, scope: str) -> dict[str, list[str]]:
    """Event -> our commands in that file (nothing when the file is missing)."""
    doc = load(settings_path(top, agent, scope), top, agent)
    return hookedit.found(doc, agent) if doc is not None else {}


# ------------------------------------------------------------------ the record
def record_path(top: str) -> str:
    from ..runtime.state import state_dir

    return os.path.join(state_dir(top), RECORD)


def _record_root(path: str, top: str) -> tuple[str, bool]:
    """(root, git_internal) for the record: ours inside the repository's git directory,
    or the user's own state directory outside the work tree."""
    real, base = os.path.realpath(path), os.path.realpath(top)
    if real.startswith(base + os.sep):
        return top, True
    return os.path.dirname(real), False


def read_record(top: str) -> dict:
    path = record_path(top)
    root, internal = _record_root(path, top)
    try:
        raw = _read(path, root, git_internal=internal)
        data = json.loads(raw) if raw else {}
    except (SettingsError, ValueError):
        data = {}
    created = data.get("created") if isinstance(data, dict) else None
    empty = data.get("empty") if isinstance(data, dict) else None
    return {
        "created": [p for p in created or [] if isinstance(p, str)],
        "empty": {k: v for k, v in (empty or {}).items() if isinstance(v, dict)},
    }


def write_record(top: str, record: dict) -> None:
    path = record_path(top)
    root, internal = _record_root(path, top)
    record = {
        "created": record["created"],
        "empty": {k: v for k, v in record["empty"].items() if v},
    }
    if not record["created"] and not record["empty"]:
        if os.path.lexists(path):
            remove(path, root, git_internal=internal)
        return
    data = (json.dumps(record, indent=2, sort_keys=True) + "\n").encode("utf-8")
    atomic_write(path, data, root=root, git_internal=internal)


def note_created(top: str, paths: list[str]) -> None:
    """Record directories another part of install made (the command file's)."""
    if not paths:
        return
    with locked(record_path(top)):
        record = read_record(top)
        record["created"].extend(p for p in paths if p not in record["created"])
        write_record(top, record)


def remove_created_dir(top: str, directory: str) -> bool:
    """Remove `directory` if install made it and it is empty now; whether it went."""
    real = os.path.realpath(directory)
    with locked(record_path(top)):
        record = read_record(top)
        if real not in record["created"]:
            return False
        try:
            remove_dir(real, top)
        except (OSError, FileProblem):
            return False  # something else lives there now
        record["created"].remove(real)
        write_record(top, record)
    return True


# ------------------------------------------------------------------ read-modify-write
def _edit(top: str, path: str, agent: Agent, change, *, create: bool) -> Outcome | None:
    """Run `change(doc, record, outcome)` on a fresh read of `path` under the lock and
    write the result when it differs. None when there is no file and `create` is off.
    A directory a concurrent uninstall removes in between is made again (and the edit
    done again), so two runs at once each end as if the other came first."""
    directory = os.path.dirname(path)
    try:
        confine(directory, top, what="directory")
        confine(path, top, what="settings file")
    except FileProblem as exc:
        raise SettingsError(f"{_rel(path, top)}: {exc.message}; nothing changed") from None
    record_dir = os.path.dirname(record_path(top))
    root, internal = _record_root(os.path.join(record_dir, RECORD), top)
    make_dirs(record_dir, root, git_internal=internal)  # one lock for every run, from the first
    for attempt in range(RETRIES):
        made_dir = _missing_dirs(directory, top) if create else []
        try:
            if made_dir:
                make_dirs(directory, top)
        except FileProblem as exc:
            raise SettingsError(f"{_rel(path, top)}: {exc.message}; nothing changed") from None
        except FileNotFoundError:  # an uninstall removed a parent just made: again
            continue
        except OSError as exc:
            raise SettingsError(
                f"{_rel(directory, top)}: cannot create the directory: {exc.strerror}; "
                "nothing changed"
            ) from None
        try:
            with locked(path, os.path.join(record_dir, RECORD)):
                outcome = _edit_locked(top, path, agent, change, create, made_dir)
        except FileProblem as exc:
            raise SettingsError(f"{_rel(path, top)}: {exc.message}; nothing changed") from None
        except FileNotFoundError:  # the directory went while we worked: again
            continue
        except OSError as exc:
            raise SettingsError(
                f"{_rel(path, top)}: cannot write: {exc.strerror}; nothing changed"
            ) from None
        if outcome is not False:
            return outcome
        time.sleep(0.002 * (attempt + 1))  # a writer that does not lock: let it finish
    raise SettingsError(
        f"{_rel(path, top)}: changed by another program on every try; nothing changed"
    )


def _edit_locked(
    top: str, path: str, agent: Agent, change, create: bool, made_dir: list[str]
) -> Outcome | bool | None:
    """One try of `_edit` under the lock; False when the file changed under us (a
    writer that does not lock): the caller tries again."""
    raw = _read(path, top)
    if raw is None and not create:
        return None
    doc = _document(raw if raw is not None else b"", path, top, agent)
    if raw is None and agent.new_file:
        doc = Document(json.dumps(agent.new_file, indent=2) + "\n")
    record = read_record(top)
    outcome = Outcome(path, agent)
    change(doc, record, outcome)
    new = str(doc).encode("utf-8")
    made = [os.path.realpath(d) for d in made_dir]
    if new == raw:  # another run wrote it first: the directory is still ours
        if made:
            record["created"].extend(p for p in made if p not in record["created"])
            write_record(top, record)
        return outcome
    if outcome.file_removed:
        if _read(path, top) != raw:
            return False
        remove(path, top)
    else:
        # the file as it is right before the rename must still be the one we read: a
        # writer that does not lock may have changed it meanwhile
        try:
            atomic_write(path, new, root=top, expect=raw)
        except Changed:
            return False
    made += [os.path.realpath(path)] if raw is None else []
    record["created"].extend(p for p in made if p not in record["created"])
    write_record(top, record)
    return outcome


def install(top: str, agent: Agent, scope: str = "project") -> Outcome:
    """Add (or repair) our hooks in the agent's file for `scope`. Raises SettingsError."""
    path = settings_path(top, agent, scope)
    command = command_for(agent.name, scope)

    def change(doc: Document, record: dict, outcome: Outcome) -> None:
        before = hookedit.empty_containers(doc, agent)
        outcome.added, outcome.repaired = hookedit.install(doc, agent, command)
        filled = {
            p: t for p, t in before.items() if hookedit.empty_containers(doc, agent).get(p) is None
        }
        if filled:
            key = os.path.realpath(path)
            record["empty"][key] = {**record["empty"].get(key, {}), **filled}

    outcome = _edit(top, path, agent, change, create=True)
    assert outcome is not None
    return outcome


def uninstall(top: str, agent: Agent, scope: str) -> Outcome | None:
    """Remove our hooks from the agent's file for `scope`; None when it has none."""
    path = settings_path(top, agent, scope)
    key = os.path.realpath(path)

    def change(doc: Document, record: dict, outcome: Outcome) -> None:
        empties = record["empty"].get(key, {})
        outcome.removed = hookedit.uninstall(doc, agent, empties)
        if not outcome.removed:
            return
        record["empty"].pop(key, None)
        if key in record["created"] and doc.data == (agent.new_file or {}):
            outcome.file_removed = True
            record["created"].remove(key)

    outcome = _edit(top, path, agent, change, create=False)
    if outcome is None or not outcome.removed:
        return None
    directory = os.path.dirname(key)
    record = read_record(top)
    # the directories install made (`.github/hooks`, then `.github`), deepest first
    while outcome.file_removed and directory in record["created"]:
        try:
            remove_dir(directory, top)  # only when empty: something else may live there now
        except OSError:
            return outcome
        record["created"].remove(directory)
        write_record(top, record)
        directory = os.path.dirname(directory)
    return outcome


def _missing_dirs(directory: str, top: str) -> list[str]:
    """The directories from the top down to `directory` that do not exist yet."""
    missing: list[str] = []
    while (
        not os.path.isdir(directory)
        and directory != top
        and directory != os.path.dirname(directory)
    ):
        missing.append(directory)
        directory = os.path.dirname(directory)
    return missing
