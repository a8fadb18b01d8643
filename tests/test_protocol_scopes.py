"""The protocol decision's two scopes, in real git repositories.

What the repository shares (validate, `init`): tracked files and untracked files git does
not ignore, so a new project whose files are not committed yet and its committed twin get
the same verdicts and the same `init`; a git-ignored file changes neither. What the work
tree holds (the agent hooks, `/checkpoint`): that, plus the git-ignored protocol files on
disk, so a git-ignored warmup.yaml or `.claude_checkpoint.yaml` alone is enough for the
checkpoint request and the re-read after a compaction. A look-alike counts in neither.
"""

from __future__ import annotations

import json
import os

import pytest
from agent_support import age_turn, answer, fixture, run_event, work
from conftest import GOOD_CHECKPOINT, GOOD_WARMUP, git, git_init, run_script, write

from asimov_hooks.readers.yamlio import SAFE, load_all, single

THRESHOLD = 30
CLAUDE_20 = "".join(f"- rule {n}: keep it short\n" for n in range(1, 21))
KUBERNETES = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: warmup\n"
FILES = {
    ".asimov-hooks.yaml": f"agent:\n  turn-threshold: {THRESHOLD}\n",
    "warmup.yaml": GOOD_WARMUP,
    "CLAUDE.md": CLAUDE_20,
    ".claude_checkpoint.yaml": GOOD_CHECKPOINT,
}
PROJECT = [".asimov-hooks.yaml", "warmup.yaml", "CLAUDE.md"]  # what a first commit holds


@pytest.fixture(autouse=True)
def _auto(monkeypatch: pytest.MonkeyPatch, isolated_home) -> None:
    monkeypatch.delenv("ASIMOV_HOOKS_PROFILE", raising=False)  # the suite pins one


def twin(base, how: str, files: dict[str, str] = FILES) -> str:
    """The same files: none added (`fresh`), added but never committed (`staged`), the
    project's files committed with the checkpoint left out (`committed`), everything
    committed, the checkpoint included (`committed-all`)."""
    repo = git_init(base / how)
    for rel, text in files.items():
        write(repo, rel, text)
    if how == "staged":
        git(repo, "add", "-A")
    elif how == "committed":
        git(repo, "add", *[rel for rel in PROJECT if rel in files])
        git(repo, "commit", "-q", "--no-verify", "-m", "project")
    elif how == "committed-all":
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--no-verify", "-m", "everything")
    return repo


TWINS = ["fresh", "staged", "committed", "committed-all"]


def validate(repo: str, *args: str):
    return run_script("asimov-validate", "-v", *args, cwd=repo)


