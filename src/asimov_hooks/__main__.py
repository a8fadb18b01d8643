"""`python -m asimov_hooks` runs the `asimov-hooks` command group."""

from .cli import main

raise SystemExit(main())
