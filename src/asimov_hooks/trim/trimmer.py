"""`asimov-hooks trim`: ADR-007's rolling-window trim as a pre-commit fixer.

ADR-007 describes a trim that its own tool never ran, so checkpoints outgrow their
budget unnoticed. This fixer applies it, in the ADR's order, with every number and
field list taken from `rules/trim.json` (overridable in the `trim:` config section)
and the line limits from the checkpoint kind's own rules:

1. always cap the capped lists (`completed` keeps its last items, `next_steps` its
   first) at their maximum;
2. if the file is still over the soft line limit, cut the lists to their windows and
   remove the optional fields;
3. if it is still over the hard limit, write the best trim and report that the
   checkpoint's structure itself is too large, naming what takes the space.

Everything removed is appended to an archive first (trim_archive). The edit is a
deletion of line ranges from the original text (trim_layout explains why), checked by
parsing the result before anything is written.
"""

from __future__ import annotations

import os
import sys

from ..checks.measure import count_lines
from ..config import Config, ConfigError, load_config

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing and dataclasses cost every commit ~10 ms
    from typing import Any

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
PROG = "asimov-hooks trim"


# ------------------------------------------------------------------ settings
class Cap:
    __slots__ = ("keep", "max")

    def __init__(self, keep: str, max: int) -> None:  # `max`: the config's word
        self.keep = keep  # "first" or "last": which end of the list is current
        self.max = max


class Settings:
    """The `trim` section, checked: a bad value is a ConfigError, never a traceback."""

    __slots__ = ("archive", "archive_path", "caps", "keep", "kinds", "optional", "window")

    def __init__(
        self,
        kinds: list[str],
        caps: dict[str, Cap],
        window: dict[str, int],
        keep: list[str],
        optional: list[str],
        archive: bool,
        archive_path: str,
    ) -> None:
        self.kinds, self.caps, self.window = kinds, caps, window
        self.keep, self.optional = keep, optional
        self.archive, self.archive_path = archive, archive_path

    @classmethod
    def from_config(cls, config: Config) -> Settings:
        return parse_settings(config.section("trim"))

    def list_fields(self) -> frozenset[str]:
        return frozenset(self.caps)


def _fail(where: str, message: str) -> ConfigError:
    return ConfigError(f"trim.{where}: {message}")


def _names(raw: dict[str, Any], key: str) -> list[str]:
    value = raw.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(key, "must be a list of field names")
    return list(value)


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _fail(where, f"must be an integer >= 0, not {value!r}")
    return value


def parse_settings(raw: Any) -> Settings:
    if not isinstance(raw, dict):
        raise ConfigError("trim: must be a mapping")
    kinds = _names(raw, "kinds")
    caps: dict[str, Cap] = {}
    raw_caps = raw.get("caps") or {}
    if not isinstance(raw_caps, dict):
        raise _fail("caps", "must be a mapping of list field -> {keep, max}")
    for name, spec in raw_caps.items():
        if spec is None or spec is False:  # a repository may switch a cap off
            continue
        if not isinstance(spec, dict):
            raise _fail(f"caps.{name}", "must be {keep: first|last, max: N} or null")
        if spec.get("keep") not in ("first", "last"):
            raise _fail(f"caps.{name}.keep", "must be 'first' or 'last'")
        caps[name] = Cap(spec["keep"], _count(spec.get("max"), f"caps.{name}.max"))
    raw_window = raw.get("window")
    window: dict[str, int] = {}
    if isinstance(raw_window, int) and not isinstance(raw_window, bool):
        window = {name: _count(raw_window, "window") for name in caps}
    elif isinstance(raw_window, dict):
        for name, size in raw_window.items():
            if size is None or name not in caps:
                if size is not None and name not in raw_caps:
                    raise _fail(
                        f"window.{name}", "no trim.caps entry says which end of this list to keep"
                    )
                continue
            window[name] = _count(size, f"window.{name}")
    elif raw_window is not None:
        raise _fail("window", "must be an integer or a mapping of list field -> integer")
    keep, optional = _names(raw, "keep"), _names(raw, "optional")
    both = sorted(set(keep) & set(optional))
    if both:
        raise _fail(
            "optional", f"{', '.join(both)} also listed in trim.keep; a field cannot be both"
        )
    archive = raw.get("archive") or {}
    if not isinstance(archive, dict):
        raise _fail("archive", "must be a mapping {enabled, path}")
    enabled = archive.get("enabled", True)
    if not isinstance(enabled, bool):
        raise _fail("archive.enabled", "must be true or false")
    path = archive.get("path")
    if enabled and (not isinstance(path, str) or not path.strip()):
        raise _fail("archive.path", "must be a file name or path template")
    return Settings(kinds, caps, window, keep, optional, enabled, path or "")


