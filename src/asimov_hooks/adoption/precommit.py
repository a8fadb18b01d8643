"""Extend a `.pre-commit-config.yaml` without rewriting it.

ruamel.yaml's round-trip reader says where each node starts; the new lines are spliced
into the text at those places, in the file's own indentation, so every line, comment and
quote of the user's file stays as it was. The result is read again and compared with
the original before anything is written.
"""

from __future__ import annotations

import re
from typing import Any

from ..readers.yamlio import ROUND_TRIP, load_all, single

PRE_COMMIT_CONFIG = ".pre-commit-config.yaml"
TYPES_KEY = "default_install_hook_types"


class SpliceError(Exception):
    """The file cannot be extended safely (the message says what to add by hand)."""


def _load(text: str) -> Any:
    from ..readers.problem import YAMLProblem

    try:
        return single(load_all(text, ROUND_TRIP)) if text.strip() else None
    except YAMLProblem as exc:
        raise SpliceError(f"{PRE_COMMIT_CONFIG}:{exc.line}:{exc.col}: {exc.message}") from None


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


class Style:
    """How the file indents a list item and its keys (from its first repo and hook)."""

    def __init__(self, lines: list[str], repos: Any) -> None:
        self.entry, self.entry_key = "  - ", "    "
        self.hook, self.hook_key = "      - ", "        "
        if repos:
            line, col = repos.lc.item(0)
            self.entry = lines[line][:col]
            self.entry_key = " " * col
            for repo in repos:
                hooks = repo.get("hooks") if isinstance(repo, dict) else None
                if hooks and hasattr(hooks, "lc"):
                    hline, hcol = hooks.lc.item(0)
                    rcol = repo.lc.key("hooks")[1]
                    self.hook = self.entry_key + lines[hline][rcol:hcol]
                    self.hook_key = " " * (col + hcol - rcol)
                    break
            else:
                self.hook = self.entry_key + "  - "
                self.hook_key = self.entry_key + "    "


def _scalar(value: Any) -> str:
    text = str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    plain = re.fullmatch(r"[A-Za-z0-9_./@+-][A-Za-z0-9_./@+ :-]*", text)
    if plain and not text.endswith((" ", ":")) and ": " not in text:
        return text
    return "'" + text.replace("'", "''") + "'"


def hook_lines(hook: dict[str, Any], style: Style) -> list[str]:
    out = []
    for index, (key, value) in enumerate(hook.items()):
        lead = style.hook if index == 0 else style.hook_key
        out.append(f"{lead}{key}: {_scalar(value)}")
    return out


def entry_lines(repo: str, rev: str | None, hooks: list[dict[str, Any]], style: Style) -> list[str]:
    out = [f"{style.entry}repo: {_scalar(repo)}"]
    if rev is not None:
        out.append(f"{style.entry_key}rev: {_scalar(rev)}")
    out.append(f"{style.entry_key}hooks:")
    for hook in hooks:
        out += hook_lines(hook, style)
    return out


def _back_over_blanks(lines: list[str], end: int, floor: int) -> int:
    """Move an insertion point up over blank lines and comments above it."""
    while end > floor and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end


def _next_key_line(mapping: Any, key: str, default: int) -> int:
    keys = list(mapping)
    at = keys.index(key)
    return mapping.lc.key(keys[at + 1])[0] if at + 1 < len(keys) else default


def existing_hook_ids(data: Any) -> set[str]:
    ids = set()
    repos = data.get("repos") if isinstance(data, dict) else None
    for repo in repos or ():
        for hook in (repo.get("hooks") if isinstance(repo, dict) else None) or ():
            if isinstance(hook, dict) and isinstance(hook.get("id"), str):
                ids.add(hook["id"])
    return ids


