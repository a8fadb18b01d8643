"""Codex's patch simulation: linear in the patch (counted, never timed), and a chain of
moves (Update elsewhere + Move to, then Update) resolved inside the repository only: a
source outside is never read and nothing from it reaches what the agent is told."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess

import pytest
from agent_support import fixture
from conftest import GOOD_CHECKPOINT, SCRIPTS, git_init, script_env, write

from asimov_hooks.agent.agents import apply_patch as ap
from asimov_hooks.agent.agents import patch_lines

pytestmark = pytest.mark.usefixtures("isolated_home")

SECRET = "SECRET-7f3a9c"
CP = ".claude_checkpoint.yaml"


def event(repo: str, patch: str) -> subprocess.CompletedProcess:
    payload = fixture("codex", "pre_tool_use_apply_patch", repo, tool_input={"command": patch})
    exe = shutil.which("asimov-hooks", path=SCRIPTS) or "asimov-hooks"
    return subprocess.run(
        [exe, "agent-event", "--agent", "codex"],
        cwd=repo,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=script_env(),
        timeout=120,
        check=False,
    )


def chain(source: str, steps: int = 2, old: str = "tool_calls: 45") -> str:
    """A patch moving `source` onto the checkpoint through `steps - 1` files in between,
    then updating the checkpoint."""
    names = [source] + [f"mid{i}.yaml" for i in range(1, steps)] + [CP]
    lines = ["*** Begin Patch"]
    for here, there in itertools.pairwise(names):
        lines += [f"*** Update File: {here}", f"*** Move to: {there}", "@@", f"-{old}", f"+{old}"]
    lines += [f"*** Update File: {CP}", "@@", "-tool_calls: 45", "+tool_calls: 46", "*** End Patch"]
    return "\n".join(lines) + "\n"


@pytest.fixture
def places(tmp_path) -> tuple[str, str]:
    repo = git_init(tmp_path / "repo")
    write(repo, CP, GOOD_CHECKPOINT)
    outside = tmp_path / "outside"
    outside.mkdir()
    leak = GOOD_CHECKPOINT.replace("status: in_progress", f"status: {SECRET}")
    assert SECRET in leak
    write(outside, "secret.yaml", leak)
    return repo, str(outside)


@pytest.mark.parametrize("how", ["relative", "absolute", "link"])
@pytest.mark.parametrize("steps", [1, 2, 3])
def test_a_move_chain_from_outside_is_never_read(places, how: str, steps: int) -> None:
    repo, outside = places
    source = {
        "relative": "../outside/secret.yaml",
        "absolute": os.path.join(outside, "secret.yaml"),
        "link": "linked.yaml",
    }[how]
    if how == "link":
        os.symlink(os.path.join(outside, "secret.yaml"), os.path.join(repo, "linked.yaml"))
    done = event(repo, chain(source, steps))
    said = done.stdout + done.stderr
    assert done.returncode in (0, 1), said
    assert "Traceback" not in said
    assert SECRET not in said
    assert outside not in said


def test_a_move_chain_inside_the_repository_is_still_judged(places) -> None:
    repo, _ = places
    write(repo, "draft.yaml", GOOD_CHECKPOINT.replace("status: in_progress", "status: nope"))
    done = event(repo, chain("draft.yaml", 2))
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "nope" in reason  # the draft's own error, read inside the repository


def test_the_chain_reads_no_file_outside(places, monkeypatch) -> None:
    """In-process: every read the simulation makes is of a file inside the repository."""
    repo, outside = places
    from asimov_hooks.agent.agents import codex
    from asimov_hooks.fs import access

    reads: list[str] = []
    real = access.read_bytes

    def recording(path, *args, **kwargs):
        reads.append(os.path.realpath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(access, "read_bytes", recording)
    monkeypatch.chdir(repo)
    for source in ("../outside/secret.yaml", os.path.join(outside, "secret.yaml")):
        change = codex.PatchChange(
            chain(source, 2), os.path.join(repo, CP), os.path.join(repo, "mid1.yaml"), repo, None
        )
        with pytest.raises(codex.CannotSimulate if hasattr(codex, "CannotSimulate") else Exception):
            change.apply(None, 1 << 20)
    assert not [p for p in reads if p.startswith(os.path.realpath(outside))]


# -------------------------------------------------------------- linear in the patch
def hunks_patch(count: int) -> tuple[str, str]:
    """(a file of `count` sections, a patch with one hunk per section whose lines match
    only when trailing whitespace is ignored: the looser comparison Codex falls back to)."""
    original = "".join(f"section {i}\nvalue {i}   \n" for i in range(count))
    body = "".join(f"@@ section {i}\n-value {i}\n+value {i}!\n" for i in range(count))
    return original, f"*** Begin Patch\n*** Update File: f.txt\n{body}*** End Patch\n"


def counted(monkeypatch, count: int) -> int:
    """Lines normalised while applying a patch of `count` hunks."""
    calls = [0]
    real = patch_lines._normalised

    def normalised(norm, lines):
        calls[0] += len(lines)
        return real(norm, lines)

    monkeypatch.setattr(patch_lines, "_normalised", normalised)
    original, patch = hunks_patch(count)
    out = ap.apply_patch(patch, lambda p: original)
    assert out["f.txt"].count("!") == count
    monkeypatch.undo()
    return calls[0]


def test_applying_a_patch_is_linear_in_its_hunks(monkeypatch) -> None:
    small, large = counted(monkeypatch, 500), counted(monkeypatch, 1_000)
    assert large <= 2 * small + 10  # each line normalised once per comparison, not per hunk


def test_hunks_apply_as_before() -> None:
    original, patch = hunks_patch(50)
    out = ap.apply_patch(patch, lambda p: original)["f.txt"]
    assert out.splitlines()[1] == "value 0!"
    assert out.count("section") == 50