# ------------------------------------------------------------------ cutting
class Cut:
    """Text edits of one plan and what they remove."""

    __slots__ = ("chars", "dropped", "edits", "kept", "lines", "messages", "removed", "scalars")

    def __init__(self) -> None:
        self.lines: list[tuple[int, int]] = []  # inclusive line ranges
        self.chars: list[tuple[int, int, str]] = []  # (start, end, replacement)
        self.removed: dict[str, Any] = {}
        self.kept: dict[str, list[Any]] = {}  # windowed lists after the cut
        self.dropped: list[str] = []
        self.scalars: list[tuple[int, int]] = []
        self.messages: list[str] = []
        self.edits: list[tuple[int, int, str]] = []  # set by render()


def plan_cut(layout: Any, windows: dict[str, tuple[str, int]], drop: list[str], why: str) -> Cut:
    """The edits that keep `windows` of the lists and remove the `drop` fields."""
    from .layout import iter_scalars

    cut = Cut()
    for key, fld in layout.fields.items():
        if key in drop:
            cut.lines.append((fld.lead, fld.trail))
            cut.removed[key] = fld.value
            cut.dropped.append(key)
            cut.scalars += iter_scalars(fld.key_node) + iter_scalars(fld.node)
            cut.messages.append(f"removed optional field {key} ({_lines(fld.line_count)})")
            continue
        if key not in windows or not fld.items:
            continue
        keep, count = windows[key]
        items = fld.items
        total = len(items)
        if count >= total:
            continue
        if keep == "last":
            gone, kept = items[: total - count], items[total - count :]
        else:
            gone, kept = items[count:], items[:count]
        if fld.style == "block-seq":
            if count == 0:
                cut.lines.append((items[0].first, items[-1].last))
                cut.chars.append(_empty_marker(layout, fld))
            elif keep == "last":
                cut.lines.append((items[0].first, gone[-1].last))
            else:
                cut.lines.append((kept[-1].last + 1, items[-1].last))
        else:
            text = layout.text
            if count == 0:
                opening = text.index("[", fld.node.start_mark.index)
                cut.chars.append((opening + 1, fld.node.end_mark.index - 1, ""))
            elif keep == "last":
                cut.chars.append(
                    (items[0].node.start_mark.index, kept[0].node.start_mark.index, "")
                )
            else:
                cut.chars.append((kept[-1].node.end_mark.index, items[-1].node.end_mark.index, ""))
        cut.removed[key] = [item.value for item in gone]
        cut.kept[key] = [item.value for item in kept]
        for item in gone:
            cut.scalars += iter_scalars(item.node)
        cut.messages.append(
            f"{key}: removed {len(gone)} of {total} items, kept the {keep} {count} ({why})"
        )
    return cut


def _empty_marker(layout: Any, fld: Any) -> tuple[int, int, str]:
    """Insert ` []` after `key:` (and any tag/anchor) so an emptied block list stays a list."""
    from .layout import Refused

    text, lines = layout.text, layout.lines
    line_end = lines.start(fld.key_line) + len(lines.get(fld.key_line))
    colon = text.find(":", fld.key_node.end_mark.index, line_end)
    if colon == -1:
        raise Refused(f"cannot empty {fld.key}: its `:` is not on the key line", fld.key_line + 1)
    rest = text[colon + 1 : line_end]
    props = 0
    for word in rest.split():
        if word[0] in "!&":
            props = rest.index(word, props) + len(word)
        else:
            break
    return (colon + 1 + props, colon + 1 + props, " []")


