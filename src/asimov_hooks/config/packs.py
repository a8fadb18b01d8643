"""The shipped rule packs (rules/*.json) and schemas: where they are, reading each once,
and merging them into the defaults every config starts from; where a repository's own
config file is (`find_config`). Kept apart from `config` (which re-exports all of it)
so that reading a pack, or telling whether there is a config, needs no config
machinery (an agent's write of a file that is not ours asks only these)."""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any

PACKS = ("kinds.json", "trim.json", "merge.json", "oc.json", "agent.json", "limits.json")


class ConfigError(Exception):
    """The configuration is unusable; reported as one line per problem, exit code 2.

    Its message names config keys, values and file names, all the checkout's: it is
    escaped here (fs.access.show), once for every command that prints it, so a key
    cannot end the line, forge a CI annotation or drive the terminal. Several problems
    (`lines`) are escaped one by one and kept on lines of their own (`error_lines`)."""

    def __init__(self, message: object = "", lines: list[str] | None = None) -> None:
        from ..fs.access import show

        text = "\n".join(show(line) for line in lines) if lines else show(str(message))
        super().__init__(text)


def error_lines(prog: str, exc: Exception) -> str:
    """`prog: error: problem` for each line of the error, each line ended."""
    return "".join(f"{prog}: error: {line}\n" for line in str(exc).split("\n"))


CONFIG_NAMES = (".asimov-hooks.yaml", ".asimov-hooks.yml")
ENV_CONFIG = "ASIMOV_HOOKS_CONFIG"


def find_config(start: str) -> str | None:
    """The nearest config file from `start` upwards, stopping at the repository root."""
    directory = os.path.realpath(start)
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
        pyproject = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(pyproject):
            from ..fs.access import FileProblem, read_head
            from ..readers.guards import limits

            try:  # a bounded look: the file is the checkout's, it may be anything
                head, _more = read_head(pyproject, limits()["max-config-bytes"])
                if b"[tool.asimov-hooks" in head:
                    return pyproject
            except FileProblem:
                pass
        parent = os.path.dirname(directory)
        if os.path.exists(os.path.join(directory, ".git")) or parent == directory:
            return None
        directory = parent


# (functools.lru_cache would import more than these two dictionaries save)
_RULES_DIR: list[str] = []
_RULE_FILES: "dict[str, Any]" = {}


def rules_dir() -> str:
    """rules/ inside the installed package (wheel) or at the top of a source checkout."""
    if _RULES_DIR:
        return _RULES_DIR[0]
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # the package
    for candidate in (os.path.join(here, "rules"), os.path.join(here, "..", "..", "rules")):
        if os.path.isfile(os.path.join(candidate, "kinds.json")):
            _RULES_DIR.append(os.path.normpath(candidate))
            return _RULES_DIR[0]
    raise ConfigError(f"rule packs not found next to {here} (broken installation)")


def load_rule_file(name: str) -> "Any":
    """A JSON document from rules/ (rule packs and schemas); read once per process."""
    if name in _RULE_FILES:
        return _RULE_FILES[name]
    from ..readers.fastjson import loads

    path = os.path.join(rules_dir(), name)
    try:
        with open(path, encoding="utf-8") as fh:
            data = loads(fh.read(), max_depth=None)  # shipped data: only strictness
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot load rule data: {exc}") from None
    _RULE_FILES[name] = data
    return data


def protocol_kinds(protocols: "list[str] | None" = None) -> "dict[str, dict[str, Any]]":
    """The shipped kinds of `protocols` (every shipped protocol: None), by name, as the
    rule pack declares them: what the agent hooks treat as a protocol's files."""
    kinds = load_rule_file("kinds.json").get("kinds", {})
    shipped = load_rule_file("agent.json").get("agent", {}).get("protocols", {})
    names = [k for p, ks in shipped.items() if protocols is None or p in protocols for k in ks]
    return {name: kinds[name] for name in names if name in kinds}


def load_schema(name: str) -> "dict[str, Any]":
    """A shipped schema (rules/schemas/NAME); a path is never joined onto rules/."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise ConfigError(
            f"schema {name!r}: not a shipped schema name (a schema file of the repository is "
            "given as a path relative to the config file, e.g. ./schemas/mine.json)"
        )
    known = _RULE_FILES.get(f"schemas/{name}")
    if known is not None:  # read once per process (every file of a kind asks)
        return known
    if not os.path.isfile(os.path.join(rules_dir(), "schemas", name)):
        raise ConfigError(f"schema {name!r}: no such schema in the shipped rules/schemas/")
    return load_rule_file(f"schemas/{name}")


def deep_merge(base: "Any", over: "Any") -> "Any":
    """Mappings merge key by key; anything else in `over` replaces `base`."""
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = deep_merge(base[key], value) if key in base else value
        return merged
    return over


def default_data() -> "dict[str, Any]":
    """The rule packs merged; nested parts are the cached packs themselves: read only."""
    data: dict[str, Any] = {}
    for pack in PACKS:
        if os.path.isfile(os.path.join(rules_dir(), pack)):
            data = deep_merge(
                data, {k: v for k, v in load_rule_file(pack).items() if k != "$comment"}
            )
    return data
