"""Which profile a file's rules follow: `asimov` or `generic`.

ADR-007's CLAUDE.md limits (10/15 lines, 250 tokens) belong to repositories that follow
the Asimov protocol, where CLAUDE.md is a short pointer to warmup.yaml. Elsewhere
CLAUDE.md is an agent instruction file like AGENTS.md and gets its loader's limits. A
kind lists the rules it changes per profile (`profiles` in rules/kinds.json); the config
chooses with `profile: asimov | generic | auto`. `auto` (the default) is asimov when one
of `profile-markers` (warmup.yaml, .asimov/, .claude_checkpoint.yaml) is in the file's
directory or one above it, up to the configuration's base (the repository's top).
$ASIMOV_HOOKS_PROFILE, when set, wins over the config (a CI job, a test suite).
"""

from __future__ import annotations

import os

from .packs import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

ASIMOV, GENERIC, AUTO = "asimov", "generic", "auto"
ENV_PROFILE = "ASIMOV_HOOKS_PROFILE"
HOW = "choose with `profile: asimov|generic|auto` in .asimov-hooks.yaml"


def profile_for(config: Any, kind: str | None, rel: str) -> str | None:
    """The profile for a file of `kind` at `rel` (relative to the config's base), or
    None when the kind has no profiles."""
    if not kind or not config.kinds.get(kind, {}).get("profiles"):
        return None
    chosen = chosen_profile(config)
    if chosen != AUTO:
        return chosen
    return ASIMOV if marker_for(config, rel) else GENERIC


def chosen_profile(config: Any) -> str:
    return os.environ.get(ENV_PROFILE) or config.data.get("profile", AUTO)


def check_environment() -> None:
    """A bad $ASIMOV_HOOKS_PROFILE is a configuration error, said before any check runs."""
    value = os.environ.get(ENV_PROFILE)
    if value and value not in (ASIMOV, GENERIC, AUTO):
        raise ConfigError(f"{ENV_PROFILE}: {value!r} is not one of auto, asimov, generic")


def marker_for(config: Any, rel: str) -> str | None:
    """The first marker found from the file's directory up to the base, as a path
    relative to the base; None if there is none (answers are kept per directory)."""
    seen: dict[str, str | None] = config.derived.setdefault("profile-markers", {})
    markers = config.data.get("profile-markers", ())
    directory = os.path.dirname(rel) if not rel.startswith("/") else ""
    walked = []
    found: str | None = None
    while True:
        if directory in seen:
            found = seen[directory]
            break
        walked.append(directory)
        for name in markers:
            if os.path.lexists(os.path.join(config.base_dir, directory, name)):
                found = f"{directory}/{name}" if directory else name
                break
        if found is not None or not directory:
            break
        directory = os.path.dirname(directory)
    for each in walked:
        seen[each] = found
    return found


def describe(config: Any, kind: str, rel: str) -> str:
    """One line saying which profile `rel` got and why."""
    profile = profile_for(config, kind, rel)
    if os.environ.get(ENV_PROFILE):
        why = f"set by {ENV_PROFILE}"
    elif chosen_profile(config) != AUTO:
        why = f"set in {config.source or 'the configuration'}"
    elif profile == ASIMOV:
        why = f"the repository follows the Asimov protocol: {marker_for(config, rel)}"
    else:
        names = ", ".join(config.data.get("profile-markers", ()))
        why = f"no Asimov protocol file ({names}) here or above"
    from ..fs.access import show  # one line, whatever the names hold

    return show(f"profile {profile} for {rel} ({why}; {HOW})")
