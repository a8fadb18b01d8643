"""One record per file from discovery to report (issue 11): the relative path, kind and
selected rules of a file are worked out once, when it is found, and every later stage
(git prefetch, the worker plan, the check, inline suppressions) reads them
from its FileRecord instead of asking the configuration again."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import GOOD_CHECKPOINT, commit_all, git_init, write

from asimov_hooks.config.config import Config, load_config
from asimov_hooks.config.discovery import FileRecord, discover
from asimov_hooks.validation import run
from asimov_hooks.validation.engine import Checker

FILES = {
    "a/.claude_checkpoint.yaml": GOOD_CHECKPOINT,
    "b/.claude_checkpoint.yaml": 'milestone: "m"  # asimov-hooks: disable-line schema\n',
    "c/CLAUDE.md": "line\n" * 3,
    ".checkpoints/oc-app.checkpoint.json": "{}\n",
    "k8s/warmup.yaml": "apiVersion: v1\nkind: Pod\n",
}


@pytest.fixture
def repo(tmp_path, monkeypatch):
    root = git_init(tmp_path / "repo")
    for rel, text in FILES.items():
        write(root, rel, text)
    write(root, "notes.txt", "not a protocol file\n")
    commit_all(root, "init")
    monkeypatch.chdir(root)
    return root


def test_discovery_makes_one_record_per_file(repo) -> None:
    records = list(discover(["."], load_config(None)))
    assert sorted(r.rel for r in records) == sorted(FILES)
    by_rel = {r.rel: r for r in records}
    assert by_rel["c/CLAUDE.md"].kind == "claude-md"
    assert by_rel["a/.claude_checkpoint.yaml"].kind == "asimov-checkpoint"
    assert not any(r.explicit for r in records) and all(r.rules is None for r in records)
    named = list(discover(["notes.txt"], load_config(None)))
    assert [(r.path, r.kind, r.explicit) for r in named] == [("notes.txt", None, True)]


def test_validate_asks_the_config_once_per_file(repo, monkeypatch, capsys) -> None:
    asked: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    ruled: Counter[str] = Counter()
    relpath, kind_for, rules = Config.relpath, Config.kind_for, Checker.rules

    def count_relpath(self, path):
        asked[str(path)] += 1
        return relpath(self, path)

    def count_kind(self, rel):
        kinds[rel] += 1
        return kind_for(self, rel)

    def count_rules(self, kind, rel):
        ruled[rel] += 1
        return rules(self, kind, rel)

    monkeypatch.setattr(Config, "relpath", count_relpath)
    monkeypatch.setattr(Config, "kind_for", count_kind)
    monkeypatch.setattr(Checker, "rules", count_rules)
    code = run.validate(["."], fmt="json", select=None, ignore=set(), jobs=1)
    assert code in (0, 1)
    assert "k8s/warmup.yaml" in capsys.readouterr().out
    files = {rel: count for rel, count in asked.items() if rel in FILES}
    assert files == dict.fromkeys(FILES, 1)  # discovery asked; no stage asked again
    assert {rel: kinds[rel] for rel in FILES} == dict.fromkeys(FILES, 1)
    assert ruled == Counter(dict.fromkeys(FILES, 1))  # prefetch and check share them


def test_a_record_and_its_path_are_checked_alike(repo) -> None:
    config = load_config(None)
    checker = Checker(config)
    for record in discover(["."], config):
        by_record = checker.check(record)
        by_path = Checker(config).check(record.path)
        assert (by_record.kind, by_record.status, by_record.skipped) == (
            by_path.kind,
            by_path.status,
            by_path.skipped,
        )
        assert [repr(f) for f in by_record.findings] == [repr(f) for f in by_path.findings]
        assert record.rules is not None  # kept on the record by the check


def test_selection_narrows_the_record_rules(repo) -> None:
    config = load_config(None)
    record = FileRecord.of("a/.claude_checkpoint.yaml", config)
    Checker(config, {"max-lines-hard"}).check(record)
    assert set(record.rules or ()) == {"max-lines-hard", "io-error", "encoding", "max-bytes-hard"}
    Checker(config, None, {"max-lines-hard"}).check(record)  # another checker chooses again
    assert "max-lines-hard" not in (record.rules or ()) and "schema" in (record.rules or ())