def init(repo: str):
    done = run_script("asimov-hooks", "init", "--repo", "/some/checkout", "--rev", "v1", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def read(repo: str, rel: str) -> str | None:
    path = os.path.join(repo, rel)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def hook_ids(repo: str) -> list[str]:
    config = single(load_all(read(repo, ".pre-commit-config.yaml") or "", SAFE))
    return [hook["id"] for each in config["repos"] for hook in each["hooks"]]


def stop_after_long_turn(repo: str) -> dict | None:
    """The agent's answer to a stop that ends a turn of more than the threshold."""
    prompt = fixture("claude", "user_prompt_submit", repo)
    assert answer(run_event(None, prompt, repo)) is None
    age_turn(repo, prompt["session_id"], THRESHOLD + 10)
    return answer(run_event(None, fixture("claude", "stop", repo), repo))


def after_compaction(repo: str) -> tuple[str | None, str]:
    """(the context given back after a compaction, or None; the hook's stderr)."""
    done = run_event(None, fixture("claude", "session_start_compact", repo), repo)
    out = answer(done)
    return (out["hookSpecificOutput"]["additionalContext"] if out else None), done.stderr


def asked(out: dict | None) -> bool:
    return out is not None and ".claude_checkpoint.yaml" in json.dumps(out)


# ------------------------------------------------------- a new project and its committed twin
@pytest.mark.parametrize("how", TWINS)
def test_validate_gives_the_twins_adr_007s_claude_md_limits(tmp_path, how) -> None:
    repo = twin(tmp_path, how)
    done = validate(repo, "CLAUDE.md")
    assert done.returncode == 1, done.stdout
    assert "error max-lines-hard 20 lines, over the hard limit of 15" in done.stdout
    assert (
        "profile asimov for CLAUDE.md (the repository follows the Asimov protocol: warmup.yaml;"
        in done.stdout
    )


def test_init_writes_the_same_for_a_new_project_and_its_committed_twin(tmp_path) -> None:
    written = {}
    for how in TWINS:
        repo = twin(tmp_path, how)
        done = init(repo)
        written[how] = (
            read(repo, ".pre-commit-config.yaml"),
            read(repo, ".gitignore"),
            done.stdout.replace(repo, "REPO"),
        )
        assert hook_ids(repo) == ["asimov-trim", "asimov-validate", "asimov-ephemeral"], how
        config = single(load_all(written[how][0], SAFE))
        assert config["default_install_hook_types"] == ["pre-commit", "pre-merge-commit"]
        lines = written[how][1].splitlines()
        assert ".claude_checkpoint.yaml" in lines and ".claude_checkpoint.archive.yaml" in lines
        assert "found Asimov protocol files: warmup.yaml, .claude_checkpoint.yaml" in done.stdout
        if how in ("fresh", "committed"):  # the next commit can no longer carry it
            assert git(repo, "check-ignore", "-q", ".claude_checkpoint.yaml").returncode == 0
        else:  # already in the index: ignored by the rules, and named for `git rm --cached`
            assert git(repo, "check-ignore", "-q", "--no-index", ".claude_checkpoint.yaml")
            assert "note: .claude_checkpoint.yaml is tracked" in done.stderr
    assert written["fresh"] == written["staged"] == written["committed"]
    assert written["committed-all"][:2] == written["fresh"][:2]


@pytest.mark.parametrize("how", TWINS)
def test_the_agent_hooks_treat_the_twins_alike(tmp_path, how) -> None:
    repo = twin(tmp_path, how)
    assert asked(stop_after_long_turn(repo))
    context, _ = after_compaction(repo)
    assert context is not None and 'milestone: "Add feature X"' in context
    assert "Checkpoint" in context or "checkpoint" in context


EVENTS = {  # each agent's (prompt, stop, restart) fixtures
    "claude": ("user_prompt_submit", "stop", "session_start_compact"),
    "codex": ("user_prompt_submit", "stop", "session_start_resume"),
    "gemini": ("before_agent", "after_agent", "session_start_resume"),
    "cursor": ("before_submit_prompt", "stop", "session_start"),
    "qwen": ("user_prompt_submit", "stop", "session_start_resume"),
    "copilot": ("user_prompt_submitted", "agent_stop", "session_start_resume"),
}


def _session(agent: str, repo: str) -> list[str]:
    """What the agent is told in a session: its long turn's end, then a restart."""
    prompt, stop, restart = (fixture(agent, name, repo) for name in EVENTS[agent])
    told = [run_event(agent, prompt, repo).stdout]
    work(repo, THRESHOLD + 10)
    told.append(run_event(agent, stop, repo).stdout)
    told.append(run_event(agent, restart, repo).stdout)
    return [text.replace(repo, "REPO") for text in told]


@pytest.mark.parametrize("agent", sorted(EVENTS))
def test_every_agent_tells_a_new_project_what_it_tells_its_committed_twin(tmp_path, agent) -> None:
    fresh = _session(agent, twin(tmp_path, "fresh"))
    committed = _session(agent, twin(tmp_path, "committed"))
    assert fresh == committed
    assert ".claude_checkpoint.yaml" in fresh[1], fresh  # asked at the long turn's end
    if agent != "cursor":  # its sessionStart says nothing of a restart
        assert "Add feature X" in fresh[2], fresh  # the checkpoint, given back after it


# --------------------------------------------------------------- git-ignored protocol files
def _ignored_warmup(base, where: str) -> str:
    """warmup.yaml kept out of git (.gitignore, or this clone's .git/info/exclude), the
    rest committed; no other protocol file."""
    files = {k: v for k, v in FILES.items() if k != ".claude_checkpoint.yaml"}
    repo = git_init(base / where)
    for rel, text in files.items():
        write(repo, rel, text)
    if where == "gitignore":
        write(repo, ".gitignore", "warmup.yaml\n")
    else:
        with open(os.path.join(repo, ".git", "info", "exclude"), "a", encoding="utf-8") as fh:
            fh.write("warmup.yaml\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "project")
    assert "warmup.yaml" not in git(repo, "ls-files").stdout.split()
    return repo


@pytest.mark.parametrize("where", ["gitignore", "info-exclude"])
def test_an_ignored_warmup_changes_no_verdict_of_validate_or_init(tmp_path, where) -> None:
    repo = _ignored_warmup(tmp_path, where)
    done = validate(repo, "CLAUDE.md")
    assert done.returncode == 0, done.stdout
    assert "profile generic for CLAUDE.md (no Asimov protocol file" in done.stdout
    init(repo)
    assert hook_ids(repo) == ["asimov-validate"]


@pytest.mark.parametrize("where", ["gitignore", "info-exclude"])
def test_an_ignored_warmup_counts_for_the_agent_hooks(tmp_path, where) -> None:
    repo = _ignored_warmup(tmp_path, where)
    assert asked(stop_after_long_turn(repo))
    context, stderr = after_compaction(repo)
    assert context is not None and "there is no checkpoint yet" in context, stderr
    assert "no checkpoint protocol in use" not in stderr
    # the agent's own write of CLAUDE.md gets the work tree's profile: ADR-007's limits
    write_md = fixture("claude", "pre_tool_use_write", repo)
    write_md["tool_input"] = {"file_path": os.path.join(repo, "CLAUDE.md"), "content": CLAUDE_20}
    out = answer(run_event(None, write_md, repo))
    assert out is not None and "max-lines-hard" in json.dumps(out), out


def test_an_ignored_checkpoint_alone_is_enough_for_the_agent_hooks(tmp_path) -> None:
    files = {k: v for k, v in FILES.items() if k != "warmup.yaml"}
    repo = git_init(tmp_path / "repo")
    for rel, text in files.items():
        write(repo, rel, text)
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "project")
    assert asked(stop_after_long_turn(repo))
    context, stderr = after_compaction(repo)
    assert context is not None and 'milestone: "Add feature X"' in context, stderr
    # and it changes no verdict of what the repository shares
    assert validate(repo, "CLAUDE.md").returncode == 0
    init(repo)
    assert hook_ids(repo) == ["asimov-validate"]


# ------------------------------------------------------------------------- look-alikes
@pytest.mark.parametrize("ignored", [False, True])
def test_a_look_alike_counts_in_neither_scope(tmp_path, ignored) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov-hooks.yaml", FILES[".asimov-hooks.yaml"])
    write(repo, "CLAUDE.md", CLAUDE_20)
    write(repo, "warmup.yaml", KUBERNETES)  # untracked, or ignored
    if ignored:
        write(repo, ".gitignore", "warmup.yaml\n")
    assert validate(repo, "CLAUDE.md").returncode == 0
    assert stop_after_long_turn(repo) is None
    context, stderr = after_compaction(repo)
    assert context is None and "no checkpoint protocol in use" in stderr


# --------------------------------------------------------------- where the decision looks
def test_an_untracked_marker_speaks_for_its_own_directory(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "CLAUDE.md", CLAUDE_20)
    write(repo, "pkg/CLAUDE.md", CLAUDE_20)
    write(repo, "pkg/warmup.yaml", GOOD_WARMUP)
    done = validate(repo, "CLAUDE.md", "pkg/CLAUDE.md")
    assert "profile asimov for pkg/CLAUDE.md" in done.stdout, done.stdout
    assert "profile generic for CLAUDE.md" in done.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_ignored_tree_is_never_walked(tmp_path) -> None:
    """git is never asked to list the untracked files (which would make every directory
    of the tree worth looking at): a FIFO where git would read an ignore file inside
    an ignored node_modules/ stops nothing, and the untracked warmup.yaml counts."""
    repo = git_init(tmp_path / "repo")
    write(repo, "CLAUDE.md", CLAUDE_20)
    write(repo, "warmup.yaml", GOOD_WARMUP)
    write(repo, ".gitignore", "node_modules/\n")
    os.makedirs(os.path.join(repo, "node_modules", "left-pad"))
    os.mkfifo(os.path.join(repo, "node_modules", "left-pad", ".gitignore"))
    done = validate(repo, "CLAUDE.md")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "profile asimov for CLAUDE.md" in done.stdout
