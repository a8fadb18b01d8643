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

from asimov_hooks.readers import yamlio
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
        if batch:
            with batch_reading():
                document = load_yaml(text)
        else:
            document = load_yaml(text)
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
