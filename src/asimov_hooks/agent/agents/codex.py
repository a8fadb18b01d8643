"""Codex CLI: hook JSON on stdin, Claude-style JSON on stdout, always exit 0.

Events (developers.openai.com/codex/hooks; openai/codex hook schemas):
- PreToolUse / PostToolUse on `apply_patch`: `tool_input.command` is the raw patch
  (`*** Begin Patch` ... `*** End Patch`), its paths relative to `cwd`. A deny is
  `hookSpecificOutput.permissionDecision: "deny"` with `permissionDecisionReason`;
  `hookSpecificOutput.additionalContext` reaches the model (PreToolUse, PostToolUse,
  SessionStart). A patch that would leave a protocol file the rolling window trims
  gets `updatedInput.command` (with "allow", which Codex needs to apply it): the
  patch with that file's section rewritten to leave the trimmed content, the other
  sections as written (`patch_rewrite`). Shell calls arrive as `Bash` with
  `tool_input.command`: a patch run through `apply_patch`/`applypatch` in a heredoc
  (Codex applies it itself when the model has no apply_patch tool) is judged as the
  tool's, and rewritten inside the command the same way; any other command is
  watched for the protocol files it changes (`agent.runtime.shellwatch`).
- Stop: `{"decision": "block", "reason": ...}` continues the turn with the reason
  as the next instruction. Codex does not cap continuations itself; the turn timer
  does (`stop_hook_active` is not read).
- SessionStart `source`: startup, resume, clear, compact.
- UserPromptSubmit `prompt`.
- PreCompact `trigger` (manual, auto): its output has no field the model or the summary
  reads (continue, stopReason, suppressOutput, systemMessage), so nothing is answered;
  the turn state records the compaction (SessionStart `compact` gives the re-read).
- No project directory variable: the project is the git top level of `cwd`.
"""

