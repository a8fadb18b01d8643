"""One adapter per agent: its hook payload in, its documented answer out.

`asimov-hooks agent-event --agent NAME` reads the hook JSON the agent writes on stdin
and hands it to the adapter module `agent/agents/NAME.py`. The adapter knows the
agent's contract; the core (`agent.runtime.core`) knows asimov-hooks' rules and never sees an
agent's field names. Adding an agent means adding a module here and its name to
AGENTS; nothing in the core changes.

An adapter module provides:

- `normalize(payload: dict) -> agent.runtime.model.Event`. Map the agent's event name to one
  of the core's kinds (`PRE_WRITE`, `POST_WRITE`, `STOP`, `PROMPT`, `SESSION_START`;
  `kind=None` for an event asimov-hooks does not handle) and fill in:
  - `cwd` (an existing directory; `os.getcwd()` when the payload has none),
    `project`: the git top level of `cwd` (`payload.project_dir(declared, cwd)`,
    narrowed to the agent's documented project directory variable when that lies in
    the same work tree), and `turns`: where the session's turn state is kept
    (`payload.turn_root`: the declared project directory, else the project);
  - `session`: the agent's session or conversation id (the turn timer needs one);
  - write events: `tool` (its name, for messages) and `targets`, absolute paths
    (`payload.absolute(path, cwd)`); for a tool that does not write files leave
    `targets` empty (the core says nothing). `PRE_WRITE` also needs `edits`: one
    `model.Edit(path, change, source=None)` per file, where `change` has
    `apply(current_text_or_None, byte_limit) -> new_text_or_None` (None: the file is
    deleted) and raises `simulate.CannotSimulate` when the tool would fail by itself
    (the core then says nothing) and `simulate.OutOfBounds` (`TooBig`: a result past
    the byte limit) when it cannot be worked out within bounds (the core refuses it). `simulate.Write(content)` and
    `simulate.Replace(edits)` cover whole-content writes and exact replacements; a
    patch format brings its own class. `source` is the file a move reads from.
    Where the agent takes a changed tool input, `rewriter`: given {path: (current
    text or None, content wanted)}, the same tool's input leaving exactly that and
    the paths it carries, or None (`agent.runtime.rewrite` builds the usual shapes); the
    core calls it for a write the rolling window would trim, archives what the
    trim cuts for the carried paths, and answers with `Answer.updated`, which
    `render` hands back in the agent's form. Import nothing until it is called;
  - `STOP`: `aborted` True when the user aborted the turn or it ended in an error
    (a continuation would override the user). A stop that follows one a hook
    continued (`stop_hook_active`, a loop counter) is NOT a reason to skip: the turn
    timer is the loop guard (a quick answer to the request is never asked again;
    the threshold of work after it is);
  - `SESSION_START`: `source`, mapped to `model.STARTUP`, `RESUME`, `CLEAR`,
    `COMPACT` or `FORK` where the agent's word means one of them;
  - `PROMPT`: `prompt`, the submitted text.
  A payload that cannot be handled (not an object of the agent's shape, a write
  without a path, ...) raises `payload.EventError` with one line saying why.

- `render(event, answer: agent.runtime.model.Answer | None) -> tuple[str | None, int]`: what
  to write on stdout (None: nothing) and the exit code, in the agent's documented
  form. The core answers `None` (nothing to say) or an Answer: "deny" with a `reason`
  (`PRE_WRITE` only), "block" with a `reason` (`STOP` only: the agent's next
  instruction), or "allow" with `context` for the agent to read (any kind; on
  `SESSION_START` it carries the re-read checkpoint and, after a restart, the
  checkpoint request). Where the agent has no channel for an answer, drop it (and
  say so in docs/agents.md). Never exit with the code an agent reads as "refuse and
  stop" unless the contract has no other way to deny.

- `NAME` (its name) and `USAGE` (one line: the events it handles), used in --help.

- `EXIT_FAILED`: the exit status the agent reads as "this hook failed, go on" (never
  one that refuses the tool call), used with one line on stderr when the event
  cannot be handled (stdin that is not its hook event, a missing field, a broken
  config): 1 for most agents, 0 where every non-zero status denies (Copilot CLI).

- Optionally `stands_aside(payload: dict) -> bool`: True for an event another agent
  sent through this agent's settings file (Cursor runs Claude Code's hooks), which
  that agent's own hooks answer: nothing is said, exit 0.

Keep the module light: it is imported on every file edit the agent makes, before the
cheap "not a protocol file" answer. No click, sqlite3, ruamel.yaml or jsonschema;
`json` only inside `render` when there is an answer.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from types import ModuleType

AGENTS = ("claude", "codex", "gemini", "cursor", "copilot", "qwen")
DEFAULT = "claude"


def load(name: str) -> "ModuleType":
    """The adapter module of `name`; EventError for an unknown or missing one."""
    from ..runtime.payload import EventError

    if name not in AGENTS:
        raise EventError(f"unknown agent {name!r}; expected one of {', '.join(AGENTS)}")
    import sys

    module = f"{__name__}.{name}"
    try:
        __import__(module)  # not importlib: it imports `warnings`, on every file edit
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise EventError(f"agent {name!r} is not supported by this version") from None
    return sys.modules[module]
