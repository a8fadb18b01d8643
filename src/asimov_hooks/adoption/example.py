"""The example session checkpoint `init` writes in an Asimov repository that has none
(ADR-007's setup step "generate example checkpoint"): the agent learns the shape from
a file, not from a refusal.

In ADR-007's own shape, within its limits (12 lines of the 20), marked as an example on
its first line (the turn-end request then says to replace it: `agent.runtime.protocols`),
and git-ignored like every session checkpoint. Never written over an existing one.
"""

from __future__ import annotations

import datetime
import os

from ..agent.runtime.protocols import EXAMPLE_MARK

LAYOUT_PATH = ".asimov/checkpoint.yaml"
PLAIN_PATH = ".claude_checkpoint.yaml"


def path_for(top: str) -> str:
    """Where the repository keeps its checkpoint: the `.asimov/` layout's place when it
    has that directory, else ADR-007's."""
    return LAYOUT_PATH if os.path.isdir(os.path.join(top, ".asimov")) else PLAIN_PATH


def existing(top: str) -> str | None:
    """A checkpoint the repository already has (in either place), or None."""
    for rel in (PLAIN_PATH, LAYOUT_PATH):
        if os.path.lexists(os.path.join(top, rel)):
            return rel
    return None


def text(top: str) -> str:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    warmup = ".asimov/warmup.yaml" if path_for(top) == LAYOUT_PATH else "warmup.yaml"
    return (
        f"{EXAMPLE_MARK}: replace every value with your own state.\n"
        "# Current state only (ADR-007): re-read after every compaction; git ignores it.\n"
        f'timestamp: "{now}"\n'
        "tool_calls: 0\n"
        'milestone: "Example: the milestone you are working on"\n'
        "status: planned\n"
        "completed:\n"
        '  - "Example: the last task you finished"\n'
        'in_progress: "Example: the task you are on now"\n'
        "next_steps:\n"
        '  - "Example: the next step"\n'
        f'on_confusion: "cat {warmup}"\n'
    )