def render(layout: Any, cut: Cut, final_newline_as_before: bool = True) -> str:
    """The original text with the cut's ranges deleted (and its insertions made).

    When the last line goes and it had no newline, the new last line loses its
    newline too, unless `final_newline_as_before` is off: a `|` block scalar that
    becomes the last value would lose a character of its content.
    """
    from .layout import Refused

    text, lines = layout.text, layout.lines
    merged: list[list[int]] = []
    for first, last in sorted(cut.lines):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    edits = [(lines.start(a), lines.start(b + 1), "") for a, b in merged]
    if (
        final_newline_as_before
        and edits
        and edits[-1][1] == len(text)
        and not text.endswith("\n")
        and edits[-1][0] > 0
    ):
        start = edits[-1][0]
        edits[-1] = (start - (2 if text[start - 2 : start] == "\r\n" else 1), len(text), "")
    edits += cut.chars
    edits.sort()
    out: list[str] = []
    pos = 0
    for start, end, replacement in edits:
        if start < pos:
            raise Refused("internal: overlapping cuts; file left untouched")
        out += (text[pos:start], replacement)
        pos = end
    out.append(text[pos:])
    cut.edits = edits
    return "".join(out)


def removed_comments(layout: Any, cut: Cut) -> list[str]:
    from .layout import comments_in

    found: list[str] = []
    for start, end, _ in cut.edits:
        if end > start:
            found += comments_in(layout.text, start, end, cut.scalars)
    return found


def expected_data(layout: Any, cut: Cut) -> dict[Any, Any]:
    return {
        key: cut.kept.get(key, value)
        for key, value in layout.data.items()
        if key not in cut.dropped
    }


# ------------------------------------------------------------------ the algorithm
class TrimResult:
    __slots__ = (
        "after",
        "before",
        "comments",
        "messages",
        "over_hard",
        "removed",
        "skipped",
        "step",
        "text",
    )

    def __init__(self, text: str, before: int, after: int) -> None:
        self.text, self.before, self.after = text, before, after
        self.step = 0  # 0 nothing removed, 1 caps, 2 soft-limit trim
        self.removed: dict[str, Any] = {}
        self.comments: list[str] = []
        self.messages: list[str] = []
        self.over_hard: str | None = None
        self.skipped: str | None = None


def _check_shapes(layout: Any, settings: Settings) -> None:
    from .layout import Refused, shape_name

    for name in settings.caps:
        fld = layout.fields.get(name)
        if fld is None or fld.value is None:
            continue
        if not isinstance(fld.value, list):
            raise Refused(
                f"{name} is {shape_name(fld.value)}, expected a list of strings", fld.key_line + 1
            )
        for index, item in enumerate(fld.items):
            if not isinstance(item.value, str):
                raise Refused(
                    f"{name}[{index}] is {shape_name(item.value)}; lists of non-strings are not trimmed",
                    item.node.start_mark.line + 1,
                )


def trim_text(
    text: str,
    settings: Settings,
    soft: int | None,
    hard: int | None,
    *,
    identify: dict[str, Any] | None = None,
    max_nodes: int = 100_000,
    limits: dict[str, int] | None = None,
) -> TrimResult:
    """Apply the algorithm to a checkpoint's text; raises Refused when it cannot."""
    from .layout import Refused, analyze

    layout = analyze(text, settings.list_fields(), max_nodes, limits)
    before = count_lines(text)
    result = TrimResult(text, before, before)
    if not layout.fields:
        return result
    if identify is not None:
        from ..checks.foreign import foreign_reason

        reason = foreign_reason(layout.fields.keys(), identify)
        if reason:
            result.skipped = reason
            return result
    _check_shapes(layout, settings)
    caps = {name: (cap.keep, cap.max) for name, cap in settings.caps.items()}
    cut = plan_cut(layout, caps, [], "cap")
    new_text = render(layout, cut)
    step = 1 if cut.removed else 0
    after = count_lines(new_text)
    if soft is not None and after > soft:
        windows = {
            name: (cap.keep, min(cap.max, settings.window.get(name, cap.max)))
            for name, cap in settings.caps.items()
        }
        drop = [k for k in layout.fields if k in settings.optional and k not in settings.keep]
        if len(drop) == len(layout.fields):
            drop = []  # never leave an empty document
        soft_cut = plan_cut(layout, windows, drop, "window")
        if soft_cut.removed:
            result.messages.append(
                f"{after} lines after capping the lists, over the soft limit of {soft}: "
                "cutting the lists to their windows and removing optional fields"
            )
            cut, new_text, step = soft_cut, render(layout, soft_cut), 2
            after = count_lines(new_text)
    result.messages += cut.messages
    result.step, result.after = step, after
    if cut.removed:
        expected = expected_data(layout, cut)
        checked = _verified(new_text, expected, settings, max_nodes, limits)
        if checked is None and not text.endswith("\n"):
            new_text = render(layout, cut, final_newline_as_before=False)
            checked = _verified(new_text, expected, settings, max_nodes, limits)
        if checked is None:
            raise Refused(
                "the trimmed text would not hold exactly the kept data (anchors, aliases or "
                "unusual layout in a removed part?); file left untouched"
            )
        result.text = new_text
        result.removed = cut.removed
        result.comments = removed_comments(layout, cut)
        layout = checked
    if hard is not None and after > hard:
        result.over_hard = _too_large(layout, after, hard)
    return result


