"""`oc new` and `oc reset`: a first checkpoint for a skill, and the protocol's Restart.

A fresh checkpoint holds everything the protocol requires and is `in_progress`, so
`oc update` and `oc done` work on it at once. Restart archives the current file before
anything replaces it: a byte-for-byte copy in `.checkpoints/history/`, named with the
skill and the UTC time (the `oc.reset-archive` setting), so every reset keeps its own
archive. The copy ends in `.bak`: it is kept as it was (even when it does not parse),
not validated as a checkpoint or as a rotation archive.
"""

from __future__ import annotations

import os

from ..fs.access import FileProblem, atomic_write, locked, make_dirs, read_bytes, show
from .jsonfmt import Layout, dump_bytes
from .store import SUFFIX, Checkpoint, OcError, Project, Refused, skill_of, stamp, validate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from ..findings import FileResult

DEFAULT_PHASE = "start"
DEFAULT_STEP = "start"
DEFAULT_SUMMARY = "New checkpoint: nothing done yet."
RESET_ARCHIVE = "history/{skill}.{time}.checkpoint.json.bak"
# the on-disk versions the checkpoint schema knows (rules/schemas/oc-checkpoint.schema.json);
# Restart keeps the one the old file declared, a new file gets the first
VERSIONS = ("1.0", "1.1")


def check_skill(skill: str) -> str:
    """A skill name usable as a file name (`oc-app-architect`), or OcError."""
    if skill.endswith(SUFFIX):
        skill = skill[: -len(SUFFIX)]
    if (
        not skill
        or skill.startswith((".", "-"))
        or any(c in skill for c in '/\\:*?"<>|')
        or not skill.isprintable()
    ):
        raise OcError(f"{show(skill)!r} is not a skill name (e.g. oc-app-architect)")
    return skill


def project_name(project: Project, exclude: str | None = None) -> str:
    """The name the project's other checkpoints use (the most common one), else the
    project directory's name."""
    counts: dict[str, int] = {}
    for path in project.files():
        if path == exclude:
            continue
        data = Checkpoint(path, project.config.limits).data or {}
        name = data.get("project")
        if isinstance(name, str) and name.strip():
            counts[name] = counts.get(name, 0) + 1
    if counts:
        return max(sorted(counts), key=lambda n: counts[n])
    return os.path.basename(os.path.normpath(project.root)) or "project"


def fresh(
    skill: str,
    project: str,
    project_dir: str,
    when: str,
    phase: str | None = None,
    step: str | None = None,
    summary: str | None = None,
    actions: Sequence[str] = (),
    version: str = VERSIONS[0],
) -> dict[str, Any]:
    """A new in_progress checkpoint, in the protocol's key order."""
    return {
        "protocol_version": version,
        "skill": skill,
        "project": project,
        "project_dir": project_dir,
        "created_at": when,
        "updated_at": when,
        "phase": phase or DEFAULT_PHASE,
        "step": step or DEFAULT_STEP,
        "status": "in_progress",
        "progress_summary": summary or DEFAULT_SUMMARY,
        "progress_table": [],
        "context_primer": {"key_decisions": [], "generated_files": [], "user_preferences": []},
        "blockers": [],
        "next_actions": list(actions),
        "skill_state": {},
    }


def _checked(project: Project, path: str, data: dict[str, Any], what: str) -> tuple[bytes, Any]:
    for key in ("phase", "step", "progress_summary"):
        if not str(data[key]).strip():
            raise OcError(f"--{key.replace('progress_', '')} must not be empty")
    content = dump_bytes(data, Layout())
    result = validate(project, path, content)
    if result.status == "error":
        raise Refused(result, what)
    return content, result


def create(project: Project, skill: str, **fields: Any) -> tuple[str, FileResult]:
    """Write a fresh checkpoint for `skill`; refuses (OcError) when it has one."""
    skill = check_skill(skill)
    path = os.path.join(project.dir, skill + SUFFIX)
    data = fresh(skill, project_name(project), project.root, stamp(), **fields)
    content, result = _checked(project, path, data, "new checkpoint")
    try:
        make_dirs(project.dir, project.root)
        with locked(path):
            if os.path.lexists(path):
                raise OcError(
                    f"{project.show(path)} already exists; `asimov-hooks oc reset {skill}` "
                    "archives it and starts afresh, `oc update` changes it"
                )
            atomic_write(path, content, root=project.root)
    except FileProblem as exc:
        raise OcError(f"{project.show(path)}: {exc.message}") from None
    except OSError as exc:
        raise OcError(f"{project.show(path)}: cannot write: {exc.strerror}") from None
    return path, result


def archive_name(project: Project, skill: str, when: str) -> str:
    """Where Restart keeps the old file (the `oc.reset-archive` setting: {skill} and
    {time}, relative to the checkpoint directory); `-2`, `-3`... when taken."""
    pattern = str(project.settings.get("reset-archive") or RESET_ARCHIVE)
    moment = when.replace("-", "").replace(":", "")  # 20261125T091500Z: a portable name
    base = os.path.join(project.dir, pattern.replace("{skill}", skill).replace("{time}", moment))
    target, n = base, 1
    while os.path.lexists(target):
        n += 1
        head, dot, tail = base.partition(".checkpoint.json")
        target = f"{head}-{n}{dot}{tail}" if dot else f"{base}-{n}"
    return target


def reset(project: Project, skill: str, **fields: Any) -> tuple[str, str, FileResult]:
    """Archive `skill`'s checkpoint and write a fresh one in its place; returns (file,
    archive, validation of the fresh file). Keeps the header the old file had: project,
    project directory and protocol version."""
    path = project.path_for(skill)
    skill = skill_of(path)
    when = stamp()
    try:
        with locked(path, os.path.join(project.dir, "history", "x")):
            raw = read_bytes(path, root=project.root)
            old = Checkpoint(path, project.config.limits).data or {}

            def text(key: str, default: str) -> str:
                value = old.get(key)
                return value if isinstance(value, str) and value.strip() else default

            data = fresh(
                skill,
                text("project", project_name(project, exclude=path)),
                text("project_dir", project.root),
                when,
                **fields,
                version=old.get("protocol_version")
                if old.get("protocol_version") in VERSIONS
                else VERSIONS[0],
            )
            content, result = _checked(project, path, data, "fresh checkpoint")
            target = archive_name(project, skill, when)
            make_dirs(os.path.dirname(target), project.root)
            atomic_write(target, raw, root=project.root)  # the archive first: never lost
            atomic_write(path, content, root=project.root)
    except FileProblem as exc:
        raise OcError(f"{project.show(path)}: {exc.message}") from None
    except OSError as exc:
        raise OcError(f"{project.show(path)}: cannot write: {exc.strerror}") from None
    return path, target, result
