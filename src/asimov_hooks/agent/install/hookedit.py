"""Our hook entries in one agent's settings document: find, add, repair, remove.

Each step finds the next single change, makes it by splicing the text (jsonedit) and
looks again, until nothing is left to do: a change never works from positions an
earlier change moved. Only entries whose command runs `asimov-hooks agent-event` are
ever touched; the user's entries, even in the same matcher group, stay as they are.
"""

from __future__ import annotations

import os

from .jsonedit import Document, JsonEditError, blank_comments

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable
    from typing import Any

    from .targets import Agent

MAX_STEPS = 10_000
_EMPTY = {"o": ("{", "}"), "a": ("[", "]")}


def ours(command: Any) -> str | None:
    """The agent a hook command runs `asimov-hooks agent-event` for ("" for the form
    without `--agent`), or None when the command is not ours. Any path to the script
    and `python -m asimov_hooks` count, bare or in our guard (agent.install.guard);
    anything else on the line makes it the user's."""
    if not isinstance(command, str) or "agent-event" not in command:
        return None
    from ..runtime.shellwords import split
    from .guard import unguarded

    try:
        words = split(unguarded(command))
    except ValueError:
        return None
    if "agent-event" not in words:
        return None
    at = words.index("agent-event")
    if at < 1:
        return None
    program = os.path.basename(words[at - 1])
    if program not in ("asimov-hooks", "asimov-hooks.exe") and words[at - 1] != "asimov_hooks":
        return None
    rest = words[at + 1 :]
    if not rest:
        return ""
    if len(rest) == 2 and rest[0] == "--agent":
        return rest[1]
    if len(rest) == 1 and rest[0].startswith("--agent="):
        return rest[0][len("--agent=") :]
    return None


def check_shape(doc: Document, agent: Agent) -> None:
    """Refuse a document we could not edit without guessing (JsonEditError)."""
    data = doc.data
    if not isinstance(data, dict):
        raise JsonEditError("expected a JSON object at the top")
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise JsonEditError("`hooks` is not an object")
    wanted = {event for event, _ in agent.events}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            if event in wanted:
                raise JsonEditError(f"hooks.{event} is not a list")
            continue  # another setting in the same object (Gemini CLI's `enabled`)
        if not agent.grouped or event not in wanted:
            continue  # not ours to judge (Gemini CLI's `disabled` list); read with care
        for group in groups:
            if not isinstance(group, dict):
                raise JsonEditError(f"hooks.{event} is not a list of matcher groups")
            if not isinstance(group.get("hooks", []), list):
                raise JsonEditError(f"hooks.{event}[].hooks is not a list")


def found(doc: Document, agent: Agent) -> dict[str, list[str]]:
    """Event -> the commands of ours installed for it."""
    out: dict[str, list[str]] = {}
    for path, command in _our_entries(doc, agent):
        out.setdefault(path[1], []).append(command)
    return out


def _our_entries(doc: Document, agent: Agent) -> list[tuple[tuple, str]]:
    """(path of the entry, its command) for every entry of ours, in document order."""
    hooks = doc.data.get("hooks") if isinstance(doc.data, dict) else None
    entries: list[tuple[tuple, str]] = []
    for event, groups in (hooks or {}).items():
        if not isinstance(groups, list):
            continue
        for gi, group in enumerate(groups):
            if not isinstance(group, dict):
                continue
            if not agent.grouped:
                if ours(group.get(agent.key)) is not None:
                    entries.append((("hooks", event, gi), group[agent.key]))
                continue
            inner = group.get("hooks")
            for hi, hook in enumerate(inner if isinstance(inner, list) else []):
                if isinstance(hook, dict) and ours(hook.get("command")) is not None:
                    entries.append((("hooks", event, gi, "hooks", hi), hook["command"]))
    return entries


# ------------------------------------------------------------------ install
def install(doc: Document, agent: Agent, command: str) -> tuple[list[str], list[str]]:
    """Make every event run `command` once; (events added, events repaired)."""
    added: list[str] = []
    repaired: list[str] = []
    for event, matcher in agent.events:
        for _ in range(MAX_STEPS):
            step = _install_step(doc, agent, event, matcher, command)
            if step is None:
                break
            kind, change = step
            change()
            (added if kind == "added" else repaired).append(event)
    for _ in range(MAX_STEPS):  # events an earlier version installed, this one not
        stale = [p for p, _c in _our_entries(doc, agent) if p[1] in agent.retired]
        if not stale:
            break
        repaired.append(stale[-1][1])
        _remove_entry(doc, agent, stale[-1], {})
    return _unique(added), [e for e in _unique(repaired) if e not in added]


def _matches(group: dict[str, Any], matcher: str | None) -> bool:
    have = group.get("matcher")
    return have in (None, "", "*") if matcher is None else have == matcher


