"""Protocol files written through the shell (`cat > .claude_checkpoint.yaml`, `sed -i`,
`asimov-hooks oc update`, a script): seen by comparing their state before and after
the agent's shell tool.

- pre_shell (PreToolUse on the shell tool): the size, modification time and content
  hash of every protocol file of the project are kept in the turn state, under the
  tool call's id.
- post_shell (PostToolUse): the files are looked at again; each one the command
  created or changed is trimmed, checked and reported as after a write tool, and a
  changed checkpoint counts as the turn's checkpoint (`writes.post_write`). Without a
  record from before (the PreToolUse hook did not run), a command that runs a
  documented OC checkpoint writer (`asimov-hooks oc update`, `done`, `new`) still
  counts as the checkpoint.

Nothing is refused: a shell command's effect cannot be known before it runs.
"""

from __future__ import annotations

import os
import time

from .common import open_store, project_config, warn

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from .model import Answer, Event

ANY_CALL = "-"  # the key when the agent gives no tool call id


def snapshot(event: Event) -> dict[str, list[object]]:
    """{path relative to the project: [size, mtime_ns, content hash]} of every file of
    a configured kind that can be listed (literal names, one-directory wildcards)."""
    import hashlib

    from ...fs.access import DEFAULT_MAX_BYTES, FileProblem, read_bytes
    from .protocols import kind_files

    config, _settings = project_config(event)
    top = event.project
    state: dict[str, list[object]] = {}
    for kind in config.kinds:
        for rel in kind_files(config, kind, top)[0]:
            if rel in state:
                continue
            path = os.path.join(top, rel)
            try:
                info = os.lstat(path)
                raw = read_bytes(path, DEFAULT_MAX_BYTES, root=top, bound="resource bound")
                digest = hashlib.blake2b(raw, digest_size=16).hexdigest()
            except (OSError, FileProblem):
                continue  # not a readable file: nothing the comparison can say
            state[rel] = [info.st_size, info.st_mtime_ns, digest]
    return state


def pre_shell(event: Event) -> Answer | None:
    if event.session is None:
        return None
    import json

    from .state import StateError

    files = json.dumps(snapshot(event), sort_keys=True)
    try:
        with open_store(event.turns) as store:
            store.shell_started(
                event.session, event.turns, event.tool_use or ANY_CALL, files, time.time()
            )
    except StateError as exc:
        warn(f"the protocol files' state before this command was not recorded: {exc}")
    return None


def post_shell(event: Event) -> Answer | None:
    if event.session is None:
        return None
    import json

    from .state import StateError

    try:
        with open_store(event.turns) as store:
            saved = store.shell_ended(event.session, event.turns, event.tool_use or ANY_CALL)
    except StateError as exc:
        warn(f"the protocol files' state before this command could not be read: {exc}")
        saved = None
    if saved is None:
        _count_oc_writer(event)
        return None
    try:
        before = json.loads(saved)
    except ValueError:
        before = {}
    after = snapshot(event)
    changed = [rel for rel, state in after.items() if before.get(rel) != state]
    if not changed:
        return None
    from .writes import post_write

    event.targets = [os.path.join(event.project, rel) for rel in changed]
    event.tool = f"{event.tool} command"
    return post_write(event)


def _count_oc_writer(event: Event) -> None:
    from .shellcmd import writes_checkpoint

    if event.shell is None or not writes_checkpoint(event.shell):
        return
    from .state import StateError

    try:
        with open_store(event.turns) as store:
            store.checkpoint_delivered(event.session or "", event.turns, time.time())
    except StateError as exc:
        warn(f"the checkpoint write was not recorded: {exc}")
