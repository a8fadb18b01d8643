"""agent.install.jsonedit: splicing edits of a JSON text.

Properties over generated documents in many layouts (compact, spaced, indented by
spaces or tabs, CRLF, with or without a final newline): appending a value anywhere
gives the data with that value added, and removing it again gives back the exact text.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asimov_hooks.agent.install.jsonedit import Document, JsonEditError, parse

KEYS = st.text(alphabet="abcXYZ_-é/~ ", min_size=1, max_size=6)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)
LAYOUTS = st.tuples(
    st.sampled_from([None, 2, 4, "\t", "  "]),
    st.sampled_from([",", ", "]),
    st.sampled_from([":", ": ", " : "]),
    st.booleans(),  # CRLF
    st.booleans(),  # final newline
)


def render(value, layout) -> str:
    indent, comma, colon, crlf, final = layout
    text = json.dumps(value, indent=indent, separators=(comma, colon), ensure_ascii=False)
    if crlf:
        text = text.replace("\n", "\r\n")
    return text + (("\r\n" if crlf else "\n") if final else "")


def containers(value, path=()):
    if isinstance(value, (dict, list)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            yield from containers(child, (*path, key))


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(KEYS, VALUES, max_size=5),
    LAYOUTS,
    VALUES,
    KEYS,
    st.integers(0, 1000),
)
def test_append_then_delete_gives_the_text_back(data, layout, new, key, pick) -> None:
    text = render(data, layout)
    doc = Document(text)
    places = list(containers(data))
    path, target = places[pick % len(places)]
    if isinstance(target, dict):
        key = key + "!new"  # never one it has
        doc.append(path, new, key=key)
        where = (*path, key)
    else:
        doc.append(path, new)
        where = (*path, len(target))
    assert doc.value(where) == new
    expected = json.loads(text)
    holder = expected
    for step in path:
        holder = holder[step]
    if isinstance(holder, dict):
        holder[key] = new
    else:
        holder.append(new)
    assert json.loads(str(doc)) == expected
    assert str(doc).endswith(text[len(text.rstrip("\r\n")) :])  # final newline as it was
    doc.delete(where)
    assert str(doc) == text


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(KEYS, VALUES, min_size=1, max_size=5), LAYOUTS, SCALARS)
def test_replace_touches_only_that_value(data, layout, new) -> None:
    text = render(data, layout)
    doc = Document(text)
    first = next(iter(data))
    doc.replace((first,), new)
    expected = json.loads(text)
    expected[first] = new
    assert json.loads(str(doc)) == expected
    node = doc.node((first,))
    assert node is not None
    rest = str(doc)[node.end :]
    assert text.endswith(rest)  # everything after the value is byte for byte the same


def test_numbers_are_kept_as_written() -> None:
    doc = Document('{"a": 1e400, "b": -0.0, "c": 1.000}')
    doc.append((), [1], key="d")
    assert str(doc) == '{"a": 1e400, "b": -0.0, "c": 1.000, "d": [1]}'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": NaN}', "NaN is not a JSON value"),
        ('{"a": [Infinity]}', "Infinity is not a JSON value"),
        ('{"a": -Infinity}', "-Infinity is not a JSON value"),
        ('{"a": 1, "a": 2}', 'duplicate key "a"'),
        ('{"a": }', "invalid JSON"),
        ("[" * 100_000, "invalid JSON"),
    ],
)
def test_refused(text: str, message: str) -> None:
    with pytest.raises(JsonEditError, match=message):
        parse(text)


def test_comments_kept_where_the_file_may_have_them() -> None:
    text = '{ // head\n  "a": [1, /* one */ 2], // tail\n  "s": "// in a string"\n}\n'
    with pytest.raises(JsonEditError):
        Document(text)
    doc = Document(text, comments=True)
    assert doc.data == {"a": [1, 2], "s": "// in a string"}
    doc.append(("a",), 3)
    doc.append((), {"x": True}, key="b")
    assert str(doc) == (
        '{ // head\n  "a": [1, /* one */ 2, 3], // tail\n  "s": "// in a string",\n'
        '  "b": {\n    "x": true\n  }\n}\n'
    )
    doc.delete(("b",))
    doc.delete(("a", 2))
    assert str(doc) == text
