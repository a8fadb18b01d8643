"""The oc writer reproduces the protocol writer's layout byte for byte (property tests)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from asimov_hooks.oc.jsonfmt import Layout, dump_bytes, js_number, load_bytes

keys = st.text(min_size=0, max_size=8)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=20,
)
documents = st.dictionaries(keys, values, max_size=6)


def stringify(doc) -> bytes:
    """`JSON.stringify(doc, null, 2) + "\\n"` for documents whose numbers Python and
    JavaScript print alike."""
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")


@settings(max_examples=300, deadline=None)
@given(documents)
def test_read_then_write_changes_no_byte(doc) -> None:
    raw = stringify(doc)
    data, layout = load_bytes(raw)
    assert dump_bytes(data, layout) == raw


@settings(max_examples=200, deadline=None)
@given(
    documents, st.sampled_from(["  ", "    ", "\t"]), st.booleans(), st.booleans(), st.booleans()
)
def test_other_layouts_are_kept(doc, indent, crlf, final, bom) -> None:
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    if not doc:
        text = "{}"
    text = text + ("\n" if final else "")
    if crlf:
        text = text.replace("\n", "\r\n")
    raw = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8", "surrogatepass")
    data, layout = load_bytes(raw)
    assert dump_bytes(data, layout) == raw


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_new_numbers_read_back_as_the_same_number(value) -> None:
    text = js_number(value)
    assert float(text) == value
    if value == int(value) and abs(value) < 1e21:
        assert "." not in text and "e" not in text  # 6.0 is written 6, as JavaScript does


def test_javascript_number_forms() -> None:
    cases = {1e21: "1e+21", 1e-7: "1e-7", 1e-6: "0.000001", 0.1: "0.1", 6.0: "6", -0.5: "-0.5"}
    assert {v: js_number(v) for v in cases} == cases
    assert dump_bytes({}, Layout()) == b"{}\n"
