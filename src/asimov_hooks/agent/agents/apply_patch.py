"""Codex's `apply_patch` envelope: what each file would hold after the patch.

Codex edits files with one tool, `apply_patch`, whose input is a patch text:

    *** Begin Patch
    *** Add File: path        (every following line is "+" and a line of the new file)
    *** Delete File: path
    *** Update File: path
    *** Move to: new/path     (optional, right after Update File)
    @@ optional context line  (hunks: " " context, "-" removed, "+" added lines)
    *** End of File           (optional: the hunk ends at the end of the file)
    *** End Patch

The write-time check needs the content a patch would leave, before Codex writes it.
`apply_patch` works that out the way Codex applies a patch (hunks found in order from
the file's start, context matched exactly, then ignoring trailing whitespace, then
ignoring surrounding whitespace, then with typographic punctuation read as ASCII; a
result always ends with a newline), reading current files only through the function
it is given. It writes nothing. A patch Codex would refuse is a `PatchError` naming
the line, so the caller can leave the refusal to Codex.

Pure Python without `re`: the cheap path of the agent hook imports it.
"""

from .patch_lines import PatchError, updated

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable, Iterable

__all__ = [
    "MAX_FILES",
    "MAX_PATCH_CHARS",
    "MAX_RESULT_CHARS",
    "FileOp",
    "Hunk",
    "PatchError",
    "apply_patch",
    "parse_patch",
    "patch_paths",
]

BEGIN, END = "*** Begin Patch", "*** End Patch"
ADD, DELETE, UPDATE, MOVE = (
    "*** Add File: ",
    "*** Delete File: ",
    "*** Update File: ",
    "*** Move to: ",
)
END_OF_FILE = "*** End of File"
# Bounds: a patch is text a model wrote; a hook must answer in well under a second.
MAX_PATCH_CHARS = 2 * 1024 * 1024
MAX_FILES = 256
MAX_RESULT_CHARS = 8 * 1024 * 1024


class Hunk:
    """One `@@` hunk: an optional context line to find first, then the lines it
    replaces (`old`) and the lines that replace them (`new`)."""

    __slots__ = ("context", "end_of_file", "new", "old")

    def __init__(self, context: str | None, old: list[str], new: list[str], eof: bool) -> None:
        self.context = context
        self.old = old
        self.new = new
        self.end_of_file = eof


class FileOp:
    """One file section: kind is "add", "delete" or "update"."""

    __slots__ = ("content", "hunks", "kind", "line", "move_to", "path")

    def __init__(self, kind: str, path: str, line: int) -> None:
        self.kind = kind
        self.path = path
        self.line = line
        self.move_to: str | None = None
        self.content = ""  # "add" only
        self.hunks: list[Hunk] = []  # "update" only


def _body(text: str) -> tuple[list[str], int]:
    """The lines between the Begin and End markers, and the patch line number of the
    first of them. Accepts the markers padded with whitespace and a shell heredoc
    around the whole patch (`<<'EOF'` ... `EOF`), as Codex does."""
    lines = text.strip().split("\n")
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    first = 1 + text[: len(text) - len(text.lstrip())].count("\n")
    heredoc = lines[0].strip() in ("<<EOF", "<<'EOF'", '<<"EOF"') and lines[-1].strip() == "EOF"
    if heredoc and len(lines) >= 4:
        lines, first = lines[1:-1], first + 1
    if not lines or lines[0].strip() != BEGIN:
        raise PatchError(f"the first line of the patch must be '{BEGIN}'", first)
    if len(lines) < 2 or lines[-1].strip() != END:
        raise PatchError(f"the last line of the patch must be '{END}'", first + len(lines) - 1)
    return lines[1:-1], first + 1


def _header(line: str) -> tuple[str, str] | None:
    stripped = line.strip()
    for marker, kind in ((ADD, "add"), (DELETE, "delete"), (UPDATE, "update")):
        if stripped.startswith(marker) or stripped == marker[:-1]:
            return kind, stripped[len(marker) :].strip()
    return None


def _move_target(line: str) -> str | None:
    stripped = line.strip()
    if stripped.startswith(MOVE) or stripped == MOVE[:-1]:
        return stripped[len(MOVE) :].strip()
    return None


def parse_patch(
    text: str, *, max_chars: int = MAX_PATCH_CHARS, max_files: int = MAX_FILES
) -> "list[FileOp]":
    """The file sections of a patch, in order; `PatchError` where Codex would refuse it."""
    if len(text) > max_chars:
        raise PatchError(
            f"patch of {len(text):,} characters is over the {max_chars:,} this check reads"
        )
    lines, number = _body(text)
    ops: list[FileOp] = []
    i = 0
    while i < len(lines):
        line_no = number + i
        header = _header(lines[i])
        if header is None:
            raise PatchError(
                f"'{lines[i].strip()}' is not a file header "
                "('*** Add File: ', '*** Delete File: ' or '*** Update File: ' and a path)",
                line_no,
            )
        kind, path = header
        if not path:
            raise PatchError("the file header names no path", line_no)
        if len(ops) >= max_files:
            raise PatchError(f"the patch changes more than {max_files} files", line_no)
        op = FileOp(kind, path, line_no)
        i += 1
        if kind == "add":
            added = []
            while i < len(lines) and lines[i].startswith("+"):
                added.append(lines[i][1:] + "\n")
                i += 1
            op.content = "".join(added)
        elif kind == "update":
            target = _move_target(lines[i]) if i < len(lines) else None
            if target is not None:
                op.move_to = target
                if not target:
                    raise PatchError("'*** Move to:' names no path", number + i)
                i += 1
            i = _parse_hunks(lines, i, number, op)
        ops.append(op)
    return ops


