"""Inline suppressions: `asimov-hooks: disable-line RULE[,RULE] -- reason`.

Three directives, each naming the rules it silences (a reason after ` -- ` is kept for
the reader and ignored here):

- `disable-line` silences findings on its own line;
- `disable-next-line` silences findings on the line below it;
- `disable-file` silences the rules anywhere in the file.

YAML files carry them in a `#` comment, text (Markdown) files inside `<!-- ... -->` on one
line; JSON has no comments, so JSON files have none (per-path `overrides` in the config do
the same job). Rules about the whole file (its size, where it lives) report at a line that
moves as the file changes, so only `disable-file` silences them; a line directive that
names one is reported as invalid (`invalid-suppression`), as is an unknown rule id. A
directive that silences nothing is reported by `unused-suppression`.

The check runs only on files whose text holds `asimov-hooks:`, so hook runs over files
without directives pay one substring search.
"""

from __future__ import annotations

from ..config.registry import PATH_RULES, SIZE_RULES

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Callable, Collection

    from ..findings import FileResult

MARK = "asimov-hooks:"
ACTIONS = ("disable-line", "disable-next-line", "disable-file")
UNUSED, INVALID = "unused-suppression", "invalid-suppression"
RULES: dict[str, object] = {}  # both are emitted by `apply`, after the checks (no check)
# Findings about the whole file: reported at a line, but that line is where the file
# crossed a limit (or line 1), not the line at fault. Taken from the registry: every size
# and agent-limit rule, every rule about where the file is, and two about what it is.
FILE_RULES = SIZE_RULES | PATH_RULES | {"not-protocol-file", "empty-file"}
# Reported before the text can be read, or about the directives themselves.
UNSUPPRESSIBLE = frozenset({"io-error", "encoding", UNUSED, INVALID})
# After these nothing else in the file was checked: a directive for another rule may be
# needed once they are fixed, so it is not called unused.
STOPPING = frozenset({"syntax", "duplicate-key", "conflict-markers", "yaml-aliases", "empty-file"})


class Entry:
    """One rule named by one directive."""

    __slots__ = ("action", "col", "line", "rule", "used")

    def __init__(self, action: str, rule: str, line: int, col: int) -> None:
        self.action, self.rule, self.line, self.col = action, rule, line, col
        self.used = False

    def covers(self, line: int) -> bool:
        if self.action == "disable-file":
            return True
        return line == (self.line + 1 if self.action == "disable-next-line" else self.line)


def comment_style(fmt: str) -> str | None:
    """How directives are written in files of this format: `#`, `<!--`, or not at all."""
    return {"yaml": "#", "text": "<!--"}.get(fmt)


def _directive(line: str, style: str) -> tuple[int, str] | None:
    """(column of the mark, text after it) when `line` holds a directive comment. Each
    mark costs the blanks before it and one search for `-->`: a line of marks is read
    once, not once per mark."""
    at = line.find(MARK)
    while at != -1:
        start = at  # where the blanks before the mark begin
        while start and line[start - 1] in " \t":
            start -= 1
        if style == "#":
            if start and line[start - 1] == "#" and (start == 1 or line[start - 2] in " \t"):
                return at, line[at + len(MARK) :]
        elif start >= 4 and line.startswith("<!--", start - 4):
            end = line.find("-->", at + len(MARK))
            if end == -1:
                return None  # no comment closes after this mark, nor after any later one
            return at, line[at + len(MARK) : end]
        at = line.find(MARK, at + 1)
    return None


def _in_scalars(text: str) -> Callable[[int, int], bool]:
    """Whether (line, col), 1-based, lies inside a YAML scalar's text: a `# asimov-hooks:`
    in a block scalar (`|`, `>`) or a quoted string is text, not a comment. Spans come
    from the pure parser's node marks; a text it cannot read has none (every `#` at
    the start of a word then counts, as before)."""
    from ..readers.yamlio import SAFE_PURE, make_yaml, nodes, reading

    spans: list[tuple[tuple[int, int], tuple[int, int]]] = []
    try:
        with reading(text, SAFE_PURE):
            root = make_yaml(SAFE_PURE).compose(text)
        for node in nodes([root]):  # a collection's value is a list: its children follow
            if isinstance(node.value, list):
                continue
            if node.start_mark.line != node.end_mark.line and getattr(node, "style", None):
                start, end = node.start_mark, node.end_mark
                # a block scalar's text starts below its indicator (`key: | # comment`)
                first = (
                    (start.line + 2, 1)
                    if node.style in "|>"
                    else (start.line + 1, start.column + 1)
                )
                spans.append((first, (end.line + 1, end.column + 1)))
    except Exception:  # unreadable YAML: its syntax finding stops the other checks anyway
        spans = []
    return lambda line, col: any(a <= (line, col) < b for a, b in spans)