def _verified(
    text: str, expected: Any, settings: Settings, max_nodes: int, limits: Any = None
) -> Any:
    """The layout of `text` if it parses to exactly `expected`, else None."""
    from .layout import Refused, analyze, same

    try:
        checked = analyze(text, settings.list_fields(), max_nodes, limits)
    except Refused as exc:
        raise Refused(
            f"the trimmed text would not parse ({exc}); an anchor in a removed part? "
            "file left untouched"
        ) from None
    return checked if same(checked.data, expected) else None


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def _too_large(layout: Any, lines: int, hard: int) -> str:
    parts = sorted(layout.fields.values(), key=lambda f: (-f.line_count, f.key_line))
    shown = [f"{f.key} ({_lines(f.line_count)})" for f in parts[:3]]
    outside = lines - sum(f.line_count for f in parts)
    if outside > 0:
        shown.append(f"comments and blank lines outside the fields ({_lines(outside)})")
    return (
        f"still {lines} lines after trimming, over the hard limit of {hard}: the checkpoint "
        f"structure itself is too large; taking the space: {', '.join(shown)}. Shorten these "
        "or move detail to sprint.yaml"
    )


# ------------------------------------------------------------------ one file
class Outcome:
    """What fix_file did to one file (the contract with `asimov-validate --fix`)."""

    __slots__ = (
        "after",
        "archive",
        "before",
        "changed",
        "error",
        "messages",
        "path",
        "skipped",
        "warning",
        "written",
    )

    def __init__(self, path: str) -> None:
        self.path = path
        self.changed = False
        self.messages: list[str] = []
        self.error: str | None = None
        self.warning: str | None = None  # over a hard limit whose rule is only a warning
        self.skipped: str | None = None
        self.written = False
        self.archive: str | None = None
        self.before: str | None = None
        self.after: str | None = None


def fix_file(
    path: str,
    config: Config,
    *,
    archive: bool | None = None,
    archive_path: str | None = None,
    dry_run: bool = False,
) -> Outcome:
    """Trim one checkpoint in place. Bad input becomes `.error`; the file is then untouched.

    ConfigError (an unusable `trim` section) propagates: it is the caller's exit 2.
    """
    from ..readers.fileio import DirectoryLocks
    from . import archive as trim_archive

    outcome = Outcome(path)
    settings = Settings.from_config(config)
    rel = config.relpath(path)
    kind = config.kind_for(rel)
    if kind not in settings.kinds:
        listed = ", ".join(settings.kinds) or "none"
        outcome.skipped = f"not a file kind that is trimmed (trim.kinds: {listed})"
        return outcome
    spec = config.kinds[kind]
    if spec.get("format") != "yaml":
        raise ConfigError(
            f"trim.kinds: {kind} is not a YAML kind; only YAML checkpoints are trimmed"
        )
    rules = config.rules_for(kind, rel)
    use_archive = settings.archive if archive is None else archive
    target = _archive_target(path, settings, archive_path) if use_archive else None
    root = trim_archive.root_of(path)
    if not trim_archive.inside_root(path, root):
        outcome.error = f"not trimmed: a symbolic link to a file outside {root}"
        return outcome
    # the lock spans reading the checkpoint to writing it: concurrent trims of one file
    # archive each removed item once, and trims sharing an archive keep every entry
    with DirectoryLocks([path] if target is None or dry_run else [path, target]):
        return _fix_locked(path, config, outcome, settings, spec, rules, target, dry_run)


