"""Which kind a file is: a kind's `identify` keys against a file's top-level keys.

A file that only shares a protocol file's name (a Kubernetes manifest called
`warmup.yaml`) is not one: the `not-protocol-file` rule (checks/foreign.py) reports it,
the checks skip it, the trimmer and the profile detection leave it alone. One test,
asked by all of them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterable
    from typing import Any

_TOP_KEY = r"""^(?:"([^"\n]+)"|'([^'\n]+)'|([^\s#&*!|>'"%@`{}\[\],?:-][^:\n]*?|-[^\s:][^:\n]*?))[ \t]*:(?:[ \t]|$)"""

_SETS = (set, frozenset, type({}.keys()))


def top_level_keys(text: str) -> list[str]:
    """Keys at column 0 of a block-mapping YAML document, without parsing it."""
    import re  # on first use: most hook runs never need it

    pattern = re.compile(_TOP_KEY, re.M)
    return [a or b or c for a, b, c in pattern.findall(text)]


def foreign_reason(keys: Iterable[str], spec: dict[str, Any]) -> str | None:
    """Why a file that only shares a protocol file's name is not one, or None."""
    wanted = spec.get("identify", {}).get("keys")
    if not wanted:
        return None
    if type(keys) not in _SETS:
        keys = set(keys)
    if not keys or not keys.isdisjoint(wanted):  # (a dict's keys are asked as they are)
        return None
    keys = set(keys)
    description = spec.get("description", "protocol file")
    if {"apiVersion", "kind"} <= keys:
        looks = "looks like a Kubernetes manifest (apiVersion/kind)"
    elif "services" in keys:
        looks = "looks like a Compose file (services)"
    else:
        shown = ", ".join(sorted(keys)[:4])
        looks = f"top-level keys are {shown}"
    return f"not an {description}: {looks}; none of its identifying keys are present"
