"""What to check: the rule packs and a repository's config (`packs`, `config`, checked as
they load by `check`, with `finite`), the rule registry (`registry`), file-name patterns
(`globs`), the files a run covers (`discovery`), which kind a file is (`identify`), which
limits a file gets (`profiles`, from `follows`: whether the repository follows the Asimov
protocol) and where a kind's schema comes from (`schemas`). Imports nothing, so a hook
loads only what it uses."""
