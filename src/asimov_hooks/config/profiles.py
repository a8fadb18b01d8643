"""Which profile a file's rules follow: `asimov` or `generic`.

ADR-007's CLAUDE.md limits (10/15 lines, 250 tokens) belong to repositories that follow
the Asimov protocol, where CLAUDE.md is a short pointer to warmup.yaml. Elsewhere
CLAUDE.md is an agent instruction file like AGENTS.md and gets its loader's limits. A
kind lists the rules it changes per profile (`profiles` in rules/kinds.json); the config
chooses with `profile: asimov | generic | auto`. `auto` (the default) is asimov when a
file of `profile-markers` (warmup.yaml, .asimov/, .claude_checkpoint.yaml) with the
protocol's content is in the file's directory or one above it, up to the top of the
file's own repository (config/follows: the one decision, shared with the agent hooks
and `init`). validate counts what the repository shares (tracked files and untracked ones
git does not ignore); the agent hooks set `derived["scope"]` on their config to count
what the work tree holds. $ASIMOV_HOOKS_PROFILE, when set, wins over the config (a CI job,
a test suite).
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


def _where(config: Any, rel: str) -> tuple[str, str]:
    """(the top to decide from, the file's directory relative to it): the file's own
    work tree, or the config's base when that is inside the same work tree (or there
    is none)."""
    absolute = config.derived.get("elsewhere", {}).get(rel)
    if absolute is None:
        absolute = os.path.join(config.base_dir, rel)
    directory = os.path.realpath(os.path.dirname(absolute))
    tops = config.derived.setdefault("tops", {})
    if directory not in tops:
        from ..gitutil import find_toplevel

        tops[directory] = find_toplevel(directory)
    top = tops[directory]
    base = config.base_dir
    if top is None or base == top or base.startswith(top.rstrip(os.sep) + os.sep):
        if directory == base or directory.startswith(base.rstrip(os.sep) + os.sep):
            inner = os.path.relpath(directory, base).replace(os.sep, "/")
            return base, "" if inner == "." else inner
        top = top or directory
    inner = os.path.relpath(directory, top).replace(os.sep, "/")
    return top, "" if inner == "." else inner


def marker_for(config: Any, rel: str) -> str | None:
    """The protocol file that makes the file's directory (or one above it) follow the
    Asimov protocol, relative to the top it was decided from; None if none."""
    from .follows import SHARED, follows_here

    top, directory = _where(config, rel)
    markers = tuple(config.data.get("profile-markers", ()))
    cache = config.derived.setdefault("follows", {})
    return follows_here(top, directory, markers, cache, config.derived.get("scope", SHARED))


def describe(config: Any, kind: str, rel: str, shown: str | None = None) -> str:
    """One line saying which profile the file (`rel`, named `shown` on the command
    line or by the search) got and why."""
    profile = profile_for(config, kind, rel)
    if os.environ.get(ENV_PROFILE):
        why = f"set by {ENV_PROFILE}"
    elif chosen_profile(config) != AUTO:
        why = f"set in {config.source or 'the configuration'}"
    elif profile == ASIMOV:
        top = _where(config, rel)[0]
        found = os.path.join(top, marker_for(config, rel) or "")
        why = f"the repository follows the Asimov protocol: {_near(found)}"
    else:
        names = ", ".join(config.data.get("profile-markers", ()))
        why = f"no Asimov protocol file ({names}) here or above that git does not ignore"
    from ..fs.access import show  # one line, whatever the names hold

    return show(f"profile {profile} for {shown or rel} ({why}; {HOW})")


def _near(path: str) -> str:
    """`path` relative to the working directory when it is below it, else absolute."""
    here = os.getcwd()
    if path.startswith(here.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, here).replace(os.sep, "/")
    return path
