"""What a repository of given families needs: hooks, install hook types, ignore lines.

The recommended set reports each problem once: `asimov-validate` already checks
conflict markers, syntax and duplicate keys, and whether session files are committed,
so `asimov-checkpoint-conflicts` and `asimov-forbid-sessions` (for teams that want only
that check) are not added next to it. The merge-driver hook, which registers the driver
in each clone on checkouts and merges, comes with `--merge-driver` only: pre-commit
prints its status line on every checkout.
"""

from __future__ import annotations

from .families import AGENTS, ASIMOV, CODE_INTEL, OC

# in the order they are written (fixers first: pre-commit runs hooks in order)
HOOK_ORDER = (
    "asimov-trim",
    "asimov-oc-rotate",
    "asimov-validate",
    "asimov-ephemeral",
    "asimov-merge-driver",
)
HOOKS = {
    ASIMOV: ("asimov-trim", "asimov-validate", "asimov-ephemeral"),
    OC: ("asimov-oc-rotate", "asimov-validate"),
    CODE_INTEL: ("asimov-validate", "asimov-ephemeral"),
    AGENTS: ("asimov-validate",),
}
MERGE_DRIVER_HOOK = "asimov-merge-driver"
# the git hooks `pre-commit install` sets up (`default_install_hook_types`): the file hooks
# run on commits and on merge commits git makes itself (a merge without conflicts runs
# pre-merge-commit, not pre-commit); the checkout hooks only for the merge-driver hook
COMMIT_TYPES = ("pre-commit", "pre-merge-commit")
CHECKOUT_TYPES = ("post-checkout", "post-merge")

# (pattern, why): git-ignored where they belong, next to what writes them. An archive
# comes with the volumes a trim starts beside it when it is full (NAME.2.yaml, ...): the
# same patterns as the archive kind's files in rules/kinds.json
_ARCHIVE = "the trim archive of a git-ignored checkpoint"
_VOLUMES = "the trim archive's later volumes, started when it is full"
ARCHIVES = (
    (".claude_checkpoint.archive.yaml", _ARCHIVE),
    (".claude_checkpoint.archive.*.yaml", _VOLUMES),
)
CHECKPOINTS = ((".claude_checkpoint.yaml", "the session checkpoint (ADR-007: ephemeral)"),)
LAYOUT = (  # the .asimov/ layout's checkpoint and its archive
    (".asimov/checkpoint.yaml", "the session checkpoint (ADR-007: ephemeral)"),
    (".asimov/checkpoint.archive.yaml", _ARCHIVE),
    (".asimov/checkpoint.archive.*.yaml", _VOLUMES),
)
SESSIONS = ((".code-intel/sessions/", "code-intel's session state (local, never committed)"),)
LOCAL_SETTINGS = ((".claude/settings.local.json", "Claude Code's settings for this clone"),)


def hooks_for(families: set[str], merge_driver: bool = False) -> list[str]:
    wanted = {hook for family in families for hook in HOOKS[family]}
    wanted.add("asimov-validate")
    if merge_driver:
        wanted.add(MERGE_DRIVER_HOOK)
    return [hook for hook in HOOK_ORDER if hook in wanted]


def install_types(hooks: list[str]) -> tuple[str, ...]:
    """The hook types the hooks run at, for `default_install_hook_types`."""
    return COMMIT_TYPES + (CHECKOUT_TYPES if MERGE_DRIVER_HOOK in hooks else ())


def ignores_for(families: set[str], claude: bool, layout: bool) -> list[tuple[str, str]]:
    """The .gitignore lines the families need (whether git already ignores them is
    asked later, path by path)."""
    lines: list[tuple[str, str]] = []
    if ASIMOV in families:
        lines += [*CHECKPOINTS, *ARCHIVES, *(LAYOUT if layout else ())]
    if CODE_INTEL in families:
        lines += list(SESSIONS)
    if claude:
        lines += list(LOCAL_SETTINGS)
    return lines
