"""The asimov-oc-rotate hook's usual answer without click: no checkpoint is over its guideline.

The hook runs on every commit that stages a checkpoint, and almost always has nothing to
do. Reading the rule packs and comparing file sizes costs what `asimov-check-size` costs;
importing click and the rotation code costs several times more. Only when a file is over
its kind's max-bytes-soft guideline (or anything is unusual) does the click command run.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def rotate_over_limit(args: Sequence[str]) -> int | None:
    """`oc rotate --over-limit FILE...`: 0 when no file is over its guideline, None to
    hand over to the click command (a file over it, an option, a missing file)."""
    if not args or any(a.startswith("-") for a in args):
        return None
    from ..config.config import ConfigError, load_config

    try:
        config = load_config(None)
    except ConfigError:
        return None  # click says what is wrong, the usual way
    for path in args:
        if "/" not in path and os.sep not in path:
            return None  # a skill name: the command finds its file
        try:
            size = os.stat(path).st_size
        except OSError:
            return None
        rel = config.relpath(path)
        limit = config.rules_for(config.kind_for(rel), rel).get("max-bytes-soft", {}).get("max")
        if isinstance(limit, int) and size > limit:
            return None
    return 0
