"""The repository boundary on the file system: what a link, a FIFO, a second repository
or a second process at the wrong moment can no longer make a command do.

- a link to another git repository is not a work tree: trim and validate neither write
  nor read there;
- a root `.asimov-hooks.yaml` that is a link out of the repository is refused in one
  line, none of its keys shown;
- `.git` is refused in any letter case (a case-insensitive file system's `.GIT/`);
- a FIFO at `.gitignore` / `.gitattributes` is refused before git would block on it;
- `agent install` and `uninstall` at once both end cleanly, no raw `[Errno 2] ....tmp`;
- a program that writes `settings.json` without our lock, while install and uninstall
  run, keeps every change it made;
- a refused checkpoint is said to be refused after a restart, never "no checkpoint
  yet", and no path outside the repository is printed.

Whole processes, real git, temporary directories only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from agent_support import answer, run_event
from conftest import SCRIPTS, git, git_init, run_script, script_env, write

from asimov_hooks.fs import access

CP = ".claude_checkpoint.yaml"
LONG = "milestone: m\nstatus: in_progress\ncompleted:\n" + "".join(
    f"  - task {i}\n" for i in range(9)
)


def tree(path: str) -> dict[str, bytes | str]:
    """Every file (bytes) and link (target) below `path`, `.git/` left out."""
    found: dict[str, bytes | str] = {}
    for directory, dirs, files in os.walk(path):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in dirs + files:
            full = os.path.join(directory, name)
            rel = os.path.relpath(full, path)
            if os.path.islink(full):
                found[rel] = os.readlink(full)
            elif os.path.isfile(full):
                with open(full, "rb") as fh:
                    found[rel] = fh.read()
    return found


def one_line(proc: subprocess.CompletedProcess) -> str:
    said = proc.stderr.strip()
    assert "Traceback" not in proc.stdout + proc.stderr
    assert len(said.splitlines()) == 1, said
    return said


# ------------------------------------------------------------------ another repository
@pytest.fixture
def linked_repo(tmp_path, isolated_home) -> tuple[str, str]:
    """A repository with `vendor -> ../other`, another repository with a long checkpoint."""
    repo = git_init(tmp_path / "repo")
    other = git_init(tmp_path / "other")
    write(other, CP, LONG)
    write(other, "notes.yaml", "secret: other-repository-content\n")
    os.symlink(os.path.join("..", "other"), os.path.join(repo, "vendor"))
    return repo, other


def test_link_to_another_repository_is_not_a_work_tree(linked_repo) -> None:
    repo, other = linked_repo
    before = tree(other)
    trim = run_script("asimov-hooks", "trim", f"vendor/{CP}", cwd=repo)
    validate = run_script("asimov-validate", f"vendor/{CP}", cwd=repo)
    assert tree(other) == before  # nothing trimmed, no archive written there
    assert trim.returncode == 2 and "outside the repository" in one_line(trim)
    assert validate.returncode == 1 and "valid" not in validate.stdout.split(":", 1)[1][:8]
    assert "io-error" in validate.stdout and "outside the repository" in validate.stdout
    assert access.work_tree_of(os.path.join(repo, "vendor", CP)) == os.path.realpath(repo)


def test_root_config_linked_out_of_the_repository_is_refused(tmp_path, isolated_home) -> None:
    repo = git_init(tmp_path / "repo")
    write(tmp_path / "outside", "conf.yaml", "leaky_key_name: 1\nkinds: {}\n")
    os.symlink(os.path.join("..", "outside", "conf.yaml"), os.path.join(repo, ".asimov-hooks.yaml"))
    write(repo, CP, "milestone: m\n")
    for argv in (["asimov-validate", "."], ["asimov-hooks", "trim", "."]):
        proc = run_script(*argv, cwd=repo)
        said = one_line(proc)
        assert proc.returncode == 2, proc
        assert "leads outside the repository" in said and ".asimov-hooks.yaml" in said
        assert "leaky_key_name" not in proc.stdout + proc.stderr
        assert str(tmp_path / "outside") not in proc.stdout + proc.stderr


@pytest.mark.parametrize("name", [".GIT", ".Git", ".gIT"])
def test_dot_git_in_any_case_is_refused(tmp_path, isolated_home, name: str) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, CP, LONG)
    write(
        repo, ".asimov-hooks.yaml", f"trim:\n  archive:\n    path: '{name}/hooks/post-checkout'\n"
    )
    proc = run_script("asimov-hooks", "trim", CP, cwd=repo)
    assert proc.returncode == 2 and "git directory" in one_line(proc)
    assert not os.path.exists(os.path.join(repo, name, "hooks", "post-checkout"))
    with pytest.raises(access.UnsafePath, match="git directory"):
        access.confine(os.path.join(repo, name, "config"), repo)


# ------------------------------------------------------------------ a FIFO git would open
@pytest.mark.parametrize("fifo", [".gitignore", ".gitattributes"])
@pytest.mark.parametrize("argv", [["asimov-validate", "."], ["asimov-hooks", "trim", "."]])
def test_fifo_git_would_open_is_refused_not_waited_on(tmp_path, isolated_home, fifo, argv) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, CP, LONG)
    os.mkfifo(os.path.join(repo, fifo))
    exe = os.path.join(SCRIPTS, argv[0])
    try:
        proc = subprocess.run(
            [exe, *argv[1:]],
            cwd=repo,
            capture_output=True,
            text=True,
            env=script_env(),
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(argv)} waited on the FIFO at {fifo}")
    said = one_line(proc)
    assert proc.returncode == 2 and fifo in said and "FIFO" in said
    with open(os.path.join(repo, CP), encoding="utf-8") as fh:
        assert fh.read() == LONG  # nothing trimmed


# ------------------------------------------------------------------ agents' settings files
def _spawn(repo: str, commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    exe = os.path.join(SCRIPTS, "asimov-hooks")
    procs = [
        subprocess.Popen(
            [exe, *c],
            cwd=repo,
            env=script_env(),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for c in commands
    ]
    done = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return done


def test_install_and_uninstall_at_once_end_cleanly(tmp_path, isolated_home) -> None:
    repo = git_init(tmp_path / "repo")
    runs: list[subprocess.CompletedProcess] = []
    pair = [["agent", "install", "--agent", "all"], ["agent", "uninstall", "--agent", "all"]]
    for _ in range(6):
        runs += _spawn(repo, pair * 3)
    for run in runs:
        said = run.stdout + run.stderr
        assert run.returncode == 0, said
        assert "Errno" not in said and ".tmp" not in said and "Traceback" not in said
    final = _spawn(repo, [pair[1]])[0]
    assert final.returncode == 0
    files = {rel: data for rel, data in tree(repo).items() if isinstance(data, bytes)}
    left = [rel for rel, data in files.items() if b"agent-event" in data]
    assert not left  # and every hook of ours is gone after a last uninstall


UNLOCKED_WRITER = """
import json, os, sys, time
path, rounds, stop = sys.argv[1], int(sys.argv[2]), sys.argv[3]
i = 0
while i < rounds and not os.path.exists(stop):
    while True:
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
            break
        except (OSError, ValueError):
            time.sleep(0.001)
    data[f"mine-{i}"] = i
    tmp = f"{path}.writer.{i}"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2)
    os.replace(tmp, path)
    time.sleep(0.01 + (i % 7) * 0.003)
    i += 1