from ..runtime.model import (
    CLEAR,
    COMPACT,
    POST_WRITE,
    PRE_COMPACT,
    PRE_WRITE,
    PROMPT,
    RESUME,
    SESSION_START,
    STARTUP,
    STOP,
    Edit,
    Event,
    as_text,
)
from ..runtime.payload import (
    EventError,
    absolute,
    absolute_all,
    answer_line,
    begin,
    shell_event,
    specific,
    tool_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..runtime.model import Answer

NAME = "codex"
USAGE = (
    "Codex CLI: PreToolUse, PostToolUse (apply_patch; Bash, with apply_patch heredocs), "
    "SessionStart, Stop, UserPromptSubmit, PreCompact"
)
# a failed hook that does not stop the agent: an exit other than 0 and 2 is a failed
# run, not a block (exit 2 with a reason on stderr blocks)
EXIT_FAILED = 1
PATCH_TOOL = "apply_patch"
# shell-like tools reach the hooks as "Bash" with `tool_input.command`; older names too
SHELL_TOOLS = frozenset({"Bash", "exec_command", "shell", "local_shell", "shell_command"})
KINDS = {
    "PreToolUse": PRE_WRITE,
    "PostToolUse": POST_WRITE,
    "Stop": STOP,
    "UserPromptSubmit": PROMPT,
    "SessionStart": SESSION_START,
    "PreCompact": PRE_COMPACT,
}
SOURCES = {"startup": STARTUP, "resume": RESUME, "clear": CLEAR, "compact": COMPACT}


def normalize(payload: "dict[str, Any]") -> "Event":
    event = begin(payload, NAME, KINDS, None)
    if event.kind is None:
        return event
    cwd = event.cwd
    if event.kind in (PRE_WRITE, POST_WRITE):
        tool = tool_name(payload)
        tool_input = payload.get("tool_input")
        command = tool_input.get("command") if isinstance(tool_input, dict) else None
        if tool in SHELL_TOOLS:
            return _shell(event, payload, command, cwd)
        if tool != PATCH_TOOL:
            return event  # another tool: nothing to govern
        if not isinstance(command, str):
            raise EventError(f"{PATCH_TOOL} event without a string tool_input.command")
        event.tool = PATCH_TOOL
        _patch_targets(event, command, cwd)
        if event.kind == PRE_WRITE:
            event.tool_input = tool_input if isinstance(tool_input, dict) else {}
            event.rewriter = _patch_rewriter(event.tool_input, command, cwd)
    elif event.kind == SESSION_START:
        source = as_text(payload.get("source"))
        event.source = SOURCES.get(source, source) if source else None
    elif event.kind == PRE_COMPACT:
        event.source = as_text(payload.get("trigger"))
    else:
        event.prompt = payload.get("prompt") if isinstance(payload.get("prompt"), str) else None
    return event


def _shell(event: "Event", payload: "dict[str, Any]", command: object, cwd: str) -> "Event":
    """A shell command: the patches it runs through `apply_patch`/`applypatch` (Codex
    applies them itself) are judged as the apply_patch tool's; any other command is
    watched for what it changes (`agent.runtime.shellwatch`)."""
    import os

    from ..runtime.shellcmd import command_text, patches

    text = command_text(command)
    found = patches(text) if text is not None else []
    if not found:
        return shell_event(event, payload, command)
    event.tool = PATCH_TOOL
    known = set(event.targets)
    for directory, patch in found:
        where = os.path.normpath(os.path.join(cwd, directory)) if directory else cwd
        _patch_targets(event, patch, where, known)
    if event.kind == PRE_WRITE and isinstance(command, str):
        event.tool_input = payload["tool_input"]
        event.rewriter = _shell_rewriter(event.tool_input, command, found, cwd)
    return event


def _patch_targets(event: "Event", patch: str, cwd: str, known: "set[str] | None" = None) -> None:
    """Every file the patch names (added to the event's); before the write, what each
    would hold. `known`: the event's targets so far, kept by a caller that adds the
    patches of one command one after another."""
    import os

    from .apply_patch import PatchError, parse_patch, patch_paths

    try:
        ops = parse_patch(patch)
    except PatchError as exc:
        # Codex refuses the patch itself; keep the paths so a malformed patch of a
        # protocol file is seen (the change says it cannot be worked out)
        names, sources, error = patch_paths(patch), {}, exc
    else:
        names, sources, error = [], {}, None
        for op in ops:
            names.append(op.path)
            if op.move_to is not None:
                names.append(op.move_to)
                sources[op.move_to] = op.path
    seen: list[str] = []
    known = set(event.targets) if known is None else known  # sets: linear in the sections
    for path in absolute_all(names, cwd, f"{PATCH_TOOL} path"):
        if path not in known:
            known.add(path)
            seen.append(path)
    if event.kind == POST_WRITE:  # deleted and moved-away files are gone: nothing to trim
        event.targets += [path for path in seen if os.path.lexists(path)]
        return
    event.targets += seen
    resolved = {absolute(t, cwd, "path"): absolute(s, cwd, "path") for t, s in sources.items()}
    event.edits += [
        Edit(
            path,
            PatchChange(patch, path, resolved.get(path, path), cwd, error, event.project),
            resolved.get(path),
        )
        for path in seen
    ]


def _patch_rewriter(tool_input: "dict[str, Any]", patch: str, cwd: str) -> "Any":
    """The patch changed so that each trimmed file's section leaves the trimmed content,
    the other sections as they were (`patch_rewrite`); Codex takes it as
    `updatedInput.command`."""

    def build(plans: dict[str, tuple[str | None, str]]) -> "Any":
        from .patch_rewrite import rewrite_patch

        done = rewrite_patch(patch, plans, lambda name: absolute(name, cwd, f"{PATCH_TOOL} path"))
        if done is None:
            return None
        return {**tool_input, "command": done[0]}, done[1]

    return build


def _shell_rewriter(
    tool_input: "dict[str, Any]", command: str, found: list[tuple[str | None, str]], cwd: str
) -> "Any":
    """The shell command with each patch it hands to apply_patch changed as for the
    tool (Codex takes a shell tool's `updatedInput.command`). Only a patch that stands
    verbatim in the command once (a heredoc, not `<<-`) is changed, only for a file no
    other patch of the command touches, and the command must give back exactly the
    changed patches when read again."""

    def build(plans: dict[str, tuple[str | None, str]]) -> "Any":
        import os

        from ..runtime.shellcmd import patches
        from .apply_patch import patch_paths
        from .patch_rewrite import rewrite_patch

        bases = [os.path.normpath(os.path.join(cwd, d)) if d else cwd for d, _ in found]
        touched: dict[str, int] = {}
        for (_, patch), base in zip(found, bases, strict=True):
            for path in {absolute(name, base, "path") for name in patch_paths(patch)}:
                touched[path] = touched.get(path, 0) + 1
        alone = {path: plan for path, plan in plans.items() if touched.get(path) == 1}
        text, wanted, carried = command, [], []
        for (_, patch), base in zip(found, bases, strict=True):
            done = rewrite_patch(patch, alone, lambda name, base=base: absolute(name, base, "path"))
            if done is None or text.count(patch) != 1:
                wanted.append(patch)
                continue
            text = text.replace(patch, done[0])
            wanted.append(done[0])
            carried += done[1]
        if not carried or [patch for _, patch in patches(text)] != wanted:
            return None
        return {**tool_input, "command": text}, carried

    return build


class PatchChange:
    """What an apply_patch leaves in one file (`agent.runtime.model.Change`). Every file the
    patch reads on the way (a chain of moves onto the target) is read inside `project`
    only: a source outside it is never opened, and the change is then not worked out."""

    __slots__ = ("cwd", "error", "patch", "project", "source", "target")

    def __init__(
        self,
        patch: str,
        target: str,
        source: str,
        cwd: str,
        error: Exception | None,
        project: str | None = None,
    ) -> None:
        self.patch, self.target, self.source, self.cwd, self.error = (
            patch,
            target,
            source,
            cwd,
            error,
        )
        self.project = project or cwd

    def apply(self, current: str | None, limit: int) -> str | None:
        from ..runtime.common import not_shared
        from ..runtime.simulate import CannotSimulate, OutOfBounds, TooBig, utf8_len
        from .apply_patch import PatchError, apply_patch

        if self.error is not None:
            raise CannotSimulate(str(self.error))

        def where(name: str) -> str:
            return absolute(name, self.cwd, f"{PATCH_TOOL} path")

        def read(name: str) -> str | None:
            path = where(name)
            if path != self.target and not_shared(path, self.project):
                # its content would be judged, and the verdict quoted to the model
                raise OutOfBounds(
                    "it moves a file git ignores onto it; what that file holds is not "
                    "the repository's to show or to make a checkpoint of"
                )
            return current if path == self.source else _read_other(path, limit, self.project)

        try:
            results = apply_patch(
                self.patch,
                read,
                select=lambda name: where(name) == self.target,
                max_result_chars=limit,
            )
        except PatchError as exc:
            raise CannotSimulate(str(exc)) from None
        for name, content in results.items():
            if where(name) == self.target:
                if content is not None and utf8_len(content) > limit:
                    raise TooBig(utf8_len(content), limit)
                return content
        raise CannotSimulate(f"the patch leaves {self.target} unchanged")


def _read_other(path: str, limit: int, project: str) -> str | None:
    """A file a patch reads besides the target's own source (a chain of moves), held
    to the project: one outside it (by its path or through a link) or in `.git/` is
    neither opened nor looked for, and nothing about it is said."""
    import os

    from ...fs.access import FileProblem, confine, read_bytes
    from ..runtime.simulate import CannotSimulate

    try:
        confine(path, project)
    except FileProblem:
        raise CannotSimulate("the patch moves a file from outside the repository") from None
    if not os.path.lexists(path):
        return None
    try:
        raw = read_bytes(path, limit, root=project, bound="limit")
    except FileProblem:
        raise CannotSimulate("a file the patch moves cannot be read as text") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CannotSimulate("a file the patch moves is not UTF-8 text") from None


def render(event: "Event", answer: "Answer | None") -> tuple[str | None, int]:
    if answer is None:
        return None, 0
    if event.kind == PRE_COMPACT:
        return None, 0  # no field of this event's output reaches the model or the summary
    out: dict[str, Any] | None = None
    if answer.decision == "deny" and event.kind == PRE_WRITE:
        out = specific(event, permissionDecision="deny", permissionDecisionReason=answer.reason)
    elif answer.updated is not None and event.kind == PRE_WRITE:
        # the patch whose trimmed files' sections leave the trimmed content; Codex
        # applies `updatedInput` only with "allow"
        extra = {"additionalContext": answer.context} if answer.context else {}
        out = specific(event, permissionDecision="allow", updatedInput=answer.updated, **extra)
    elif answer.decision == "block" and event.kind == STOP:
        out = {"decision": "block", "reason": answer.reason}
    elif answer.context and event.kind != PROMPT:
        out = specific(event, additionalContext=answer.context)
    return answer_line(out)
