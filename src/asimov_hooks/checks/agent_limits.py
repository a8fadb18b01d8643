"""What an agent's loader cuts off: character limits and a byte budget shared by a path.

Agents other than Claude Code read their instruction files with published limits and
drop what is past them without a word (docs/agents.md lists each limit and its source).
These rules say where the cut falls, at the line and column of the first character the
agent will not see, and how much is lost; the numbers and the agent's name are data in
rules/kinds.json.

- `max-chars`: the file's characters past `max` (counted as JavaScript counts them, in
  UTF-16 code units: the agents that publish these limits are JavaScript programs).
- `shared-byte-budget`: files read one per directory from the repository root down to
  the file's directory (Codex CLI's AGENTS.md chain), concatenated and cut at `max`
  bytes; per directory the first of `names` that exists is the one read.
"""

from __future__ import annotations

import os

from ..measure import utf16_len

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterator
    from typing import Any

    from ..fs.textio import TextFile
    from ..measure import TokenEstimator
    from .context import Context

    Problem = tuple[int, int, str]  # (line, col, message)


def _utf16_cut(text: str, limit: int) -> int | None:
    """Index of the first character past `limit` UTF-16 code units, or None."""
    if text.isascii():
        return limit if len(text) > limit else None
    units = 0
    for index, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > limit:
            return index
    return None


