"""asimov-hooks inside the agent: Claude Code hooks that enforce ADR-007 where a
checkpoint is written, and the git side's view of git-ignored (ephemeral) checkpoints.

Kept empty: `asimov-hooks agent-event` imports `agent.event` on every Write and Edit
the agent makes, and nothing here may add to that start-up.
"""
