"""`python -m asimov_hooks` runs the `asimov-hooks` command group."""

from .cli.entrypoints import hooks_main

raise SystemExit(hooks_main())
