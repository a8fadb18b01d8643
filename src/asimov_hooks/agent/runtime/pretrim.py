"""Trim BEFORE the checkpoint write (ADR-007): where the agent lets a hook hand back a
changed tool input (Claude Code PreToolUse `updatedInput`, Codex CLI `updatedInput`,
Gemini CLI BeforeTool `tool_input`), a write that the rolling window would trim carries
the trimmed content itself, and the items cut go to the archive first, as `trim` does.

Where the agent cannot take a changed input (an edit that is not a whole-content
write, a multi-file patch, a patch run through the shell), the file is trimmed right
after the write instead (`writes.post_write`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from ...validation.config import Config


def trim_before_write(
    path: str, config: Config, kind: str, rel: str, text: str
) -> tuple[str, list[str]] | None:
    """(the content trimmed, what was done) after archiving what the trim removes from
    `text`, the content a write would leave at `path`; None when nothing is trimmed or
    the archive cannot take it (the trim after the write then says why)."""
    from ...readers.fileio import DirectoryLocks
    from ...trim import archive as trim_archive
    from ...trim.layout import Refused
    from ...trim.trimmer import Outcome, Settings, _archive, _archive_target, trim_text
    from ...validation.config import ConfigError

    settings = Settings.from_config(config)
    if kind not in settings.kinds or config.kinds[kind].get("format") != "yaml":
        return None
    spec = config.kinds[kind]
    rules = config.rules_for(kind, rel)
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    try:
        result = trim_text(
            text[len(bom) :],
            settings,
            rules.get("max-lines-soft", {}).get("max"),
            rules.get("max-lines-hard", {}).get("max"),
            identify=spec if spec.get("identify") else None,
            max_nodes=rules.get("yaml-aliases", {}).get("max-nodes", 100_000),
            limits=config.limits,
        )
    except (Refused, ConfigError):
        return None
    if result.skipped or result.text == text[len(bom) :]:
        return None
    outcome = Outcome(path)
    if settings.archive:
        try:
            target = _archive_target(path, settings)
        except ConfigError:
            return None
        newline = "\r\n" if "\r\n" in text else "\n"
        root = None if settings.archive_file else trim_archive.root_of(path)
        with DirectoryLocks([target]):
            error = _archive(outcome, result, config, newline, target, False, root)
        if error:
            return None
        shown = os.path.relpath(target, os.path.dirname(path))
        done = [*result.messages, f"archived what was removed to {shown}"]
    else:
        done = [*result.messages, "removed content not archived (archive disabled)"]
    return bom + result.text, done
