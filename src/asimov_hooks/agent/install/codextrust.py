"""Whether Codex CLI will run our hooks: it skips, without a word, every hook it has
not been told to trust, and a project's `.codex/hooks.json` only loads in a project
it trusts.

Codex records a reviewed hook (in its `/hooks` screen) in the user's
`$CODEX_HOME/config.toml` (default `~/.codex/config.toml`):

    [hooks.state."/abs/repo/.codex/hooks.json:pre_tool_use:0:0"]
    trusted_hash = "sha256:..."

The key is the hook file's absolute path, the event's snake_case label, the matcher
group's index and the hook's index in it. The hash is SHA-256 over compact JSON with
sorted keys of the normalized hook: `event_name`, the group's `matcher` (none for
Stop and UserPromptSubmit), and `hooks` holding this one hook as `{"type":
"command", "command", "timeout" (default 600), "async" (default false),
"statusMessage" if set}`; fields that are unset are left out (openai/codex,
`codex-rs/hooks/src/engine/discovery.rs` and `codex-rs/config/src/fingerprint.rs`).
A recorded hash that differs means the hook changed since it was reviewed (or a
Codex version that hashes differently): Codex skips it until it is reviewed again.
A project is trusted by `[projects."<path>"] trust_level = "trusted"`.

The config is the user's own file, outside the repository: read (bounded), never
written, and nothing of it is shown but what it says about our hooks.
"""

from __future__ import annotations

import hashlib
import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

LABELS = {
    "PreToolUse": "pre_tool_use",
    "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use",
    "PreCompact": "pre_compact",
    "PostCompact": "post_compact",
    "SessionStart": "session_start",
    "UserPromptSubmit": "user_prompt_submit",
    "Stop": "stop",
}
NO_MATCHER = frozenset({"UserPromptSubmit", "Stop"})
MAX_CONFIG_BYTES = 4 * 1024 * 1024
STEP = (
    "Codex runs a new or changed hook only after you trust it: start `codex` in this "
    "repository, open `/hooks`, review the asimov-hooks hooks and trust them (the project "
    "itself must be trusted too, as Codex asks on first start)"
)


def codex_home() -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")


def hook_hash(event: str, group: dict[str, Any], hook: dict[str, Any]) -> str:
    """The trust hash Codex computes for `hook` in matcher `group` of `event`."""
    identity: dict[str, Any] = {"event_name": LABELS.get(event, event)}
    matcher = group.get("matcher")
    if event not in NO_MATCHER and isinstance(matcher, str):
        identity["matcher"] = matcher
    timeout = hook.get("timeout")
    number = isinstance(timeout, int) and not isinstance(timeout, bool)
    normalized: dict[str, Any] = {
        "type": "command",
        "command": hook.get("command"),
        "timeout": max(int(timeout), 1) if number else 600,
        "async": hook.get("async") is True,
    }
    if isinstance(hook.get("statusMessage"), str):
        normalized["statusMessage"] = hook["statusMessage"]
    identity["hooks"] = [normalized]
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def our_hooks(doc_data: object) -> list[tuple[str, int, int, str]]:
    """(event, group index, hook index, hash) for each asimov-hooks entry of a
    hooks.json document."""
    from .hookedit import ours

    found: list[tuple[str, int, int, str]] = []
    hooks = doc_data.get("hooks") if isinstance(doc_data, dict) else None
    for event, groups in (hooks or {}).items():
        for gi, group in enumerate(groups if isinstance(groups, list) else []):
            inner = group.get("hooks") if isinstance(group, dict) else None
            for hi, hook in enumerate(inner if isinstance(inner, list) else []):
                if isinstance(hook, dict) and ours(hook.get("command")) is not None:
                    found.append((event, gi, hi, hook_hash(event, group, hook)))
    return found


def _config(home: str) -> tuple[dict[str, Any] | None, str | None]:
    """(Codex's config.toml as data, or None; a problem reading it, or None)."""
    from ...fs.access import FileProblem, read_bytes

    path = os.path.join(home, "config.toml")
    if not os.path.lexists(path):
        return None, None
    try:
        raw = read_bytes(path, MAX_CONFIG_BYTES, confined=False, bound="size bound")
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        return tomllib.loads(raw.decode("utf-8")), None
    except FileProblem as problem:
        return None, problem.message
    except (UnicodeDecodeError, ValueError) as exc:  # TOMLDecodeError is a ValueError
        return None, f"not readable as TOML ({' '.join(str(exc).split())})"


def lines(top: str) -> list[tuple[str, str, str | None]]:
    """(level, message, fix) about Codex's trust in this project and in our hooks."""
    from .settings import SettingsError, load
    from .targets import AGENTS

    hooks_file = os.path.join(top, ".codex", "hooks.json")
    try:
        doc = load(hooks_file, top, AGENTS["codex"])
    except SettingsError:
        return []  # doctor reports the file itself
    entries = our_hooks(doc.data) if doc is not None else []
    if not entries:
        return []
    home = codex_home()
    config, problem = _config(home)
    where = os.path.join(home, "config.toml")
    if problem:
        return [("warn", f"{where}: {problem}; cannot tell whether Codex trusts our hooks", STEP)]
    config = config or {}
    out: list[tuple[str, str, str | None]] = []
    projects = config.get("projects") if isinstance(config.get("projects"), dict) else {}
    paths = {top, os.path.realpath(top)}
    trusted_project = any(
        isinstance(projects.get(p), dict) and projects[p].get("trust_level") == "trusted"
        for p in paths
    )
    if not trusted_project:
        out.append(
            (
                "warn",
                f"Codex CLI does not trust this project yet ({where} has no "
                'trust_level = "trusted" for it): it does not load .codex/hooks.json',
                "start `codex` in this repository and trust the project when it asks",
            )
        )
    hooks_section = config.get("hooks") if isinstance(config.get("hooks"), dict) else {}
    states = hooks_section.get("state") if isinstance(hooks_section.get("state"), dict) else {}
    untrusted: list[str] = []
    changed: list[str] = []
    for event, gi, hi, current in entries:
        label = LABELS.get(event, event)
        state = None
        for base in {hooks_file, os.path.realpath(hooks_file)}:
            state = state or states.get(f"{base}:{label}:{gi}:{hi}")
        recorded = state.get("trusted_hash") if isinstance(state, dict) else None
        if recorded is None:
            untrusted.append(event)
        elif recorded != current:
            changed.append(event)
    if untrusted:
        out.append(
            (
                "warn",
                f"Codex CLI has not trusted the asimov-hooks hooks for {', '.join(untrusted)}: "
                "it skips them without a word",
                STEP,
            )
        )
    if changed:
        out.append(
            (
                "warn",
                f"Codex CLI's trust for the asimov-hooks hooks for {', '.join(changed)} does not "
                "match them as they are now (changed since they were reviewed, or a Codex "
                "version that hashes them differently): Codex skips a changed hook",
                STEP,
            )
        )
    if not untrusted and not changed:
        out.append(("ok", "Codex CLI trusts every asimov-hooks hook in .codex/hooks.json", None))
    return out
