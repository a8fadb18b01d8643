"""Reading files: bytes and text (`fileio`), YAML/JSON with positions (`loaders`),
the rule packs' fast JSON reader (`fastjson`) and git conflict markers (`markers`)."""