def newline_of(text: str) -> str:
    """The file's line ending: CRLF when most of its lines end so, else LF."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def extend(
    text: str,
    repo: str,
    rev: str | None,
    hooks: list[dict[str, Any]],
    install_types: tuple[str, ...] = (),
) -> tuple[str, list[str]]:
    """The text with `hooks` added (those whose id is not there yet) and
    `install_types` in `default_install_hook_types`, in the file's own line endings,
    and notes for the user. `hooks` are mappings written as given (id first)."""
    newline = newline_of(text)
    original, text = text, text.replace("\r\n", "\n")
    data = _load(text)
    if data is not None and not isinstance(data, dict):
        raise SpliceError(f"{PRE_COMMIT_CONFIG}: the top level is not a mapping")
    data = data if data is not None else {}
    present = existing_hook_ids(data)
    missing = [hook for hook in hooks if hook["id"] not in present]
    notes: list[str] = []
    lines = text.splitlines()
    if text and not text.endswith("\n"):
        text += "\n"
    if missing:
        lines = _add_hooks(lines, data, repo, rev, missing)
    if install_types:
        now = _load("\n".join(lines) + "\n") if missing else data  # positions after the splice
        lines, note = _add_install_types(lines, now, install_types)
        notes += note
    new = "\n".join(lines) + "\n" if lines else ""
    if not missing and new == text:
        return original, notes
    _verify(data, _load(new), [hook["id"] for hook in missing], install_types)
    return new.replace("\n", newline), notes


def _add_hooks(
    lines: list[str], data: Any, repo: str, rev: str | None, missing: list[dict[str, Any]]
) -> list[str]:
    repos = data.get("repos")
    if "repos" not in data or repos is None:
        style = Style(lines, None)
        body = entry_lines(repo, rev, missing, style)
        if "repos" in data:  # `repos:` with nothing after it
            at = data.lc.key("repos")[0]
            return [*lines[: at + 1], *body, *lines[at + 1 :]]
        return [*lines, "repos:", *body]
    if not isinstance(repos, list):
        raise SpliceError(f"{PRE_COMMIT_CONFIG}: `repos` is not a list")
    if not repos or repos.fa.flow_style():
        line = data.lc.key("repos")[0]
        if repos or not re.fullmatch(r"repos:\s*\[\s*\]\s*(#.*)?", lines[line]):
            raise SpliceError(f"{PRE_COMMIT_CONFIG}: `repos` is a flow-style list")
        comment = lines[line].partition("#")[2]
        lines[line] = "repos:" + (f"  #{comment}" if comment else "")
        body = entry_lines(repo, rev, missing, Style(lines, None))
        return [*lines[: line + 1], *body, *lines[line + 1 :]]
    style = Style(lines, repos)
    for index, entry in enumerate(repos):
        if not isinstance(entry, dict) or entry.get("repo") != repo or entry.get("rev") != rev:
            continue
        hooks = entry.get("hooks")
        if not isinstance(hooks, list) or not hooks or hooks.fa.flow_style():
            continue
        following = (
            repos.lc.item(index + 1)[0] if index + 1 < len(repos) else _repos_end(lines, data)
        )
        end = _next_key_line(entry, "hooks", following)
        end = _back_over_blanks(lines, end, hooks.lc.item(len(hooks) - 1)[0] + 1)
        body = [line for hook in missing for line in hook_lines(hook, style)]
        return [*lines[:end], *body, *lines[end:]]
    end = _repos_end(lines, data)
    end = _back_over_blanks(lines, end, repos.lc.item(len(repos) - 1)[0] + 1)
    return [*lines[:end], *entry_lines(repo, rev, missing, style), *lines[end:]]


def _repos_end(lines: list[str], data: Any) -> int:
    return _next_key_line(data, "repos", len(lines))


def _add_install_types(
    lines: list[str], data: Any, types: tuple[str, ...]
) -> tuple[list[str], list[str]]:
    """`types` added to `default_install_hook_types`: the key written when missing, the
    lacking types appended to the user's list (flow or block style) when present."""
    key = TYPES_KEY
    if key not in data:
        return [*lines, f"{key}: [{', '.join(types)}]"], []
    have = data.get(key)
    lacking = [t for t in types if t not in (have if isinstance(have, list) else ())]
    if not lacking:
        return lines, []
    at = data.lc.key(key)[0]
    if isinstance(have, list) and have.fa.flow_style():
        found = _flow_line(key, lines[at])
        if found:
            head, inner, tail = found
            added = (", " if inner.strip() else "") + ", ".join(lacking)
            lines = [*lines[:at], head + inner + added + tail, *lines[at + 1 :]]
            return lines, []
    elif isinstance(have, list) and have:
        last, col = have.lc.item(len(have) - 1)
        if last > at and lines[last][:col].strip() == "-":
            body = [lines[last][:col] + kind for kind in lacking]
            return [*lines[: last + 1], *body, *lines[last + 1 :]], []
    return lines, [
        f"{PRE_COMMIT_CONFIG}: add {', '.join(lacking)} to {key} (the hook types these "
        "hooks run at), then run `pre-commit install`"
    ]


def _verify(old: Any, new: Any, added: list[str], install_types: tuple[str, ...]) -> None:
    """The new text means the old plus the added hooks and hook types, nothing else."""
    before, after = _plain(old) or {}, _plain(new) or {}
    types = TYPES_KEY

    def rest(data: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in data.items() if k not in ("repos", types)}

    had = before.get(types)
    if types not in before:
        expected = list(install_types) or None
    elif isinstance(had, list):
        expected = [*had, *(t for t in install_types if t not in had)]
    else:
        expected = had
    ok = rest(before) == rest(after) and after.get(types) in (had, expected)
    old_repos, new_repos = before.get("repos") or [], after.get("repos") or []
    ok = ok and len(new_repos) >= len(old_repos)
    new_hooks: list[Any] = []
    for was, now in zip(old_repos, new_repos, strict=False):
        if not isinstance(was, dict) or not isinstance(now, dict):
            ok = ok and was == now
            continue
        count = len(was.get("hooks") or [])
        hooks = now.get("hooks") or []
        ok = ok and {**now, "hooks": hooks[:count]} == {**was, "hooks": was.get("hooks") or []}
        new_hooks += hooks[count:]
    for now in new_repos[len(old_repos) :]:
        new_hooks += (now.get("hooks") or []) if isinstance(now, dict) else [None]
    ids = sorted(str(h.get("id")) if isinstance(h, dict) else "" for h in new_hooks)
    if not ok or ids != sorted(added):
        raise SpliceError(f"{PRE_COMMIT_CONFIG}: cannot extend this file safely")


def _flow_line(key: str, line: str) -> tuple[str, str, str] | None:
    """(`key: [`, the items, `]` and a comment) of a one-line flow list, or None: its
    first `]` closes it, only blanks and a comment after; no `[` or `#` among the items.
    Read with finds, not a lazy pattern, so a line that never closes costs its length."""
    if not line.startswith(f"{key}:") or not line[len(key) + 1 :].lstrip().startswith("["):
        return None
    start = line.index("[", len(key) + 1) + 1
    close = line.find("]", start)
    if close < 0 or not _blank_or_comment(line[close + 1 :]):
        return None
    inner = line[start:close].rstrip()
    if "[" in inner or "#" in inner:
        return None
    return line[:start], inner, line[start + len(inner) :]


def _blank_or_comment(text: str) -> bool:
    """Whether `text` holds only blanks, then perhaps a comment."""
    rest = text.lstrip()
    return not rest or rest.startswith("#")
