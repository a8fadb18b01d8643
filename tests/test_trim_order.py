"""The trimmer keeps the most recent `completed` items whatever the list's order: the
items' dates or task numbers, or ADR-007's "Most recent" convention, say which end is
newest, and `trim.order` says it outright."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from asimov_hooks.cli import main
from asimov_hooks.trim.order import NEWEST_FIRST, OLDEST_FIRST, detect

CP = ".claude_checkpoint.yaml"


@pytest.fixture(autouse=True)
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ASIMOV_HOOKS_CONFIG", raising=False)
    return tmp_path


def checkpoint(completed: list[str]) -> str:
    lines = "".join(f'  - "{item}"\n' for item in completed)
    return f'milestone: "Ship it"\nstatus: in_progress\ncompleted:\n{lines}'


def trim(capsys, repo: Path, text: str, config: str | None = None) -> tuple[list[str], str]:
    if config is not None:
        (repo / ".asimov-hooks.yaml").write_text(config, encoding="utf-8")
    (repo / CP).write_text(text, encoding="utf-8")
    code = main(["trim", "--no-archive", CP])
    out = capsys.readouterr().out
    assert code == 1, out
    return YAML(typ="safe").load((repo / CP).read_text(encoding="utf-8"))["completed"], out


ADR_007 = ["Task 8: Most recent", "Task 7", "Task 6", "Task 5", "Task 4", "Task 3", "Task 2"]


def test_adr_007s_example_keeps_the_newest(capsys, repo) -> None:
    kept, out = trim(capsys, repo, checkpoint(ADR_007))
    assert kept == ["Task 8: Most recent", "Task 7", "Task 6", "Task 5", "Task 4"]
    assert "completed: removed 2 of 7 items, kept the first 5" in out


def test_oldest_first_numbers_keep_the_end(capsys, repo) -> None:
    kept, _ = trim(capsys, repo, checkpoint([f"Task {n}" for n in range(1, 8)]))
    assert kept == ["Task 3", "Task 4", "Task 5", "Task 6", "Task 7"]


def test_dates_decide_before_anything_else(capsys, repo) -> None:
    days = [f"2026-03-{day:02d} shipped part {9 - day}" for day in range(7, 0, -1)]
    kept, _ = trim(capsys, repo, checkpoint(days))
    assert kept == days[:5]  # 7 March first: newest first


def test_the_most_recent_word_alone(capsys, repo) -> None:
    words = ["wired the parser (most recent)", "tests", "docs", "lint", "bench", "ci", "init"]
    kept, _ = trim(capsys, repo, checkpoint(words))
    assert kept == words[:5]


def test_no_sign_keeps_the_caps_end(capsys, repo) -> None:
    words = ["parser", "tests", "docs", "lint", "bench", "ci", "init"]
    kept, _ = trim(capsys, repo, checkpoint(words))
    assert kept == words[-5:]


@pytest.mark.parametrize(
    "order, expected",
    [("newest-first", ADR_007[:5]), ("oldest-first", ADR_007[-5:])],
)
def test_the_config_says_it_outright(capsys, repo, order, expected) -> None:
    kept, _ = trim(capsys, repo, checkpoint(ADR_007), f"trim:\n  order: {order}\n")
    assert kept == expected


def test_a_bad_order_is_a_config_error(capsys, repo) -> None:
    (repo / ".asimov-hooks.yaml").write_text("trim:\n  order: newest\n", encoding="utf-8")
    (repo / CP).write_text(checkpoint(ADR_007), encoding="utf-8")
    assert main(["trim", CP]) == 2
    err = capsys.readouterr().err
    assert "order" in err and "newest-first" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "items, order",
    [
        (["Task 8", "Task 7"], NEWEST_FIRST),
        (["step 2", "step 9"], OLDEST_FIRST),
        (["#4 x", "#3 y", "#1 z"], NEWEST_FIRST),
        (["2026-01-02T10:00 a", "2026-01-02T09:00 b"], NEWEST_FIRST),
        (["Task 3", "Task 5", "Task 4"], None),  # neither rises nor falls
        (["latest: a", "b"], NEWEST_FIRST),
        (["a"], None),
    ],
)
def test_detect(items, order) -> None:
    assert detect(items) == order
