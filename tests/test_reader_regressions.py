"""Texts on which the fast YAML readers once answered unlike the libraries they stand in
for, each held to the full round-trip reading through the public API only (`load_yaml`
alone and in a batch, `load_data`, `Document.locate`, validate's output), so that the
cases keep guarding whatever reader takes the text:

- a key longer than YAML's 1,024 characters, which every library refuses;
- the same refusal when only the last entries are read again (the focused re-read);
- a double-quoted value left open on its line;
- keys that are not strings (`null:`, `~:`, `TRUE:`, `0o7:`, `1.50:`), placed at their line.
"""

from __future__ import annotations

import random
import warnings

import pytest
from reading_support import read

from asimov_hooks.readers import yamlio
from asimov_hooks.readers.json_loader import load_json
from asimov_hooks.readers.loaders import YAMLProblem, batch_reading, load_data, load_yaml


def round_trip(text: str) -> tuple:
    """The round-trip reader's answer: ("data", data) or (rule, message, line, col)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            data = yamlio.single(yamlio.load_all(text, yamlio.ROUND_TRIP))
        except YAMLProblem as problem:
            return problem.rule, problem.message, problem.line, problem.col
    return ("data", data)


def answer(text: str, batch: bool) -> tuple:
    """load_yaml's answer, alone or in a batch, in `round_trip`'s form."""
    try:
        document = read(text, batch)
    except YAMLProblem as problem:
        return problem.rule, problem.message, problem.line, problem.col
    return ("data", document.data)


def same(text: str) -> None:
    """Alone and in a batch, load_yaml answers as the round trip does."""
    expected = round_trip(text)
    for batch in (False, True):
        got = answer(text, batch)
        if expected[0] == "data":
            assert got == ("data", expected[1]), (batch, text[:200])
        else:
            assert got == expected, (batch, text[:200])


def validate_says(tmp_path, cli, text: str) -> str:
    """validate's report on a checkpoint holding `text`."""
    from conftest import git_init

    repo = git_init(tmp_path / "repo")
    path = f"{repo}/.claude_checkpoint.yaml"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return cli(path).out


# ---------------------------------------------------------------- keys past 1,024 characters
LONG = "k" * 1025
LONG_KEYS = [
    f"{LONG}: 1\n",
    f"a: 1\n{LONG}: 2\n",
    f"a: 1\n{LONG}:\n",
    f'a: "x"\n{LONG}: 2\n',
    f"a:\n  {LONG}: 2\n",
    f"a:\n  b: 1\n  {LONG}: x\n",
    f"a:\n  - {LONG}: 2\n",
    f"a:\n  - b: 1\n    {LONG}: 2\n",
    f"a: 1\n{LONG}: [x, y]\n",
    f"a:\n  - x\n{LONG}: 2\n",
    f"{'k' * 1200}: 1\nb: 2\n",
]


@pytest.mark.parametrize("text", LONG_KEYS, ids=range(len(LONG_KEYS)))
def test_a_key_past_1024_characters_is_refused_in_the_round_trips_words(text: str) -> None:
    expected = round_trip(text)
    assert expected[0] == "syntax"  # every YAML library refuses such a key
    same(text)


def test_a_key_of_1024_characters_is_read() -> None:
    text = f"a: 1\n{'k' * 1024}: 2\n"
    same(text)
    assert answer(text, False) == ("data", {"a": 1, "k" * 1024: 2})


def test_load_data_refuses_a_long_key() -> None:
    for text in (f"a: 1\n{LONG}: 2\n", f"- a: 1\n  {LONG}: 2\n"):
        with pytest.raises(YAMLProblem):
            load_data(text)


def test_a_long_key_is_refused_where_the_last_entries_are_read_again() -> None:
    # a text the libraries refuse further down is read again from its last entries: the
    # long key, as the first key read then, was worded as if it opened the document
    for tail in ("d: [1\n", "d: 1.5\n", "d: x\n  e: 1\n", "d: 'x\n"):
        for head in ("a: 1\nb: 2\n", "a: 1\nb:\n  - x\nc: 3\n"):
            same(f"{head}{LONG}: 3\n{tail}")


def test_validate_refuses_a_long_key(tmp_path, cli) -> None:
    out = validate_says(tmp_path, cli, f"milestone: m\nstatus: in_progress\n{LONG}: 1\n")
    assert (
        ".claude_checkpoint.yaml:3:1026: error syntax invalid YAML: could not find "
        "expected ':' (while scanning a simple key)" in out
    ), out


