"""One broken YAML file, one message: validate, the config, trim, the trim archive and the
merge driver all put a ruamel error into the same words at the same place (issue 11)."""

from __future__ import annotations

import pytest

from asimov_hooks.merge.yaml_merge import ParseError
from asimov_hooks.merge.yaml_merge import load as merge_load
from asimov_hooks.readers.loaders import YAMLProblem, load_yaml, load_yaml_plain
from asimov_hooks.trim import archive
from asimov_hooks.trim.layout import Refused, parse

BROKEN = [
    pytest.param(
        "milestone: M\ncompleted: [a, b\n",
        "invalid YAML: expected ',' or ']', but got '<stream end>' (while parsing a flow sequence)",
        3,
        id="unclosed-flow",
    ),
    pytest.param(
        "milestone: M\nstatus: a: b\n",
        "invalid YAML: mapping values are not allowed here",
        2,
        id="mapping-values",
    ),
    pytest.param(
        "milestone: M\nstatus: a\nstatus: b\n", "duplicate key 'status'", 3, id="duplicate"
    ),
    pytest.param(
        "milestone: m\ntimestamp: 2026-13-45\n",
        "invalid YAML: a value cannot be read (month must be in 1..12)",
        2,
        id="bad-timestamp",
    ),
    pytest.param(
        "milestone: m\nnotes: !local x\n",
        "invalid YAML: unsupported YAML tag '!local'",
        2,
        id="local-tag",
    ),
    pytest.param(
        "milestone: m\nnotes: " + "[" * 150 + "]" * 150 + "\n",
        "invalid YAML: nested more than 100 levels deep",
        2,
        id="too-deep",
    ),
    pytest.param(
        "milestone: m\n---\nmilestone: n\n", "a stream of 2 YAML documents", None, id="2-docs"
    ),
]


def _validate(text: str) -> tuple[str, int | None]:
    with pytest.raises(YAMLProblem) as caught:
        load_yaml(text)
    problem = caught.value
    with pytest.raises(YAMLProblem) as again:
        load_yaml_plain(text)  # the config reader
    assert (again.value.message, again.value.line) == (problem.message, problem.line)
    return problem.message, problem.line if problem.placed else None


def _trim(text: str) -> tuple[str, int | None]:
    with pytest.raises(Refused) as caught:
        parse(text)
    return caught.value.message, caught.value.line


def _split_located(said: str) -> tuple[str, int | None]:
    if said.startswith("line "):
        where, message = said.split(": ", 1)
        return message, int(where.removeprefix("line "))
    return said, None


def _merge(text: str) -> tuple[str, int | None]:
    with pytest.raises(ParseError) as caught:
        merge_load(text)
    return _split_located(str(caught.value))


def _archive(text: str, tmp_path) -> tuple[str, int | None]:
    path = tmp_path / "x.archive.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(archive.ArchiveError) as caught:
        archive.build(str(path), {"removed": {}}, "\n")
    prefix = f"archive {path}: "
    assert str(caught.value).startswith(prefix), caught.value
    return _split_located(str(caught.value).removeprefix(prefix))


@pytest.mark.parametrize(("text", "message", "line"), BROKEN)
def test_every_yaml_reader_says_the_same(tmp_path, text: str, message: str, line) -> None:
    said = {
        "validate": _validate(text),
        "trim": _trim(text),
        "merge driver": _merge(text),
        "archive": _archive(text, tmp_path),
    }
    for reader, (words, where) in said.items():
        assert words.startswith(message), (reader, words)
        assert where == line, (reader, where)
    assert len({words for words, _ in said.values()}) == 1, said


def test_archive_lines_count_from_the_top_of_a_long_archive(tmp_path) -> None:
    """A long archive is parsed from its last entry on; a problem there is still
    reported at its line in the whole file."""
    entries = "".join(f"- removed:\n    notes: n{i}\n" for i in range(40))
    path = tmp_path / "x.archive.yaml"
    path.write_text(entries + "- removed: {a: b: c}\n", encoding="utf-8")
    limits = archive_limits(check_bytes=64)
    with pytest.raises(archive.ArchiveError) as caught:
        archive.build(str(path), {"removed": {}}, "\n", limits)
    assert ": line 81: invalid YAML: " in str(caught.value), caught.value


def archive_limits(check_bytes: int) -> dict[str, int]:
    from asimov_hooks.readers.guards import limits

    return {**limits(), "archive-check-bytes": check_bytes}
