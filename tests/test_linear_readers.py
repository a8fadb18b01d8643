"""Every reader path and the position code grow linearly with the text, alone and in a
batch (`batch_reading()`, as validate reads 32 files or more): the hostile line shapes
(a long run of spaces before a `#`, a long key, a long quoted scalar, many `:` in a
value, a long flow list, a quote left open over many lines, text after a closing quote)
put into each shape a reader takes (the plain shape, mappings in lists, the trim
archive, a text handed over to libyaml, a broken text), then read and placed (a
top-level key, a deep path, the key itself), and a file's many findings placed one
after the other (YAML and JSON), and JSON's errors placed. Measured as
tests/test_linear_time.py measures: the cost at 4n against the cost at n, never a time.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from reading_support import read
from test_linear_time import assert_linear

from asimov_hooks.readers.json_loader import load_json
from asimov_hooks.readers.loaders import YAMLProblem, batch_reading

# the bases: (text before the hostile line, text after it, a deep path to place)
BASES: dict[str, tuple[str, str, tuple]] = {
    "plain": ("milestone: m\nstatus: in_progress\nnext:\n  - a\n  - b\n", "tail: z\n", ("next", 1)),
    "items": ("steps:\n  - name: a\n    run: b\n  - name: c\n", "tail: [x, y]\n", ("steps", 1, "name")),
    "archive": ("- source: a\n  reason: b\n- source: c\n", "- tail: z\n", (1, "source")),
    "libyaml": ("ratio: 1.5\ntext: |\n  x\nnext:\n  - a\n", "tail: z\n", ("next", 0)),
    "broken": ("milestone: m\nstatus: in_progress\nnext:\n  - a\n", "tail: [z\n", ("next", 0)),
}  # fmt: skip
# a hostile line of size n, as a top-level entry (an archive's is an item's first key)
SHAPES: dict[str, Callable[[int], str]] = {
    "spaces before #": lambda n: (
        "h: x" + " " * n + "# c\n" + "i:" + " " * n + "# c\n" + "j:\n  -" + " " * n + "# c\n"
    ),
    "long key": lambda n: "k" * n + ": 1\n",
    "long quoted": lambda n: 'h: "' + "x y" * n + '"\n' + "i: '" + "x" * n + "'\n",
    "colons": lambda n: "h: " + "x:" * n + "\n" + "i: a" + " :a" * n + "\n",
    "flow list": lambda n: "h: [" + "a, " * n + "a]\n" + 'i: ["' + '", "'.join("b" * n) + '"]\n',
    "quote left open": lambda n: 'h: "' + "x " * n + "\n" + "  y\n" * n + 'z" ' + "w " * n + "\n",
    "text after a quote": lambda n: 'h: "a" ' + "b " * n + "\ni: 'a'" + " b" * n + ": c\n",
}


def _entry(base: str, line: str) -> str:
    return "- " + line.replace("\n", "\n  ").rstrip(" ") if base == "archive" else line


def _read(text: str, batch: bool, paths: list[tuple]) -> Callable[[], object]:
    def run() -> object:
        try:
            document = read(text, batch)
        except YAMLProblem as problem:
            return problem.line
        return [document.locate(path, on_key) for path in paths for on_key in (False, True)]

    return run


def _reader_case(base: str, shape: str, batch: bool) -> Callable[[int], Callable[[], object]]:
    head, tail, deep = BASES[base]
    top = (0,) if base == "archive" else ("h",)

    def case(n: int) -> Callable[[], object]:
        text = head + _entry(base, SHAPES[shape](n)) + tail
        return _read(text, batch, [top, deep, (*top, "i"), ()])

    return case


CASES: dict[str, tuple[Callable[[int], Callable[[], object]], int]] = {}
for _base in BASES:
    for _shape in SHAPES:
        for _batch in (False, True):
            _name = f"{_base}, {_shape}, {'batch' if _batch else 'alone'}"
            CASES[_name] = (_reader_case(_base, _shape, _batch), 256)


def _many_findings(text: Callable[[int], str], paths: Callable[[int], list[tuple]], batch: bool):
    """A text of n entries, each placed in turn (a finding each: an unknown key)."""

    def case(n: int) -> Callable[[], object]:
        return _read(text(n), batch, paths(n))

    return case


for _batch in (False, True):
    _mode = "batch" if _batch else "alone"
    CASES[f"top-level keys placed, {_mode}"] = (
        _many_findings(
            lambda n: "".join(f"k{i}: v\n" for i in range(n)),
            lambda n: [(f"k{i}",) for i in range(n)],
            _batch,
        ),
        256,
    )
    CASES[f"top-level keys handed to libyaml placed, {_mode}"] = (
        _many_findings(
            lambda n: "ratio: 1.5\n" + "".join(f"k{i}: v\n" for i in range(n)),
            lambda n: [(f"k{i}",) for i in range(n)],
            _batch,
        ),
        256,
    )
    CASES[f"keys that are no strings placed, {_mode}"] = (
        _many_findings(
            lambda n: "".join(f"{i}: v\n" for i in range(n)),
            lambda n: [(i,) for i in range(n)],
            _batch,
        ),
        256,
    )
    CASES[f"top-level keys after comments placed, {_mode}"] = (
        _many_findings(
            lambda n: "".join(f"k{i}:\n" + "  # c\n" * 4 + f"  - {i}\n" for i in range(n)),
            lambda n: [(f"k{i}",) for i in range(n)],
            _batch,
        ),
        256,
    )
    CASES[f"deep paths placed, {_mode}"] = (
        _many_findings(
            lambda n: "".join(f"k{i}:\n  a:\n    - x\n    - y: {i}\n" for i in range(n)),
            lambda n: [(f"k{i}", "a", 1, "y") for i in range(n)],
            _batch,
        ),
        128,
    )
    CASES[f"keys of list items placed, {_mode}"] = (
        _many_findings(
            lambda n: "steps:\n" + "".join(f"  - name: n{i}\n    run: [a, b]\n" for i in range(n)),
            lambda n: [("steps", i, "run", 1) for i in range(n)],
            _batch,
        ),
        128,
    )
    CASES[f"archive entries placed, {_mode}"] = (
        _many_findings(
            lambda n: "".join(f"- source: s{i}\n  reason: r\n" for i in range(n)),
            lambda n: [(i, "reason") for i in range(n)],
            _batch,
        ),
        128,
    )


def _json(text: Callable[[int], str], paths: Callable[[int], list[tuple]] = lambda n: [()]):
    def case(n: int) -> Callable[[], object]:
        body = text(n)
        wanted = paths(n)

        def run() -> object:
            try:
                document = load_json(body)
            except YAMLProblem as problem:
                return problem.line, problem.col
            return [document.locate(path, on_key) for path in wanted for on_key in (False, True)]

        return run

    return case


JSON_CASES: dict[str, tuple[Callable[[int], str], Callable[[int], list[tuple]]]] = {
    "keys placed": (
        lambda n: "{" + ",\n".join(f'"k{i}": {i}' for i in range(n)) + "}",
        lambda n: [(f"k{i}",) for i in range(n)],
    ),
    "deep paths placed": (
        lambda n: "{" + ",".join(f'"k{i}": {{"a": [1, {{"b": {i}}}]}}' for i in range(n)) + "}",
        lambda n: [(f"k{i}", "a", 1, "b") for i in range(n)],
    ),
    "missing keys placed": (
        lambda n: '{"a": {' + ",".join(f'"k{i}": [{i}]' for i in range(n)) + "}}",
        lambda n: [("a", f"x{i}") for i in range(n)],
    ),
    "a number out of range after digits": (lambda n: '{"a": [' + "1," * n + "1e999]}", None),
    "a number out of range after a long number": (
        lambda n: '{"a": [' + "1" * n + ", " + "2" * n + "e999]}",
        None,
    ),
    "NaN after spaces": (lambda n: '{"a":' + " " * n + "NaN}", None),
    "NaN after strings": (lambda n: '{"a": [' + '"x\\"y", ' * n + "NaN]}", None),
    "a long integer after digits": (lambda n: '{"a": [' + "9" * 99 + ", " * n + "1" * 5000 + "]}", None),
    "a late duplicate key": (lambda n: '{"a": [' + "1, " * n + '1], "b": 1, "a": 2}', None),
    "a late lone surrogate": (lambda n: '["' + "\\u00e9" * n + '", "\\ud800"]', None),
    "an error after spaces": (lambda n: '{"a": 1' + " " * n + "x}", None),
}  # fmt: skip
for _name, (_text, _paths) in JSON_CASES.items():
    for _batch in (False, True):
        _mode = "batch" if _batch else "alone"
        _case = _json(_text, _paths) if _paths else _json(_text)
        if _batch:

            def _in_batch(n: int, inner=_case) -> Callable[[], object]:
                run = inner(n)

                def batched() -> object:
                    with batch_reading():
                        return run()

                return batched

            CASES[f"JSON {_name}, {_mode}"] = (_in_batch, 256)
        else:
            CASES[f"JSON {_name}, {_mode}"] = (_case, 256)


@pytest.mark.parametrize("name", sorted(CASES))
def test_grows_linearly(name: str) -> None:
    case, n = CASES[name]
    assert_linear(case, n)
