"""Writes of protocol files: judged before they happen, trimmed and checked after.

pre_write works out the content each write would leave, trims it as the trimmer will
right after the write, and checks it against the file as it is now (trimmed the same
way). Only what the write makes worse is refused: an error the current file does not
have, or a size over a limit that grows (`verdict`). A write that leaves an existing
error as it was, or shrinks an oversized file, goes through, and the agent is told
what is still wrong; so an agent can always repair a file step by step.

post_write trims what was written (with its archive), checks it, tells the agent, and
counts the write of a checkpoint file as the checkpoint of the turn.
"""

from __future__ import annotations

import os
import time

from ...fs.access import DEFAULT_MAX_BYTES, FileProblem, read_bytes
from .common import checker, line, protocol_file, trim_settings, warn
from .model import Answer

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ...config.config import Config
    from .model import Edit, Event


def current_text(path: str, project: str) -> tuple[str | None, int]:
    """(the file's text, its size in bytes): (None, 0) when there is no file.
    CannotSimulate for anything a write tool cannot edit as text (a FIFO, a device, a
    directory, not UTF-8, past the resource bound)."""
    from .simulate import CannotSimulate

    if not os.path.lexists(path):
        return None, 0
    try:
        raw = read_bytes(path, DEFAULT_MAX_BYTES, root=project, bound="resource bound")
        return raw.decode("utf-8"), len(raw)
    except FileProblem as problem:
        raise CannotSimulate(problem.message) from None
    except UnicodeDecodeError:
        raise CannotSimulate("the current file is not UTF-8 text") from None


def pre_write(event: Event) -> Answer | None:
    refusals: list[str] = []
    remarks: list[str] = []
    trims: list[tuple[Any, ...]] = []
    for edit in event.edits:
        found = protocol_file(edit.path, event.project)
        if found is not None:
            _judge(event, edit, *found, refusals, remarks, trims)
    if refusals:
        reason = "\n".join(refusals)
        if remarks:
            reason += "\n" + "\n".join(remarks)
        return Answer("deny", reason=reason)
    updated = _trim_first(event, trims) if event.rewriter is not None else None
    if remarks or updated:
        return Answer(context="\n".join(remarks), updated=updated)
    return None


def _trim_first(event: Event, trims: list[tuple[Any, ...]]) -> dict[str, Any] | None:
    """ADR-007's trim BEFORE the write: the tool input whose result is each trimmable
    file's trimmed content, its cut items archived once the write lands (`pretrim`,
    `held`)."""
    from .held import hold
    from .pretrim import plan, trim_first

    cuts = [cut for cut in (plan(*trim) for trim in trims) if cut is not None]
    return trim_first(event, cuts, hold) if cuts else None


def _judge(
    event: Event,
    edit: Edit,
    config: Config,
    kind: str,
    rel: str,
    refusals: list[str],
    remarks: list[str],
    trims: list[tuple[Any, ...]],
) -> None:
    from .common import agent_settings
    from .simulate import CannotSimulate, OutOfBounds, TooBig, set_max_edits
    from .verdict import worse

    rules = config.rules_for(kind, rel)
    limit = rules.get("max-bytes-hard", {}).get("max") or DEFAULT_MAX_BYTES
    set_max_edits(agent_settings(config)["max-edits"])
    try:
        before, size = current_text(edit.source, event.project)
        after = edit.change.apply(before, max(limit, size))
    except CannotSimulate:
        return  # the tool fails by itself and tells the agent why
    except TooBig as big:
        from .record import note_refusal

        note_refusal(config, kind, ["max-bytes-hard"], None)
        grown = "a file" if before is None else f"{rel} from {size:,} bytes to"
        refusals.append(
            f"asimov-hooks refused this {event.tool} of {rel}: it would make {grown} "
            f"{big.size:,} bytes or more, over its {limit:,}-byte limit. Write less; "
            "keep current state only."
        )
        return
    except OutOfBounds as bounds:
        refusals.append(f"asimov-hooks refused this {event.tool} of {rel}: {bounds}.")
        return
    if after is None:
        return  # deleted: nothing left to check
    if edit.source != edit.path:  # a move: judged against what the target holds now
        try:
            before = current_text(edit.path, event.project)[0]
        except CannotSimulate:
            before = None
    description = config.kinds[kind].get("description", kind)
    new_text, trimmed = as_trimmed(after, config, kind, rel, limit)
    errors_after = _errors(config, edit.path, rel, new_text)
    errors_before = (
        _errors(config, edit.path, rel, as_trimmed(before, config, kind, rel, limit)[0])
        if before is not None
        else []
    )
    new = worse(errors_before, errors_after)
    if new:
        after_trim = " even after asimov-hooks trims its lists" if trimmed else ""
        advice = (
            "Write it again with current state only (milestone, status, in_progress, the "
            "last few completed items, the first few next_steps); history belongs in "
            + ("/".join([*rel.split("/")[:-1], "sprint.yaml"]) + ".")
            if kind in trim_settings(config).kinds
            else "Fix these and write the file again."
        )
        from .record import note_refusal

        note_refusal(config, kind, [f.rule for f in new], after)
        refusals.append(
            f"asimov-hooks refused this {event.tool} of {rel} ({description}): the file it "
            f"would leave has new errors{after_trim}:\n"
            + "\n".join(f"- {line(rel, f)}" for f in new)
            + f"\n{advice}"
        )
    if trimmed and not new and edit.source == edit.path:
        trims.append((edit.path, config, kind, rel, before, after))
    old = [f for f in errors_after if f not in new]
    if old:
        remarks.append(
            f"asimov-hooks: {rel} still has errors after this {event.tool} (not refused: "
            "the write does not add them or make them larger; fix them when you can):\n"
            + "\n".join(f"- {line(rel, f)}" for f in old)
        )


