"""ADR-007 size limits: line counting, token estimates and the default limits per file."""

from __future__ import annotations

import math

import pytest
from conftest import GOOD_CHECKPOINT, GOOD_CLAUDE_MD, GOOD_WARMUP, write
from hypothesis import given
from hypothesis import strategies as st

from asimov_hooks.measure import TokenEstimator, count_lines

pytestmark = pytest.mark.usefixtures("in_tmp")


def pad(text: str, lines: int, filler: str = "# padding") -> str:
    """`text` with comment lines appended until it has exactly `lines` lines."""
    have = count_lines(text)
    assert have <= lines
    return text + "".join(f"{filler} {i}\n" for i in range(lines - have))


# ------------------------------------------------------------------ count_lines
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("a", 1),
        ("a\n", 1),
        ("a\nb", 2),
        ("a\nb\n", 2),
        ("\n", 1),
        ("\n\n", 2),
        ("a\r\nb\r\n", 2),
        ("a\r\nb", 2),
        ("# comment\n\nkey: 1\n", 3),
    ],
)
def test_count_lines_examples(text: str, expected: int) -> None:
    assert count_lines(text) == expected


line_text = st.text(alphabet=st.characters(blacklist_characters="\r\n"), max_size=20)


@given(st.lists(line_text, max_size=30), st.booleans(), st.sampled_from(["\n", "\r\n"]))
def test_count_lines_property(lines: list[str], final_newline: bool, eol: str) -> None:
    """Joining N lines gives N lines whatever the line ending or a final newline."""
    text = eol.join(lines) + (eol if final_newline and lines else "")
    expected = len(lines)
    if lines and lines[-1] == "" and not final_newline:
        expected -= 1  # the last separator reads as a final newline, not a line
    assert count_lines(text) == expected
    assert count_lines(text.replace("\r\n", "\n")) == count_lines(text)


@given(st.text(max_size=200))
def test_count_lines_matches_splitlines_on_newlines(text: str) -> None:
    """Same as str.split on \\n with the trailing empty piece dropped."""
    pieces = text.split("\n")
    if pieces and pieces[-1] == "":
        pieces.pop()
    assert count_lines(text) == len(pieces)


@given(st.text(max_size=300), st.sampled_from([1, 2, 3, 4, 4.5, 7]))
def test_token_estimate_is_ceil_chars_over_divisor(text: str, divisor: float) -> None:
    assert TokenEstimator("chars", divisor).estimate(text) == math.ceil(len(text) / divisor)


def test_token_estimator_names() -> None:
    assert TokenEstimator().name == "characters/4"
    assert TokenEstimator("chars", 3.5).name == "characters/3.5"
    assert TokenEstimator("bytes", 4).name == "UTF-8 bytes/4"
    assert TokenEstimator("words", 0.75).name == "words/0.75"
    assert TokenEstimator("bytes", 4).estimate("é") == 1
    assert TokenEstimator("words", 1).estimate("a b  c\n") == 3


# ------------------------------------------------------------------ checkpoint
def test_checkpoint_limits(tmp_path, cli) -> None:
    path = write(tmp_path, ".claude_checkpoint.yaml", pad(GOOD_CHECKPOINT, 20))
    run = cli("-v", path)
    assert run.code == 0, run
    assert f"{path}: valid" in run.out

    write(tmp_path, ".claude_checkpoint.yaml", pad(GOOD_CHECKPOINT, 21))
    run = cli("-v", path)
    assert run.code == 0, run  # warnings do not fail
    assert f"{path}:21:1: warning max-lines-soft 21 lines, over the soft limit of 20" in run.out
    assert "    suggestion: `asimov-hooks trim` has nothing left to remove here" in run.out
    assert f"{path}: warning (1 warning)" in run.out

    write(tmp_path, ".claude_checkpoint.yaml", pad(GOOD_CHECKPOINT, 30))
    run = cli("-v", path)
    assert run.code == 0 and "max-lines-soft 30 lines" in run.out
    assert cli("-v", "--strict", path).code == 1

    write(tmp_path, ".claude_checkpoint.yaml", pad(GOOD_CHECKPOINT, 31))
    run = cli("-v", path)
    assert run.code == 1, run
    assert f"{path}:31:1: error max-lines-hard 31 lines, over the hard limit of 30" in run.out
    assert "max-lines-soft" not in run.out  # the hard limit replaces the soft one
    assert f"{path}: error (1 error)" in run.out


def test_checkpoint_token_cap_is_a_warning(tmp_path, cli) -> None:
    text = GOOD_CHECKPOINT.replace('"Task 9: benchmark the hot path"', '"' + "x" * 2900 + '"')
    tokens = math.ceil(len(text) / 4)
    assert tokens > 750 and count_lines(text) <= 20
    path = write(tmp_path, ".claude_checkpoint.yaml", text)
    run = cli(path)
    assert run.code == 0, run
    assert f"warning max-tokens ~{tokens:,} tokens, over the cap of 750" in run.out
    assert "(estimated as characters/4, rounded up)" in run.out
    assert cli("--strict", path).code == 1


def test_checkpoint_exactly_at_token_cap(tmp_path, cli) -> None:
    body = GOOD_CHECKPOINT + "notes: "
    text = body + "y" * (3000 - len(body) - 1) + "\n"
    assert len(text) == 3000
    path = write(tmp_path, ".claude_checkpoint.yaml", text)
    assert "max-tokens" not in cli(path).out
    write(tmp_path, ".claude_checkpoint.yaml", text[:-1] + "y\n")
    assert "~751 tokens" in cli(path).out


