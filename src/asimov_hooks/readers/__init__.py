"""Reading text as data: YAML/JSON with positions (`loaders`, `json_loader`) and the
rule packs' fast JSON reader (`fastjson`); a file's bytes become text in `fs.textio`.
Here: `key_text`, which the readers and the schema evaluator both use, so every message
spells a key alike."""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any


def is_date(value: object) -> bool:
    """Whether `value` is a date or datetime. Without `datetime` loaded no value can be
    one (the plain reader loads none): the check costs no import."""
    dt = sys.modules.get("datetime")
    return dt is not None and isinstance(value, dt.date)


def key_text(key: "Any") -> str:
    """An object key as JSON Schema sees it: a string, the key's YAML text. `1:` is "1",
    `2020-01-01:` "2020-01-01", `true:` "true", `~:` "null", `? [a, b]` "[a, b]"; both
    evaluators see these, so they give one verdict, and messages show them so."""
    if type(key) is str:
        return key
    if isinstance(key, str):
        return str(key)
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return str(int(key))
    if isinstance(key, float):
        if key != key:
            return ".nan"
        if key in (float("inf"), float("-inf")):
            return ".inf" if key > 0 else "-.inf"
        return repr(float(key))
    if is_date(key):
        return key.isoformat()
    if isinstance(key, tuple):  # a sequence as a key: its flow form
        return "[" + ", ".join(key_text(item) for item in key) + "]"
    return str(key)