def _errors(config: Config, path: str, rel: str, text: str) -> list[Any]:
    from ...findings import Finding

    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate from the JSON: not writable text
        reason = f"the content is not valid Unicode text ({exc.reason})"
        return [Finding(rel, 1, 1, "error", "encoding", reason)]
    result = checker(config).check(path, data)
    return [f for f in result.findings if f.level == "error"]


def as_trimmed(content: str, config: Config, kind: str, rel: str, limit: int) -> tuple[str, bool]:
    """The content as the trimmer would leave it (post_write trims it), and whether
    the trim changes it; the content itself when it cannot be trimmed, and when it is
    over the byte limit (the trimmer does not read such a file either)."""
    settings = trim_settings(config)
    if kind not in settings.kinds or len(content.encode("utf-8", "surrogatepass")) > limit:
        return content, False
    from ...trim.algorithm import trim_kind_text
    from ...trim.layout import Refused

    try:
        bom, result = trim_kind_text(content, config, kind, rel, settings)
    except Refused:
        return content, False  # the checks report what makes it untrimmable
    if result.skipped or result.text == content[len(bom) :]:
        return content, False
    return bom + result.text, True


def post_write(event: Event) -> Answer | None:
    notes: list[str] = []
    checkpoint = False
    for path in event.targets:
        found = protocol_file(path, event.project)
        if found is None or not os.path.lexists(path):
            continue
        config, kind, rel = found
        if kind in trim_settings(config).kinds:  # a trim before this write, now archived
            from .held import release

            landed = release(event, path, config, kind, rel)
            notes += [landed] if landed else []
        notes += _after_write(event, path, config, kind, rel)
        from .common import agent_settings
        from .protocols import checkpoint_kinds

        checkpoint = checkpoint or kind in checkpoint_kinds(agent_settings(config))
    if checkpoint and event.session is not None:
        from .turnlog import CHECKPOINT, StateError, append

        try:  # a record beside the turn state, folded in by the next event that reads it
            append(CHECKPOINT, event.session, event.turns, time.time())
        except StateError as exc:
            warn(f"the checkpoint write was not recorded: {exc}")
    return Answer(context="\n".join(notes)) if notes else None


def _after_write(event: Event, path: str, config: Config, kind: str, rel: str) -> list[str]:
    from .record import Written

    notes: list[str] = []
    settings = trim_settings(config)
    seen = Written(path, config, kind, event.project)  # sizes only, for `asimov-hooks stats`
    if kind in settings.kinds and not _left_as_it_is(path, config, kind, rel, settings):
        from ...trim.trimmer import fix_file

        outcome = fix_file(path, config)
        seen.trim(outcome)
        if outcome.written:
            notes.append(
                f"asimov-hooks trimmed {rel} after your {event.tool} (ADR-007 rolling window): "
                + "; ".join(outcome.messages)
                + ". The file on disk changed: read it again before editing it."
            )
        if outcome.error:
            notes.append(f"asimov-hooks could not bring {rel} within its limits: {outcome.error}")
    seen.note()
    result = checker(config).check(path)
    from .news import report

    found = [f for f in result.findings if f.level in ("error", "warning")]
    told = report(event, config, path, rel, found)  # only what this write changed
    return notes + ([told] if told else [])


# trim/pending.NAME (a test holds them together): the merge package is not loaded to
# learn that there is no pending file
PENDING = "asimov-hooks/merge-archive.json"


def _left_as_it_is(path: str, config: Config, kind: str, rel: str, settings: Any) -> bool:
    """Whether `trim.fix_file` certainly leaves the checkpoint as it is and has nothing to
    say, told without the trimmer (the usual write: nothing to trim): a file it would
    read (confined to its repository, within the byte cap) with no conflict markers,
    that `trim_text` leaves untouched (plain shape, within the hard line limit, nothing
    over a cap or a window), and no items the merge driver parked for its archive.
    False leaves the answer to fix_file, which trims and says what it did or why not."""
    from ...conflict_markers import find_conflict_marker
    from ...fs.access import UnsafePath, confine
    from ...fs.textio import read_text
    from ...gitutil import find_git_dir
    from ...measure import count_lines
    from ...trim.algorithm import _untouched
    from ...trim.archive import archive_target, root_of

    spec = config.kinds[kind]
    if spec.get("format") != "yaml":
        return False  # fix_file says what is wrong with the trim section
    root = root_of(path)
    if settings.archive:
        archive_target(path, settings)  # a refused archive path: ConfigError, as fix_file
        git_dir = find_git_dir(root)  # fix_file then archives what the merge driver parked
        if git_dir is None or os.path.lexists(os.path.join(git_dir, PENDING)):
            return False
    rules = config.rules_for(kind, rel)
    try:
        confine(path, root, what="checkpoint")
        text = read_text(path, rules.get("max-bytes-hard", {}).get("max")).text
    except (UnsafePath, FileProblem):
        return False
    if find_conflict_marker(text) is not None:
        return False
    soft = rules.get("max-lines-soft", {}).get("max")
    hard = rules.get("max-lines-hard", {}).get("max")
    identify = spec if spec.get("identify") else None
    return _untouched(text, settings, count_lines(text), soft, hard, identify, config.limits)