def test_crlf_counts_the_same(tmp_path, cli) -> None:
    text = pad(GOOD_CHECKPOINT, 21)
    path = write(tmp_path, ".claude_checkpoint.yaml", text.replace("\n", "\r\n"))
    run = cli("-v", path)
    assert run.code == 0
    assert "21 lines, over the soft limit of 20" in run.out
    write(tmp_path, ".claude_checkpoint.yaml", pad(GOOD_CHECKPOINT, 20).replace("\n", "\r\n"))
    assert f"{path}: valid" in cli("-v", path).out


def test_no_final_newline_and_blank_lines_count(tmp_path, cli) -> None:
    text = GOOD_CHECKPOINT + "\n" * (20 - count_lines(GOOD_CHECKPOINT)) + "# last"
    assert count_lines(text) == 21
    path = write(tmp_path, ".claude_checkpoint.yaml", text)
    assert "21 lines, over the soft limit of 20" in cli(path).out
    path = write(tmp_path, ".claude_checkpoint.yaml", text + "\n")
    assert "21 lines" in cli(path).out


# ------------------------------------------------------------------ CLAUDE.md
def test_claude_md_limits(tmp_path, cli) -> None:
    path = write(tmp_path, "CLAUDE.md", pad(GOOD_CLAUDE_MD, 10, "line"))
    assert cli("-v", path).code == 0 and f"{path}: valid" in cli("-v", path).out

    write(tmp_path, "CLAUDE.md", pad(GOOD_CLAUDE_MD, 11, "line"))
    run = cli("-v", path)
    assert run.code == 0
    assert f"{path}:11:1: warning max-lines-soft 11 lines, over the soft limit of 10" in run.out

    write(tmp_path, "CLAUDE.md", pad(GOOD_CLAUDE_MD, 15, "line"))
    assert cli("-v", path).code == 0

    write(tmp_path, "CLAUDE.md", pad(GOOD_CLAUDE_MD, 16, "line"))
    run = cli("-v", path)
    assert run.code == 1
    assert f"{path}:16:1: error max-lines-hard 16 lines, over the hard limit of 15" in run.out
    assert "suggestion: move detail into warmup.yaml" in run.out


def test_claude_md_token_cap_is_an_error(tmp_path, cli) -> None:
    path = write(tmp_path, "CLAUDE.md", "x" * 999 + "\n")  # 1000 chars = 250 tokens
    assert cli(path).code == 0
    write(tmp_path, "CLAUDE.md", "x" * 1000 + "\n")
    run = cli(path)
    assert run.code == 1
    assert "error max-tokens ~251 tokens, over the cap of 250 (estimated as characters/4" in run.out


def test_claude_md_anywhere_in_the_tree(tmp_path, cli) -> None:
    path = write(tmp_path, "sub/dir/CLAUDE.md", "x\n" * 16)
    assert cli(path).code == 1


# ------------------------------------------------------------------ warmup.yaml
def test_warmup_limits(tmp_path, cli) -> None:
    path = write(tmp_path, "warmup.yaml", pad(GOOD_WARMUP, 200))
    assert f"{path}: valid" in cli("-v", path).out

    write(tmp_path, "warmup.yaml", pad(GOOD_WARMUP, 201))
    run = cli("-v", path)
    assert run.code == 0
    assert "warning max-lines-soft 201 lines, over the soft limit of 200" in run.out
    assert "use a modular warmup" in run.out

    write(tmp_path, "warmup.yaml", pad(GOOD_WARMUP, 501))
    run = cli("-v", path)
    assert run.code == 1
    assert f"{path}:501:1: error max-lines-hard 501 lines, over the hard limit of 500" in run.out


def test_warmup_token_cap_is_a_warning(tmp_path, cli) -> None:
    text = GOOD_WARMUP + "quality:\n  note: '" + "z" * 20000 + "'\n"
    path = write(tmp_path, "warmup.yaml", text)
    run = cli(path)
    assert run.code == 0, run
    assert (
        f"warning max-tokens ~{math.ceil(len(text) / 4):,} tokens, over the cap of 5,000" in run.out
    )


# ------------------------------------------------------------------ estimator config
def test_token_estimator_is_configurable(tmp_path, cli) -> None:
    path = write(tmp_path, "CLAUDE.md", "x" * 900 + "\n")  # 226 tokens at /4
    assert cli(path).code == 0
    write(tmp_path, ".asimov-hooks.yaml", "token-estimator:\n  method: chars\n  divisor: 3\n")
    run = cli(path)
    assert run.code == 1
    assert "~301 tokens, over the cap of 250 (estimated as characters/3, rounded up)" in run.out
    write(tmp_path, ".asimov-hooks.yaml", "token-estimator:\n  method: words\n  divisor: 1\n")
    assert cli(path).code == 0


def test_size_hook_reports_the_same(tmp_path, size_cli) -> None:
    path = write(tmp_path, "CLAUDE.md", pad(GOOD_CLAUDE_MD, 16, "line"))
    run = size_cli(path)
    assert run.code == 1
    assert f"{path}:16:1: error max-lines-hard 16 lines" in run.out
    ok = write(tmp_path, ".claude_checkpoint.yaml", pad(GOOD_CHECKPOINT, 21))
    run = size_cli(ok)
    assert run.code == 0 and "max-lines-soft" in run.out
    assert size_cli("--strict", ok).code == 1


def test_size_hook_ignores_schema(tmp_path, size_cli) -> None:
    """asimov-size checks sizes only: a schema problem is not its business."""
    path = write(tmp_path, ".claude_checkpoint.yaml", "status: finished\nbogus: 1\n")
    run = size_cli("-v", path)
    assert run.code == 0, run
    assert f"{path}: valid" in run.out
