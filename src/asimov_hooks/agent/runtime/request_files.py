"""The files a checkpoint request may name: only the protocol files.

The turn-end request (`checkpoint-message` with `{files}` made of `checkpoint-files`)
and the pre-compaction request (`compact-message`) are handed to the agent as an
instruction (Claude Code, Codex: the hook's reason; Cursor: the next user message). A
committed config may change their wording, never the files they name: a text that
names any other file (`.env`, `~/.ssh/id_ed25519`, `credentials` beside the config) is
replaced by the shipped one, so the agent is never told to read or overwrite a secret.

A word counts as a file name when it has a folder in it (`a/b`), begins with `.` or
`~`, ends in an extension with a letter (`notes.txt`, not `1.5` or `e.g.`), or is the
name of something other than a folder beside the config. It may stand when it is a
path the shipped rule pack gives a kind of the protocol the text is for (`<skill>`
standing for any name), that path's last part, or a folder of it.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Iterator
    from typing import Any

PLACEHOLDERS = ("{files}", "{path}", "{sprint}", "{since}")
_EDGES = "\"'`()[]{},;:!?*"


def protocol_patterns(protocols: list[str] | None = None) -> list[str]:
    """The shipped paths of the kinds of `protocols` (all shipped protocols: None)."""
    from ...config.packs import protocol_kinds

    return [
        pattern for kind in protocol_kinds(protocols).values() for pattern in kind.get("files", ())
    ]


def file_names(text: str, base: str | None) -> Iterator[str]:
    """The words of `text` that name a file (see the module's docstring)."""
    for placeholder in PLACEHOLDERS:
        text = text.replace(placeholder, " ")
    for word in text.split():
        word = word.strip(_EDGES).rstrip(".").strip(_EDGES)
        if not word:
            continue
        path_like = "/" in word or "\\" in word or (word[0] in ".~" and len(word) > 1)
        if path_like or _extension(word) or (base is not None and _beside(base, word)):
            yield word


def _extension(word: str) -> bool:
    stem, dot, ext = word.rpartition(".")
    if not dot or not stem or not 1 <= len(ext) <= 10 or not ext.isalnum():
        return False
    if not any(c.isalpha() for c in ext):
        return False  # 1.5, v2.0
    return any(len(part) > 1 for part in word.split("."))  # e.g, i.e, a.m


def _beside(base: str, word: str) -> bool:
    if not (word.replace("-", "").replace("_", "").isalnum()):
        return False
    path = os.path.join(base, word)
    return os.path.lexists(path) and not os.path.isdir(path)


def allowed(word: str, patterns: list[str]) -> bool:
    """Whether `word` names a path of `patterns` (a literal one's last part, a folder of
    one, `<name>` standing for any name)."""
    from ...config.globs import match_any

    name = word.replace("\\", "/")
    while name.startswith("./"):
        name = name[2:]
    if not name or name[0] in "/~" or ".." in name.split("/"):
        return False
    if match_any(_named(name).rstrip("/"), patterns):
        return True
    for pattern in patterns:
        pattern = pattern.lstrip("/")
        if name.endswith("/") and pattern.startswith(name):
            return True
        if not any(c in pattern for c in "*?[") and pattern.rsplit("/", 1)[-1] == name:
            return True
    return False


def _named(name: str) -> str:
    """`name` with each `<...>` as a name (`x`), left to right in one pass."""
    parts, at = [], 0
    while (start := name.find("<", at)) >= 0 and (end := name.find(">", start + 1)) >= 0:
        parts += [name[at:start], "x"]
        at = end + 1
    return "".join(parts) + name[at:]


def stray(text: str, patterns: list[str], base: str | None) -> str | None:
    """The first file `text` names that is not one of `patterns`' (None: none)."""
    return next((w for w in file_names(text, base) if not allowed(w, patterns)), None)


def aimed_at_protocol_files(settings: dict[str, Any], base: str | None) -> dict[str, Any]:
    """`settings` with each request text that names another file than the protocol
    files replaced by the shipped text; what was replaced is listed in `refused`
    (`key`, the file it named) for the caller to say."""
    from ...config.packs import load_rule_file

    shipped = load_rule_file("agent.json").get("agent", {})
    refused: list[tuple[str, str]] = []
    everything: list[str] | None = None
    for key in ("checkpoint-message", "compact-message"):
        text = settings.get(key)
        if not isinstance(text, str) or text == shipped.get(key):
            continue
        everything = protocol_patterns() if everything is None else everything
        name = stray(text, everything, base)
        if name is not None:
            refused.append((f"agent.{key}", name))
            settings[key] = shipped[key]
    texts = dict(settings.get("checkpoint-files", {}))
    for protocol, text in texts.items():
        if text == shipped.get("checkpoint-files", {}).get(protocol):
            continue
        name = stray(text, protocol_patterns([protocol]), base)
        if name is not None:
            refused.append((f"agent.checkpoint-files.{protocol}", name))
            original = shipped.get("checkpoint-files", {}).get(protocol)
            if original is None:
                del texts[protocol]
            else:
                texts[protocol] = original
    settings["checkpoint-files"] = texts
    settings["refused"] = refused
    return settings


def say_refused(settings: dict[str, Any]) -> None:
    """One stderr line for each request text replaced (the agent shows it to the user,
    never to the model)."""
    import sys

    from ...fs.access import show

    for key, name in settings.get("refused", ()):
        line = f"{key} names {name!r}, not a checkpoint protocol file; the shipped text is sent"
        sys.stderr.write(f"asimov-hooks agent-event: {show(line)}\n")