def test_validate_refuses_a_long_key_in_a_batch(tmp_path, cli) -> None:
    from conftest import git_init

    repo = git_init(tmp_path / "repo")
    paths = []
    for i in range(40):  # a run of 32 files or more is read as a batch
        folder = tmp_path / "repo" / f"d{i}"
        folder.mkdir()
        paths.append(str(folder / ".claude_checkpoint.yaml"))
        body = f"milestone: m{i}\nstatus: in_progress\n"
        with open(paths[-1], "w", encoding="utf-8") as fh:
            fh.write(body + (f"{LONG}: 1\n" if i == 7 else ""))
    out = cli(*paths).out
    assert "d7/.claude_checkpoint.yaml:3:1026: error syntax invalid YAML: could not find" in out
    assert out.count("error syntax") == 1, out
    assert "40 files checked" in out and repo


# ---------------------------------------------------------------- a quote left open
# lines that close the quote, carry on after it, or follow it: what the round trip says
# depends on how far its scanner reads past the closing quote
QUOTE_LINES = [
    "a: 1", 'b: "x"', "  c: 2", 'x" y', 'x"y z', 'x" y: 1', 'x"', "z", "- z", "  z", "  - q",
    "# c", "", "w: 3", 'x" y # c', '  x" y', 'x"  ', 'x" #c', 'x": 1', 'x" y:z', "zz z",
    "  zz: 1", ' x" y', 'x" - y', "'q", "  - 'q'", 'x" [y',
]  # fmt: skip


def open_quote_texts(rng: random.Random, count: int) -> list[str]:
    texts = [
        # the case first seen: a scalar after the closing quote, then lines that the
        # scanner reads on into before the parser says anything
        'a: 1\nb: 2\nk: "open\nx" y\nzz z\nx"y z\n',
        'k: "open\n  - q\nx"y z\nx"\nzz z',
    ]
    while len(texts) < count:
        lines = [rng.choice(QUOTE_LINES) for _ in range(rng.randint(2, 7))]
        open_line = " " * rng.choice([0, 0, 2]) + rng.choice(['k: "open', 'k: "a: b', '- "x'])
        lines.insert(rng.randrange(len(lines)), open_line)
        texts.append("\n".join(lines) + rng.choice(["", "\n"]))
    return texts


@pytest.mark.parametrize("seed", range(3))
def test_a_quote_left_open_is_worded_and_placed_as_the_round_trip_does(seed: int) -> None:
    refused = 0
    for text in open_quote_texts(random.Random(seed), 120):
        same(text)
        refused += round_trip(text)[0] != "data"
    assert refused > 60  # mostly broken texts, not only ones every reader takes


def test_validate_places_a_quote_left_open_as_the_round_trip_does(tmp_path, cli) -> None:
    text = 'milestone: m\nstatus: in_progress\nnote: "open\nb: "x"\nx" y\nx"y z\n'
    out = validate_says(tmp_path, cli, text)
    assert (
        ".claude_checkpoint.yaml:6:1: error syntax invalid YAML: could not find expected ':' "
        "(while scanning a simple key)" in out
    ), out


# ---------------------------------------------------------------- keys that are not strings
KEYS = [
    ("null", None), ("~", None), ("Null", None), ("TRUE", True), ("False", False),
    ("0o7", 7), ("0x1F", 31), ("1.50", 1.5), (".inf", float("inf")), ("12", 12),
]  # fmt: skip


def key_shapes(k: str, key: object) -> list[tuple[str, tuple, tuple[int, int], tuple[int, int]]]:
    """(text, path, where its key is, where its value is), as the round trip places them."""
    w = len(k)
    return [
        (f"a: 1\n{k}: 2\n", (key,), (2, 1), (2, w + 3)),
        (f"a: [1]\n{k}: 2\n", (key,), (2, 1), (2, w + 3)),
        (f"a:\n  x: 1\n  {k}: 2\n", ("a", key), (3, 3), (3, w + 5)),
        (f"a: 1\n{k}:\n  - x\n", (key,), (2, 1), (2, 1)),  # a list: at its key
        (f"a: 1\n{k}:\n  b: x\n", (key, "b"), (3, 3), (3, 6)),
        (f"a:\n  - {k}: 1\n", ("a", 0, key), (2, 5), (2, w + 7)),
        (f"a: 1\n{k}: x\nb: y\n", (key,), (2, 1), (2, w + 3)),
    ]


