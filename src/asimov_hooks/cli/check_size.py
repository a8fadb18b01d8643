"""`asimov-check-size`: ADR-007 size limits only, for the pre-commit size hook.

Kept as the module pre-commit-hooks users expect (`main(argv) -> int`); the work is in
entrypoints.check_size_main, which never imports click, ruamel.yaml or jsonschema.
"""

from __future__ import annotations

from .entrypoints import check_size_main as main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
