"""The validate run: the checker (`engine`), the run itself (`run`), the size-only hook's
quick answer (`slim`), forked workers (`parallel`) and the commit-time word on missing
git hooks (`hooktypes`). What to check (configuration, rule packs, the files) is
`config/`. Imports nothing, so a hook loads only the modules it uses."""
