"""The cheap answer for almost every file write an agent makes: not ours.

A write is governed when its file is inside the agent's project and its name can be
a protocol file. Only then does `agent-event` load the configuration, the parsers
and the checks; everything here costs a few stats and the rule packs' patterns.
"""

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
    from ...config.packs import ENV_CONFIG, find_config, load_rule_file

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
    patterns = [
        pattern
        for spec in load_rule_file("kinds.json").get("kinds", {}).values()
        for pattern in spec.get("files", ())
    ]
    absolute = os.path.abspath(path)
    name = os.path.basename(absolute)  # the last part of any relative path
    if not any(_name_may_match(name, p.strip("/").rsplit("/", 1)[-1]) for p in patterns):
        return False  # the usual answer, without the pattern matcher
    # A pattern that is not anchored (no leading `/`) matches the end of a path, so one
    # that does not match the whole path cannot match its part below the work tree's
    # top: most files are answered without looking for the top.
    from ...config.globs import match_any

    if not any(p.startswith("/") for p in patterns):
        whole = absolute.replace(os.sep, "/").lstrip("/")
        if not match_any(whole, patterns):
            return False
    from ...fs.trees import tree_of as find_toplevel  # gitutil's finder, without gitutil

    top = find_toplevel(directory) or os.path.realpath(directory)
    rel = os.path.relpath(path, top).replace(os.sep, "/")
    return match_any(rel, patterns)


def _name_may_match(name: str, last: str) -> bool:
    """False only when the pattern's last segment `last` certainly does not match the
    base name (as `config.globs` matches it): a literal differs, or the literal text
    before the first `*` or after the last is not there. Anything else (`?`, `[...]`,
    `**`) may match; the matcher decides."""
    if "?" in last or "[" in last or last == "**":
        return True
    if "*" not in last:
        return name == last
    head, _, rest = last.partition("*")
    tail = rest.rpartition("*")[2]
    return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)
