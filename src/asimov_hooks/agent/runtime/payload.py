"""Helpers the adapters share to read a hook payload and to log what the agent does not
show, and the one error they raise."""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable
    from typing import Any

    from .model import Event


class EventError(Exception):
    """The event cannot be handled; one line on stderr, exit 1."""


def working_dir(value: object) -> str:
    """The payload's working directory when it names an existing one, else ours."""
    if isinstance(value, str) and value and os.path.isdir(value):
        return value
    return os.getcwd()


def project_dir(declared: str | None, cwd: str) -> str:
    """The project root, a real path: the top of the git work tree holding `cwd` (a
    linked worktree is its own project, wherever it lives), narrowed to the agent's
    declared project directory when that is a directory inside the same work tree (a
    project in a subdirectory of a larger repository). The declared directory stays
    put when the agent enters a worktree, so it never wins over the work tree of
    `cwd`; outside any work tree it is the project when it exists, else `cwd`."""
    # gitutil.find_toplevel (for_git=False) is this; gitutil is not loaded on every edit
    from ...fs.trees import tree_of as find_toplevel

    top = find_toplevel(cwd)
    real = os.path.realpath(declared) if declared and os.path.isdir(declared) else None
    if top:
        return real if real and inside(real, top) and find_toplevel(real) == top else top
    return real or os.path.realpath(cwd)


def turn_root(declared: str | None, project: str) -> str:
    """Where the session's turn state is kept: the agent's declared project directory
    when it names an existing one (a session that enters a worktree or a nested
    repository keeps its turn), else the project."""
    if declared and os.path.isdir(declared):
        return os.path.realpath(declared)
    return project


def absolute(path: object, cwd: str, what: str) -> str:
    """`path` from a payload as an absolute path: relative to `cwd`, its directory
    resolved (the work tree and config are found by real paths), its name as given (a
    checkpoint that is a symbolic link is still the checkpoint). EventError when it is
    not a non-empty string; `what` names the field."""
    if not isinstance(path, str) or not path or "\x00" in path:
        raise EventError(f"event without a usable {what}")
    if not os.path.isabs(path):
        path = os.path.join(cwd, path)
    path = os.path.normpath(path)
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


def absolute_all(paths: "list[object]", cwd: str, what: str) -> list[str]:
    """`absolute` of each path, each directory resolved once (a patch may name
    thousands of files in a few directories)."""
    real: dict[str, str] = {}
    out = []
    for path in paths:
        if not isinstance(path, str) or not path or "\x00" in path:
            raise EventError(f"event without a usable {what}")
        path = os.path.normpath(os.path.join(cwd, path))  # an absolute path stays itself
        directory = os.path.dirname(path)
        if directory not in real:
            real[directory] = os.path.realpath(directory)
        out.append(os.path.join(real[directory], os.path.basename(path)))
    return out


def tool_name(payload: "dict[str, Any]", key: str = "tool_name") -> "str | None":
    """The payload's tool name (`key`): a string, or None when the payload has none.
    EventError when it is anything else (a list, a number): no tool has such a name."""
    tool = payload.get(key)
    if tool is None or isinstance(tool, str):
        return tool
    raise EventError(f"stdin JSON's {key} is {_json_type(tool)}, not a string")


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return {dict: "an object", list: "an array"}.get(type(value), "not text")


def check_session(event: "Event") -> None:
    """EventError when the event's session id cannot be stored: a JSON string may hold
    a lone surrogate (`"\\ud800"`), which is not Unicode text and cannot be written as
    UTF-8 to the turn state."""
    session = event.session
    if session is None or session.isascii():
        return
    try:
        session.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise EventError(
            f"stdin JSON's session id holds a lone surrogate (U+{ord(session[exc.start]):04X} "
            f"at position {exc.start}): not Unicode text, so the session cannot be kept"
        ) from None


