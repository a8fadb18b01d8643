"""asimov-hooks inside the agent: the hooks that enforce ADR-007 where a checkpoint is
written, for every supported agent (Claude Code, Codex CLI, Gemini CLI, Cursor, GitHub
Copilot CLI, Qwen Code), and the git side's view of git-ignored (ephemeral) checkpoints.

- `agent.runtime`: what runs on each agent event (`asimov-hooks agent-event`): the
  agent-neutral event and answer, the core that judges writes, watches the shell and
  keeps the turn timer, and the re-read after a restart.
- `agent.agents`: one adapter per agent, its hook payload in and its documented answer
  out (Codex's `apply_patch` envelope beside the Codex adapter).
- `agent.install`: `agent install / uninstall` and the agent part of `doctor`: where each
  agent reads its hooks, the byte-preserving JSON/JSONC/TOML splicing of its settings
  file, the `/checkpoint` command, and keeping local settings out of commits.
- `agent.cli`: the click commands; `agent.ephemeral`: the `asimov-ephemeral` hook.

Kept to this docstring: `asimov-hooks agent-event` imports `agent.runtime.event` on
every Write and Edit the agent makes, and nothing here may add to that start-up.
"""
