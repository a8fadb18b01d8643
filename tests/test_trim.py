"""The checkpoint trimmer (`asimov-hooks trim`, issue 3), table-driven.

Every case runs the real command (`asimov_hooks.cli.main`, what the console script
calls) on a real file in tmp_path and checks the exit code, the message and the bytes
written. Default settings: rules/trim.json; limits of .claude_checkpoint.yaml: soft 20,
hard 30 lines.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from asimov_hooks.cli import main

CP = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"


@pytest.fixture(autouse=True)
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty repository as the working directory, with no config of its own."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ASIMOV_HOOKS_CONFIG", raising=False)
    monkeypatch.delenv("ASIMOV_HOOKS_DEBUG", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["trim", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(path: Path | str, text: str | bytes) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def load(path: Path | str) -> object:
    return YAML(typ="safe", pure=True).load(Path(path).read_text(encoding="utf-8-sig"))


def items(prefix: str, count: int, indent: str = "  ", quote: str = '"') -> str:
    return "".join(f"{indent}- {quote}{prefix} {i}{quote}\n" for i in range(1, count + 1))


def trim_once_and_again(
    capsys: pytest.CaptureFixture[str], text: str | bytes, *args: str
) -> tuple[int, str, str, bytes]:
    """Trim, then check that a second run changes nothing and exits 0 (unless still failing)."""
    write(CP, text)
    code, out, err = run(capsys, *args, CP)
    after = Path(CP).read_bytes()
    code2, out2, err2 = run(capsys, *args, CP)
    assert Path(CP).read_bytes() == after, "a second run changed the file"
    assert "Fixing" not in out2
    assert code2 == (1 if err2 else 0), (out2, err2)
    return code, out, err, after


# ---------------------------------------------------------------- step 1: caps
STEP1 = [
    pytest.param(
        "milestone: M\ncompleted:\n" + items("Task", 7) + "next_steps:\n" + items("Next", 2),
        "milestone: M\ncompleted:\n"
        + "".join(f'  - "Task {i}"\n' for i in range(3, 8))
        + "next_steps:\n"
        + items("Next", 2),
        {"completed": ["Task 1", "Task 2"]},
        id="completed-keeps-the-last-5",
    ),
    pytest.param(
        "milestone: M\nnext_steps:\n" + items("Next", 8),
        "milestone: M\nnext_steps:\n" + items("Next", 5),
        {"next_steps": ["Next 6", "Next 7", "Next 8"]},
        id="next-steps-keeps-the-first-5",
    ),
    pytest.param(
        "milestone: M\ncompleted: [a, b, c, d, e, f, g]\nnext_steps: [1, 2, 3, 4, 5, 6]\n".replace(
            "[1, 2, 3, 4, 5, 6]", "[n1, n2, n3, n4, n5, n6]"
        ),
        "milestone: M\ncompleted: [c, d, e, f, g]\nnext_steps: [n1, n2, n3, n4, n5]\n",
        {"completed": ["a", "b"], "next_steps": ["n6"]},
        id="flow-lists",
    ),
]


@pytest.mark.parametrize(("before", "after", "removed"), STEP1)
def test_step1_caps_lists(capsys, before, after, removed):
    code, out, err, result = trim_once_and_again(capsys, before)
    assert code == 1 and not err
    assert out.startswith(f"Fixing {CP}\n")
    assert result.decode() == after
    entry = load(ARCHIVE)[-1]
    assert entry["removed"] == removed
    assert entry["source"] == CP and entry["reason"] == "list caps"
    assert "(cap)" in out and "kept the" in out


def test_nothing_to_do_exits_0_and_writes_nothing(capsys, repo):
    text = "milestone: M\ncompleted:\n" + items("Task", 5) + "next_steps: [a, b, c, d, e]\n"
    path = write(CP, text)
    before = os.stat(path).st_mtime_ns
    code, out, err = run(capsys, CP)
    assert (code, out, err) == (0, "", "")
    assert os.stat(path).st_mtime_ns == before
    assert not (repo / ARCHIVE).exists()


# ---------------------------------------------------------------- step 2: soft limit
SOFT = (
    "timestamp: '2025-01-15T10:30:00Z'\n"
    "tool_calls: 45\n"
    "milestone: Add feature X\n"
    "status: in_progress\n"
    "completed:\n" + items("Task", 5) + "in_progress: Task 9\n"
    "next_steps:\n" + items("Next", 5) + "notes: |\n  remember the flaky test\n  and the cache\n"
    "context: some context\n"
    "blockers: [none]\n"
    "history:\n  - step one\n  - step two\n"
    "on_confusion: cat warmup.yaml\n"
)


def test_step2_over_soft_limit_windows_and_optional_fields(capsys):
    assert SOFT.count("\n") == 26
    code, out, err, result = trim_once_and_again(capsys, SOFT)
    assert code == 1 and not err
    expected = (
        "timestamp: '2025-01-15T10:30:00Z'\n"
        "tool_calls: 45\n"
        "milestone: Add feature X\n"
        "status: in_progress\n"
        "completed:\n" + "".join(f'  - "Task {i}"\n' for i in (3, 4, 5)) + "in_progress: Task 9\n"
        "next_steps:\n" + items("Next", 3) + "blockers: [none]\n"
        "on_confusion: cat warmup.yaml\n"
    )
    assert result.decode() == expected
    assert "over the soft limit of 20" in out
    assert "removed optional field notes (3 lines)" in out
    assert "removed optional field history (3 lines)" in out
    assert "26 -> 15 lines" in out
    entry = load(ARCHIVE)[-1]
    assert entry["reason"] == "over the soft line limit"
    assert entry["removed"] == {
        "completed": ["Task 1", "Task 2"],
        "next_steps": ["Next 4", "Next 5"],
        "notes": "remember the flaky test\nand the cache\n",
        "context": "some context",
        "history": ["step one", "step two"],
    }


def test_step2_not_applied_when_caps_are_enough(capsys):
    text = "milestone: M\nnotes: keep me\ncompleted:\n" + items("T", 12)
    code, _, _, result = trim_once_and_again(capsys, text)
    assert code == 1
    assert result.decode() == "milestone: M\nnotes: keep me\ncompleted:\n" + "".join(
        f'  - "T {i}"\n' for i in range(8, 13)
    )


def test_fields_in_keep_are_never_removed(capsys, repo):
    write(".asimov-hooks.yaml", "trim:\n  optional: [notes, blockers]\n")
    text = SOFT.replace("blockers: [none]\n", "blockers:\n" + items("B", 4))
    code, _out, _, result = trim_once_and_again(capsys, text)
    data = YAML(typ="safe").load(result.decode())
    assert code == 1 and "blockers" not in data and "notes" not in data
    assert {"timestamp", "milestone", "status", "in_progress", "on_confusion"} <= data.keys()
    assert "context" in data and "history" in data  # not optional in this repository


# ---------------------------------------------------------------- step 3: hard limit
def test_step3_still_over_hard_limit_writes_best_trim_and_fails(capsys):
    long_task = "in_progress: >-\n" + "".join(
        f"  line {i} of a very long description\n" for i in range(25)
    )
    text = "milestone: M\n" + long_task + "completed:\n" + items("T", 9) + "notes: n\n"
    code, out, err, _result = trim_once_and_again(capsys, text)
    assert code == 1
    assert out.startswith(f"Fixing {CP}\n")
    assert err.count("\n") == 1 and err.startswith(f"{CP}: error: still 31")
    assert "structure itself is too large" in err
    assert "in_progress (26 lines)" in err
    data = load(CP)
    assert data["completed"] == ["T 7", "T 8", "T 9"] and "notes" not in data


def test_step3_nothing_left_to_trim_reports_error_untouched(capsys):
    text = "milestone: M\nin_progress: |\n" + "".join(f"  {i}\n" for i in range(40))
    path = write(CP, text)
    code, out, err = run(capsys, CP)
    assert code == 1 and "Fixing" not in out
    assert "42 lines after trimming, over the hard limit of 30" in err
    assert "in_progress (41 lines), milestone (1 line)" in err
    assert path.read_text() == text and not Path(ARCHIVE).exists()


# ---------------------------------------------------------------- formatting survives
FORMAT_CASES = [
    pytest.param(
        "milestone: M\ncompleted:\n  # header\n  - t1\n  # about t2\n  - t2\n  - t3\n  - t4\n"
        "  - t5\n  # about t6\n  - t6\n  - t7\n",
        "milestone: M\ncompleted:\n  # header\n  # about t6\n  - t6\n  - t7\n",
        {"max": 2},
        id="comment-above-first-kept-item-stays-header-stays",
    ),
    pytest.param(
        "milestone: M\nnext_steps:\n  - n1  # soon\n  - n2\n  # about n3\n  - n3\n  # trailing\n"
        "  # block\n\non_confusion: x\n",
        "milestone: M\nnext_steps:\n  - n1  # soon\n  # trailing\n  # block\n\non_confusion: x\n",
        {"max": 1},
        id="trailing-comment-block-stays-eol-comment-stays",
    ),
    pytest.param(
        'milestone: M\ncompleted:\n- \'single\'\n- "double"\n- plain\n- "esc\\t"\n',
        'milestone: M\ncompleted:\n- plain\n- "esc\\t"\n',
        {"max": 2},
        id="quoting-styles-and-zero-indent",
    ),
    pytest.param(
        "milestone: M\ncompleted:\n    -   a\n    -   b\n    -   c\n",
        "milestone: M\ncompleted:\n    -   c\n",
        {"max": 1},
        id="wide-indentation",
    ),
    pytest.param(
        "milestone: M\ncompleted:\n  - |\n    block one\n    # not a comment\n\n  - >-\n    folded\n"
        "    two\n  - plain\n    continued\n",
        "milestone: M\ncompleted:\n  - plain\n    continued\n",
        {"max": 1},
        id="block-scalar-items",
    ),
    pytest.param(
        "milestone: M\ncompleted: [a, 'b', \"c\",\n  d,  # why d\n  e,]\nz: 1\n",
        'milestone: M\ncompleted: ["c",\n  d,  # why d\n  e,]\nz: 1\n',
        {"max": 3},
        id="multi-line-flow-list-with-comment-and-trailing-comma",
    ),
    pytest.param(
        "milestone: M\ncompleted:\n  # header\n  - a\n  - b\n  # trailer\nz: 1\n",
        "milestone: M\ncompleted: []\n  # header\n  # trailer\nz: 1\n",
        {"max": 0},
        id="emptying-a-list-under-a-header-comment",
    ),
    pytest.param(
        "milestone: M\ncompleted: &done  # note\n  - a\nz: 1\n",
        "milestone: M\ncompleted: &done []  # note\nz: 1\n",
        {"max": 0},
        id="emptying-keeps-anchor-and-comment",
    ),
    pytest.param(
        "milestone: M\ncompleted: [a, b]  # eol\n",
        "milestone: M\ncompleted: []  # eol\n",
        {"max": 0},
        id="emptying-a-flow-list",
    ),
    pytest.param(
        "milestone: M\ncompleted:\n  - a\n  - b\n  - c",
        "milestone: M\ncompleted:\n  - c",
        {"max": 1},
        id="no-final-newline-kept-last",
    ),
    pytest.param(
        "milestone: M\nnext_steps:\n  - a\n  - b\n  - c",
        "milestone: M\nnext_steps:\n  - a",
        {"max": 1},
        id="no-final-newline-removed-last",
    ),
]


@pytest.mark.parametrize(("before", "after", "cap"), FORMAT_CASES)
def test_formatting_survives(capsys, repo, before, after, cap):
    n = cap["max"]
    write(
        ".asimov-hooks.yaml",
        f"trim:\n  caps:\n    completed: {{max: {n}}}\n    next_steps: {{max: {n}}}\n",
    )
    code, _, err, result = trim_once_and_again(capsys, before)
    assert code == 1 and not err, err
    assert result.decode() == after


def test_crlf_bom_and_missing_final_newline_survive_byte_for_byte(capsys):
    lines = [
        "# checkpoint",
        "milestone: M",
        "completed:",
        *[f"  - t{i}" for i in range(1, 9)],
        "notes: x",
        "on_confusion: cat warmup.yaml",
    ]
    raw = b"\xef\xbb\xbf" + "\r\n".join(lines).encode()
    kept = [
        "# checkpoint",
        "milestone: M",
        "completed:",
        *[f"  - t{i}" for i in range(4, 9)],
        "notes: x",
        "on_confusion: cat warmup.yaml",
    ]
    code, _, _, result = trim_once_and_again(capsys, raw)
    assert code == 1
    assert result == b"\xef\xbb\xbf" + "\r\n".join(kept).encode()
    archive = Path(ARCHIVE).read_bytes()
    assert b"\r\n" in archive and b"\n" not in archive.replace(b"\r\n", b"")


def test_removed_last_field_keeps_missing_final_newline_with_crlf(capsys):
    raw = (
        "milestone: M\r\n"
        + "".join(f"completed_{i}: x\r\n" for i in range(20))
        + "notes: |\r\n  n\r\n  m"
    )
    code, _, _, result = trim_once_and_again(capsys, raw)
    assert code == 1
    assert (
        result.decode()
        == "milestone: M\r\n" + "".join(f"completed_{i}: x\r\n" for i in range(20))[:-2]
    )


def test_bytes_outside_removed_parts_are_unchanged(capsys):
    """Unicode, tabs in comments, odd spacing, key order: the output is the input minus ranges."""
    head = "%YAML 1.2\n---\n# Ünïcode header\t\n\n"
    top = "status:   in_progress   # spaced  \nmilestone: \"Ship ✓ 'it'\"\n"
    lst = "completed:\n" + "".join(f"  - 'task {i} ✓'\n" for i in range(1, 8))
    tail = "\n\n# trailing comment\n...\n"
    raw = head + top + lst + tail
    code, _, _, result = trim_once_and_again(capsys, raw)
    assert code == 1
    removed = "".join(f"  - 'task {i} ✓'\n" for i in (1, 2))
    assert result.decode() == raw.replace(removed, "")


def test_comment_owned_by_removed_field_goes_comment_of_next_stays(capsys):
    text = (
        "milestone: M\ncompleted:\n" + items("T", 3) + "  # T trimmed regularly\n\n"
        "# scratch notes\nnotes: |\n  a\n  b\n\n# how to recover\non_confusion: cat warmup.yaml\n"
        + "".join(f"x{i}: {i}\n" for i in range(9))
    )
    code, _, _, result = trim_once_and_again(capsys, text)
    assert code == 1
    assert result.decode() == (
        "milestone: M\ncompleted:\n" + items("T", 3) + "  # T trimmed regularly\n\n"
        "# how to recover\non_confusion: cat warmup.yaml\n"
        + "".join(f"x{i}: {i}\n" for i in range(9))
    )
    assert load(ARCHIVE)[-1]["comments"] == ["# scratch notes"]


def test_keep_chomped_block_scalar_before_a_removed_field(capsys):
    text = "milestone: M\nin_progress: |+\n  x\n\nnotes: gone\n" + "".join(
        f"k{i}: v\n" for i in range(17)
    )
    code, _, _, result = trim_once_and_again(capsys, text)
    assert code == 1
    assert load(CP)["in_progress"] == "x\n\n"
    assert "notes" not in result.decode()


# ---------------------------------------------------------------- refused, untouched
REFUSED = [
    pytest.param(
        "milestone: M\ncompleted: [a]\ncompleted: [b]\n",
        "duplicate key 'completed'",
        id="duplicate-keys",
    ),
    pytest.param("milestone: M\ncompleted: [a, b\n", "invalid YAML", id="invalid-yaml"),
    pytest.param("- milestone\n- completed\n", "is a list, not a mapping", id="not-a-mapping"),
    pytest.param("just text\n", "is a string, not a mapping", id="scalar-document"),
    pytest.param(
        "milestone: M\ncompleted:\n  - a\n  - {b: 1}\n",
        "completed[1] is a mapping",
        id="list-of-mappings",
    ),
    pytest.param(
        "milestone: M\ncompleted: [1, 2]\n", "completed[0] is an integer", id="list-of-ints"
    ),
    pytest.param("milestone: M\ncompleted:\n  -\n  - a\n", "completed[0] is null", id="null-item"),
    pytest.param(
        "milestone: M\ncompleted: all of them\n", "completed is a string", id="string-not-list"
    ),
    pytest.param("milestone: M\nnext_steps: &n [a]\ncompleted: *n\n", "alias", id="alias-list"),
    pytest.param("base: &b {x: 1}\n<<: *b\nmilestone: M\n", "merge key", id="merge-key"),
    pytest.param("{milestone: M, completed: [a, b, c, d, e, f]}\n", "flow style", id="flow-root"),
    pytest.param(
        "milestone: M\n---\nmilestone: N\n", "a stream of 2 YAML documents", id="two-documents"
    ),
    pytest.param(
        "milestone: M\n<<<<<<< HEAD\ncompleted: [a]\n=======\ncompleted: [b]\n>>>>>>> x\n",
        "conflict markers",
        id="conflict-markers",
    ),
    pytest.param(
        "milestone: M\rcompleted: [a]\n", "line break other than LF or CRLF", id="lone-cr"
    ),
    pytest.param(b"milestone: \xff\n", "not valid UTF-8", id="not-utf8"),
    pytest.param(b"milestone: M\x00\n", "binary content", id="binary"),
]


@pytest.mark.parametrize(("text", "message"), REFUSED)
def test_refused_files_are_reported_and_untouched(capsys, text, message):
    path = write(CP, text)
    before = path.read_bytes()
    code, out, err = run(capsys, CP)
    assert code == 1, (out, err)
    assert err.startswith(f"{CP}: error: not trimmed: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in out + err
    assert path.read_bytes() == before and not Path(ARCHIVE).exists()


@pytest.mark.parametrize(
    ("use", "message"),
    [
        ("in_progress: *m\n", "in_progress is an alias"),
        ("context:\n  - *m\n", "holds the anchor &m, which a kept part refers to (*m)"),
    ],
)
def test_anchor_in_removed_item_used_elsewhere_is_refused(capsys, use, message):
    text = "milestone: M\ncompleted:\n  - &m first\n" + items("T", 5) + use
    path = write(CP, text)
    code, _, err = run(capsys, CP)
    assert code == 1 and message in err and path.read_text() == text
    assert not Path(ARCHIVE).exists()


def test_not_a_checkpoint_is_skipped_not_failed(capsys, repo):
    """A kind with `identify` keys: a file sharing the name but none of the keys is skipped."""
    write(
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-checkpoint:\n    identify:\n"
        "      keys: [milestone, completed, next_steps]\n",
    )
    body = "apiVersion: v1\nkind: ConfigMap\ndata:\n" + "".join(f"  k{i}: v\n" for i in range(40))
    path = write(CP, body)
    code, out, err = run(capsys, CP)
    assert code == 0 and not err
    assert "skipped: not an Asimov Protocol session checkpoint" in out and "Kubernetes" in out
    assert path.read_text() == body


@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n"])
def test_empty_files_need_nothing(capsys, text):
    write(CP, text)
    assert run(capsys, CP) == (0, "", "")


def test_read_only_file_is_not_replaced(capsys):
    path = write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    path.chmod(0o444)
    try:
        code, _, err = run(capsys, CP)
    finally:
        path.chmod(0o644)
    if os.geteuid() == 0:
        pytest.skip("root can write read-only files: test_read_only_file_as_a_user runs it")
    assert code == 1 and "read-only" in err and not Path(ARCHIVE).exists()


def test_read_only_file_as_a_user(unprivileged):
    """The same as a whole process, as user nobody when the suite runs as root."""
    text = "milestone: M\ncompleted:\n" + items("T", 7)
    os.makedirs(unprivileged.path("repo"))
    path = unprivileged.path("repo", CP)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(path, 0o444)
    run = unprivileged.run("trim", "repo/" + CP)
    assert run.returncode == 1 and "read-only" in run.stderr, run
    assert "Traceback" not in run.stderr
    assert not os.path.exists(unprivileged.path("repo", ARCHIVE))
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == text


# ---------------------------------------------------------------- writing
def test_symlinked_checkpoint_is_written_through(capsys, repo):
    target = write(repo / "state" / "real.yaml", "milestone: M\ncompleted:\n" + items("T", 7))
    os.symlink("state/real.yaml", CP)
    code, _, _ = run(capsys, CP)
    assert code == 1
    assert os.path.islink(CP) and os.readlink(CP) == "state/real.yaml"
    assert load(target)["completed"] == ["T 3", "T 4", "T 5", "T 6", "T 7"]
    assert (repo / ARCHIVE).exists()  # next to the link, where the user looks


def test_file_mode_is_kept(capsys):
    path = write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    path.chmod(0o640)
    assert run(capsys, CP)[0] == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_dry_run_and_diff_write_nothing(capsys, repo):
    text = "milestone: M\ncompleted:\n" + items("T", 7)
    path = write(CP, text)
    code, out, err = run(capsys, "--dry-run", "--diff", CP)
    assert code == 1 and not err
    assert out.startswith(f"Would fix {CP}\n")
    assert '-  - "T 1"\n' in out and f"+++ b/{CP}" in out
    assert path.read_text() == text and not (repo / ARCHIVE).exists()


def test_diff_while_fixing(capsys):
    write(CP, "milestone: M\ncompleted:\n" + items("T", 6))
    code, out, _ = run(capsys, "--diff", CP)
    assert code == 1 and '-  - "T 1"' in out and "Fixing" in out


# ---------------------------------------------------------------- the archive
def test_archive_is_append_only_and_valid_after_every_write(capsys, repo):
    path = write(CP, "milestone: M\ncompleted:\n" + items("A", 7))
    assert run(capsys, CP)[0] == 1
    first = Path(ARCHIVE).read_text()
    entries = load(ARCHIVE)
    assert len(entries) == 1 and entries[0]["removed"] == {"completed": ["A 1", "A 2"]}
    assert entries[0]["trimmed_at"].endswith("Z") and entries[0]["source"] == CP
    Path(ARCHIVE).write_text(first + "# a note the user added\n")
    path.write_text("milestone: M\ncompleted:\n" + items("B", 6))
    assert run(capsys, CP)[0] == 1
    second = Path(ARCHIVE).read_text()
    assert second.startswith(first + "# a note the user added\n")
    assert [e["removed"]["completed"] for e in load(ARCHIVE)] == [["A 1", "A 2"], ["B 1"]]


def test_archive_is_not_itself_a_checkpoint_or_trimmed(capsys, repo):
    write(CP, "milestone: M\ncompleted:\n" + items("A", 40))
    assert run(capsys, CP)[0] == 1
    assert main(["validate", ARCHIVE]) == 0  # no kind matches it: skipped, not checked
    code, out, _ = run(capsys, ARCHIVE)
    assert code == 0 and "skipped" in out


def test_invalid_archive_blocks_trim_and_is_left_alone(capsys):
    path = write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    write(ARCHIVE, "not: a list\n")
    code, _, err = run(capsys, CP)
    assert code == 1 and "is not a YAML list" in err
    assert Path(ARCHIVE).read_text() == "not: a list\n"
    assert load(path)["completed"][0] == "T 1"


def test_archive_ending_in_flow_list_is_refused(capsys):
    write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    write(ARCHIVE, "[]\n")
    code, _, err = run(capsys, CP)
    assert code == 1 and "archive" in err and Path(ARCHIVE).read_text() == "[]\n"


def test_no_archive_option_and_config(capsys, repo):
    write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    code, out, _ = run(capsys, "--no-archive", CP)
    assert code == 1 and "not archived" in out and not (repo / ARCHIVE).exists()
    write(".asimov-hooks.yaml", "trim:\n  archive:\n    enabled: false\n")
    write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    assert run(capsys, CP)[0] == 1 and not (repo / ARCHIVE).exists()


def test_archive_path_option_and_template(capsys, repo):
    write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    assert run(capsys, "--archive", "elsewhere/trimmed.yaml", CP)[0] == 1
    assert load("elsewhere/trimmed.yaml")[0]["removed"]["completed"] == ["T 1", "T 2"]
    write(".asimov-hooks.yaml", "trim:\n  archive:\n    path: ../archives/{name}.log.yaml\n")
    write("sub/.asimov/checkpoint.yaml", "milestone: M\nnext_steps:\n" + items("N", 6))
    assert run(capsys, "sub/.asimov/checkpoint.yaml")[0] == 1
    entry = load("sub/archives/checkpoint.yaml.log.yaml")[0]
    assert entry == {
        **entry,
        "source": "sub/.asimov/checkpoint.yaml",
        "removed": {"next_steps": ["N 6"]},
    }


def test_archive_path_that_is_a_checkpoint_is_refused(capsys, repo):
    write(".asimov-hooks.yaml", "trim:\n  archive:\n    path: archive/.claude_checkpoint.yaml\n")
    path = write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    code, _, err = run(capsys, CP)
    assert code == 1 and "would itself be checked as asimov-checkpoint" in err
    assert load(path)["completed"][0] == "T 1"


# ---------------------------------------------------------------- configuration
def test_every_number_and_list_comes_from_config(capsys, repo):
    write(
        ".asimov-hooks.yaml",
        (
            "kinds:\n  asimov-checkpoint:\n    rules:\n      max-lines-soft: {max: 8}\n"
            "trim:\n  caps:\n    completed: {max: 4}\n    blockers: {keep: first, max: 2}\n"
            "  window: 1\n  optional: [tool_calls]\n"
        ),
    )
    text = (
        "milestone: M\ntool_calls: 3\nnotes: stays\ncompleted:\n"
        + items("T", 6)
        + "blockers:\n"
        + items("B", 3)
    )
    code, out, _, _result = trim_once_and_again(capsys, text)
    assert code == 1
    assert load(CP) == {
        "milestone": "M",
        "notes": "stays",
        "completed": ["T 6"],
        "blockers": ["B 1"],
    }
    assert "over the soft limit of 8" in out


def test_soft_limit_switched_off_means_caps_only(capsys, repo):
    write(
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-checkpoint:\n    rules:\n      max-lines-soft: off\n",
    )
    text = (
        "milestone: M\nnotes: n\n"
        + "".join(f"k{i}: v\n" for i in range(20))
        + "completed:\n"
        + items("T", 4)
    )
    write(CP, text)
    assert run(capsys, CP) == (0, "", "")


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("trim:\n  caps:\n    completed: {keep: middle, max: 5}\n", "trim.caps.completed.keep"),
        ("trim:\n  window: -1\n", "trim.window"),
        ("trim:\n  optional: [milestone]\n", "milestone also listed in trim.keep"),
        ("trim:\n  archive:\n    path: '{nope}.yaml'\n", "unknown placeholder"),
        ("trim:\n  unknown: 1\n", "trim"),
        ("trim:\n  window: {blockers: 2}\n", "trim.window.blockers"),
    ],
)
def test_unusable_config_is_one_line_and_exit_2(capsys, repo, config, message):
    write(".asimov-hooks.yaml", config)
    write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    code, _out, err = run(capsys, CP)
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_rules_trim_json_matches_its_schema_and_the_checkpoint_schema():
    from asimov_hooks.config.config import load_rule_file, load_schema
    from asimov_hooks.minischema import Evaluator

    trim = load_rule_file("trim.json")["trim"]
    assert Evaluator(load_schema("config-trim.schema.json")).errors(trim) == []
    props = load_schema("asimov-checkpoint.schema.json")["properties"]
    for name, cap in trim["caps"].items():
        assert cap["max"] == props[name]["maxItems"]
    assert set(trim["keep"]) | set(trim["optional"]) <= set(props)


# ---------------------------------------------------------------- command line
def test_directories_and_no_arguments_find_checkpoints(capsys, repo):
    write("a/.claude_checkpoint.yaml", "milestone: M\ncompleted:\n" + items("T", 7))
    write("b/.asimov/checkpoint.yaml", "milestone: M\nnext_steps:\n" + items("T", 7))
    write("b/warmup.yaml", "identity: x\n")
    code, out, _ = run(capsys)
    assert code == 1
    assert "Fixing a/.claude_checkpoint.yaml" in out and "Fixing b/.asimov/checkpoint.yaml" in out
    assert "warmup" not in out
    assert run(capsys, "a")[0] == 0


def test_usage_errors_exit_2(capsys):
    assert run(capsys, "missing.yaml")[0] == 2
    write(CP, "milestone: M\n")
    code, _, err = run(capsys, "--archive", "x.yaml", "--no-archive", CP)
    assert code == 2 and "cannot be used together" in err
    assert run(capsys, "--config", "nope.yaml", CP)[0] == 2


def test_other_kinds_are_skipped(capsys):
    write("warmup.yaml", "identity: x\n")
    code, out, _ = run(capsys, "warmup.yaml")
    assert code == 0 and "skipped: not a file kind that is trimmed" in out


def test_console_script_never_prints_a_traceback(repo):
    write(CP, b"milestone: [\xff\n")
    exe = Path(sys.executable).with_name("asimov-hooks")
    proc = subprocess.run([str(exe), "trim", CP], capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "not valid UTF-8" in proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def test_validate_fix_trims_and_fails_like_a_fixer(capsys):
    write(CP, "milestone: M\ncompleted:\n" + items("T", 7))
    code = main(["validate", "--fix", CP])
    out = capsys.readouterr().out
    assert code == 1
    assert load(CP)["completed"] == ["T 3", "T 4", "T 5", "T 6", "T 7"]
    assert "removed 2 of 7 items" in out
    assert main(["validate", "--fix", CP]) == 0


# ---------------------------------------------------------------- ruamel.yaml traps
# Deleting items from a ruamel round-trip tree and dumping it again goes wrong in each
# of these cases (ruamel.yaml 0.18): a comment line is stored as a *post* comment of
# the item or key before it, so it moves or vanishes with that item; slice/negative
# deletes drop the comments kept on the last item; clearing a list under a header
# comment dumps `key:\n  # header\n[]`, which does not parse; and the dump re-indents,
# re-spaces end-of-line comments and drops BOM and CRLF. The trimmer cuts text ranges
# instead; these cases pin the behaviour users would otherwise hit.
TRAPS = [
    pytest.param(
        "milestone: M\ncompleted:\n  - a\n  # about b\n  - b\n  - c\nz: 1\n",
        "milestone: M\ncompleted:\n  # about b\n  - b\n  - c\nz: 1\n",
        2,
        id="comment-above-first-kept-item-is-not-deleted-with-the-item-before-it",
    ),
    pytest.param(
        "milestone: M\nnext_steps:\n  - a\n  # about b\n  - b\n  - c\nz: 1\n",
        "milestone: M\nnext_steps:\n  - a\nz: 1\n",
        1,
        id="comment-of-a-removed-item-is-not-left-orphaned-above-the-next",
    ),
    pytest.param(
        "milestone: M\ncompleted:\n  - a\n  - b\n  - c\n  # trailer\nz: 1\n",
        "milestone: M\ncompleted:\n  - c\n  # trailer\nz: 1\n",
        1,
        id="keep-last-slice-delete-keeps-trailing-comment",
    ),
    pytest.param(
        "milestone: M\nnext_steps:\n  - a\n  - b\n  - c\n  # trailer\nz: 1\n",
        "milestone: M\nnext_steps:\n  - a\n  # trailer\nz: 1\n",
        1,
        id="negative-index-delete-keeps-trailing-comment",
    ),
    pytest.param(
        "milestone: M\ncompleted:\n  # header\n  - a\n  - b\nz: 1\n",
        "milestone: M\ncompleted: []\n  # header\nz: 1\n",
        0,
        id="emptied-list-under-header-comment-stays-valid",
    ),
    pytest.param(
        "milestone: M\ncompleted: [a, b, c]    # eol\n    # indented note\nz: 1\n",
        "milestone: M\ncompleted: [c]    # eol\n    # indented note\nz: 1\n",
        1,
        id="flow-list-eol-comment-column-unchanged",
    ),
]


@pytest.mark.parametrize(("before", "after", "cap"), TRAPS)
def test_ruamel_traps_do_not_reach_users(capsys, repo, before, after, cap):
    write(
        ".asimov-hooks.yaml",
        f"trim:\n  caps:\n    completed: {{max: {cap}}}\n    next_steps: {{max: {cap}}}\n",
    )
    code, _, err, result = trim_once_and_again(capsys, before)
    assert code == 1 and not err
    assert result.decode() == after


def test_removing_a_key_keeps_the_comment_above_the_next_key(capsys):
    text = "milestone: M\nnotes: x\n# about status\nstatus: done\n" + "".join(
        f"k{i}: v\n" for i in range(18)
    )
    code, _, _, result = trim_once_and_again(capsys, text)
    assert code == 1
    assert result.decode() == text.replace("notes: x\n", "")


def test_ruamel_round_trip_really_breaks_an_emptied_list():
    """Why the trimmer edits bytes instead of re-dumping: ruamel.yaml (pinned <0.19) dumps an
    emptied list that had a comment as invalid YAML. If this fails after an upgrade, the
    trap is gone upstream: the comment in trim/trimmer.py that cites it can go too."""
    import io

    yaml = YAML()
    data = yaml.load("completed:\n  # header\n  - a\nz: 1\n")
    data["completed"].clear()
    out = io.StringIO()
    yaml.dump(data, out)
    with pytest.raises(Exception):  # noqa: B017 - any parse error shows the trap
        YAML(typ="safe").load(out.getvalue())


def test_benchmark_script_runs(capsys):
    """benchmarks/bench_trim.py keeps working (its figures are reported, not asserted)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_trim.py"
    spec = importlib.util.spec_from_file_location("asimov_bench_trim", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.startup(1)
    module.scaling([20, 40], 1)
    out = capsys.readouterr().out
    assert "python -c pass" in out and "asimov-hooks trim (30 lines, trims)" in out
    assert "time(N=40) / time(N=20)" in out


# ---------------------------------------------------------------- the click-free hook entry
LONG = "milestone: M\ncompleted:\n" + items("Task", 8) + "next_steps:\n" + items("Next", 7)


@pytest.mark.parametrize(
    ("argv", "trims"),
    [
        ([CP], True),
        (["-q", CP], True),
        (["--dry-run", CP], True),
        (["--dry-run", "--diff", CP], True),
        (["--no-archive", CP], True),
        (["--archive", "kept/archive.yaml", CP], True),
        (["--config", ".asimov-hooks.yaml", CP], True),
        (["--", CP], True),
        ([], True),
        (["--archive", "a.yaml", "--no-archive", CP], False),  # usage errors: click explains
        (["--archive", "kept", CP], False),
        (["--archive=a.yaml", CP], True),
        (["--bogus", CP], False),
        (["--config"], False),
        (["-h"], False),
    ],
)
def test_fast_trim_entry_matches_click(capsys, repo, argv, trims):
    """`asimov-hooks trim FILE...` (the hook) skips click; the result is the same."""
    from asimov_hooks.cli.entrypoints import hooks_main

    (repo / "kept").mkdir()
    write(".asimov-hooks.yaml", "trim:\n  archive:\n    enabled: true\n")
    results = []
    for entry in (main, hooks_main):
        write(CP, LONG)
        for stale in (ARCHIVE, "kept/archive.yaml", "a.yaml"):
            Path(stale).unlink(missing_ok=True)
        code = entry(["trim", *argv])
        out, err = capsys.readouterr()
        results.append((code, out, err, Path(CP).read_bytes()))
    assert results[0] == results[1]
    assert "Traceback" not in results[0][2]
    assert (results[0][0] == 1 and "ix" in results[0][1]) is trims, results[0]


def test_hook_trim_imports_no_click(repo):
    write(CP, LONG)
    probe = (
        "import sys\n"
        "from asimov_hooks.cli.entrypoints import hooks_main\n"
        "code = hooks_main(['trim', sys.argv[1]])\n"
        "print('HEAVY:', [m for m in ('click', 'dataclasses', 'jsonschema') if m in sys.modules])\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, CP], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1, proc
    assert "Fixing .claude_checkpoint.yaml" in proc.stdout
    assert "HEAVY: []" in proc.stdout, proc.stdout
