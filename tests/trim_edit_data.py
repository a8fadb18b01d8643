"""The edit both trim-before-write suites replay, in-process payloads and real agents
alike: a checkpoint at its cap of five completed items, and the model's edit that
marks task 6 done, one item over the cap."""

from __future__ import annotations

CHECKPOINT = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"
BEFORE = (
    'timestamp: "2026-11-20T10:30:00Z"\nmilestone: "Ship the agent hooks"\n'
    "status: in_progress\ncompleted:\n"
    + "".join(f'  - "Task {i}: step {i}"\n' for i in range(1, 6))
    + 'in_progress: "Task 6: wire the edits"\nnext_steps:\n  - "Task 7: release notes"\n'
    'on_confusion: "cat warmup.yaml"\n'
)
OLD = 'in_progress: "Task 6: wire the edits"\nnext_steps:\n  - "Task 7: release notes"\n'
NEW = (
    '  - "Task 6: wire the edits"\nin_progress: "Task 7: release notes"\n'
    'next_steps:\n  - "Task 8: announce"\n'
)
AFTER = BEFORE.replace(OLD, NEW)
# the cap keeps the last five
TRIMMED = AFTER.replace('  - "Task 1: step 1"\n', "")
