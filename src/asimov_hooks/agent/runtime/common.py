"""What the core's handlers share: the `agent` settings, which files are governed,
the checker, and the turn state store."""

from __future__ import annotations

import os

from ...config.config import ConfigError, load_config
from .payload import EventError, inside

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ...config.config import Config
    from ...findings import Finding
    from .model import Event
    from .state import Store

PROG = "asimov-hooks agent-event"


def warn(message: str) -> None:
    """One line on stderr that does not stop the event (the agent shows it)."""
    import sys

    from ...fs.access import show

    sys.stderr.write(f"{PROG}: {show(' '.join(message.split()))}\n")


def agent_settings(config: Config) -> dict[str, Any]:
    """The `agent` section (rules/agent.json merged with the repository's config)."""
    section = config.section("agent")
    threshold = section.get("turn-threshold", 30)
    message = section.get("checkpoint-message")
    number = isinstance(threshold, (int, float)) and not isinstance(threshold, bool)
    if not number or not 1 <= threshold <= 604800:  # NaN fails both comparisons
        # below the time an agent takes to answer, every checkpoint would ask for the next
        raise ConfigError(
            f"agent.turn-threshold must be from 1 to 604,800 seconds (a week), not {threshold!r}"
        )
    if not isinstance(message, str) or not message.strip():
        raise ConfigError("agent.checkpoint-message must be a non-empty text")
    protocols = section.get("protocols", {})
    files = section.get("checkpoint-files", {})
    if not isinstance(protocols, dict) or not isinstance(files, dict):
        raise ConfigError("agent.protocols and agent.checkpoint-files must be mappings")
    from .request_files import aimed_at_protocol_files

    settings = {
        "turn-threshold": float(threshold),
        "checkpoint-message": message,
        "checkpoint-files": {k: v for k, v in files.items() if isinstance(v, str)},
        "protocols": {k: [x for x in v if isinstance(x, str)] for k, v in protocols.items()},
        "checkpoint-kinds": [k for k in section.get("checkpoint-kinds", []) if isinstance(k, str)],
        "context-budget": int(section.get("context-budget", 3000)),
        "compact-message": _text(section, "compact-message"),
        "stale-days": _days(section.get("stale-days")),
        "warmup-essentials": [
            k for k in section.get("warmup-essentials", []) if isinstance(k, str) and k
        ],
        "max-edits": int(section.get("max-edits", 1000)),
    }
    # a committed config words the requests; it does not choose the files they name
    return aimed_at_protocol_files(settings, config.base_dir)


def _text(section: dict[str, Any], key: str) -> str:
    value = section.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"agent.{key} must be a non-empty text")
    return value


def _days(value: Any) -> float | None:
    if value is None:  # unset: the stale-checkpoint rule's days (agent.runtime.reread)
        return None
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not 0 < value <= 36500:  # NaN fails both comparisons
        raise ConfigError(f"agent.stale-days must be a number of days above 0, not {value!r}")
    return float(value)


def work_tree_scope(config: Config) -> Config:
    """The agent works with the files on disk: its config decides whether a repository
    follows the Asimov protocol over what the work tree holds, git-ignored protocol files
    included (config/follows), for CLAUDE.md's profile too."""
    config.derived["scope"] = "work-tree"  # follows.WORK_TREE, without importing it here
    return config


def project_config(event: Event) -> tuple[Config, dict[str, Any]]:
    try:
        config = work_tree_scope(load_config(None, start=event.project))
        return config, agent_settings(config)
    except ConfigError as exc:
        raise EventError(f"configuration: {exc}") from None


def _existing_dir(path: str) -> str:
    directory = os.path.dirname(path)
    while directory and not os.path.isdir(directory):
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return directory or os.getcwd()


def protocol_file(path: str, project: str) -> tuple[Config, str, str] | None:
    """(config, kind, path relative to the config's base) for a protocol file of the
    project; None for any other file, and for one whose real path leaves the project
    (a link out of it is not the project's file, and its content is not ours to show)."""
    if not inside(os.path.realpath(path), project):
        return None
    try:
        config = work_tree_scope(load_config(None, start=_existing_dir(path)))
    except ConfigError as exc:
        raise EventError(f"configuration: {exc}") from None
    rel = config.relpath(path)
    kind = config.kind_for(rel)
    if kind is None or config.excluded(rel):
        return None
    if not_shared(path, project):
        return None
    return config, kind, rel


def not_shared(path: str, project: str) -> bool:
    """Whether `path` is a file git ignores at a path no shipped protocol kind has: a
    config may declare it a kind (`.env`, `keys/*.pem`) for validation, but what it
    holds is never read into the agent's context."""
    from ...gitutil import GitError, git
    from .protocols import is_protocol_path

    real = os.path.realpath(path)
    rel = os.path.relpath(real, os.path.realpath(project)).replace(os.sep, "/")
    if is_protocol_path(rel):
        return False
    try:
        done = git("check-ignore", "-q", "--", rel, cwd=project, check=False)
    except GitError:
        return True  # cannot tell: a file that may be a secret is not the agent's
    return done.returncode == 0  # 1: not ignored; 128: no repository, nothing ignored


def line(rel: str, finding: Finding) -> str:
    text = f"{rel}:{finding.line}:{finding.col}: {finding.level} {finding.rule} {finding.message}"
    return f"{text} (suggestion: {finding.suggestion})" if finding.suggestion else text


def checker(config: Config) -> Any:
    from ...validation.engine import PATH_RULES, Checker

    # where a file lives (must-be-ignored, checkpoints-tracked) is the commit's business
    return Checker(config, None, set(PATH_RULES))


def trim_settings(config: Config) -> Any:
    from ...trim.settings import Settings  # (not through trim.trimmer: a check needs no trim)

    return Settings.from_config(config)


def open_store(project: str) -> Store:
    """The turn state of `project`; EventError when it cannot be used."""
    from .state import StateError, Store, state_dir

    try:
        return Store(state_dir(project))
    except StateError as exc:
        raise EventError(str(exc)) from None


def session_of(event: Event) -> str:
    if event.session is None:
        raise EventError(f"{event.name} event without a session id")
    return event.session