def inside(path: str, directory: str) -> bool:
    """Whether the absolute `path` is `directory` or below it (both real paths)."""
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def begin(
    payload: "dict[str, Any]", agent: str, kinds: dict[str, str], project_env: str | None
) -> "Event":
    """The part of an event every agent that names its event in `hook_event_name`
    shares: the event's name and kind, the working directory, and (for an event we
    handle) the session, the project (the git top level of `cwd`) and the turn root
    (`project_env`, else the project)."""
    from .model import Event, as_text

    name = payload.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise EventError("stdin JSON has no hook_event_name")
    cwd = working_dir(payload.get("cwd"))
    event = Event(agent, name, kinds.get(name), cwd)
    if event.kind is not None:
        event.session = as_text(payload.get("session_id"))
        event.tool_use = as_text(payload.get("tool_use_id"))  # pairs a write's two events
        declared = os.environ.get(project_env) if project_env else None
        event.project = project_dir(declared, cwd)
        event.turns = turn_root(declared, event.project)
    return event


def tool_event(
    payload: "dict[str, Any]",
    agent: str,
    kinds: dict[str, str],
    project_env: str | None,
    tools: tuple[str, frozenset[str]],
    sources: dict[str, str],
    change: "Callable[[str, dict[str, Any]], Any]",
    paths_from_project: bool = False,
) -> "Event":
    """`begin`, then what the agents that name their tool in `tool_name` and its
    arguments in `tool_input` (Claude Code, Gemini CLI, Qwen Code) share: a shell
    command (`tools[0]`, its `command`) or a write by a file tool (`tools[1]`, its
    `file_path`, relative to the working directory or the project), the session's
    source mapped through `sources`, the prompt. A write before it runs gets
    `change(tool, tool_input)` as its edit."""
    from .model import POST_WRITE, PRE_COMPACT, PRE_WRITE, SESSION_START, Edit, as_text

    event = begin(payload, agent, kinds, project_env)
    if event.kind in (PRE_WRITE, POST_WRITE):
        tool = tool_name(payload)
        tool_input = payload.get("tool_input")
        if tool == tools[0]:
            command = tool_input.get("command") if isinstance(tool_input, dict) else None
            return shell_event(event, payload, command)
        if tool not in tools[1]:
            return event  # another tool: nothing to govern
        if not isinstance(tool_input, dict):
            raise EventError(f"{tool} event without tool_input")
        base = event.project if paths_from_project else event.cwd
        path = absolute(tool_input.get("file_path"), base, f"{tool} tool_input.file_path")
        event.tool, event.targets = tool, [path]
        if event.kind == PRE_WRITE:
            event.edits = [Edit(path, change(tool, tool_input))]
            event.tool_input = tool_input
    elif event.kind == SESSION_START:
        source = as_text(payload.get("source"))
        event.source = sources.get(source, source) if source else None
    elif event.kind == PRE_COMPACT:
        event.source = as_text(payload.get("trigger"))
    elif event.kind is not None:
        event.prompt = payload.get("prompt") if isinstance(payload.get("prompt"), str) else None
    return event


def shell_event(event: "Event", payload: "dict[str, Any]", command: object) -> "Event":
    """The event as a shell command's (`pre_shell` / `post_shell`): its text, the tool
    and the tool call's id. A command that is not text is still watched."""
    from .model import POST_SHELL, POST_WRITE, PRE_SHELL, as_text
    from .shellcmd import command_text

    event.kind = POST_SHELL if event.kind == POST_WRITE else PRE_SHELL
    event.shell = command_text(command)
    event.tool = as_text(payload.get("tool_name")) or "shell"
    event.tool_use = as_text(payload.get("tool_use_id"))
    return event


def specific(event: "Event", **fields: "Any") -> "dict[str, Any]":
    """`hookSpecificOutput` for the event, the answer form Claude Code, Codex, Gemini CLI
    and Qwen Code read."""
    return {"hookSpecificOutput": {"hookEventName": event.name, **fields}}


def answer_line(out: "dict[str, Any] | None") -> tuple[str | None, int]:
    """An adapter's `render` result: the answer as one JSON line on stdout, exit 0;
    nothing at all when there is no answer."""
    if out is None:
        return None, 0
    import json

    return json.dumps(out, ensure_ascii=False) + "\n", 0


def log_context(context: str) -> None:
    """The core's words where the agent has no channel for them: one escaped line block
    on stderr, which the agent shows in its hook log (Cursor's Hooks output channel,
    Copilot CLI's log)."""
    import sys

    from ...fs.access import show

    text = "\n".join(map(show, context.rstrip().splitlines()))
    sys.stderr.write(f"asimov-hooks agent-event: {text}\n")
