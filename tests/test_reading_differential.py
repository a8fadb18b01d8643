"""The fast YAML reading agrees with the library reading, text for text.

`readers.loaders.load_yaml` reads the common shape of a protocol file without a YAML
library and hands everything else to one. Whatever path it takes, a validate run must
see what the library sees: the same data (types and key order), the same verdict, the
same first error (rule, message, line and column) and the same place for every key and
value. The library reading here is ruamel.yaml's round trip for data and errors, and
libyaml's node marks (through ruamel's C binding) for positions; both are used
directly, so this test does not depend on how the fast path is built.

The cases: the YAML files in `tests/data/` as they are, fixed mutations of each of
them, and texts Hypothesis generates from the pieces protocol files are made of (and
the pieces that break them). Each case is read alone and inside `batch_reading()` (a
validate run of many files). The counts are stated in the README.
"""

from __future__ import annotations

import json
import random
import warnings
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reading_support import norm, read

from asimov_hooks.minischema.keywords import key_text
from asimov_hooks.readers import loaders
from asimov_hooks.readers.document import guard
from asimov_hooks.readers.guards import limits as default_limits
from asimov_hooks.readers.loaders import YAMLProblem, to_plain

DATA = Path(__file__).parent / "data"
README = Path(__file__).resolve().parents[1] / "README.md"
REAL_FILES = sorted(p for p in DATA.rglob("*") if p.suffix in (".yaml", ".yml"))
MUTATIONS = 40  # per real file
GENERATED = 600  # Hypothesis examples
MAX_NODES = 100_000


# ---------------------------------------------------------------- the library reading
def _canon(data: object) -> str:
    return json.dumps(norm(to_plain(data, MAX_NODES)), default=str)


def library(text: str) -> tuple:
    """("data", canonical data, the round trip's Document) or ("problem", rule,
    message, line, col)."""
    lim = default_limits()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            guard(text, "yaml", lim)
            document = loaders._rt_document(text, MAX_NODES, lim)
            return ("data", _canon(document.data), document)
        except YAMLProblem as problem:
            return ("problem", problem.rule, problem.message, problem.line, problem.col)