def _archive_target(path: str, settings: Settings, archive_path: str | None) -> str:
    """The archive file for `path`: the command line's (trusted) or the config's, which
    a pull request can change and so must stay inside the checkpoint's repository."""
    from . import archive as trim_archive

    if archive_path:
        return os.path.abspath(archive_path)
    target = trim_archive.archive_path_for(path, settings.archive_path)
    root = trim_archive.root_of(path)
    if not trim_archive.inside_root(target, root):
        where = os.path.realpath(target)
        raise ConfigError(
            f"trim.archive.path: {settings.archive_path!r} puts the archive of {path} at "
            f"{where}, outside {root}; the archive must live inside the checkpoint's "
            "repository (or its directory, outside git)"
        )
    return target


def _fix_locked(
    path: str,
    config: Config,
    outcome: Outcome,
    settings: Settings,
    spec: dict[str, Any],
    rules: dict[str, Any],
    target: str | None,
    dry_run: bool,
) -> Outcome:
    from ..readers.fileio import BOM, FileProblem, read_text
    from ..readers.markers import find_conflict_marker
    from .layout import Refused

    soft = rules.get("max-lines-soft", {}).get("max")
    hard = rules.get("max-lines-hard", {}).get("max")
    try:
        source = read_text(path, rules.get("max-bytes-hard", {}).get("max"))
    except FileProblem as problem:
        outcome.error = f"not trimmed: {problem.message}"
        return outcome
    marker = find_conflict_marker(source.text)
    if marker is not None:
        outcome.error = f"not trimmed: unresolved merge conflict markers (line {marker})"
        return outcome
    try:
        result = trim_text(
            source.text,
            settings,
            soft,
            hard,
            identify=spec if spec.get("identify") else None,
            max_nodes=rules.get("yaml-aliases", {}).get("max-nodes", 100_000),
            limits=config.limits,
        )
    except Refused as refused:
        outcome.error = f"not trimmed: {refused}"
        return outcome
    if result.skipped:
        outcome.skipped = result.skipped
        return outcome
    outcome.before, outcome.after = source.text, result.text
    outcome.messages = list(result.messages)
    outcome.changed = result.text != source.text
    if outcome.changed:
        outcome.messages.append(f"{result.before} -> {result.after} lines")
        if not dry_run and not os.access(os.path.realpath(path), os.W_OK):
            outcome.error = "not trimmed: the file is read-only"
            outcome.changed = False
            return outcome
        if target is not None:
            error = _archive(outcome, result, config, source.newline, target, dry_run)
            if error:
                outcome.error, outcome.changed = error, False
                return outcome
        else:
            outcome.messages.append("removed content not archived (archive disabled)")
        if not dry_run:
            from ..readers.fileio import atomic_write

            data = (BOM if source.bom else b"") + result.text.encode("utf-8")
            try:
                atomic_write(path, data)
            except OSError as exc:
                outcome.error = f"cannot write: {exc.strerror or exc}" + (
                    " (what it would remove is already archived; a second run archives it again)"
                    if outcome.archive
                    else ""
                )
                outcome.changed = False
                return outcome
            outcome.written = True
    if result.over_hard:
        if rules.get("max-lines-hard", {}).get("level", "error") == "error":
            outcome.error = result.over_hard
        else:  # the repository made the hard limit a warning (as ADR-007's own CLI)
            outcome.warning = result.over_hard
    return outcome


