"""`asimov-hooks merge-driver %O %A %B %L %P` as git runs it: a whole process, three
files and an exit status that is 0 or 1 for every expected outcome."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import run_module, write
from merge_support import ASIMOV_BASE, YAML_PATH, parse


def edit(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


OURS = edit(
    ASIMOV_BASE, ("tool_calls: 10", "tool_calls: 30"), ("status: in_progress", "status: blocked")
)
THEIRS = edit(ASIMOV_BASE, ("tool_calls: 10", "tool_calls: 20"))


def driver(
    cwd,
    base: str | None,
    ours: str,
    theirs: str,
    path: str = YAML_PATH,
    size: str = "7",
    **env: str,
) -> tuple[subprocess.CompletedProcess, str]:
    files = []
    for name, text in (("O", base), ("A", ours), ("B", theirs)):
        target = os.path.join(cwd, f".merge_file_{name}")
        if text is not None:
            write(cwd, f".merge_file_{name}", text)
        files.append(target)
    done = run_module(cwd, "merge-driver", *files, size, path, **env)
    with open(files[1], encoding="utf-8") as fh:
        return done, fh.read()


def test_clean(tmp_path) -> None:
    done, result = driver(tmp_path, ASIMOV_BASE, OURS, THEIRS)
    assert done.returncode == 0 and done.stderr == ""
    assert parse(result, YAML_PATH)["tool_calls"] == 30


def test_conflict_lists_the_paths(tmp_path) -> None:
    done, result = driver(tmp_path, ASIMOV_BASE, OURS, edit(THEIRS, ("in_progress\n", "done\n")))
    assert done.returncode == 1
    assert "CONFLICT in .claude_checkpoint.yaml: 1 field needs a decision" in done.stderr
    assert "  status: changed on both sides" in done.stderr
    assert "<<<<<<< ours\nstatus: blocked\n=======\nstatus: done\n>>>>>>> theirs\n" in result


def test_missing_base_file_merges_two_ways(tmp_path) -> None:
    done, result = driver(tmp_path, None, OURS, THEIRS)
    assert done.returncode == 1  # without a base, status differs: nothing says which is new
    assert "status" in done.stderr
    assert "tool_calls: 30" in result


def test_unknown_kind_is_gits_line_merge(tmp_path) -> None:
    done, result = driver(tmp_path, "a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n", path="notes.txt")
    assert (done.returncode, result, done.stderr) == (0, "A\nb\nC\n", "")
    done, result = driver(tmp_path, "a\n", "b\n", "c\n", path="notes.txt")
    assert done.returncode == 1 and "<<<<<<< ours" in result


def test_disabled(tmp_path) -> None:
    done, result = driver(tmp_path, ASIMOV_BASE, OURS, THEIRS, ASIMOV_HOOKS_MERGE_DRIVER="0")
    assert done.returncode == 1 and "<<<<<<< ours" in result  # both changed tool_calls


def test_unparseable_side(tmp_path) -> None:
    done, result = driver(tmp_path, ASIMOV_BASE, OURS, "tool_calls: [\n")
    assert done.returncode == 1
    assert done.stderr.startswith("asimov-hooks merge-driver: .claude_checkpoint.yaml: theirs")
    assert "line merge" in done.stderr and "Traceback" not in done.stderr
    assert "<<<<<<<" in result


def test_broken_config_fails_closed(tmp_path) -> None:
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "merge:\n  kinds:\n    asimov-checkpoint:\n      fields:\n        timestamp: newest\n",
    )
    done, result = driver(tmp_path, ASIMOV_BASE, OURS, THEIRS)
    assert done.returncode == 1
    assert "timestamp" in done.stderr and "line merge" in done.stderr
    assert "<<<<<<<" in result


def test_repository_config_overrides_a_policy(tmp_path) -> None:
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "merge:\n  kinds:\n    asimov-checkpoint:\n      fields:\n        next_steps: union\n",
    )
    ours = edit(ASIMOV_BASE, ('  - "Task 4"\n', '  - "Task 4"\n  - "Task O"\n'))
    theirs = edit(ASIMOV_BASE, ('  - "Task 4"\n', '  - "Task 4"\n  - "Task T"\n'))
    done, result = driver(tmp_path, ASIMOV_BASE, ours, theirs)
    assert done.returncode == 0, done.stderr
    assert parse(result, YAML_PATH)["next_steps"] == ["Task 4", "Task O", "Task T"]


@pytest.mark.parametrize("args", [[], ["a"], ["a", "b"], ["a", "b", "c", "x"]])
def test_usage_errors_exit_2(tmp_path, args) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "asimov_hooks", "merge-driver", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_internal_error_still_leaves_markers(tmp_path, monkeypatch, capsys) -> None:
    from asimov_hooks.merge import driver as merge_driver

    def boom(*_a: object, **_k: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(merge_driver, "merge_bytes", boom)
    monkeypatch.chdir(tmp_path)
    paths = [write(tmp_path, n, t) for n, t in (("O", ASIMOV_BASE), ("A", OURS), ("B", THEIRS))]
    status = merge_driver.run(*paths, 7, YAML_PATH)
    assert status == 1
    assert (
        "internal error (RuntimeError: boom); fell back to a line merge" in capsys.readouterr().err
    )
    with open(paths[1], encoding="utf-8") as fh:
        assert "<<<<<<< ours" in fh.read()


def test_module_driver_reads_git_arguments_without_click(tmp_path) -> None:
    """The command install writes reads `%O %A %B %L %P` from options.MERGE_DRIVER
    without importing click (most of a merge's start-up time)."""
    paths = [write(tmp_path, n, t) for n, t in (("O", ASIMOV_BASE), ("A", OURS), ("B", THEIRS))]
    code = (
        "import sys\n"
        "from asimov_hooks.merge.driver import main\n"
        f"status = main({[*paths, '7', YAML_PATH]!r})\n"
        "assert 'click' not in sys.modules, 'click imported'\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode in (0, 1) and "click imported" not in done.stderr, done.stderr


def test_a_conflict_around_a_long_shared_part_is_one_hunk(tmp_path) -> None:
    """Two conflicts 40,000 lines apart, the lines between (theirs' new text, in both
    versions) shuffled from a hundred values: no line anchors a diff, so diffing them
    would take minutes. The driver marks everything between as one hunk instead."""
    import random

    values = [f"  value {i % 100}\n" for i in range(40_000)]
    random.Random(7).shuffle(values)
    shared = "".join(values)
    base = 'in_progress: "b"\nnotes: |\n  base\nnext_step: "b"\n'
    ours = 'in_progress: "o"\nnotes: |\n  base\nnext_step: "o"\n'
    theirs = 'in_progress: "t"\nnotes: |\n' + shared + 'next_step: "t"\n'
    done, result = driver(tmp_path, base, ours, theirs)
    assert done.returncode == 1, done.stderr
    assert "in_progress: changed on both sides" in done.stderr
    assert "next_step: changed on both sides" in done.stderr
    assert result.startswith("<<<<<<< ours\n") and result.endswith(">>>>>>> theirs\n")
    assert result.count("<<<<<<<") == 1 and result.count(shared) == 2