def parse(text: str, style: str) -> tuple[list[Entry], list[tuple[int, int, str]]]:
    """The rule entries of every directive, and (line, col, message) for bad ones."""
    entries: list[Entry] = []
    problems: list[tuple[int, int, str]] = []
    in_scalar: Callable[[int, int], bool] | None = None
    for number, line in enumerate(text.split("\n"), 1):
        if MARK not in line:
            continue
        found = _directive(line.rstrip("\r"), style)
        if found is None:
            continue
        if style == "#":
            if in_scalar is None:
                in_scalar = _in_scalars(text)
            if in_scalar(number, found[0] + 1):
                continue
        at, body = found
        start = at + len(MARK)
        stripped = body.lstrip(" \t")
        pos = start + len(body) - len(stripped)
        parts = stripped.split(None, 1)
        action = parts[0] if parts else ""
        rest = parts[1] if len(parts) > 1 else ""
        if action not in ACTIONS:
            problems.append(
                (
                    number,
                    pos + 1,
                    f"unknown directive {action!r}: expected disable-line, disable-next-line "
                    "or disable-file",
                )
            )
            continue
        names = "" if rest.startswith("--") else rest
        for sep in (" --", "\t--"):
            cut = names.find(sep)
            if cut != -1:
                names = names[:cut]
        names_at = pos + len(stripped) - len(rest)
        found_any = False
        offset = 0
        for piece in names.split(","):
            name = piece.strip()
            col = names_at + offset + (len(piece) - len(piece.lstrip())) + 1
            offset += len(piece) + 1
            if name:
                found_any = True
                entries.append(Entry(action, name, number, col))
        if not found_any:
            problems.append(
                (number, pos + 1, f"{action} names no rule: list the rule ids it is for")
            )
    return entries, problems


def apply(
    result: FileResult,
    text: str,
    style: str,
    known: Collection[str],
    active: Collection[str],
    emit: Callable[..., None],
    never: Collection[str] = (),
) -> None:
    """Drop the findings the file's directives silence; report bad and unused ones.

    `active`: the rules that ran on the file; `never`: rules that do not run on files of
    its kind whatever is selected (not among the kind's rules, or switched off).
    """
    entries, problems = parse(text, style)
    complete = result.skipped is None and not any(f.rule in STOPPING for f in result.findings)
    for line, col, message in problems:
        emit(INVALID, message, line, col)
    valid: list[Entry] = []
    for entry in entries:
        if entry.rule not in known:
            emit(
                INVALID,
                f"{entry.action} names unknown rule id {entry.rule!r}{_hint(entry.rule, known)}",
                entry.line,
                entry.col,
            )
        elif entry.rule in UNSUPPRESSIBLE:
            emit(INVALID, f"{entry.rule} cannot be suppressed inline", entry.line, entry.col)
        elif entry.rule in FILE_RULES and entry.action != "disable-file":
            emit(
                INVALID,
                f"{entry.rule} is about the whole file: use disable-file {entry.rule}",
                entry.line,
                entry.col,
            )
        else:
            valid.append(entry)
    kept = []
    for finding in result.findings:
        hit = None
        if finding.rule not in UNSUPPRESSIBLE:
            for entry in valid:
                if entry.rule == finding.rule and entry.covers(finding.line):
                    entry.used = hit = True
        if not hit:
            kept.append(finding)
    result.findings[:] = kept
    for entry in valid:
        if entry.rule in never:
            emit(
                UNUSED,
                f"{entry.action} {entry.rule}: {entry.rule} does not run on "
                f"{result.kind} files (not one of its rules, or switched off): nothing to suppress",
                entry.line,
                entry.col,
            )
    if complete:
        for entry in valid:
            if not entry.used and entry.rule in active and entry.rule not in never:
                where = {
                    "disable-line": "on this line",
                    "disable-next-line": "on the next line",
                    "disable-file": "in this file",
                }[entry.action]
                emit(
                    UNUSED,
                    f"{entry.action} {entry.rule}: no {entry.rule} finding {where} to suppress",
                    entry.line,
                    entry.col,
                )


def _hint(rule: str, known: set[str] | frozenset[str]) -> str:
    """ " (did you mean 'x'?)" for a misspelt rule id."""
    from ..config.check import did_you_mean

    return did_you_mean(rule, known)
