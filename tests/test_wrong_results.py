"""Wrong results a hostile trial found, each run as its own process on a real
repository: values that passed config validation and then misbehaved, paths that read
as options, text that read as a directive."""

from __future__ import annotations

import pytest
from conftest import GOOD_CHECKPOINT, git_init, run_script, write

pytestmark = pytest.mark.usefixtures("isolated_home")


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (".nan", "agent.turn-threshold: nan is not a number"),
        (".NaN", "agent.turn-threshold: nan is not a number"),
        (".inf", "agent.turn-threshold: inf is an infinite number"),
        ("-.inf", "agent.turn-threshold: -inf is an infinite number"),
        ("-5", "agent.turn-threshold: -5 is less than the minimum of 1"),
        ("1000000", "agent.turn-threshold: 1000000 is greater than the maximum of 604800"),
    ],
)
def test_a_turn_threshold_that_is_not_a_usable_number_fails_the_config(
    tmp_path, value: str, words: str
) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, ".asimov-hooks.yaml", f"agent:\n  turn-threshold: {value}\n")
    done = run_script("asimov-validate", ".claude_checkpoint.yaml", cwd=repo)
    assert done.returncode == 2, done.stdout + done.stderr
    assert words in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_nan_anywhere_in_a_config_is_named(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(repo, ".asimov-hooks.yaml", "token-estimator:\n  divisor: .nan\n")
    done = run_script("asimov-validate", ".claude_checkpoint.yaml", cwd=repo)
    assert done.returncode == 2
    assert "token-estimator.divisor: nan is not a number" in done.stderr
