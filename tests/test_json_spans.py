"""One JSON span scanner (readers/json_spans) serves the merge driver's renderer and
the loader's duplicate-key position; it must agree with `json_find`, the loader's
one-path walker."""

from __future__ import annotations

import pytest

from asimov_hooks.readers.json_loader import json_find, load_json
from asimov_hooks.readers.json_spans import Node, spans
from asimov_hooks.readers.loaders import YAMLProblem

DOC = (
    '{\n  "a": 1,\n  "b": {"c": [1, {"d": "x\\"y"}, []], "e": null},\n  "f": [ true , -2.5e3 ]\n}\n'
)


def where(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def walk(node: Node, path: tuple = ()):
    yield path, node.start, None
    for key, (key_start, _key_end, child) in node.members.items():
        yield (*path, key), child.start, key_start
        yield from walk(child, (*path, key))
    for index, child in enumerate(node.items):
        yield from walk(child, (*path, index))


def test_spans_and_json_find_agree_on_every_node() -> None:
    seen = 0
    for path, start, key_start in walk(spans(DOC)):
        assert json_find(DOC, path) == where(DOC, start), path
        if key_start is not None:
            assert json_find(DOC, path, on_key=True) == where(DOC, key_start), path
        seen += 1
    assert seen > 10


@pytest.mark.parametrize(
    ("text", "key", "position"),
    [
        ('{"a":1,"a":2}', "a", (1, 8)),
        ('{\n "x": {"b": 1, "c": [1,2], "b": 3},\n "b": 4}', "b", (2, 28)),
        ('{"a": [1,2,\n{"q":1,"q":2}]}', "q", (2, 8)),
    ],
)
def test_a_duplicate_key_is_pointed_at(text, key, position) -> None:
    with pytest.raises(YAMLProblem) as info:
        load_json(text)
    assert info.value.rule == "duplicate-key" and key in info.value.message
    assert (info.value.line, info.value.col) == position
    repeats: dict[str, int] = {}
    spans(text, repeats)
    assert where(text, repeats[key]) == position
