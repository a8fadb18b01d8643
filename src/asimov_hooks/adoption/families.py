"""Which families of agent files a repository uses, found by name.

Tracked and untracked files come from one `git ls-files` (honouring .gitignore); the
session checkpoints are git-ignored by design, so their usual places are looked at
directly as well. The Asimov family counts only where the repository follows the
protocol by the one decision validate and the agent hooks share, over what the repository
shares (config/follows: a tracked or untracked, not ignored protocol file with the
protocol's content), so a new project gets the hooks before its first commit, and
another tool's `warmup.yaml` or a lone ignored checkpoint brings no Asimov hooks. What
validate leaves out (an excluded path, another tool's file under a protocol name) is
neither listed nor counted.
"""

from __future__ import annotations

import os

from ..gitutil import GitError, git

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable

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

# in the order `init` names them: the protocol's identity file first
_ASIMOV_NAMES = (
    "warmup.yaml",
    "sprint.yaml",
    "roadmap.yaml",
    "ethics.yaml",
    ".claude_checkpoint.yaml",
)
SHOWN = 6  # names listed per family; the rest are counted
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
        # the checkpoints and their history archives, not a README beside them
        oc_file = name.endswith(".checkpoint.json") or (
            "history" in dirs and name.endswith(".json")
        )
        return OC if oc_file else None
    if ".code-intel" in dirs:
        return CODE_INTEL
    if name in _AGENT_NAMES or (name.endswith(".mdc") and ".cursor" in dirs):
        return AGENTS
    if rel == ".github/copilot-instructions.md" or name.endswith(".instructions.md"):
        return AGENTS
    return None


def detect(top: str) -> dict[str, list[str]]:
    """Family -> every path (relative to `top`) that shows it, protocol files first."""
    found: dict[str, list[str]] = {}
    try:
        done = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=top)
        shared = [p for p in done.stdout.split("\0") if p]
    except GitError:
        shared = []
    listed = list(shared)
    for paths in _EPHEMERAL.values():
        listed.extend(p for p in paths if os.path.lexists(os.path.join(top, p)))
    skipped = _validate_skips(top)
    for rel in sorted(set(listed)):
        family = family_of(rel)
        if family is not None and not skipped(rel):
            found.setdefault(family, []).append(rel)
    if ASIMOV in found:  # named like the protocol's files is not enough (config/follows)
        from ..config.follows import follows

        if follows(top, listed=shared) is None:
            del found[ASIMOV]
    return {family: sorted(found[family], key=_weight) for family in ORDER if family in found}


def _validate_skips(top: str) -> Callable[[str], bool]:
    """Whether validate leaves a file out: the config excludes it, no kind matches its
    name, or it is another tool's file under a protocol name (a Kubernetes manifest
    called warmup.yaml). A directory (`.code-intel/sessions`) is kept: it shows a
    family whose files git ignores."""
    from ..config.config import ConfigError, load_config

    try:
        config = load_config(None, start=top)
    except ConfigError:
        return lambda rel: False
    checker = None

    def skipped(rel: str) -> bool:
        nonlocal checker
        path = os.path.join(top, rel)
        if config.excluded(rel):
            return True
        if os.path.isdir(path):
            return False
        if checker is None:
            from ..validation.engine import Checker

            checker = Checker(config)
        try:
            return checker.check(path).skipped is not None
        except ConfigError:  # a kind's schema the config names wrongly: validate says so
            return False

    return skipped


def _weight(rel: str) -> tuple[int, int, str]:
    """Protocol files before the rest, shallow paths before deep ones."""
    name = rel.rsplit("/", 1)[-1]
    rank = _ASIMOV_NAMES.index(name) if name in _ASIMOV_NAMES else len(_ASIMOV_NAMES)
    return rank, rel.count("/"), rel


def listing(paths: list[str]) -> str:
    """The paths as `init` prints them: the first few, then how many more."""
    shown = ", ".join(paths[:SHOWN])
    more = len(paths) - SHOWN
    return shown + (f" and {more} more" if more > 0 else "")
