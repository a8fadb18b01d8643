"""Which families of agent files a repository uses, found by name.

Tracked and untracked files come from one `git ls-files` (honouring .gitignore); the
session checkpoints are git-ignored by design, so their usual places are looked at
directly as well.
"""

from __future__ import annotations

import os

from ..gitutil import GitError, git

ASIMOV = "asimov"
OC = "oc"
CODE_INTEL = "code-intel"
AGENTS = "agents"
ORDER = (ASIMOV, OC, CODE_INTEL, AGENTS)

DESCRIPTION = {
    ASIMOV: "Asimov protocol files",
    OC: "OC checkpoints (.checkpoints/)",
    CODE_INTEL: "code-intel sessions (.code-intel/)",
    AGENTS: "agent instruction files",
}

_ASIMOV_NAMES = {
    ".claude_checkpoint.yaml",
    "warmup.yaml",
    "sprint.yaml",
    "roadmap.yaml",
    "ethics.yaml",
}
_AGENT_NAMES = {"CLAUDE.md", "AGENTS.md", "AGENTS.override.md", "GEMINI.md"}
# ignored by design: looked for on disk, not in git's list
_EPHEMERAL = {
    ASIMOV: (".claude_checkpoint.yaml", ".asimov/checkpoint.yaml"),
    CODE_INTEL: (".code-intel/sessions",),
}


def family_of(rel: str) -> str | None:
    """The family a repository-relative path belongs to, or None."""
    parts = rel.split("/")
    name = parts[-1]
    dirs = parts[:-1]
    if ".asimov" in dirs or ".forge" in dirs or name in _ASIMOV_NAMES:
        return ASIMOV
    if ".checkpoints" in dirs:
        return OC
    if ".code-intel" in dirs:
        return CODE_INTEL
    if name in _AGENT_NAMES or (name.endswith(".mdc") and ".cursor" in dirs):
        return AGENTS
    if rel == ".github/copilot-instructions.md" or name.endswith(".instructions.md"):
        return AGENTS
    return None


def detect(top: str) -> dict[str, list[str]]:
    """Family -> the paths (relative to `top`, sorted, at most a few) that show it."""
    found: dict[str, list[str]] = {}
    try:
        done = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=top)
        listed = [p for p in done.stdout.split("\0") if p]
    except GitError:
        listed = []
    for paths in _EPHEMERAL.values():
        listed.extend(p for p in paths if os.path.lexists(os.path.join(top, p)))
    for rel in sorted(set(listed)):
        family = family_of(rel)
        if family is not None:
            found.setdefault(family, []).append(rel)
    return {family: found[family][:3] for family in ORDER if family in found}
