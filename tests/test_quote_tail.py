"""A stray quote (`k: "it"s"`, or a `"` left open until a later line) is worded and
placed as the round-trip reader words and places it, without loading a YAML library
where `quote_tail` can tell the error, and handed over to the library where it cannot:
the real files of tests/data with stray quotes put into them, each read alone and in a
batch and held to the round trip.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from test_reader_regressions import round_trip, same

from asimov_hooks.readers.plain_rows import AfterQuote, HandOver
from asimov_hooks.readers.plain_yaml import plain_read
from asimov_hooks.readers.problem import YAMLProblem
from asimov_hooks.readers.quote_tail import quote_problem

DATA = Path(__file__).parent / "data"
REAL = [p.read_text(encoding="utf-8") for p in sorted(DATA.rglob("*.yaml"))]
STRAY_LINES = [
    'broken: "unclosed', 'k: "a', "k: 'a", '- "x', "- 'x", 'k: "a "b" c"', "k: 'it's'",
    'k: "x" y', 'k: "a"b: c', "k: 'x' y: z", 'note: "see "the" docs"',
]  # fmt: skip


def told(text: str) -> object:
    """What `quote_problem` tells of `text`, or None when the text goes to the library."""
    try:
        plain_read(text)
    except AfterQuote as handed:
        return quote_problem(text, handed.line)
    except (HandOver, YAMLProblem):  # read, or told by the plain reader
        return None
    return None


def stray_quote_texts(rng: random.Random, count: int) -> list[str]:
    """Real files with a stray quote: a line put in, a quote put into a quoted value, or
    a value's closing quote taken away."""
    texts: list[str] = []
    while len(texts) < count:
        lines = rng.choice(REAL).split("\n")
        at = rng.randrange(len(lines))
        how = rng.random()
        if how < 0.4:
            lines.insert(at, " " * rng.choice([0, 0, 1, 2, 3, 4]) + rng.choice(STRAY_LINES))
        elif how < 0.7:
            quoted = [i for i, line in enumerate(lines) if '"' in line]
            if not quoted:
                continue
            i = rng.choice(quoted)
            cut = rng.randrange(lines[i].index('"'), len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + rng.choice(['"', "'", '" ', '"x']) + lines[i][cut:]
        else:
            closed = [i for i, line in enumerate(lines) if line.rstrip(" ").endswith('"')]
            if not closed:
                continue
            i = rng.choice(closed)
            lines[i] = lines[i].rstrip(" ")[:-1]
        texts.append("\n".join(lines))
    return texts


@pytest.mark.parametrize("seed", range(4))
def test_a_stray_quote_in_a_real_file_is_read_as_the_round_trip_reads_it(seed: int) -> None:
    texts = stray_quote_texts(random.Random(seed), 250)
    told_here = 0
    for text in texts:
        same(text)
        problem = told(text)
        if problem is not None:
            told_here += 1
            assert (problem.rule, problem.message, problem.line, problem.col) == round_trip(text)
    assert told_here > len(texts) // 5, told_here  # the common shapes need no library


# the shapes a stray quote most often makes, and what the round trip says of each
SHAPES = [
    ('a: 1\nlist:\n   broken: "unclosed\n  - "Task 40: fix"\n  - "b"\n', 4, 13, "mapping values"),
    ('notes:\n   broken: "unclosed\n  - "Rename it"\nnext: "x"\n', 3, 6, "block mapping"),
    ('# a comment\n   broken: "unclosed\ntime: "2025-04-10T10:46:58Z"\n', 3, 8, "block mapping"),
    ('milestone: "Fix the "parser" bug"\nstatus: done\n', 1, 22, "block mapping"),
    ("steps:\n  - 'it's done'\n  - b\n", 2, 9, "block collection"),
    ('steps:\n- "open\n- then" on\nnext: 1\n', 3, 9, "block mapping"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "col", "words"), SHAPES)
def test_the_common_shapes_are_told_without_a_library(text, line, col, words) -> None:
    problem = told(text)
    assert problem is not None
    assert (problem.rule, problem.message, problem.line, problem.col) == round_trip(text)
    assert (problem.line, problem.col) == (line, col) and words in problem.message
    same(text)


@pytest.mark.parametrize(
    "text",
    [
        'k: "open\nx" y\n# a comment\nb: 1\n',  # a comment line next: its tokens are gathered
        'k: "open\nx" y\n  deeper: 1\n',  # the scalar after the quote may go on
        'k: "a\\"b\nx" y\nb: 1\n',  # an escape
        'k: "open\n--- x" y\nb: 1\n',  # a document marker inside the quotes
        'k: "a" y: 1\nb: 1\n',  # the quoted scalar may still be a key on its own line
        'k: "open\nx" - y\nb: 1\n',  # an indicator after the quote
        'k: "open\nx"\nb: 1\n',  # closed, nothing after: maybe valid
        'k: "open\n',  # never closed
        'k: "open\nthen" on\nb: 1\n',  # the closing line is no entry: handed over before
    ],
)
def test_other_shapes_are_left_to_the_library(text: str) -> None:
    assert told(text) is None
    same(text)


def test_a_batch_with_a_stray_quote_loads_no_yaml_library(tmp_path) -> None:
    good = "milestone: m\nstatus: in_progress\ncompleted:\n  - a\n"
    broken = SHAPES[0][0]
    code = (
        "import sys\n"
        "from asimov_hooks.readers.loaders import YAMLProblem, batch_reading, load_yaml\n"
        "with batch_reading():\n"
        f"    load_yaml({good!r})\n"
        "    try:\n"
        f"        load_yaml({broken!r})\n"
        "    except YAMLProblem as problem:\n"
        "        print(problem.line, problem.col, problem.message)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('ruamel', 'yaml', '_yaml'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    said, modules = out.stdout.splitlines()
    assert said == "4 13 invalid YAML: mapping values are not allowed here"
    assert modules == "[]"
