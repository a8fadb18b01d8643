"""The append-only archive where the trimmer puts everything it removes.

ADR-007 says trimmed tasks need no recovery; users disagree often enough that the
fixer never deletes silently. The archive is a YAML list, one entry per trim, newest
last. Appending rewrites the whole file atomically after checking that the result
parses and ends with exactly the entry just added, so it is valid YAML after every
write, and bytes already in it (comments a user added) are never touched.

An archive only grows: past `limits.archive-check-bytes` only its last entry is parsed
(with the new one after it), so a big archive costs a trim a copy, not a parse. It never
grows past its byte cap (`max-bytes-hard` of the archive kind, what validate lets be
committed): an entry that would take it past is written to a fresh volume beside it
(`NAME.2.yaml`, then `.3`...), and the full one is left as it is. Trims
running side by side take a lock first (trim.fix_file), so none overwrites another's
entry. A committed config decides where the archive goes: it is read and written through
`fs.access`, which keeps it (and whatever a symlink in its place points at) inside the
checkpoint's repository and out of `.git/`.
"""

from __future__ import annotations

import io
import os

from ..config.config import ConfigError
from ..fs.access import atomic_write, make_dirs, show
from ..fs.textio import BOM, FileProblem, read_text

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

HEADER = (
    "# asimov-hooks trim archive: everything `asimov-hooks trim` removed from a checkpoint.\n"
    "# Append-only, one entry per trim, newest last; this file is never trimmed.\n"
)


class ArchiveError(Exception):
    """The archive cannot be appended to; the checkpoint is then left untouched too."""


def archive_path_for(path: str, template: str) -> str:
    """Where the archive of checkpoint `path` lives.

    `template` may use {name} (the checkpoint's file name), {stem} (the name without
    its extension) and {dir}; a relative result is relative to the checkpoint's own
    directory (the link's directory for a symlinked checkpoint: where users look).
    """
    directory = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
    try:
        expanded = template.format(name=name, stem=stem, dir=directory)
    except (KeyError, IndexError, ValueError):
        raise ConfigError(
            f"trim.archive.path: {template!r} uses an unknown placeholder "
            "(use {name}, {stem} or {dir})"
        ) from None
    return os.path.normpath(os.path.join(directory, os.path.expanduser(expanded)))


def root_of(path: str) -> str:
    """The directory a checkpoint's trim may write in: its repository's work tree
    (where the link sits, for a symlinked checkpoint), or its own directory outside git."""
    from ..gitutil import find_toplevel

    directory = os.path.dirname(os.path.abspath(path))
    return find_toplevel(directory) or os.path.realpath(directory)


def archive_target(path: str, settings: Any) -> str:
    """The archive file for `path`: the command line's (trusted) or the config's, which
    a pull request can change and so must stay inside the checkpoint's repository."""
    from ..fs.access import UnsafePath, confine

    if settings.archive_file:
        return settings.archive_file
    target = archive_path_for(path, settings.archive_path)
    root = root_of(path)
    try:
        confine(target, root, what="archive")
    except UnsafePath as refused:
        raise ConfigError(
            f"trim.archive.path: {show(settings.archive_path)!r} for {show(path)}: "
            f"{refused.message} (an archive lives inside the checkpoint's repository, or its "
            "directory outside git, and never in .git/)"
        ) from None
    return target


def _load(text: str, limits: dict[str, int] | None = None, first_line: int = 1) -> Any:
    """The archive's data; ArchiveError in the words every reader uses, at the line
    of the whole file (`text` may be its tail, starting at line `first_line`)."""
    from ..readers.document import YAMLProblem, guard
    from ..readers.guards import InputProblem, alias_expansion
    from ..readers.guards import limits as default_limits
    from ..readers.loaders import load_data

    lim = limits if limits is not None else default_limits()
    try:
        guard(text, "yaml", lim)
        data, shared = load_data(text)  # libyaml when available: archives only grow
    except YAMLProblem as exc:
        if exc.placed:
            exc.line += first_line - 1
        raise ArchiveError(exc.located()) from None
    try:
        if shared:
            alias_expansion(data, lim["max-aliases"], lim["max-alias-nodes"])
    except InputProblem as exc:
        raise ArchiveError(exc.message) from None
    return data


def _last_entry(text: str) -> int | None:
    """Offset of the line that starts the archive's last top-level `- ` item."""
    found = max(text.rfind("\n- "), text.rfind("\n-\n"), text.rfind("\n-\r\n"))
    if found >= 0:
        return found + 1
    return 0 if text.startswith(("- ", "-\n", "-\r\n")) else None


def dump_entry(entry: dict[str, Any]) -> str:
    """One archive entry as a top-level `- ` list item (LF line ends)."""
    from ..readers.yamlio import SAFE_PURE, make_yaml

    yaml = make_yaml(SAFE_PURE)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    yaml.width = 4096
    yaml.sort_base_mapping_type_on_output = False
    yaml.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    yaml.dump(entry, buf)
    lines = buf.getvalue().splitlines(keepends=True)
    return "".join(("- " if i == 0 else "  ") + line for i, line in enumerate(lines))


