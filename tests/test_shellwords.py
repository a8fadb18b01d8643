"""The command-line word splitter gives exactly what `shlex.split` gives (words, or the
same ValueError), on the shapes that matter and on many random lines, and in time
linear in the line where `shlex` grows with its square."""

from __future__ import annotations

import random
import shlex

import pytest
from test_linear_time import assert_linear

from asimov_hooks.agent.runtime.shellwords import split


def _shlex(command: str) -> tuple[str, object]:
    try:
        return "words", shlex.split(command)
    except ValueError as error:
        return "error", str(error)


def _ours(command: str) -> tuple[str, object]:
    try:
        return "words", split(command)
    except ValueError as error:
        return "error", str(error)


SHAPES = [
    "",
    "   ",
    "a b\tc\r\nd",
    "'' x",
    'a""b',
    "it's",
    "'it'\\''s'",
    '"a \\" b" \\\\ c',
    '"\\x \\$ \\` \\\\"',
    "a\\ b",
    "a\\",
    '"open',
    '"open\\',
    '"open\\\\',
    "'open\\",
    "# not a comment",
    "x #y",
    "\\\n",
    "é\u00a0ü",
    "asimov-hooks agent-event --agent claude",
    "if [ -x '/a b/py' ] && [ -f \"/c d/driver.py\" ]; then exec x; fi",
    "cd sub && apply_patch '*** Begin Patch\n*** Add File: a\n+x\n*** End Patch'",
]


@pytest.mark.parametrize("command", SHAPES)
def test_each_shape_splits_as_shlex_splits_it(command: str) -> None:
    assert _ours(command) == _shlex(command)


def test_random_lines_split_as_shlex_splits_them() -> None:
    rng = random.Random(20261202)
    alphabet = "ab '\"\\\t\n\r#$é\x00"
    for _ in range(20_000):
        command = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert _ours(command) == _shlex(command), repr(command)


LONG_WORDS = {
    "a long bare word": lambda n: "/" + "a/" * n + "x y",
    "a long single-quoted word": lambda n: "'" + "a\n" * n + "'",
    "a long double-quoted word": lambda n: '"' + 'a\\"\\\\\\x' * n + '"',
    "a double quote left open": lambda n: '"' + "a\\x" * n,
    "escapes": lambda n: "\\a" * n,
    "many words": lambda n: "a " * n,
}


@pytest.mark.parametrize("name", sorted(LONG_WORDS))
def test_splitting_grows_linearly(name: str) -> None:
    text = LONG_WORDS[name]

    def case(n: int):
        command = text(n)

        def run() -> object:
            try:
                return split(command)
            except ValueError:
                return None

        return run

    assert_linear(case, 32768)  # shlex's square shows only past tens of kilobytes
