"""The merge driver's old module path, kept so clones registered before the driver moved
to `asimov_hooks/merge/driver.py` keep merging.

`asimov-hooks install` wrote `python -m asimov_hooks.merge_driver %O %A %B %L %P` (guarded
by a test that this file exists) into each clone's git config; it now writes
`asimov_hooks.merge.driver`, and running `install` again updates the command.
"""

from __future__ import annotations

if __name__ == "__main__":
    import sys

    from asimov_hooks.merge.driver import main

    sys.exit(main())