def _marks(text: str):
    """libyaml's node tree of a text the library reads, or None."""
    from asimov_hooks.readers.yamlio import SAFE, make_yaml

    yaml = make_yaml(SAFE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return yaml, yaml.compose(text)
        except Exception:  # no marks to compare with
            return yaml, None


def library_position(yaml, root, path: tuple, on_key: bool) -> tuple[int, int]:
    """Where libyaml's node marks put `path`: a key's value at the value, a nested
    block (or, `on_key`, the last part) at its key, an item at the item."""
    if root is None:
        return 1, 1
    node, mark = root, root.start_mark
    for i, part in enumerate(path):
        if node.id == "sequence" and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            mark = node.start_mark
            continue
        if node.id != "mapping":
            break
        wanted = key_text(part)
        pair = next(
            (
                (k, v)
                for k, v in reversed(node.value)
                if k.id == "scalar"
                and key_text(yaml.constructor.construct_object(k, deep=True)) == wanted
            ),
            None,
        )
        if pair is None:
            break
        key, value = pair
        last = i == len(path) - 1
        mark = key.start_mark if (on_key and last) or value.id != "scalar" else value.start_mark
        node = value
    return mark.line + 1, mark.column + 1


def _paths(data: object, prefix: tuple = ()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, (*prefix, index))


def fast(text: str, batch: bool):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return read(text, batch, MAX_NODES)
        except YAMLProblem as problem:
            return ("problem", problem.rule, problem.message, problem.line, problem.col)


def agrees(text: str) -> str:
    """Checks every reading of `text` against the library's; says which verdict it was."""
    expected = library(text)
    yaml, root = _marks(text) if expected[0] == "data" else (None, None)
    for batch in (False, True):
        got = fast(text, batch)
        if isinstance(got, tuple):
            assert got == expected, (batch, text)
            continue
        assert expected[0] == "data", (batch, text, expected)
        assert _canon(got.data) == expected[1], (batch, text)
        for path in _paths(got.data):
            for on_key in (False, True):
                # libyaml's mark, or the round trip's for a text only it reads (the two
                # differ only on an empty value at the end of the text)
                places = {expected[2].locate(path, on_key)}
                if root is not None:
                    places.add(library_position(yaml, root, path, on_key))
                assert got.locate(path, on_key) in places, (batch, path, on_key, text)
    return expected[0]


# ---------------------------------------------------------------- the real files
def _mutations(text: str, seed: int) -> list[str]:
    """Deterministic small edits of a real file: the edits a hand or a merge makes."""
    rng = random.Random(seed)
    lines = text.split("\n")
    pieces = [" ", "  ", "#", ":", "- ", '"', "'", "[", "]", "{", "\t", "null: 1", "x" * 1030]
    out = []
    for _ in range(MUTATIONS):
        edited = list(lines)
        at = rng.randrange(len(edited))
        how = rng.randrange(6)
        if how == 0:  # a character in
            line = edited[at]
            pos = rng.randrange(len(line) + 1)
            edited[at] = line[:pos] + rng.choice(pieces) + line[pos:]
        elif how == 1:  # a character out
            line = edited[at]
            if line:
                pos = rng.randrange(len(line))
                edited[at] = line[:pos] + line[pos + 1 :]
        elif how == 2:  # a line indented
            edited[at] = " " * rng.choice((1, 2, 4)) + edited[at]
        elif how == 3:  # a line dedented
            edited[at] = edited[at][rng.choice((1, 2)) :]
        elif how == 4:  # a line twice
            edited.insert(at, edited[at])
        else:  # a line gone
            del edited[at]
        out.append("\n".join(edited))
    return out


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_a_real_file_and_its_mutations(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    agrees(text)
    for mutated in _mutations(text, zlib.crc32(path.name.encode())):
        agrees(mutated)


def test_the_real_files_are_there() -> None:
    assert len(REAL_FILES) >= 15, REAL_FILES


# ---------------------------------------------------------------- generated texts
_WORD = st.sampled_from(
    ["task", "status", "next_actions", "completed", "in_progress", "notes", "a", "b-c", "x.y"]
)
_KEY = st.one_of(
    _WORD,
    _WORD,
    _WORD,
    st.sampled_from(["null", "~", "TRUE", "true", "0o7", "1.50", "12", "-1", "2026-01-02"]),
    st.sampled_from(['"quoted key"', "'single'", "k" * 1025, "k" * 1024, "ключ"]),
)
_VALUE = st.one_of(
    st.sampled_from(
        [
            "x",
            "words with spaces",
            "yes",
            "on",
            "True",
            "false",
            "~",
            "null",
            "12",
            "-3",
            "+4",
            "007",
            "0x1f",
            "1.5",
            ".nan",
            "-.inf",
            "1e999",
            "2026-01-02",
            "2026-01-02T03:04:05Z",
            '"a quoted: value"',
            '"open quote',
            '"esc\\taped"',
            "'it''s'",
            "'open",
            "[]",
            "{}",
            "[a, b]",
            '["-v", "4"]',
            "[a, [b]]",
            "{a: 1}",
            "a: b",
            "x #c",
            "x#y",
            "&anchor x",
            "*anchor",
            "!!str 1",
            "|",
            ">",
            "@x",
            "`x",
            "% x",
            "é — ü",
            "\u202ex",
        ]
    ),
    st.text(alphabet="ab :#-'\"[]{},", min_size=1, max_size=8),
)
_COMMENT = st.sampled_from(["", "  # note", " #", "#x", " " * 40 + "# far"])


@st.composite
def _line(draw) -> str:
    indent = " " * draw(st.sampled_from([0, 0, 0, 2, 2, 4, 1, 3, 6]))
    shape = draw(st.integers(0, 9))
    comment = draw(_COMMENT)
    if shape <= 3:
        return f"{indent}{draw(_KEY)}: {draw(_VALUE)}{comment}"
    if shape <= 5:
        return f"{indent}{draw(_KEY)}:{comment}"
    if shape <= 7:
        return f"{indent}- {draw(_VALUE)}{comment}"
    if shape == 8:
        return f"{indent}- {draw(_KEY)}: {draw(_VALUE)}"
    return draw(st.sampled_from(["", "# a comment", "---", "...", "   ", "\t- x", "key:\tx"]))


_PLAIN_VALUE = st.one_of(
    st.sampled_from(["x", "words with spaces", "12", "-3", "true", "~", '"q: x"', "'it''s'"]),
    _VALUE,
)
_TREE = st.recursive(
    _PLAIN_VALUE,
    lambda children: st.one_of(
        st.lists(st.tuples(_KEY, children), min_size=1, max_size=4).map(dict),
        st.lists(children, min_size=1, max_size=4),
    ),
    max_leaves=12,
)


@st.composite
def _tree_text(draw) -> str:
    """A protocol file's shape: nested block mappings and lists, rendered as people
    write them (a list under its key indented or not), with the odd comment."""
    step = draw(st.sampled_from([2, 2, 4]))
    flush = draw(st.booleans())  # `key:` then `- item` at the key's own indent
    out: list[str] = []

    def scalar_line(head: str, value: str) -> None:
        out.append(f"{head}{value}{draw(_COMMENT)}")

    def render(node: object, indent: int) -> None:
        pad = " " * indent
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(value, (dict, list)):
                    out.append(f"{pad}{key}:")
                    inner = indent if isinstance(value, list) and flush else indent + step
                    render(value, inner)
                else:
                    scalar_line(f"{pad}{key}: ", value)
        elif isinstance(node, list):
            for item in node:
                if isinstance(item, dict):
                    lines = len(out)
                    render(item, indent + 2)
                    out[lines] = f"{pad}- " + out[lines][indent + 2 :]
                elif isinstance(item, list):
                    out.append(f"{pad}-")
                    render(item, indent + step)
                else:
                    scalar_line(f"{pad}- ", item)
        else:
            scalar_line(pad, node)

    root = draw(_TREE)
    render(root if isinstance(root, (dict, list)) else {"task": root}, 0)
    return "\n".join(out) + "\n"


@st.composite
def _text(draw) -> str:
    if draw(st.integers(0, 2)):
        return draw(_tree_text())
    lines = draw(st.lists(_line(), min_size=1, max_size=14))
    end = draw(st.sampled_from(["\n", "", "\n\n"]))
    return "\n".join(lines) + end


_SETTINGS = settings(
    max_examples=GENERATED,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@_SETTINGS
@given(_text())
def test_generated_texts(text: str) -> None:
    agrees(text)


def test_generated_texts_reach_both_verdicts() -> None:
    """Not a generator whose texts all break (or all read): both verdicts are tried."""
    seen: dict[str, int] = {}

    @_SETTINGS
    @given(_text())
    def count(text: str) -> None:
        verdict = library(text)[0]
        seen[verdict] = seen.get(verdict, 0) + 1

    count()
    assert min(seen.get("data", 0), seen.get("problem", 0)) > GENERATED // 10, seen


def test_the_readme_states_the_counts() -> None:
    readme = README.read_text(encoding="utf-8")
    cases = len(REAL_FILES) * (1 + MUTATIONS) + GENERATED
    assert f"{cases:,} texts" in readme, cases
