"""Whether a repository follows the Asimov protocol: the one decision.

A repository follows the protocol where a committed (git-tracked) protocol file has the
protocol's content: one of `profile-markers` (warmup.yaml, a file of a protocol kind in
.asimov/, .claude_checkpoint.yaml) whose top-level keys pass the test that already skips
a foreign file of the same name (checks/foreign: a Kubernetes `warmup.yaml`, another
tool's `roadmap.yaml`). A git-ignored or untracked file never counts, so a developer's
machine and CI, which has only what was committed, agree. Outside a git work tree there
is nothing to ignore, and the files on disk count.

validate's profiles (validation/profiles), the agent hooks (agent/protocols: which
protocols a repository uses, the checkpoint message) and `init` (adoption/families) ask
here, so they cannot disagree.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

PROTOCOL = "asimov"
HEAD_BYTES = 65536  # the top-level keys of a protocol file are near its start
DEFAULT_MARKERS = ("warmup.yaml", ".asimov", ".claude_checkpoint.yaml")


def _kinds() -> dict[str, dict[str, Any]]:
    """The shipped kinds of the Asimov protocol (a repository's config cannot declare
    another file a protocol file: the decision reads what it names)."""
    from .packs import load_rule_file

    kinds = load_rule_file("kinds.json").get("kinds", {})
    names = load_rule_file("agent.json").get("agent", {}).get("protocols", {}).get(PROTOCOL, [])
    return {name: kinds[name] for name in names if name in kinds}


def _tracked(top: str, markers: tuple[str, ...]) -> list[str] | None:
    """The tracked paths (relative to `top`) named like a marker or inside a marker
    directory, or None when `top` is not in a git work tree (or git cannot run)."""
    from ..gitutil import GitError, find_toplevel, git

    if find_toplevel(top, for_git=True) is None:
        return None
    specs = []
    for marker in markers:
        specs += [f":(glob)**/{marker}", f":(glob)**/{marker}/*"]
    try:
        done = git("ls-files", "-z", "--cached", "--", *specs, cwd=top)
    except GitError:
        return None
    return sorted({p for p in done.stdout.split("\0") if p})


def _on_disk(top: str, markers: tuple[str, ...]) -> list[str]:
    """Outside git: the markers at the top, and the files of a marker directory there."""
    found = []
    for marker in markers:
        path = os.path.join(top, marker)
        if os.path.isdir(path):
            try:
                found += [f"{marker}/{name}" for name in sorted(os.listdir(path))]
            except OSError:
                continue
        elif os.path.lexists(path):
            found.append(marker)
    return found


def _home(rel: str, markers: tuple[str, ...]) -> tuple[str, str] | None:
    """(the directory a marker path speaks for, the path inside it), or None."""
    parts = rel.split("/")
    if len(parts) >= 2 and parts[-2] in markers:  # a file of a marker directory
        return "/".join(parts[:-2]), "/".join(parts[-2:])
    if parts[-1] in markers:
        return "/".join(parts[:-1]), parts[-1]
    return None


def has_protocol_content(path: str, inner: str, root: str | None = None) -> bool:
    """Whether the file at `path` (named `inner` inside its home, e.g.
    `.asimov/roadmap.yaml`) is a file of an Asimov kind with the protocol's content."""
    from ..checks.foreign import foreign_reason
    from ..fs.access import FileProblem, read_head
    from .globs import match_any

    spec = next((s for s in _kinds().values() if match_any(inner, s.get("files", ()))), None)
    if spec is None:
        return False
    try:
        head, _ = read_head(path, HEAD_BYTES, root=root)
    except (FileProblem, OSError):
        return False
    keys = _top_keys(head.decode("utf-8", "replace"))
    return bool(keys) and foreign_reason(keys, spec) is None


def _top_keys(text: str) -> list[str]:
    """The keys at column 0 of a block mapping, as checks/foreign reads them, without
    `re` (this runs on the size hook's path for every CLAUDE.md)."""
    keys = []
    for line in text.splitlines():
        if not line or line[0] in " \t#-[]{}&*!|>%@`,?" or ":" not in line:
            continue
        key, _, rest = line.partition(": ") if ": " in line else line.partition(":")
        if rest and not rest[0].isspace() and ": " not in line and not line.endswith(":"):
            continue
        key = key.strip()
        if len(key) > 1 and key[0] == key[-1] and key[0] in "'\"":
            key = key[1:-1]
        if key:
            keys.append(key)
    return keys


def evidence(
    top: str, markers: tuple[str, ...] = DEFAULT_MARKERS, cache: dict | None = None
) -> dict[str, str]:
    """{home directory: the first committed protocol file that shows it follows the
    protocol}, relative to `top`. `cache` keeps answers for one run (a validate run's
    config), so a batch asks git once per repository."""
    top = os.path.realpath(top)
    key = (top, tuple(markers))
    if cache is not None and key in cache:
        return cache[key]
    listed = _tracked(top, key[1])
    if listed is None:
        listed = _on_disk(top, key[1])
    found: dict[str, str] = {}
    order = {name: i for i, name in enumerate(key[1])}
    for rel in sorted(listed, key=lambda r: (r.count("/"), _rank(r, order), r)):
        home = _home(rel, key[1])
        if home is None or home[0] in found:
            continue
        if has_protocol_content(os.path.join(top, rel), home[1], root=top):
            found[home[0]] = rel
    if cache is not None:
        cache[key] = found
    return found


def _rank(rel: str, order: dict[str, int]) -> int:
    parts = rel.split("/")
    return order.get(parts[-1], order.get(parts[-2] if len(parts) > 1 else "", len(order)))


def follows_here(
    top: str,
    directory: str,
    markers: tuple[str, ...] = DEFAULT_MARKERS,
    cache: dict | None = None,
) -> str | None:
    """The evidence (relative to `top`) that `directory` (relative to `top`) or a
    directory above it up to `top` follows the protocol, or None."""
    found = evidence(top, markers, cache)
    if not found:
        return None
    while True:
        if directory in found:
            return found[directory]
        if not directory:
            return None
        directory = os.path.dirname(directory)


def follows(top: str, markers: tuple[str, ...] = DEFAULT_MARKERS) -> str | None:
    """The evidence that anything in the repository at `top` follows the protocol."""
    found = evidence(top, markers)
    return found[min(found, key=lambda d: (d.count("/"), d))] if found else None
