"""`oc rotate`: move append-only telemetry out of a checkpoint into its history archive.

What moves is every array under `skill_state` whose merge policy for the oc-checkpoint
kind (rules/merge.json) is `union`: the append-only, per-session lists such as
`skill_state.merged_prs` and `skill_state.reconciliation_log`. They go to
`.checkpoints/history/<skill>.<date>.json` (the `oc.history` setting), appended as one
more entry of that archive's `rotations` when it already exists, and leave an empty
array (or their last `--keep` items) behind. The archive is validated and written
first, then the checkpoint: an interruption between the two leaves the items in both
files, never in neither. `updated_at` is not stamped: rotation is bookkeeping, not
progress, and must not make a stale checkpoint look fresh.
"""

from __future__ import annotations

import os

from ..fs.access import FileProblem, atomic_write, confine, locked, make_dirs, read_bytes, show
from .jsonfmt import JSONProblem, Layout, dump_bytes, load_bytes
from .store import Checkpoint, OcError, Project, Refused, save, stamp, validate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _policies(project: Project) -> Any:
    from ..merge.core import Policies

    kind = project.config.section("merge").get("kinds", {}).get("oc-checkpoint", {})
    return Policies(kind.get("fields", {}), kind.get("default", "conflict"))


def telemetry(data: dict[str, Any], project: Project) -> list[tuple[tuple[str, ...], list]]:
    """(path, array) for every non-empty append-only array under skill_state."""
    policies = _policies(project)
    found: list[tuple[tuple[str, ...], list]] = []

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*path, key))
        elif isinstance(node, list) and node and policies.for_path(path).get("policy") == "union":
            found.append((path, node))

    walk(data.get("skill_state"), ("skill_state",))
    return found


def archive_path(project: Project, cp: Checkpoint, when: str) -> str:
    pattern = project.settings.get("history", "history/{skill}.{date}.json")
    rel = pattern.replace("{skill}", cp.skill).replace("{date}", when[:10])
    return os.path.join(os.path.dirname(cp.path), rel)


def rotate(project: Project, cp: Checkpoint, keep: int) -> tuple[str, list[str], int] | None:
    """Rotate one checkpoint; returns (archive path, fields, items moved) or None when
    there is nothing to move. Raises Refused / OcError without writing anything.

    Both files are read again under a lock of both (`fs.access.locked`), so a concurrent
    `oc update` or rotation of the same checkpoint or archive loses nothing."""
    when = stamp()
    target = archive_path(project, cp, when)
    try:
        confine(target, project.top, what="oc.history archive")
        with locked(cp.path, target):
            return _rotate_locked(project, Checkpoint(cp.path), keep, when, target)
    except FileProblem as problem:
        raise OcError(f"{show(project.show(target))}: {problem.message}") from None
    except OSError as exc:
        raise OcError(f"{show(project.show(target))}: {exc.strerror or exc}") from None


def _rotate_locked(
    project: Project, cp: Checkpoint, keep: int, when: str, target: str
) -> tuple[str, list[str], int] | None:
    data = cp.require(project)
    moved: dict[str, list] = {}
    for path, items in telemetry(data, project):
        cut = len(items) - keep if keep else len(items)
        if cut <= 0:
            continue
        moved[".".join(path)] = items[:cut]
        del items[:cut]
    if not moved:
        return None
    rotation = {"at": when, "fields": moved}
    target, content = _append(project, cp, target, rotation)
    result = validate(project, target, content)
    if result.status == "error":
        raise Refused(result, f"archive {project.show(target)}")
    # the checkpoint's result is checked before the archive is written
    cp_result = validate(project, cp.path, dump_bytes(data, cp.layout))
    if cp_result.status == "error":
        raise Refused(cp_result, "rotated checkpoint")
    make_dirs(os.path.dirname(target), project.top)
    atomic_write(target, content, root=project.top)
    save(project, cp, data, "rotated")
    return target, list(moved), sum(len(v) for v in moved.values())


def _append(
    project: Project, cp: Checkpoint, target: str, rotation: dict[str, Any]
) -> tuple[str, bytes]:
    """(archive path, its new content) with `rotation` appended. An archive only grows:
    when the day's archive would pass the history kind's byte cap (`max-bytes-hard`,
    which validate enforces), the rotation goes into the next volume beside it,
    `<skill>.<date>.2.json`, `.3.json`, ..., so no rotation is refused for the size of
    earlier ones and every history file stays valid."""
    cap = project.rules(target).get("max-bytes-hard", {}).get("max")
    stem = target[: -len(".json")] if target.endswith(".json") else target
    for volume in range(1, 1000):
        path = target if volume == 1 else f"{stem}.{volume}.json"
        archive, layout = _read_archive(project, path, cp)
        rotations = archive.setdefault("rotations", [])
        if not isinstance(rotations, list):
            raise OcError(f"{project.show(path)}: 'rotations' is not an array; not appending to it")
        fresh = not rotations
        rotations.append(rotation)
        content = dump_bytes(archive, layout)
        if fresh or not isinstance(cap, int) or len(content) <= cap:
            return path, content
    raise OcError(f"{project.show(target)}: 999 archive volumes for one day; not rotating")


def _read_archive(project: Project, target: str, cp: Checkpoint) -> tuple[dict[str, Any], Layout]:
    if not os.path.lexists(target):
        return {"skill": cp.skill, "rotated_from": os.path.basename(cp.path)}, Layout()
    try:
        data, layout = load_bytes(read_bytes(target, root=project.top))
    except JSONProblem as exc:
        raise OcError(f"{project.show(target)}: {exc}; not appending to it") from None
    if not isinstance(data, dict):
        raise OcError(f"{project.show(target)}: not a JSON object; not appending to it")
    return data, layout


def over_limit(project: Project, path: str) -> tuple[int, int | None]:
    """(size in bytes, the kind's max-bytes-soft guideline or None)."""
    size = os.path.getsize(path)
    limit = project.rules(path).get("max-bytes-soft", {}).get("max")
    return size, limit if isinstance(limit, int) else None
