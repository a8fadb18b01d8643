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
        ("1000000", "the maximum of 604800"),
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


def test_the_merge_driver_takes_a_path_starting_with_a_dash_as_a_path(tmp_path) -> None:
    import json

    from conftest import commit_all, git, oc_checkpoint

    repo = git_init(tmp_path / "repo")
    assert run_script("asimov-hooks", "install", cwd=repo).returncode == 0
    driver = git(repo, "config", "--get", "merge.asimov-checkpoint.driver").stdout
    assert " -- %O %A %B %L %P" in driver
    path = "-d/.checkpoints/-x.checkpoint.json"
    with open(f"{repo}/.gitattributes", "a", encoding="utf-8") as fh:
        fh.write("-d/.checkpoints/*.checkpoint.json merge=asimov-checkpoint\n")
    base = oc_checkpoint()
    write(repo, path, base)
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, path, {**base, "step": "sprint-3"})
    commit_all(repo, "side")
    git(repo, "checkout", "-q", "main")
    write(repo, path, {**base, "phase": "review"})
    commit_all(repo, "main")
    done = git(repo, "merge", "--no-edit", "side", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(f"{repo}/{path}", encoding="utf-8") as fh:
        merged = json.load(fh)
    assert (merged["phase"], merged["step"]) == ("review", "sprint-3")


def test_the_driver_module_reads_values_after_the_marker(tmp_path) -> None:
    import subprocess
    import sys

    for name, text in (("o", "a: 1\n"), ("a", "a: 1\n"), ("b", "a: 1\n")):
        write(tmp_path, name, text)
    done = subprocess.run(
        [sys.executable, "-m", "asimov_hooks.merge.driver", "--", "o", "a", "b", "7", "-x.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No such option" not in done.stderr


SCALAR_DIRECTIVES = """\
milestone: "m"
status: bogus
notes: |
  # asimov-hooks: disable-file schema
  text
quoted: "a
  # asimov-hooks: disable-file schema
  b"
folded: >-
  # asimov-hooks: disable-next-line schema
in_progress: "x"
"""


def test_a_directive_inside_a_block_scalar_or_string_is_text(tmp_path) -> None:
    write(tmp_path, ".claude_checkpoint.yaml", SCALAR_DIRECTIVES)
    done = run_script("asimov-validate", ".claude_checkpoint.yaml", cwd=tmp_path)
    assert done.returncode == 1, done.stdout
    assert ":2:9: error schema status: 'bogus'" in done.stdout
    assert "suppression" not in done.stdout  # text is neither used nor unused


def test_a_comment_directive_beside_block_scalars_still_works(tmp_path) -> None:
    text = SCALAR_DIRECTIVES.replace(
        "status: bogus\n", "status: bogus  # asimov-hooks: disable-line schema -- on purpose\n"
    )
    text = text.replace("notes: |\n", "notes: |  # asimov-hooks: disable-line unknown-key\n")
    write(tmp_path, ".claude_checkpoint.yaml", text)
    done = run_script("asimov-validate", ".claude_checkpoint.yaml", cwd=tmp_path)
    assert "error schema" not in done.stdout, done.stdout


def test_the_merge_driver_does_not_carry_a_doubled_bom_into_a_clean_merge(tmp_path) -> None:
    from conftest import commit_all, git

    bom = "\ufeff"
    repo = git_init(tmp_path / "repo")
    assert run_script("asimov-hooks", "install", cwd=repo).returncode == 0
    base = 'milestone: "m"\nstatus: in_progress\ncompleted:\n  - "a"\nin_progress: "x"\n'
    write(repo, ".claude_checkpoint.yaml", base)
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, ".claude_checkpoint.yaml", base.replace('"x"', '"y"'))
    commit_all(repo, "side")
    git(repo, "checkout", "-q", "main")
    write(repo, ".claude_checkpoint.yaml", bom + bom + base.replace('"m"', '"m2"'))
    commit_all(repo, "main: a doubled BOM")
    done = git(repo, "merge", "--no-edit", "side", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(f"{repo}/.claude_checkpoint.yaml", "rb") as fh:
        merged = fh.read()
    assert merged.startswith(b"\xef\xbb\xbfmilestone")
    assert b'"m2"' in merged and b'"y"' in merged
    checked = run_script("asimov-validate", ".claude_checkpoint.yaml", cwd=repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr
