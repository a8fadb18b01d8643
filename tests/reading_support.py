"""What the YAML reading tests share: `load_yaml` read alone or as a batch reads it, and
data made comparable with its types spelled out."""

from __future__ import annotations

import math

from asimov_hooks.readers.loaders import batch_reading, load_yaml


def read(text: str, batch: bool = False, max_nodes: int = 100_000):
    """`load_yaml(text)`, alone or inside `batch_reading()` (a validate run of many
    files); its YAMLProblem propagates."""
    if batch:
        with batch_reading():
            return load_yaml(text, max_nodes)
    return load_yaml(text, max_nodes)


def norm(value):
    """Comparable data: types kept apart (True is not 1), NaN equal to itself, key
    order kept."""
    if isinstance(value, dict):
        return ("map", [(norm(k), norm(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", [norm(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)
