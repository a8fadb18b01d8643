"""What runs on each agent event (`asimov-hooks agent-event`): `event` reads the hook
JSON and hands it to the agent's adapter (`agent.agents`), `prefilter` answers "not
ours" for almost every write, and `core` dispatches the rest: `writes` (judge, trim and
check protocol-file writes, with `simulate`, `pretrim`, `held` and `verdict`), `shellwatch` and
`shellcmd` (protocol files written through the shell), `turns` and `reread` (the turn
timer and the re-read after a restart), over `model`, `payload`, `common`, `protocols`,
`state` (per-session turn state on disk) and `turnlog` (where it lives; the records
the frequent events append to it).

Kept to this docstring: it is imported on every file edit the agent makes.
"""
