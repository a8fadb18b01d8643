"""The YAML side of the merge driver grows linearly with a long list: writing a side of
a conflict into a copy of ours' document (a `completed:` list of thousands of items),
and rebuilding a list from ours' own items where the merge changed it (matched by
value, then by id key). Measured as tests/test_linear_time.py measures: the cost at 4n
against the cost at n, never a time.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_linear_time import assert_linear


def _conflict_in_long_checkpoint(n: int) -> Callable[[], object]:
    """Both sides set `status` their own way in a checkpoint whose `completed:` list has
    n items (commented, as people keep it): each side of the conflict is written into
    ours' document, its n items and their comments kept."""
    from merge_support import YAML_PATH, merge

    from asimov_hooks.merge import yaml_merge

    items = "".join(f'  - "Task {i}: done"  # note {i}\n' for i in range(n))

    def side(status: str) -> str:
        return f'timestamp: "2026-01-01T10:00:00Z"\nstatus: {status}\ncompleted:\n{items}'

    base, ours, theirs = side("in_progress"), side("blocked"), side("done")

    def run() -> None:
        yaml_merge.load.cache_clear()  # each run parses, as each driver process does
        yaml_merge._pristine.cache_clear()
        outcome = merge(base, ours, theirs, YAML_PATH)
        assert outcome.how == "conflict", outcome

    return run


def _list_rebuilt(n: int) -> Callable[[], object]:
    """A list of n rows the merge reversed, every other row changed: each row is found
    among ours' (by value, or by its `id` when it changed) and reused."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    from asimov_hooks.merge.yaml_merge import _apply_seq

    merged = [{"id": i, "v": i + i % 2} for i in reversed(range(n))]

    def run() -> None:
        seq = CommentedSeq(CommentedMap([("id", i), ("v", i)]) for i in range(n))
        rows = list(seq)
        _apply_seq(seq, merged, (), lambda path: "id")
        assert seq == merged
        assert all(a is b for a, b in zip(seq, reversed(rows), strict=True))

    return run


CASES: dict[str, tuple[Callable[[int], Callable[[], object]], int]] = {
    "a conflict in a checkpoint with a long list": (_conflict_in_long_checkpoint, 256),
    "a long list rebuilt from ours' items": (_list_rebuilt, 512),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_grows_linearly(name: str) -> None:
    case, n = CASES[name]
    assert_linear(case, n)