def _parse_hunks(lines: list[str], i: int, number: int, op: "FileOp") -> int:
    while i < len(lines) and _header(lines[i]) is None:
        line = lines[i]
        stripped = line.strip()
        context = None
        if stripped == "@@" or line.startswith("@@ "):
            context = line[3:] if line.startswith("@@ ") else None
            i += 1
        elif op.hunks:  # only the first hunk may leave out its @@ line
            raise PatchError(f"expected a hunk starting with '@@', got '{line}'", number + i)
        hunk = Hunk(context, [], [], False)
        count = 0
        while i < len(lines):
            line = lines[i]
            if line.strip() == END_OF_FILE:
                if count == 0:
                    raise PatchError("the hunk has no lines", number + i)
                hunk.end_of_file = True
                i += 1
                break
            tag = line[:1]
            if tag == "" or tag == " ":
                hunk.old.append(line[1:])
                hunk.new.append(line[1:])
            elif tag == "-":
                hunk.old.append(line[1:])
            elif tag == "+":
                hunk.new.append(line[1:])
            elif count == 0:
                raise PatchError(
                    f"unexpected line '{line}' in a hunk: each line starts with ' ', '-' or '+'",
                    number + i,
                )
            else:
                break
            count += 1
            i += 1
        if count == 0:
            raise PatchError("the hunk has no lines", number + i)
        op.hunks.append(hunk)
    if not op.hunks:
        raise PatchError(f"'*** Update File: {op.path}' has no hunks", op.line)
    return i


def patch_paths(text: str) -> list[str]:
    """Every path a patch names (sources and move targets), cheaply; [] when the text
    is not a patch. For the hook's fast path: no file is read."""
    out: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        header = _header(stripped)
        if header is not None and header[1]:
            out.append(header[1])
        elif _move_target(stripped):
            out.append(stripped[len(MOVE) :].strip())
    return out


# -- applying ------------------------------------------------------------------------


def apply_patch(
    text: str,
    read: "Callable[[str], str | None]",
    *,
    select: "Callable[[str], bool] | None" = None,
    max_chars: int = MAX_PATCH_CHARS,
    max_files: int = MAX_FILES,
    max_result_chars: int = MAX_RESULT_CHARS,
) -> dict[str, str | None]:
    """The content each affected path would have after the patch (None: deleted), in
    the patch's order, paths as the patch writes them.

    `read(path)` gives a file's current text, or None when there is none; the caller
    bounds and confines it. With `select`, only the paths it accepts are worked out
    (plus whatever they are moved from), so files no check wants are not read.
    """
    ops = parse_patch(text, max_chars=max_chars, max_files=max_files)
    wanted = _closure(ops, select)
    state: dict[str, str | None] = {}  # results so far: later sections see earlier ones

    def current(path: str) -> str | None:
        return state[path] if path in state else read(path)

    out: dict[str, str | None] = {}
    for op in ops:
        if wanted is not None and op.path not in wanted and op.move_to not in wanted:
            continue
        if op.kind == "add":
            results = {op.path: op.content}
        elif op.kind == "delete":
            if current(op.path) is None:
                raise PatchError(f"cannot delete {op.path}: no such file", op.line)
            results = {op.path: None}
        else:
            original = current(op.path)
            if original is None:
                raise PatchError(f"cannot update {op.path}: no such file", op.line)
            try:
                content = updated(op.path, original, op.hunks)
            except PatchError as exc:
                raise PatchError(exc.message, op.line) from None
            if op.move_to is not None and op.move_to != op.path:
                results = {op.path: None, op.move_to: content}
            else:
                results = {op.path: content}
        for path, content in results.items():
            if content is not None and len(content) > max_result_chars:
                raise PatchError(
                    f"{path} would have {len(content):,} characters, over the "
                    f"{max_result_chars:,} this check reads",
                    op.line,
                )
            state[path] = content
            out.pop(path, None)
            out[path] = content
    if wanted is not None:
        out = {path: content for path, content in out.items() if path in wanted}
    return out


def _closure(ops: "Iterable[FileOp]", select: "Callable[[str], bool] | None") -> set[str] | None:
    """The paths whose results are needed: the selected ones and, transitively, the
    sources moved onto them."""
    if select is None:
        return None
    ops = list(ops)
    wanted = {p for op in ops for p in (op.path, op.move_to) if p is not None and select(p)}
    grew = True
    while grew:
        grew = False
        for op in ops:
            if op.move_to in wanted and op.path not in wanted:
                wanted.add(op.path)
                grew = True
    return wanted
