"""Which checkpoint protocols a repository uses, the checkpoint message that names
their files, and the checkpoint text re-read for the agent after a restart.

A repository uses a protocol when a file of one of its kinds exists (`agent.protocols`
in rules/agent.json: the Asimov Protocol's checkpoint, warmup, sprint, ... files; the
OC Checkpoint Protocol's `.checkpoints/` files). One that uses neither is never asked
for a checkpoint: the request would name a file that has no place there.
"""

from __future__ import annotations

import os

from ..fs.access import FileProblem, read_head, show

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..validation.config import Config


def kind_files(config: Config, kind: str, top: str) -> tuple[list[str], list[str]]:
    """(existing files of `kind`, the literal names it could have), relative to `top`.
    Literal patterns are looked up; a pattern whose last part alone has wildcards
    (`.checkpoints/*.checkpoint.json`) lists that one directory."""
    from ..validation.globs import match_any

    found: list[str] = []
    literal: list[str] = []
    for pattern in config.kinds.get(kind, {}).get("files", []):
        pattern = pattern.lstrip("/")
        directory, name = os.path.split(pattern)
        if any(ch in directory for ch in "*?["):
            continue
        if not any(ch in name for ch in "*?["):
            literal.append(pattern)
            if os.path.lexists(os.path.join(top, pattern)) and pattern not in found:
                found.append(pattern)
            continue
        try:
            entries = sorted(os.listdir(os.path.join(top, directory) if directory else top))
        except OSError:
            continue
        for entry in entries:
            rel = f"{directory}/{entry}" if directory else entry
            if match_any(rel, [pattern]) and not os.path.isdir(os.path.join(top, rel)):
                found.append(rel)
    return found, literal


def used(config: Config, settings: dict[str, Any], top: str) -> list[str]:
    """The protocols (`asimov`, `oc`) with a file in the repository, in settings order."""
    return [
        name
        for name, kinds in settings["protocols"].items()
        if any(kind_files(config, kind, top)[0] for kind in kinds)
    ]


def checkpoint_kinds(settings: dict[str, Any], protocols: list[str]) -> list[str]:
    kinds = settings["checkpoint-kinds"]
    return [k for k in kinds if any(k in settings["protocols"].get(p, ()) for p in protocols)]


def asimov_path(config: Config, settings: dict[str, Any], top: str) -> str:
    """The Asimov checkpoint's name here: the one that exists, else the one whose
    directory exists (`.asimov/`), else the first the kind names."""
    names: list[str] = []
    for kind in checkpoint_kinds(settings, ["asimov"]):
        found, literal = kind_files(config, kind, top)
        if found:
            return found[0]
        names += literal
    for name in names:
        if "/" in name and os.path.isdir(os.path.join(top, os.path.dirname(name))):
            return name
    return names[0] if names else ".claude_checkpoint.yaml"


def message(config: Config, settings: dict[str, Any], top: str, protocols: list[str]) -> str:
    """The checkpoint message naming the files of `protocols`."""
    texts = settings["checkpoint-files"]
    parts = [texts[p] for p in protocols if p in texts]
    files = " and ".join(parts) if parts else "your checkpoint"
    if "{path}" in files:
        files = files.replace("{path}", asimov_path(config, settings, top))
    return settings["checkpoint-message"].replace("{files}", files)


def _squash(text: str) -> str:
    return " ".join(text.split())


def is_checkpoint_message(prompt: str, settings: dict[str, Any]) -> bool:
    """Whether `prompt` is the checkpoint message coming back (agents that turn the
    reason of a continued stop into a prompt): the configured text, whatever files
    it named."""
    template = _squash(settings["checkpoint-message"])
    text = _squash(prompt)
    if "{files}" not in template:
        return bool(text) and text == template
    head, _, tail = template.partition("{files}")
    return len(text) > len(head) + len(tail) and text.startswith(head) and text.endswith(tail)


def reread(
    config: Config, settings: dict[str, Any], top: str, protocols: list[str]
) -> tuple[list[str], list[str]]:
    """(the checkpoint texts to re-inject, each headed by its name; notes on files
    not shown). Newest OC checkpoints first; `context-budget` characters in all, and
    no file is read past what the budget can show."""
    paths: list[str] = []
    for kind in checkpoint_kinds(settings, protocols):
        found = kind_files(config, kind, top)[0]
        found.sort(key=lambda rel: -_mtime(os.path.join(top, rel)))
        paths += [rel for rel in found if rel not in paths]
    budget = max(0, settings["context-budget"])
    parts: list[str] = []
    notes: list[str] = []
    for rel in paths:
        if budget <= 0:
            notes.append(
                f"{rel}: not shown (the {settings['context-budget']}-character re-read budget is used up)"
            )
            continue
        try:
            raw, more = read_head(os.path.join(top, rel), budget * 4 + 4, root=top)
        except FileProblem as problem:
            notes.append(f"{show(rel)}: not re-read: {problem.message}")
            continue
        if b"\x00" in raw:
            notes.append(f"{show(rel)}: not re-read: binary content")
            continue
        text = raw.decode("utf-8", "replace").removeprefix("\ufeff")
        if more or len(text) > budget:
            cut = text.rfind("\n", 0, budget) + 1 or budget
            rest = "" if more else f"{text.count(chr(10), cut) + (not text.endswith(chr(10)))} "
            text = (
                text[:cut] + f"# ... {rest}more lines not shown: over the "
                f"{settings['context-budget']}-character re-read budget; run "
                "`asimov-hooks trim` and keep current state only\n"
            )
        budget -= len(text)
        parts.append(f"--- {rel} ---\n{text}")
    return parts, notes


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0
