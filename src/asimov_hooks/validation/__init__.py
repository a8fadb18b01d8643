"""The validate run: configuration and rule packs (`config`, `packs`, `globs`), the files
to check (`discovery`), the checker (`engine`), the run itself (`run`) and its forked
workers (`parallel`). Imports nothing, so a hook loads only the modules it uses."""
