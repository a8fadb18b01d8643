"""`asimov-hooks agent install / uninstall` and the agent part of `doctor`: `targets`
(where each agent reads its hooks, which events we install), `install` (what to write
where), `settings`, `hookedit` and `jsonedit` (our entries spliced into the user's
JSON/JSONC/TOML settings, every other byte kept), `commands` (the `/checkpoint` project
command), `localignore` (local settings kept out of commits), and `health` and
`codextrust` (whether each agent will run the hooks we installed).

Kept to this docstring: the `agent` command group imports `install.targets` to list the
agent names.
"""
