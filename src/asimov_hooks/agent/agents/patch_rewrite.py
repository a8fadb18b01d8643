"""A Codex `apply_patch` envelope changed so that chosen files end up with chosen
content, every other section left as the model wrote it (ADR-007's trim before the
write: Codex takes the changed patch as PreToolUse `updatedInput.command`).

A file's section is replaced only where that is exact: the patch touches the file
once (no second section, no move to or from it) and adds or updates it. The new
section is `*** Add File:` with every line of the content (a new file, or a section
that was an Add File) or `*** Update File:` with one hunk whose removed lines are the
whole current text and whose added lines are the content. Codex ends every file it
writes with a newline, so content without one, and text with CR line ends (which
the hunk's lines would lose), is left to the trim after the write. The result is
worked out again with `apply_patch` (Codex's rules) and must give each carried file
exactly its content, so the changed patch and the archive cannot disagree.

Pure Python without `re`: the hook's path imports it only for a trimmed file.
"""

from __future__ import annotations

from .apply_patch import END, PatchError, apply_patch, parse_patch

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable

    from .apply_patch import FileOp


def rewrite_patch(
    text: str,
    plans: dict[str, tuple[str | None, str]],
    where: Callable[[str], str],
) -> tuple[str, list[str]] | None:
    """(the patch leaving each carried path with its planned content, the carried
    paths); None when it carries none. `plans`: {path: (current text or None, content
    wanted)}; `where(name)` is the path a name in the patch stands for."""
    try:
        ops = parse_patch(text)
    except PatchError:
        return None
    lines = text.split("\n")
    ends = [i for i, line in enumerate(lines) if line.strip() == END]
    if not ends:
        return None
    touched: dict[str, int] = {}
    for op in ops:
        for name in {where(op.path), *([where(op.move_to)] if op.move_to else [])}:
            touched[name] = touched.get(name, 0) + 1
    starts = [op.line - 1 for op in ops] + [ends[-1]]
    out = list(lines)
    carried: dict[str, str] = {}  # path: the name the patch calls it
    for index in range(len(ops) - 1, -1, -1):
        op = ops[index]
        path = where(op.path)
        if path not in plans or touched.get(path) != 1 or not _exact(op, where):
            continue
        section = _section(op, *plans[path])
        if section is None:
            continue
        out[starts[index] : starts[index + 1]] = section
        carried[path] = op.path
    if not carried:
        return None
    new = "\n".join(out)
    if not _agrees(new, plans, carried, where):
        return None
    return new, list(carried)


def _exact(op: FileOp, where: Callable[[str], str]) -> bool:
    if op.kind not in ("add", "update"):
        return False
    return op.move_to is None or where(op.move_to) == where(op.path)


def _section(op: FileOp, current: str | None, content: str) -> list[str] | None:
    """The lines of a section leaving the file with `content`; None when no section
    gives exactly that."""
    if not content.endswith("\n") or "\r" in content:
        return None
    added = [f"+{line}" for line in content[:-1].split("\n")]
    if op.kind == "add" or current is None:
        return [f"*** Add File: {op.path}", *added]
    if not current.strip() or "\r" in current:
        return None  # a hunk needs lines to find; CR line ends would be lost
    body = current[:-1] if current.endswith("\n") else current
    removed = [f"-{line}" for line in body.split("\n")]
    return [f"*** Update File: {op.path}", "@@", *removed, *added]


def _agrees(
    text: str,
    plans: dict[str, tuple[str | None, str]],
    carried: dict[str, str],
    where: Callable[[str], str],
) -> bool:
    """Whether Codex's rules, applied to the changed patch, leave each carried file
    with exactly its planned content."""

    def read(name: str) -> str | None:
        return plans[where(name)][0]

    try:
        results = apply_patch(text, read, select=lambda name: where(name) in carried)
    except PatchError:
        return False
    got = {where(name): content for name, content in results.items()}
    return all(got.get(path) == plans[path][1] for path in carried)
