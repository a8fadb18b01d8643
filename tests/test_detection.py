"""A repository follows the Asimov protocol when a protocol file has the protocol's
content, and validate, the agent hooks and `init` agree on it: another tool's
`warmup.yaml` (Kubernetes, Skaffold), `roadmap.yaml` or `sprint.yaml` makes nothing
Asimov. A git-ignored checkpoint changes no verdict of validate or `init` (CI would not
see it), and is enough for the agent hooks, which work with the files on disk. Real git
repositories, each command a separate process."""

from __future__ import annotations

import json
import os

import pytest
from agent_support import age_turn, answer, run_event
from conftest import git, git_init, run_script, write

from asimov_hooks.readers.yamlio import SAFE, load_all, single

SKAFFOLD = (
    "apiVersion: skaffold/v4beta6\nkind: Config\nmetadata:\n  name: warmup\n"
    "build:\n  artifacts:\n    - image: web\n"
)
KUBERNETES = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: warmup\nspec:\n  replicas: 1\n"
)
OTHER_ROADMAP = "milestones:\n  - name: beta\n    due: 2026-03-01\nowners: [ana]\n"
OTHER_SPRINT = "iteration: 14\nstories:\n  - id: WEB-1\n    points: 3\n"
LONG_CLAUDE = "".join(f"- rule {n}: keep it short\n" for n in range(40))
THRESHOLD = 30

FOREIGN = {
    "skaffold": {"warmup.yaml": SKAFFOLD},
    "kubernetes": {"warmup.yaml": KUBERNETES},
    "other-tools": {"roadmap.yaml": OTHER_ROADMAP, "sprint.yaml": OTHER_SPRINT},
}


def _repo(tmp_path, files: dict[str, str], ignored_checkpoint: bool = False) -> str:
    repo = git_init(tmp_path / "repo")
    write(repo, "CLAUDE.md", LONG_CLAUDE)
    write(repo, ".asimov-hooks.yaml", f"agent:\n  turn-threshold: {THRESHOLD}\n")
    for rel, text in files.items():
        write(repo, rel, text)
    if ignored_checkpoint:
        write(repo, ".gitignore", ".claude_checkpoint.yaml\n")
        write(repo, ".claude_checkpoint.yaml", "milestone: m\nstatus: in_progress\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "files")
    return repo


CASES = [*FOREIGN, "ignored-checkpoint-only"]


@pytest.fixture(autouse=True)
def _auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASIMOV_HOOKS_PROFILE", raising=False)  # the suite pins one


def _files(case: str) -> tuple[dict[str, str], bool]:
    return (FOREIGN.get(case, {}), case == "ignored-checkpoint-only")


@pytest.mark.parametrize("case", CASES)
def test_validate_gives_claude_md_the_generic_profile(tmp_path, case) -> None:
    repo = _repo(tmp_path, *_files(case))
    done = run_script("asimov-validate", "-v", ".", cwd=repo)
    assert done.returncode == 0, done.stdout
    assert "profile generic for CLAUDE.md (no Asimov protocol file" in done.stdout
    for name in FOREIGN.get(case, {}):
        assert f"{name}: skipped (not an Asimov Protocol" in done.stdout


def _stop_after_long_turn(repo: str) -> dict | None:
    payload = {
        "session_id": "s1",
        "transcript_path": os.path.join(repo, "t.jsonl"),
        "cwd": repo,
        "hook_event_name": "UserPromptSubmit",
        "prompt": "implement the feature",
    }
    assert answer(run_event(None, payload, repo)) is None
    age_turn(repo, "s1", THRESHOLD + 10)
    stop = {**payload, "hook_event_name": "Stop", "stop_hook_active": False}
    del stop["prompt"]
    return answer(run_event(None, stop, repo))


@pytest.mark.parametrize("case", FOREIGN)
def test_the_agent_is_never_asked_for_an_asimov_checkpoint(tmp_path, isolated_home, case) -> None:
    repo = _repo(tmp_path, *_files(case))
    assert _stop_after_long_turn(repo) is None


def test_an_ignored_checkpoint_alone_is_enough_for_the_agent(tmp_path, isolated_home) -> None:
    repo = _repo(tmp_path, {}, ignored_checkpoint=True)
    out = _stop_after_long_turn(repo)
    assert out is not None, "no checkpoint request"
    assert ".claude_checkpoint.yaml" in json.dumps(out), out


def test_the_agent_is_asked_where_a_committed_warmup_is_the_protocols(
    tmp_path, isolated_home
) -> None:
    repo = _repo(tmp_path, {"warmup.yaml": "identity:\n  project: demo\n"}, True)
    out = _stop_after_long_turn(repo)
    assert out is not None, "no checkpoint request"
    assert ".claude_checkpoint.yaml" in json.dumps(out), out


def _hook_ids(repo: str) -> list[str]:
    with open(os.path.join(repo, ".pre-commit-config.yaml"), encoding="utf-8") as fh:
        config = single(load_all(fh.read(), SAFE))
    return [hook["id"] for each in config["repos"] for hook in each["hooks"]]


@pytest.mark.parametrize("case", CASES)
def test_init_adds_no_asimov_hooks(tmp_path, case) -> None:
    repo = _repo(tmp_path, *_files(case))
    done = run_script("asimov-hooks", "init", "--repo", "/some/checkout", "--rev", "v1", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _hook_ids(repo) == ["asimov-validate"]
    assert "Asimov" not in done.stdout


def test_init_adds_them_for_a_committed_protocol_file(tmp_path) -> None:
    repo = _repo(tmp_path, {".asimov/roadmap.yaml": "current:\n  version: '1.0'\n"})
    done = run_script("asimov-hooks", "init", "--repo", "/some/checkout", "--rev", "v1", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _hook_ids(repo) == ["asimov-trim", "asimov-validate", "asimov-ephemeral"]
    assert json.dumps("Asimov")[1:-1] in done.stdout