def round_trip_place(text: str, path: tuple, on_key: bool) -> tuple[int, int]:
    """Where ruamel's round-trip nodes put `path` (a block at its key)."""
    node = yamlio.load_all(text, yamlio.ROUND_TRIP)[0]
    for i, part in enumerate(path):
        child = node[part]
        if isinstance(node, list):
            line, col = node.lc.item(part)
        elif (on_key and i == len(path) - 1) or isinstance(child, (dict, list)):
            line, col = node.lc.key(part)
        else:
            line, col = node.lc.value(part)
        node = child
    return line + 1, col + 1


def libyaml_place(text: str, path: tuple, k: str, on_key: bool) -> tuple[int, int]:
    """Where libyaml's node marks put `path`, whose non-string key is written `k`."""
    import yaml

    node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    mark = node.start_mark
    for i, part in enumerate(path):
        if isinstance(node, yaml.SequenceNode):
            node = node.value[part]
            mark = node.start_mark
            continue
        wanted = part if type(part) is str else k
        key, node = next((kn, vn) for kn, vn in node.value if kn.value == wanted)
        last = i == len(path) - 1
        mark = key.start_mark if (on_key and last) or node.id != "scalar" else node.start_mark
    return mark.line + 1, mark.column + 1


@pytest.mark.parametrize("k, key", KEYS, ids=[k for k, _ in KEYS])
def test_a_key_that_is_no_string_is_placed_at_its_line(k: str, key: object) -> None:
    for text, path, at_key, at_value in key_shapes(k, key):
        assert round_trip_place(text, path, True) == at_key, text
        assert round_trip_place(text, path, False) == at_value, text
        assert libyaml_place(text, path, k, True) == at_key, text
        assert libyaml_place(text, path, k, False) == at_value, text
        same(text)
        for batch in (False, True):
            if batch:
                with batch_reading():
                    document = load_yaml(text)
            else:
                document = load_yaml(text)
            assert document.locate(path, True) == at_key, (batch, text)
            assert document.locate(path, False) == at_value, (batch, text)


def test_a_quoted_key_is_told_from_the_plain_one_of_the_same_text() -> None:
    text = 'a: 1\n"null": 2\nnull: 3\n'
    document = load_yaml(text)
    assert document.data == {"a": 1, "null": 2, None: 3}
    assert document.locate(("null",), False) == (2, 9)
    assert document.locate((None,), False) == (3, 7)


def test_validate_places_an_unknown_key_that_is_no_string_at_its_line(tmp_path, cli) -> None:
    text = "milestone: m\nstatus: in_progress\nTRUE: x\n0o7: y\n~: z\n"
    out = validate_says(tmp_path, cli, text)
    for where, name in (("3:1", "true"), ("4:1", "7"), ("5:1", "null")):
        assert (
            f".claude_checkpoint.yaml:{where}: warning unknown-key unknown key {name!r}" in out
        ), out


# ---------------------------------------------------------------- JSON positions
JSON_KEYS = ["a", "b", "é", "k\n"]


def _json_value(rng: random.Random, depth: int) -> object:
    shape = rng.random()
    if depth > 3 or shape < 0.4:
        return rng.choice([1, "x", None, True, 2.5, 'a"b', "\u00e9", -3])
    if shape < 0.7:
        return {
            rng.choice(JSON_KEYS) + str(i): _json_value(rng, depth + 1)
            for i in range(rng.randint(0, 4))
        }
    return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def _json_paths(value: object, prefix: tuple = ()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _json_paths(child, (*prefix, key))
        yield (*prefix, "missing")
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _json_paths(child, (*prefix, index))
        yield from ((*prefix, len(value)), (*prefix, -1), (*prefix, "s"))
    else:
        yield (*prefix, "deeper")


def test_a_json_files_many_findings_are_placed_as_its_first_one() -> None:
    # the first finding walks along its path alone, the next ones read a map of the
    # whole text made once: both must give the same place
    import json

    rng = random.Random(7)
    for _ in range(300):
        value = _json_value(rng, 0)
        text = json.dumps(
            value, indent=rng.choice([None, 1, 2, "\t"]), ensure_ascii=rng.random() < 0.5
        )
        text = rng.choice(["", "\n \r\n"]) + text + rng.choice(["", "\n "])
        reused = load_json(text)
        reused.locate(())
        for path in _json_paths(value):
            for on_key in (False, True):
                assert reused.locate(path, on_key) == load_json(text).locate(path, on_key), (
                    text,
                    path,
                )