print(i)
"""


def test_a_writer_that_does_not_lock_loses_nothing(tmp_path, isolated_home) -> None:
    """A program writing settings.json (read, change, rename; no lock) while install
    and uninstall run: every key it wrote is still there."""
    repo = git_init(tmp_path / "repo")
    path = write(repo, ".claude/settings.json", '{\n  "model": "opus"\n}\n')
    # the writer goes on until enough of our edits ran beside it (however slow a loaded
    # machine makes them), or for at most `rounds` changes of its own
    rounds, stop = 1000, str(tmp_path / "stop")
    writer = subprocess.Popen(
        [sys.executable, "-c", UNLOCKED_WRITER, path, str(rounds), stop],
        stdout=subprocess.PIPE,
        text=True,
    )
    edits = 0
    try:
        while writer.poll() is None:
            if edits >= 2:
                with open(stop, "w", encoding="utf-8"):
                    pass
            for run in _spawn(repo, [["agent", "install"], ["agent", "uninstall"]]):
                # a file rewritten faster than an edit takes may be given up on: said in
                # one line, nothing written (exit 2, as any file we must not change)
                gave_up = "changed by another program on every try; nothing changed"
                assert run.returncode == 0 or (run.returncode == 2 and gave_up in one_line(run)), (
                    run
                )
                edits += run.returncode == 0 and "nothing changed" not in run.stdout
    finally:
        written = int(writer.communicate(timeout=300)[0].strip() or 0)
    assert edits, "no install or uninstall changed the file while the writer ran"
    rounds = written
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    lost = [i for i in range(rounds) if data.get(f"mine-{i}") != i]
    # the writer re-reads before each change, so its last write holds all its keys
    # unless one of ours replaced it. The edit compares the file right before its
    # rename; what is left is the few microseconds between that comparison and the
    # rename itself, which a rename cannot close for a writer that takes no lock (it
    # lost about one in twenty of these keys when the file was compared only after the
    # edit was made, before the temporary file was written and synced)
    assert len(lost) <= 2, f"{len(lost)} of {rounds} lost: {lost[:10]}"


# ------------------------------------------------------------------ restart re-read
def test_refused_checkpoint_is_said_to_be_refused(tmp_path, isolated_home) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    git(repo, "add", "warmup.yaml")  # committed: the repository follows the protocol
    outside = tmp_path / "outside"
    write(outside, "cp.yaml", "milestone: TOKEN-do-not-leak\n")
    os.symlink(os.path.join(outside, "cp.yaml"), os.path.join(repo, CP))
    payload = {
        "session_id": "s1", "transcript_path": os.path.join(repo, "t.jsonl"), "cwd": repo,
        "permission_mode": "default", "hook_event_name": "SessionStart", "source": "compact",
    }  # fmt: skip
    proc = run_event(None, payload, repo)
    context = answer(proc)["hookSpecificOutput"]["additionalContext"]
    said = proc.stdout + proc.stderr
    assert "no checkpoint yet" not in context
    assert "refused" in context and CP in context
    assert "TOKEN-do-not-leak" not in said
    assert str(outside) not in said and os.path.realpath(outside) not in said