def _install_step(
    doc: Document, agent: Agent, event: str, matcher: str | None, command: str
) -> tuple[str, Callable[[], None]] | None:
    data = doc.data
    new = agent.group(matcher, command, event)
    if "hooks" not in data:
        return "added", lambda: doc.append((), {event: [new]}, key="hooks")
    groups = data["hooks"].get(event)
    if groups is None:
        return "added", lambda: doc.append(("hooks",), [new], key=event)
    mine = [(p, c) for p, c in _our_entries(doc, agent) if p[1] == event]
    if not mine:
        return "added", lambda: doc.append(("hooks", event), new)
    if not agent.grouped:
        keep, extra = mine[0], mine[1:]
        wanted = {"matcher": matcher} if matcher is not None else {}
        fix = _flat_fields(doc, keep[0], {**wanted, **agent.extras.get(event, {})})
        if fix is not None:
            return "repaired", fix
    else:
        good = [m for m in mine if _matches(groups[m[0][2]], matcher)]
        if not good:
            return "repaired", _regroup(doc, agent, mine, matcher)
        keep = good[0]
        extra = [m for m in mine if m is not keep]
    if keep[1] != command:
        return "repaired", lambda: doc.replace((*keep[0], agent.key), command)
    if extra:
        return "repaired", lambda: _remove_entry(doc, agent, extra[-1][0], {})
    return None


def _flat_fields(doc: Document, path: tuple, wanted: dict[str, Any]) -> Callable[[], None] | None:
    """The next field of a flat entry of ours to set as `wanted` has it (its matcher,
    an event's own field); the user's other fields on it stay."""
    entry = doc.value(path)
    for name, value in wanted.items():
        if name not in entry:
            return lambda name=name, value=value: doc.append(path, value, key=name)
        if entry[name] != value:
            return lambda name=name, value=value: doc.replace((*path, name), value)
    return None


def _regroup(
    doc: Document, agent: Agent, mine: list[tuple[tuple, str]], matcher: str | None
) -> Callable[[], None]:
    """Our entry sits under another matcher: fix the matcher of a group that holds only
    our entries; out of a group of the user's, take our entry (the next step adds ours)."""
    groups = doc.data["hooks"][mine[0][0][1]]
    for path, _ in mine:
        group = groups[path[2]]
        if all(ours(h.get("command")) is not None for h in group["hooks"] if isinstance(h, dict)):
            where = path[:3]
            if matcher is None:
                return lambda: doc.delete((*where, "matcher"))
            if "matcher" in group:
                return lambda: doc.replace((*where, "matcher"), matcher)
            return lambda: doc.append(where, matcher, key="matcher")
    return lambda: _remove_entry(doc, agent, mine[-1][0], {})


# ------------------------------------------------------------------ uninstall
def uninstall(doc: Document, agent: Agent, empties: dict[str, str]) -> list[str]:
    """Remove every entry of ours; events it removed from. `empties`: pointer -> the
    text a container had when install found it empty (it goes back to exactly that)."""
    removed: list[str] = []
    for _ in range(MAX_STEPS):
        entries = _our_entries(doc, agent)
        if not entries:
            break
        path = entries[-1][0]
        removed.append(path[1])
        _remove_entry(doc, agent, path, empties)
    return sorted(set(removed))


def _remove_entry(doc: Document, agent: Agent, path: tuple, empties: dict[str, str]) -> None:
    if agent.grouped and len(doc.value(path[:-1])) == 1:
        path = path[:3]  # the group held only this entry: the group goes
    _drop(doc, path, empties)


def _drop(doc: Document, path: tuple, empties: dict[str, str]) -> None:
    """Remove `path`; a container it leaves empty goes too, unless install found it
    empty (then it gets its own empty text back)."""
    parent = path[:-1]
    if len(doc.value(parent)) > 1:
        doc.delete(path)
        return
    recorded = empties.get(pointer(parent))
    if recorded is not None and _is_empty_text(recorded, doc.node(parent)):
        doc.set_text(parent, recorded)
    elif not parent:
        doc.delete(path)  # the document becomes `{}`
    else:
        _drop(doc, parent, empties)


def empty_containers(doc: Document, agent: Agent) -> dict[str, str]:
    """Pointer -> text of the containers an install may fill that are empty now."""
    out: dict[str, str] = {}
    paths: list[tuple] = [(), ("hooks",)] + [("hooks", event) for event, _ in agent.events]
    for path in paths:
        node = doc.node(path)
        if node is not None and node.kind in _EMPTY and not (node.members or node.items):
            out[pointer(path)] = doc.text_of(path)
    return out


def pointer(path: tuple) -> str:
    """A JSON Pointer (RFC 6901) for a path of keys."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _is_empty_text(text: str, node: Any) -> bool:
    if node is None or node.kind not in _EMPTY:
        return False
    opening, closing = _EMPTY[node.kind]
    inner = blank_comments(text[1:-1])  # a comment a user left in it is part of its text
    return text[:1] == opening and text[-1:] == closing and not inner.strip(" \t\r\n")


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
