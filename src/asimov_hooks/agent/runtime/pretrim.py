"""Trim BEFORE the checkpoint write (ADR-007): where the agent lets a hook hand back a
changed tool input, a write or an edit that the rolling window would trim is handed
back so that what it leaves is the trimmed content.

Which inputs an agent takes is the adapter's business (`model.Event.rewriter`): a
whole-content write carries the trimmed content; an exact-replacement edit (Claude
Code's Edit, Gemini CLI's replace, Copilot CLI's edit) replaces the whole current
file with it; a Codex patch gets a section per trimmed file that turns its current
lines into the trimmed ones (`patch_rewrite`).

The items the trim cuts are archived only once the write has happened (`held`): the
agent's permission rules or its user may still refuse the changed call, and a write
that did not happen must not move anything to the archive. What the write would have
left equals what it leaves plus what the archive gains.

Where the agent cannot take a changed input, or the input cannot carry the trimmed
content exactly (a move, a file a patch touches twice, CRLF line endings), or the
archive would refuse the cut items, the file is trimmed right after the write instead
(`writes.post_write`, or the comparison after a shell command).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable
    from typing import Any

    from ...config.config import Config
    from ...trim.algorithm import TrimResult
    from .model import Event


class Cut:
    """One file's trim before the write: `text` (the trimmed content) is what the
    rewritten input leaves instead of `after`; `before` is the file as it is now."""

    __slots__ = ("after", "before", "config", "kind", "path", "rel", "result", "text")

    def __init__(
        self,
        path: str,
        config: Config,
        rel: str,
        before: str | None,
        after: str,
        text: str,
        result: TrimResult,
    ) -> None:
        self.path, self.config, self.rel = path, config, rel
        self.before, self.after, self.text, self.result = before, after, text, result


def plan(
    path: str, config: Config, kind: str, rel: str, before: str | None, after: str
) -> Cut | None:
    """What the rolling window leaves of `after` (the content a write would leave at
    `path`), nothing archived yet; None when nothing is trimmed."""
    from ...config.config import ConfigError
    from ...trim.algorithm import trim_kind_text
    from ...trim.layout import Refused
    from ...trim.settings import Settings

    try:
        settings = Settings.from_config(config)
    except ConfigError:
        return None
    if kind not in settings.kinds or config.kinds[kind].get("format") != "yaml":
        return None
    try:
        bom, result = trim_kind_text(after, config, kind, rel, settings)
    except (Refused, ConfigError):
        return None
    if result.skipped or result.text == after[len(bom) :]:
        return None
    return Cut(path, config, rel, before, after, bom + result.text, result)


def append_cut(cut: Cut, dry_run: bool = False) -> tuple[Any, str | None, str] | None:
    """Append what the trim of `cut` removes to its archive, as `trim` does (`dry_run`:
    only find out whether it could): (the trimmer's outcome, its error or None, the
    archive), or None when archiving is off. ConfigError when no archive can be named."""
    from ...fs.access import locked as DirectoryLocks
    from ...trim import archive as trim_archive
    from ...trim.settings import Settings
    from ...trim.trimmer import Outcome, _archive

    settings = Settings.from_config(cut.config)
    if not settings.archive:
        return None
    target = trim_archive.archive_target(cut.path, settings)
    newline = "\r\n" if "\r\n" in cut.after else "\n"
    root = None if settings.archive_file else trim_archive.root_of(cut.path)
    outcome = Outcome(cut.path)
    if dry_run:
        error = _archive(outcome, cut.result, cut.config, newline, target, True, root)
    else:
        with DirectoryLocks([target]):
            error = _archive(outcome, cut.result, cut.config, newline, target, False, root)
    return outcome, error, target


def archive(cut: Cut) -> list[str] | None:
    """Append what the trim of `cut` removes to the archive; what was done, or None when
    the archive cannot take it (the trim after the write then says why)."""
    from ...config.config import ConfigError
    from ...trim.archive import root_of

    result = cut.result
    try:
        done = append_cut(cut)
    except ConfigError:
        return None
    if done is None:
        return [*result.messages, "removed content not archived (archive disabled)"]
    outcome, error, target = done
    if error:
        return None
    # from the top of the work tree, as the agent names files: `.asimov/` included
    shown = os.path.relpath(outcome.archive or target, root_of(cut.path))
    full = [m for m in outcome.messages if m.startswith("the archive is full")]
    return [*result.messages, *full, f"archived what was removed to {shown}"]


def trim_first(
    event: Event, cuts: list[Cut], hold: Callable[[Event, Cut], bool]
) -> dict[str, Any] | None:
    """The tool input that leaves each file of `cuts` trimmed (the adapter builds it:
    `event.rewriter`), each trim held until its write lands (`hold`: `held.hold`);
    None when the agent gets no changed input (each file is then trimmed after the
    write)."""
    rewriter = event.rewriter
    pending = {cut.path: cut for cut in cuts}
    while pending and rewriter is not None:
        built = rewriter({p: (c.before, c.text) for p, c in pending.items()})
        if built is None:
            return None
        new_input, carried = built
        carried = set(carried)
        for path in list(pending):
            if path not in carried:
                del pending[path]  # trimmed after the write instead
        if not pending:
            return None
        refused = [path for path, cut in pending.items() if not hold(event, cut)]
        if not refused:
            for cut in pending.values():
                _note(cut)
            return new_input
        for path in refused:  # trimmed after the write instead; the others built again
            del pending[path]
    return None


def _note(cut: Cut) -> None:
    """The trim, in numbers, for `asimov-hooks stats`."""
    from .record import note_pretrim

    kind = cut.config.kind_for(cut.rel)
    if kind is not None:
        note_pretrim(cut.config, kind, cut.after, cut.text, cut.result.removed)
