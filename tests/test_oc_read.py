"""`asimov-hooks oc status` / `oc next` as whole processes on a realistic .checkpoints/."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from conftest import GIT_ENV, git_init
from oc_data import make_project, oc, rewrite


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "gtrack"
    git_init(root)
    paths = make_project(root)
    return root, paths


def test_status_full_summary(project):
    root, _ = project
    proc = oc(root, "status", COLUMNS="120")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "\u26d4 1 decision waiting on you"
    heads = [line.split()[0] for line in lines if not line.startswith((" ", "\u26d4"))]
    assert heads[:6] == [
        "oc-app-architect",  # blocked on a decision
        "oc-deploy-ops",  # failed
        "oc-reverse-spec",  # at a gate
        "oc-git-ops",  # in progress (stale)
        "oc-code-auditor",  # complete with queued work
        "oc-stack-forge",  # waiting on an external dependency
    ]
    stale = [line for line in lines if "stale (" in line]
    assert len(stale) == 1 and stale[0].startswith("oc-git-ops ")
    text = proc.stdout
    assert "next: Read evaluator report: sprints/sprint-2/eval-round-1.md" in text
    assert "\u26d4 b1 (user_decision): Evaluator flagged missing rate limiting" in text
    assert "b0" not in text  # resolved blockers are not shown
    assert "PM: PLAT-4471 (source) + 2 children" in text
    assert "(2/4 complete)" in text
    assert "r\u00f4les" not in text  # key decisions are not part of the summary
    assert lines[-1] == "gtrack: 6 checkpoints, 1 stale"
    assert "\x1b[" not in text  # not a terminal: no colour


def test_status_fits_the_terminal_and_colours_only_when_asked(project):
    root, _ = project
    narrow = oc(root, "status", COLUMNS="50")
    assert narrow.returncode == 0
    assert all(len(line) <= 50 for line in narrow.stdout.splitlines()), narrow.stdout
    assert "\u2026" in narrow.stdout
    coloured = oc(root, "status", FORCE_COLOR="1")
    assert "\x1b[31m" in coloured.stdout
    assert "\x1b[" not in oc(root, "status", NO_COLOR="1").stdout
    assert "\x1b[" not in oc(root, "status", "--color", "never", FORCE_COLOR="1").stdout
    assert "\x1b[1m" in oc(root, "next", "--color", "always").stdout


def test_status_brief_is_the_top_skill_only(project):
    root, _ = project
    proc = oc(root, "status", "--brief", COLUMNS="120")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0] == "\u26d4 1 decision waiting on you"
    assert lines[1].startswith("oc-app-architect ")
    assert lines[2] == "    next: Read evaluator report: sprints/sprint-2/eval-round-1.md"
    assert lines[3].startswith("    \u26d4 b1 (user_decision)")
    assert len(lines) == 4
    assert "oc-deploy-ops" not in proc.stdout


def test_status_json(project):
    root, _ = project
    proc = oc(root, "status", "--format", "json")
    assert proc.returncode == 0
    doc = json.loads(proc.stdout)
    assert doc["decisions_waiting"] == 1
    assert doc["directory"] == ".checkpoints"
    by_skill = {c["skill"]: c for c in doc["checkpoints"]}
    assert next(iter(by_skill)) == "oc-app-architect"
    assert by_skill["oc-git-ops"]["stale_days"] > 7
    assert by_skill["oc-app-architect"]["stale_days"] is None
    assert by_skill["oc-app-architect"]["blockers"] == [
        {
            "id": "b1",
            "description": "Evaluator flagged missing rate limiting on auth endpoints",
            "needs": "user_decision",
            "blocking": "sprint-2",
        }
    ]
    assert by_skill["oc-deploy-ops"]["status"] == "failed"
    assert by_skill["oc-code-auditor"]["next_action"] == "File tickets for the 2 medium findings"
    brief = json.loads(oc(root, "status", "--brief", "--format", "json").stdout)
    assert [c["skill"] for c in brief["checkpoints"]] == ["oc-app-architect"]


def _next(root):
    proc = oc(root, "next", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    return doc["level"], doc["skill"] if doc["level"] else None, doc


def test_next_follows_the_hierarchy(project):
    root, paths = project
    level, skill, doc = _next(root)
    assert (level, skill) == (1, "oc-app-architect")
    assert doc["blocker"] == "b1"
    assert doc["action"].startswith("decide: Evaluator flagged missing rate limiting")
    text = oc(root, "next", COLUMNS="200").stdout
    assert text.startswith("oc-app-architect: decide: Evaluator flagged")
    assert "why: blocked on a decision (level 1 of 6)" in text

    # the decision is taken: the blocker is marked resolved
    rewrite(paths["oc-app-architect"], lambda d: d["blockers"][0].update(resolved=True))
    assert _next(root)[:2] == (2, "oc-deploy-ops")
    os.remove(paths["oc-deploy-ops"])
    level, skill, doc = _next(root)
    assert (level, skill) == (3, "oc-reverse-spec")
    assert "spec-approval-gate" in doc["why"]
    os.remove(paths["oc-reverse-spec"])
    # two in progress: the most recently updated wins (the stale one comes later)
    level, skill, doc = _next(root)
    assert (level, skill) == (4, "oc-app-architect")
    assert doc["done_when"] is None
    os.remove(paths["oc-app-architect"])
    level, skill, doc = _next(root)
    assert (level, skill, doc["stale_days"] > 7) == (4, "oc-git-ops", True)
    os.remove(paths["oc-git-ops"])
    level, skill, doc = _next(root)
    assert (level, skill) == (5, "oc-code-auditor")
    assert doc["action"] == "File tickets for the 2 medium findings"
    rewrite(
        paths["oc-code-auditor"],
        lambda d: d.update(
            next_actions=[],
            progress_table=[
                {"id": "report", "label": "Report", "status": "complete"},
                {"id": "follow-up", "label": "Follow-up audit", "status": "not_started"},
            ],
        ),
    )
    level, skill, doc = _next(root)
    assert (level, skill) == (6, "oc-code-auditor")
    assert doc["action"] == "start Follow-up audit (follow-up)"
    os.remove(paths["oc-code-auditor"])
    proc = oc(root, "next")
    assert proc.stdout == "nothing actionable: 1 blocked on external dependencies\n"
    assert json.loads(oc(root, "next", "--format", "json").stdout)["action"] is None


def test_done_when_is_shown(project):
    root, paths = project
    rewrite(
        paths["oc-app-architect"],
        lambda d: d.update(blockers=[], next_actions=d["next_actions"][1:]),
    )
    for skill in ("oc-deploy-ops", "oc-reverse-spec"):
        os.remove(paths[skill])
    level, skill, doc = _next(root)
    assert (level, skill, doc["done_when"]) == (4, "oc-app-architect", "npm test")
    assert "    done when: npm test\n" in oc(root, "next").stdout


def test_unreadable_checkpoint_is_reported_not_fatal(project):
    root, paths = project
    with open(paths["oc-deploy-ops"], "w", encoding="utf-8") as fh:
        fh.write('{"skill": "oc-deploy-ops", <<<<<<< ours\n')
    proc = oc(root, "status", COLUMNS="200")
    assert proc.returncode == 0
    assert "oc-deploy-ops     unreadable: invalid JSON" in proc.stdout
    assert "1 unreadable" in proc.stdout.splitlines()[-1]
    assert _next(root)[:2] == (1, "oc-app-architect")
    rewrite(paths["oc-app-architect"], lambda d: d.update(blockers=[]))
    assert _next(root)[:2] == (3, "oc-reverse-spec")  # the broken failed one is skipped


def test_dir_option_and_missing_directory(tmp_path, project):
    root, _ = project
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = oc(elsewhere, "status", "--dir", str(root / ".checkpoints"), "--brief")
    assert proc.returncode == 0 and "oc-app-architect" in proc.stdout
    assert oc(elsewhere, "next", "--dir", str(root)).stdout.startswith("oc-app-architect:")
    empty = oc(elsewhere, "status")
    assert empty.returncode == 0
    assert empty.stdout == "no .checkpoints/ directory; `asimov-hooks oc init` creates one\n"
    bad = oc(elsewhere, "status", "--dir", str(tmp_path / "nope"))
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "no such directory" in bad.stderr
    since = oc(root, "status", "--since", "last tuesday")
    assert since.returncode == 2 and "not an ISO 8601 time" in since.stderr


def _commit_at(root, when: str) -> None:
    env = {**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    for args in (["add", "-A"], ["commit", "-q", "-m", "checkpoints"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def test_since_digest_against_git(project):
    root, paths = project
    _commit_at(root, "2026-01-10T00:00:00Z")

    def progress(doc):
        doc["blockers"] = doc["blockers"][1:]  # b1 decided and removed
        doc["context_primer"]["key_decisions"].append("Rate limiting: 10 req/min per IP.")
        doc["progress_table"][2]["status"] = "complete"
        doc["recently_done"] = [{"action": "Read evaluator report", "at": "2026-01-11T10:00:00Z"}]

    rewrite(paths["oc-app-architect"], progress)
    proc = oc(root, "status", "--since=2026-01-10T12:00:00Z", COLUMNS="200")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.splitlines()[0] == "since 2026-01-10T12:00:00Z: 1 of 6 checkpoints changed"
    assert "oc-app-architect  in_progress  (git " in out
    assert "    done: Read evaluator report (2026-01-11T10:00:00Z)" in out
    assert "    decided: Rate limiting: 10 req/min per IP." in out
    assert "    resolved: b1: Evaluator flagged missing rate limiting on auth endpoints" in out
    assert "    phase sprint-2: in_progress \u2192 complete" in out
    assert "Stack: Hono" not in out  # decided before then
    doc = json.loads(oc(root, "status", "--since=2026-01-10T12:00:00Z", "--format", "json").stdout)
    assert [c["skill"] for c in doc["changed"]] == ["oc-app-architect"]
    assert doc["unchanged"] == 5


def test_since_without_git_history_uses_timestamps(project):
    root, _ = project
    proc = oc(root, "status", "--since=2026-01-01", "--format", "json")
    doc = json.loads(proc.stdout)
    changed = {c["skill"]: c for c in doc["changed"]}
    # created after then: everything in them is new
    assert changed["oc-app-architect"]["baseline"] == "new since then"
    assert len(changed["oc-app-architect"]["decisions"]) == 2
    # oc-git-ops was created 2026-01-02 and last written 2026-01-05: all of it new
    assert "oc-git-ops" in changed
    later = json.loads(oc(root, "status", "--since=2026-02-01", "--format", "json").stdout)
    assert "oc-git-ops" not in {c["skill"] for c in later["changed"]}


def test_nearest_checkpoints_directory_in_a_monorepo(tmp_path):
    repo = tmp_path / "mono"
    git_init(repo)
    make_project(repo / "apps" / "web")
    (repo / "apps" / "web" / "src").mkdir(exist_ok=True)
    inside = oc(repo / "apps" / "web" / "src", "status", "--format", "json")
    doc = json.loads(inside.stdout)
    assert doc["directory"] == os.path.join("..", ".checkpoints") or doc["directory"].endswith(
        "apps/web/.checkpoints"
    )
    assert len(doc["checkpoints"]) == 6
    top = oc(repo, "status")
    assert top.stdout == "no .checkpoints/ directory; `asimov-hooks oc init` creates one\n"
