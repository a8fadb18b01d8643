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
from functools import partial

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


def rotate(project: Project, cp: Checkpoint, keep: int) -> tuple[list[str], list[str], int] | None:
    """Rotate one checkpoint; returns (archive paths, fields, items moved) or None when
    there is nothing to move. Raises Refused / OcError without writing anything.

    Both files are read again under a lock of both (`fs.access.locked`), so a concurrent
    `oc update` or rotation of the same checkpoint or archive loses nothing."""
    when = stamp()
    target = archive_path(project, cp, when)
    try:
        confine(target, project.top, what="oc.history archive")
        with locked(cp.path, target):
            return _rotate_locked(
                project, Checkpoint(cp.path, project.config.limits), keep, when, target
            )
    except FileProblem as problem:
        raise OcError(f"{show(project.show(target))}: {problem.message}") from None
    except OSError as exc:
        raise OcError(f"{show(project.show(target))}: {exc.strerror or exc}") from None


def _rotate_locked(
    project: Project, cp: Checkpoint, keep: int, when: str, target: str
) -> tuple[list[str], list[str], int] | None:
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
    writes = _append(project, cp, target, when, moved)
    for path, content in writes:
        result = validate(project, path, content)
        if result.status == "error":
            raise Refused(result, f"archive {project.show(path)}")
    # the checkpoint's result is checked before the archive is written
    cp_result = validate(project, cp.path, dump_bytes(data, cp.layout))
    if cp_result.status == "error":
        raise Refused(cp_result, "rotated checkpoint")
    for path, content in writes:
        make_dirs(os.path.dirname(path), project.top)
        atomic_write(path, content, root=project.top)
    save(project, cp, data, "rotated")
    return [path for path, _ in writes], list(moved), sum(len(v) for v in moved.values())


def _append(
    project: Project, cp: Checkpoint, target: str, when: str, moved: dict[str, list]
) -> list[tuple[str, bytes]]:
    """[(archive path, its new content)] with the rotation appended. An archive only
    grows: when the day's archive would pass the history kind's byte cap
    (`max-bytes-hard`, which validate enforces), the rotation goes into the next volume
    beside it, `<skill>.<date>.2.json`, `.3.json`, ...; a rotation bigger than a whole
    volume is spread over fresh ones, in order. No rotation is refused for its size or
    that of earlier ones, and every history file stays valid."""
    cap = project.rules(target).get("max-bytes-hard", {}).get("max")
    cap = cap if isinstance(cap, int) else None
    stem = target[: -len(".json")] if target.endswith(".json") else target
    items = [(field, item) for field, values in moved.items() for item in values]
    writes: list[tuple[str, bytes]] = []
    for volume in range(1, 1000):
        path = target if volume == 1 else f"{stem}.{volume}.json"
        archive, layout = _read_archive(project, path, cp)
        rotations = archive.setdefault("rotations", [])
        if not isinstance(rotations, list):
            raise OcError(f"{project.show(path)}: 'rotations' is not an array; not appending to it")
        fresh = not rotations
        content = partial(_render, archive, layout, when, items)
        whole = content(len(items))
        if cap is None or len(whole) <= cap:
            writes.append((path, whole))
            return writes
        if not fresh:
            continue  # a full volume: the next one
        fits = _most_that_fit(content, len(items), cap)
        if fits == 0:
            raise OcError(
                f"{project.show(path)}: one item of {items[0][0]} alone is over the history "
                f"archive's {cap:,}-byte cap (max-bytes-hard); raise the cap or shorten the item"
            )
        writes.append((path, content(fits)))
        items = items[fits:]
    raise OcError(f"{project.show(target)}: 999 archive volumes for one day; not rotating")


def _render(
    archive: dict[str, Any], layout: Layout, when: str, items: list[Any], count: int
) -> bytes:
    """The archive with one more rotation: the first `count` items."""
    rotations = archive["rotations"]
    rotations.append({"at": when, "fields": _fields(items[:count])})
    try:
        return dump_bytes(archive, layout)
    finally:
        rotations.pop()


def _fields(items: list[tuple[str, Any]]) -> dict[str, list]:
    fields: dict[str, list] = {}
    for field, item in items:
        fields.setdefault(field, []).append(item)
    return fields


def _most_that_fit(content: Any, total: int, cap: int) -> int:
    """The most leading items whose rotation keeps a fresh volume within `cap` (a
    binary search: each try is one rendering of at most a volume)."""
    low, high = 0, total  # content(low) fits (or low is 0), content(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        if len(content(middle)) <= cap:
            low = middle
        else:
            high = middle
    return low if low or len(content(1)) > cap else 1


def _read_archive(project: Project, target: str, cp: Checkpoint) -> tuple[dict[str, Any], Layout]:
    if not os.path.lexists(target):
        return {"skill": cp.skill, "rotated_from": os.path.basename(cp.path)}, Layout()
    try:
        data, layout = load_bytes(read_bytes(target, root=project.top), project.config.limits)
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