def _archive(
    outcome: Outcome,
    result: TrimResult,
    config: Config,
    newline: str,
    target: str,
    dry_run: bool,
) -> str | None:
    """Append the removed data to the archive; an error message when that is unsafe."""
    import datetime

    from . import archive as trim_archive

    path = outcome.path
    if os.path.realpath(target) == os.path.realpath(path):
        return "not trimmed: the archive path is the checkpoint itself"
    other = config.kind_for(config.relpath(target))
    if other is not None and not config.kinds[other].get("archive"):
        return (
            f"not trimmed: the archive {target} would itself be checked as {other}; "
            "choose another trim.archive.path"
        )
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    entry: dict[str, Any] = {
        "trimmed_at": now,
        "source": config.relpath(path),
        "reason": "over the soft line limit" if result.step == 2 else "list caps",
        "removed": result.removed,
    }
    if result.comments:
        entry["comments"] = result.comments
    try:
        data, _ = trim_archive.build(target, entry, newline, config.limits)
        if not dry_run:
            trim_archive.write(target, data)
    except trim_archive.ArchiveError as exc:
        return f"not trimmed: {exc}"
    outcome.archive = target
    shown = os.path.relpath(target) if not os.path.isabs(path) else target
    if dry_run:
        outcome.messages.append(
            f"would archive what it removes to {shown} (dry run: nothing written)"
        )
    else:
        outcome.messages.append(f"archived what was removed to {shown}")
    return None


# ------------------------------------------------------------------ command line
def run(
    files: list[str],
    *,
    config_path: str | None = None,
    archive: bool | None = None,
    archive_path: str | None = None,
    dry_run: bool = False,
    diff: bool = False,
    quiet: bool = False,
) -> int:
    out, err = sys.stdout, sys.stderr
    try:
        config = load_config(config_path)
        settings = Settings.from_config(config)
    except ConfigError as exc:
        err.write(f"{PROG}: error: {exc}\n")
        return EXIT_USAGE
    paths = files or ["."]
    for path in paths:
        if not os.path.lexists(path):
            err.write(f"{PROG}: error: {path}: no such file or directory\n")
            return EXIT_USAGE
    from ..engine import iter_files
    from ..readers.fileio import FileProblem

    status = EXIT_OK
    try:
        for path, explicit in iter_files(paths, config):
            if not explicit and config.kind_for(config.relpath(path)) not in settings.kinds:
                continue
            try:
                outcome = fix_file(
                    path, config, archive=archive, archive_path=archive_path, dry_run=dry_run
                )
            except (ConfigError, KeyboardInterrupt):
                raise
            except Exception as exc:  # a bug on one file: say so, and trim the others
                if os.environ.get("ASIMOV_HOOKS_DEBUG"):
                    import traceback

                    traceback.print_exc()
                err.write(
                    f"{path}: error: not trimmed: internal error: {type(exc).__name__}: {exc}\n"
                )
                status = EXIT_USAGE
                continue
            status = max(status, _report(outcome, dry_run, diff, quiet, out, err))
    except ConfigError as exc:
        err.write(f"{PROG}: error: {exc}\n")
        return EXIT_USAGE
    except FileProblem as problem:  # a directory that cannot be searched
        err.write(f"{PROG}: error: {problem.message}\n")
        return EXIT_USAGE
    return status


def _report(outcome: Outcome, dry_run: bool, diff: bool, quiet: bool, out: Any, err: Any) -> int:
    path = outcome.path
    if outcome.skipped:
        if not quiet:
            out.write(f"{path}: skipped: {outcome.skipped}\n")
        return EXIT_OK
    if outcome.changed:
        out.write(f"{'Would fix' if dry_run else 'Fixing'} {path}\n")
        for message in outcome.messages:
            out.write(f"  {message}\n")
        if diff and outcome.before is not None and outcome.after is not None:
            import difflib

            out.writelines(
                difflib.unified_diff(
                    outcome.before.splitlines(keepends=True),
                    outcome.after.splitlines(keepends=True),
                    fromfile=f"a/{path}",
                    tofile=f"b/{path}",
                )
            )
    if outcome.warning:
        out.flush()
        err.write(f"{path}: warning: {outcome.warning}\n")
    if outcome.error:
        out.flush()
        err.write(f"{path}: error: {outcome.error}\n")
    return EXIT_FAIL if outcome.changed or outcome.error else EXIT_OK