def position(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of character `index` in `text`."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def unseen(estimator: TokenEstimator, dropped: str, count: int) -> str:
    """How much the agent does not see, with the token figure marked as an estimate."""
    tokens = estimator.estimate(dropped)
    return (
        f"{count:,} character{'s' * (count != 1)} "
        f"(~{tokens:,} token{'s' * (tokens != 1)}, estimated as {estimator.name}) "
        "from here on are not seen"
    )


def max_chars(text: TextFile, opts: dict[str, Any], estimator: TokenEstimator) -> list[Problem]:
    limit = opts["max"]
    cut = _utf16_cut(text.text, limit)
    if cut is None:
        return []
    effect = opts.get("effect", f"are dropped by {opts.get('agent', 'the agent')}")
    dropped = text.text[cut:]
    line, col = position(text.text, cut)
    message = f"{utf16_len(text.text):,} characters; characters after {limit:,} {effect}"
    if opts.get("drops", True):
        message += ": " + unseen(estimator, dropped, utf16_len(dropped))
    return [(line, col, message)]


def _chain(path: str, names: list[str]) -> tuple[list[str], str | None]:
    """The files read before `path` (root first), and the name read instead of `path`
    in its own directory when a preferred name exists there (else None)."""
    from ..gitutil import find_toplevel

    here = os.path.dirname(os.path.abspath(path))
    top = find_toplevel(here)
    dirs = [here]
    if top is not None:
        here_real = os.path.realpath(here)
        while os.path.normcase(here_real) != os.path.normcase(top):
            parent = os.path.dirname(here_real)
            if parent == here_real:
                break
            dirs.append(parent)
            here_real = parent
        dirs.reverse()
    base = os.path.basename(path)
    instead = None
    if base in names:
        for name in names[: names.index(base)]:
            if os.path.isfile(os.path.join(here, name)):
                instead = name
                break
    before = []
    for directory in dirs[:-1]:
        for name in names:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                before.append(candidate)
                break
    return before, instead


def shared_byte_budget(
    path: str, text: TextFile, opts: dict[str, Any], estimator: TokenEstimator
) -> list[Problem]:
    limit = opts["max"]
    names = list(opts.get("names") or [os.path.basename(path)])
    agent = opts.get("agent", "the agent")
    before, instead = _chain(path, names)
    if instead is not None:
        return [
            (
                1,
                1,
                f"{agent} reads {instead} in this directory instead of this file: "
                "none of it is seen",
            )
        ]
    sizes = []
    for other in before:
        try:
            sizes.append(os.path.getsize(other))
        except OSError:
            sizes.append(0)
    used = sum(sizes)
    size = len(text.raw)
    if used + size <= limit:
        return []
    shared = ""
    if before:
        top = os.path.dirname(before[0])
        listed = ", ".join(
            f"{os.path.relpath(p, top).replace(os.sep, '/')} {n:,}"
            for p, n in zip(before, sizes, strict=True)
        )
        shared = f" ({listed} bytes)"
    if used >= limit:
        return [
            (
                1,
                1,
                f"{agent} drops all of this file: the files above it on the path{shared} "
                f"use up the {limit:,}-byte budget they share with it: "
                + unseen(estimator, text.text, len(text.text)),
            )
        ]
    offset = limit - used + (3 if text.bom else 0)  # bytes of this file that are read
    raw = text.raw
    line = raw.count(b"\n", 0, offset) + 1
    start = raw.rfind(b"\n", 0, offset) + 1
    if line == 1 and text.bom:
        start = min(3, offset)
    col = len(raw[start:offset].decode("utf-8", "ignore")) + 1
    head = raw[3 if text.bom else 0 : offset].decode("utf-8", "ignore")
    dropped = text.text[len(head) :]
    total = used + size
    where = f"{total:,} bytes with the files above it{shared}" if before else f"{size:,} bytes"
    return [
        (
            line,
            col,
            f"{where}; bytes after {limit:,} are dropped by {agent}: "
            + unseen(estimator, dropped, len(dropped)),
        )
    ]


def budget_unread(path: str, opts: dict[str, Any]) -> list[Problem]:
    """`shared-byte-budget` for a file too large to be read (past `max-bytes-hard`): the
    cut still falls where the agent stops, found from the file's first bytes alone."""
    from ..fs.access import FileProblem, read_head

    limit, agent = opts["max"], opts.get("agent", "the agent")
    names = list(opts.get("names") or [os.path.basename(path)])
    before, instead = _chain(path, names)
    if instead is not None:
        return [(1, 1, f"{agent} reads {instead} in this directory instead of this file")]
    used = sum(os.path.getsize(other) for other in before if os.path.isfile(other))
    try:
        size = os.path.getsize(path)
    except OSError:
        return []
    if used >= limit:
        return [(1, 1, f"{agent} drops all of this file: the files above it on the path use "
                 f"up the {limit:,}-byte budget they share with it")]  # fmt: skip
    try:
        raw, _ = read_head(path, limit - used + 3)
    except FileProblem:
        return []
    offset = limit - used + (3 if raw.startswith(b"\xef\xbb\xbf") else 0)
    line = raw.count(b"\n", 0, offset) + 1
    start = raw.rfind(b"\n", 0, offset) + 1
    col = len(raw[start:offset].decode("utf-8", "ignore")) + 1
    shared = f" with the files above it ({used:,} bytes)" if before else ""
    return [
        (
            line,
            col,
            f"{size + used:,} bytes{shared}; bytes after {limit:,} are dropped by {agent}: "
            f"the {size - (offset if offset <= size else size):,} bytes of this file from "
            "here on are not seen",
        )
    ]


def unread_findings(path: str, rules: dict[str, dict[str, Any]], emit: Any) -> None:
    """The findings a file past `max-bytes-hard` still gets: where the agent's loader
    cuts it (the engine reads no further)."""
    if "shared-byte-budget" in rules:
        for line, col, message in budget_unread(path, rules["shared-byte-budget"]):
            emit("shared-byte-budget", message, line, col)


# ------------------------------------------------------------------ the rules
def check_max_chars(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[Any, str]]:
    from .context import At

    for line, col, message in max_chars(ctx.text, opts, ctx.config.estimator_for(ctx.kind)):
        yield At(line, col), message


def check_shared_byte_budget(ctx: Context, opts: dict[str, Any]) -> Iterator[tuple[Any, str]]:
    from .context import At

    estimator = ctx.config.estimator_for(ctx.kind)
    for line, col, message in shared_byte_budget(ctx.path, ctx.text, opts, estimator):
        yield At(line, col), message


RULES = {"max-chars": check_max_chars, "shared-byte-budget": check_shared_byte_budget}
