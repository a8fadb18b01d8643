"""Which checkpoint protocols a repository uses, the checkpoint message that names
their files, and the checkpoint text re-read for the agent after a restart.

A repository uses the Asimov protocol when a protocol file in the work tree has the
protocol's content (config/follows, the decision validate and `init` share, in its
work-tree scope: a git-ignored checkpoint counts here), and the OC
Checkpoint Protocol when its `.checkpoints/` files exist (`agent.protocols` in
rules/agent.json names the kinds). One that uses neither is never asked
for a checkpoint: the request would name a file that has no place there.

What is re-read into the agent's context and what it is asked to write are only files of
the shipped protocol kinds, at the paths the shipped rule pack gives them. A repository's
config can switch such a kind off (`files: []`, or leave it out of `agent.protocols` /
`agent.checkpoint-kinds`), never point it at other files: a committed config that declares
`.env` a checkpoint must not get the user's secrets read to the agent or overwritten.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ...config.config import Config


def _shipped(pack: str, key: str) -> dict[str, Any]:
    from ...config.packs import load_rule_file

    return load_rule_file(pack).get(key, {})


def protocol_patterns(config: Config, kind: str) -> list[str]:
    """Where the agent hooks look for files of `kind`: the shipped pack's patterns for
    it, none for a kind the pack does not ship, and none when the repository's config
    switched the kind off (gave it no `files`). What else the config says a kind
    matches is for validation only."""
    shipped = _shipped("kinds.json", "kinds").get(kind, {}).get("files", [])
    own = config.kinds.get(kind, {}).get("files", shipped)
    return list(shipped) if own else []


def is_protocol_path(rel: str) -> bool:
    """Whether `rel` (relative to the work tree's top) is at a path the shipped rule
    pack gives one of its kinds."""
    from ...config.globs import match_any

    return any(
        match_any(rel, spec.get("files", ())) for spec in _shipped("kinds.json", "kinds").values()
    )


def kind_files(config: Config, kind: str, top: str) -> tuple[list[str], list[str]]:
    """(existing files of `kind`, the literal names it could have), relative to `top`,
    at the kind's shipped paths (`protocol_patterns`). Literal patterns are looked up;
    a pattern whose last part alone has wildcards (`.checkpoints/*.checkpoint.json`)
    lists that one directory."""
    from ...config.globs import match_any

    found: list[str] = []
    literal: list[str] = []
    for pattern in protocol_patterns(config, kind):
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


def protocol_kinds(settings: dict[str, Any]) -> dict[str, list[str]]:
    """Each shipped protocol with the kinds of it the settings keep (a config may
    leave kinds out, not add any)."""
    shipped = _shipped("agent.json", "agent").get("protocols", {})
    own = settings["protocols"]
    return {
        name: [k for k in kinds if k in own.get(name, ())]
        for name, kinds in shipped.items()
        if name in own
    }


def used(config: Config, settings: dict[str, Any], top: str) -> list[str]:
    """The protocols (`asimov`, `oc`) the repository uses, in settings order. The Asimov
    protocol is decided as validate and `init` decide it (config/follows: a protocol
    file with the protocol's content at the top, never another tool's `roadmap.yaml`),
    over what the work tree holds: the agent works with the files on disk, git-ignored
    ones included; the OC protocol by its `.checkpoints/` files."""
    from ...config.follows import DEFAULT_MARKERS, WORK_TREE, follows_here

    found = []
    for name, kinds in protocol_kinds(settings).items():
        if name == "asimov":
            markers = tuple(config.data.get("profile-markers", DEFAULT_MARKERS))
            hit = bool(kinds) and follows_here(top, "", markers, None, WORK_TREE) is not None
        else:
            hit = any(kind_files(config, kind, top)[0] for kind in kinds)
        if hit:
            found.append(name)
    return found


def checkpoint_kinds(settings: dict[str, Any], protocols: list[str] | None = None) -> list[str]:
    """The shipped checkpoint kinds the settings keep, of `protocols` (all when None)."""
    shipped = _shipped("agent.json", "agent").get("checkpoint-kinds", [])
    kept = [k for k in shipped if k in settings["checkpoint-kinds"]]
    if protocols is None:
        return kept
    own = protocol_kinds(settings)
    return [k for k in kept if any(k in own.get(p, ()) for p in protocols)]


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
    """The checkpoint message naming the files of `protocols`; when the Asimov checkpoint
    is still the example `init` wrote, it says so."""
    if settings.get("refused"):
        from .request_files import say_refused

        say_refused(settings)
    texts = settings["checkpoint-files"]
    parts = [texts[p] for p in protocols if p in texts]
    files = " and ".join(parts) if parts else "your checkpoint"
    if "{path}" in files or "{sprint}" in files:
        path = asimov_path(config, settings, top)
        folder = os.path.dirname(path)  # `.asimov/`: the layout keeps its sprint there too
        sprint = f"{folder}/sprint.yaml" if folder else "sprint.yaml"
        files = files.replace("{path}", path).replace("{sprint}", sprint)
    text = settings["checkpoint-message"].replace("{files}", files)
    if "asimov" in protocols:
        path = asimov_path(config, settings, top)
        if _is_example(os.path.join(top, path), top):
            text += (
                f" {path} still holds the example `asimov-hooks init` wrote: keep its shape, "
                "replace its values."
            )
    return text


EXAMPLE_MARK = "# Example checkpoint written by asimov-hooks init"


def _is_example(path: str, top: str) -> bool:
    from ...fs.access import FileProblem, read_head

    try:
        head = read_head(path, len(EXAMPLE_MARK) + 3, root=top)[0]
    except (FileProblem, OSError):
        return False
    return head.removeprefix(b"\xef\xbb\xbf").startswith(EXAMPLE_MARK.encode())


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
