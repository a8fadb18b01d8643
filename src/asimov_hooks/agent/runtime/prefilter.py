"""The cheap answer for almost every file write an agent makes: not ours.

A write is governed when its file is inside the agent's project and its name can be
a protocol file. Only then does `agent-event` load the configuration, the parsers
and the checks; everything here costs a few stats and the rule packs' patterns.
"""

from __future__ import annotations

import os

from .payload import inside

# A repository config can add kinds or change their patterns only through these keys
# (or a file it extends); a backslash may spell either in an escape ("\u006binds").
CONFIG_MARKERS = (b"kinds", b"extends", b"\\")


def governed(path: str, project: str) -> bool:
    """Whether the write of `path` may be one asimov-hooks checks."""
    return inside(path, project) and may_be_protocol_file(path)


def may_be_protocol_file(path: str) -> bool:
    """False only when no configuration can make `path` a protocol file.

    The file name is matched against the default rule pack's kinds. A repository
    config can add kinds or change their patterns only through `kinds` (or a file it
    `extends`), so a config that mentions neither leaves the default answer standing;
    any other config, and one that cannot be read within the config size limit, is
    loaded in full by the core (which reports what is wrong with it).
    """
    from ...fs.walk import tree_of as find_toplevel  # gitutil's finder, without gitutil
    from ...validation.globs import match_any
    from ...validation.packs import ENV_CONFIG, find_config, load_rule_file

    directory = os.path.dirname(path)
    if os.environ.get(ENV_CONFIG):
        return True
    config_file = find_config(directory)
    if config_file is not None:
        from ...fs.access import FileProblem, read_bytes
        from ...readers.guards import limits

        try:
            raw = read_bytes(config_file, limits()["max-config-bytes"], bound="config limit")
        except FileProblem:
            return True
        if any(marker in raw for marker in CONFIG_MARKERS) or b"\x00" in raw:
            return True
    top = find_toplevel(directory) or os.path.realpath(directory)
    rel = os.path.relpath(path, top).replace(os.sep, "/")
    return any(
        match_any(rel, spec.get("files", ()))
        for spec in load_rule_file("kinds.json").get("kinds", {}).values()
    )
