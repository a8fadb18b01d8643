"""The check after an agent writes a checkpoint, without the work it does not need: the
trimmer is not run when it certainly leaves the file as it is (`writes._left_as_it_is`),
and the turn is recorded by appending one record beside the turn state (folded into
its database by the next event that reads it), without SQLite. What the agent is told and what is on disk are the same as with
the full trim."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest
from conftest import GOOD_CHECKPOINT, git_init, write
from test_agent_event_imports import loaded

from asimov_hooks.agent.runtime import writes
from asimov_hooks.config.config import load_config

BIG = "".join(f'  - "done {i}"\n' for i in range(12))
CHECKPOINTS = {
    "valid": GOOD_CHECKPOINT,
    "over-a-cap": GOOD_CHECKPOINT.replace("completed:\n", "completed:\n" + BIG, 1),
    "conflict": "<<<<<<< ours\nstatus: a\n=======\nstatus: b\n>>>>>>> theirs\n",
    "syntax": "milestone: [unclosed\n",
    "flow-style": '{"milestone": "x", "status": "in_progress"}\n',
    "over-the-hard-limit": GOOD_CHECKPOINT + "".join(f"# note {i}\n" for i in range(200)),
    "not-utf8": b"milestone: \xff\n",
    "crlf": GOOD_CHECKPOINT.replace("\n", "\r\n"),
    "bom": "\ufeff" + GOOD_CHECKPOINT,
}


class _Event:
    tool = "Write"
    session = None  # nothing remembered of what the agent was told
    project = turns = ""


def _after_write(repo: str, *, slim: bool, monkeypatch) -> tuple[list[str], dict[str, bytes]]:
    """What the agent is told after the write, and every file of the repository."""
    if not slim:
        monkeypatch.setattr(writes, "_left_as_it_is", lambda *a: False)
    path = os.path.join(repo, ".claude_checkpoint.yaml")
    config = load_config(None, start=repo)
    rel = config.relpath(path)
    try:
        event = _Event()
        event.project = event.turns = repo
        notes = writes._after_write(event, path, config, config.kind_for(rel), rel)
    except Exception as exc:  # compared, whatever it is
        notes = [f"raised {type(exc).__name__}: {exc}"]
    monkeypatch.undo()
    files = {}
    for top, dirs, names in os.walk(repo):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            full = os.path.join(top, name)
            with open(full, "rb") as fh:  # when an archive entry was made: its own second
                files[os.path.relpath(full, repo)] = STAMP.sub(b"<time>", fh.read())
    return notes, files


STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?")


def _fresh(tmp_path) -> str:
    """The same repository path for both runs (notes name it), made anew."""
    shutil.rmtree(tmp_path / "repo", ignore_errors=True)
    shutil.rmtree(tmp_path / "elsewhere.yaml", ignore_errors=True)
    return git_init(tmp_path / "repo")


@pytest.mark.parametrize("name", sorted(CHECKPOINTS))
def test_the_agent_is_told_what_the_full_trim_tells_it(tmp_path, monkeypatch, name) -> None:
    outcomes = []
    for slim in (True, False):
        repo = _fresh(tmp_path)
        write(repo, ".claude_checkpoint.yaml", CHECKPOINTS[name])
        monkeypatch.chdir(repo)
        outcomes.append(_after_write(repo, slim=slim, monkeypatch=monkeypatch))
    assert outcomes[0] == outcomes[1]
    if name == "over-a-cap":  # the trimmer ran on the slim side too
        assert any("trimmed" in note for note in outcomes[0][0])


@pytest.mark.parametrize(
    ("name", "left"),
    [("valid", True), ("crlf", False), ("bom", True), ("over-a-cap", False), ("conflict", False)],
)
def test_the_trimmer_is_skipped_only_where_it_changes_nothing(tmp_path, name, left) -> None:
    from asimov_hooks.agent.runtime.common import trim_settings

    repo = _fresh(tmp_path)
    path = write(repo, ".claude_checkpoint.yaml", CHECKPOINTS[name])
    config = load_config(None, start=repo)
    rel = config.relpath(path)
    kind = config.kind_for(rel)
    assert writes._left_as_it_is(path, config, kind, rel, trim_settings(config)) is left


def test_items_the_merge_driver_parked_are_archived(tmp_path, monkeypatch) -> None:
    """A pending merge archive is the trimmer's to flush, even with nothing to trim."""
    outcomes = []
    for slim in (True, False):
        repo = _fresh(tmp_path)
        write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
        entry = {"timestamp": "2026-11-20T10:00:00Z", "removed": {"completed": ["parked"]}}
        parked = {"entries": [{"checkpoint": ".claude_checkpoint.yaml", "entry": entry}]}
        write(repo, ".git/asimov-hooks/merge-archive.json", json.dumps(parked))
        monkeypatch.chdir(repo)
        outcomes.append(_after_write(repo, slim=slim, monkeypatch=monkeypatch))
    assert outcomes[0] == outcomes[1]
    assert any("archive" in rel for rel in outcomes[0][1]), outcomes[0][1].keys()


def test_an_archive_path_leading_out_is_refused_alike(tmp_path, monkeypatch) -> None:
    outcomes = []
    for slim in (True, False):
        repo = _fresh(tmp_path)
        write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
        write(tmp_path, "elsewhere.yaml", "[]\n")
        os.symlink(
            tmp_path / "elsewhere.yaml", os.path.join(repo, ".claude_checkpoint.archive.yaml")
        )
        monkeypatch.chdir(repo)
        outcomes.append(_after_write(repo, slim=slim, monkeypatch=monkeypatch))
    assert outcomes[0] == outcomes[1]


WATCHED = (
    "asimov_hooks.fs.journal",
    "sqlite3",
    "_sqlite3",
    "datetime",
    "asimov_hooks.trim.parsing",
    "asimov_hooks.gitutil",
    "asimov_hooks.config.config",
    "asimov_hooks.merge",
    "asimov_hooks.trim.trimmer",
)


def _loaded(tmp_path, rel: str, content: str) -> set[str]:
    return loaded(tmp_path, rel, content, WATCHED)[0]


def test_a_checkpoint_write_records_the_turn_without_sqlite(tmp_path) -> None:
    names = _loaded(tmp_path, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    assert "asimov_hooks.fs.journal" in names  # the checkpoint of the turn was recorded
    assert "asimov_hooks.config.config" in names  # and the file checked
    assert not names & {"sqlite3", "_sqlite3", "datetime", "asimov_hooks.merge"}, names
    # the trimmer was not run
    assert not names & {"asimov_hooks.trim.trimmer", "asimov_hooks.trim.parsing"}, names


def test_a_write_of_another_file_loads_no_git_helpers(tmp_path) -> None:
    names = _loaded(tmp_path, "src/app.py", "x = 1\n")
    assert names == set(), names


def test_the_pending_file_is_the_merge_drivers() -> None:
    from asimov_hooks.trim import pending

    assert writes.PENDING == pending.NAME