def build(
    archive: str,
    entry: dict[str, Any],
    newline: str,
    limits: dict[str, int] | None = None,
    root: str | None = None,
) -> tuple[bytes, str]:
    """(new archive bytes, the entry's text); raises ArchiveError when unsafe. `root`:
    the tree the archive must stay in (default: the work tree of its path)."""
    from ..readers.guards import limits as default_limits
    from .layout import same

    lim = limits if limits is not None else default_limits()
    checked_from = 0  # where the part of the archive that is parsed starts
    if os.path.lexists(archive):
        try:
            current = read_text(archive, root=root)
        except FileProblem as problem:
            raise ArchiveError(f"archive {archive}: {problem.message}") from None
        old_text, bom, newline = current.text, current.bom, current.newline
        from ..conflict_markers import find_conflict_marker

        marker = find_conflict_marker(old_text)
        if marker is not None:
            raise ArchiveError(
                f"archive {archive} has unresolved merge conflict markers (line {marker}): "
                "keep both sides' entries, remove the marker lines, then trim again "
                "(`asimov-hooks install` routes archives to the merge driver, which "
                "keeps both sides' entries without markers)"
            )
        if len(old_text) > lim["archive-check-bytes"]:
            # earlier entries were checked when they were appended: only the last one
            # (and the new one after it) is parsed, however long the archive grew
            last = _last_entry(old_text)
            if last is None:
                raise ArchiveError(
                    f"archive {archive} is not a YAML list of entries; move it away or fix "
                    "it so that nothing is lost"
                )
            checked_from = last
        try:
            first_line = old_text.count("\n", 0, checked_from) + 1
            old = _load(old_text[checked_from:], lim, first_line)
        except ArchiveError as exc:
            raise ArchiveError(f"archive {archive}: {exc}") from None
        if (old is not None and not isinstance(old, list)) or (checked_from and len(old) != 1):
            raise ArchiveError(
                f"archive {archive} is not a YAML list; move it away or fix it so that "
                "nothing is lost"
            )
        old_count = len(old or [])
    else:
        old_text, bom, old_count = HEADER, False, 0
        if newline != "\n":
            old_text = old_text.replace("\n", newline)
    entry_text = dump_entry(entry)
    expected = _load(entry_text, lim)[0]
    if newline != "\n":
        entry_text = entry_text.replace("\n", newline)
    joiner = "" if not old_text or old_text.endswith("\n") else newline
    new_text = old_text + joiner + entry_text
    try:
        parsed = _load(new_text[checked_from:], lim, new_text.count("\n", 0, checked_from) + 1)
    except ArchiveError as exc:
        raise ArchiveError(f"archive {archive}: appending would make it {exc}") from None
    if (
        not isinstance(parsed, list)
        or len(parsed) != old_count + 1
        or not same(parsed[-1], expected)
    ):
        raise ArchiveError(
            f"archive {archive}: appending would not add exactly one entry "
            "(does it end with a flow list or a `...` marker?)"
        )
    return (BOM if bom else b"") + new_text.encode("utf-8"), entry_text


MAX_VOLUMES = 999


def volume(archive: str, number: int) -> str:
    """The archive's volume `number`: 1 is the archive itself, then `NAME.2.yaml`,
    `NAME.3.yaml`... beside it (the number before the extension)."""
    if number == 1:
        return archive
    stem, ext = os.path.splitext(archive)
    if not ext or not os.path.basename(stem).strip("."):
        return f"{archive}.{number}"
    return f"{stem}.{number}{ext}"


def archive_cap(config: Any, archive: str) -> int | None:
    """The byte cap validate holds the archive to (`max-bytes-hard` of the archive kind
    its path matches, else of the shipped archive kind); None when there is none."""
    rel = config.relpath(archive)
    kind = config.kind_for(rel)
    if kind is None or not config.kinds[kind].get("archive"):
        kind = next((k for k, spec in config.kinds.items() if spec.get("archive")), None)
    if kind is None:
        return None
    most = config.rules_for(kind, rel).get("max-bytes-hard", {}).get("max")
    return most if isinstance(most, int) and not isinstance(most, bool) else None


def build_capped(
    archive: str,
    entry: dict[str, Any],
    newline: str,
    limits: dict[str, int] | None = None,
    root: str | None = None,
    cap: int | None = None,
) -> tuple[str, bytes]:
    """(the volume to write, its new bytes): `build` on the archive's newest volume,
    or, when the entry would take that past `cap`, on a fresh volume beside it (the full
    one is left as it is: an archive only grows, and validate would reject it past its
    cap). ArchiveError when even a fresh volume cannot hold the entry."""
    number = 1
    while number < MAX_VOLUMES and os.path.lexists(volume(archive, number + 1)):
        number += 1
    current = volume(archive, number)
    data, _ = build(current, entry, newline, limits, root)
    if cap is None or len(data) <= cap:
        return current, data
    if number >= MAX_VOLUMES:
        raise ArchiveError(
            f"archive {show(archive)}: {MAX_VOLUMES} volumes, the last one full; move the old "
            "volumes away, then trim again"
        )
    fresh = volume(archive, number + 1)
    data, _ = build(fresh, entry, newline, limits, root)
    if len(data) > cap:
        raise ArchiveError(
            f"archive {show(archive)}: this trim's entry alone is {len(data):,} bytes, over the "
            f"archive's {cap:,}-byte cap (max-bytes-hard); nothing trimmed"
        )
    return fresh, data


def write(archive: str, data: bytes, root: str | None = None) -> None:
    """Write the archive atomically, never outside `root` (default: the work tree the
    archive's path is in) or into .git/: a link in its place, or in the directories
    on its way, is refused, not followed."""
    try:
        directory = os.path.dirname(archive)
        if directory:
            make_dirs(directory, root)
        atomic_write(archive, data, root=root)
    except FileProblem as refused:
        raise ArchiveError(f"archive {show(archive)}: {refused.message}; not written") from None
    except OSError as exc:
        raise ArchiveError(f"cannot write archive {show(archive)}: {exc.strerror or exc}") from None
