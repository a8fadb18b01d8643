"""`asimov-hooks init`: set a repository up in one command. Which families of agent
files it uses (`families`), the hooks and ignore lines they need (`plan`), the splice
into an existing `.pre-commit-config.yaml` that keeps the user's lines (`precommit`),
and the command (`command`)."""
