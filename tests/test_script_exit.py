"""The console scripts end the process as soon as the command has returned, without
the interpreter's tear-down of what it imported: whatever they print still arrives
whole through a pipe, the exit code is the command's, and the files they write are in
place. Each case runs the installed script as its own process and compares it with the
same command run in this process, which returns normally."""

from __future__ import annotations

import re
import subprocess

from conftest import call_script, run_installed, script_env

CHECKPOINT = (
    'timestamp: "2026-11-20T10:30:00Z"\nmilestone: "Exit"\nstatus: in_progress\n'
    'completed:\n  - "one"\nnext_steps:\n  - "two"\n'
)


def _env() -> dict[str, str]:
    """Output buffered as a pipe has it, whatever the test run's own setting."""
    env = script_env()
    env.pop("PYTHONUNBUFFERED", None)
    return env


def _repo(tmp_path, files: int, steps: int) -> list[str]:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    names = []
    for i in range(files):
        folder = repo / f"f{i:03d}"
        folder.mkdir()
        body = "".join(f'  - "done {n} {"x" * 40}"\n' for n in range(steps))
        (folder / ".claude_checkpoint.yaml").write_text(CHECKPOINT + body)
        names.append(f"f{i:03d}/.claude_checkpoint.yaml")
    return names


def test_validate_output_through_a_pipe_arrives_whole(tmp_path) -> None:
    names = _repo(tmp_path, files=150, steps=120)  # every file over its line limits
    repo = tmp_path / "repo"
    env = _env()
    done = run_installed("asimov-validate", "--jobs", "1", *names, cwd=repo, env=env)
    same = call_script("asimov-validate", "--jobs", "1", *names, cwd=repo, env=env)
    assert done.returncode == same.returncode == 1
    assert len(done.stdout) > 65536  # more than a pipe holds: written while read
    assert done.stdout == same.stdout
    assert done.stderr == same.stderr
    one = run_installed("asimov-validate", names[0], cwd=repo, env=env)  # a short answer
    assert one.stdout == call_script("asimov-validate", names[0], cwd=repo, env=env).stdout
    assert one.returncode == 1 and names[0] in one.stdout


def test_check_size_exit_codes_are_the_commands(tmp_path) -> None:
    names = _repo(tmp_path, files=2, steps=1)
    repo = tmp_path / "repo"
    env = _env()
    quiet = run_installed("asimov-check-size", *names, cwd=repo, env=env)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    (repo / names[0]).write_text(CHECKPOINT + '  - "more"\n' * 400)
    over = run_installed("asimov-check-size", *names, cwd=repo, env=env)
    same = call_script("asimov-check-size", *names, cwd=repo, env=env)
    assert over.returncode == same.returncode == 1
    assert over.stdout == same.stdout and names[0] in over.stdout


def test_trim_leaves_its_files_in_place(tmp_path) -> None:
    names = _repo(tmp_path, files=2, steps=120)
    repo = tmp_path / "repo"
    env = _env()
    done = run_installed("asimov-hooks", "trim", names[0], cwd=repo, env=env)
    same = call_script("asimov-hooks", "trim", names[1], cwd=repo, env=env)
    assert done.returncode == same.returncode
    assert done.stdout.replace("f000/", "F/") == same.stdout.replace("f001/", "F/") != ""
    trimmed = [(repo / name).read_text() for name in names]
    assert trimmed[0] == trimmed[1] != CHECKPOINT
    archives = sorted(p.relative_to(repo).parts[0] for p in repo.glob("*/*archive*"))
    assert archives == ["f000", "f001"]
    archived = [
        re.sub(r"\d{4}-\d\d-\d\dT[\d:]+Z|f00[01]/", "", p.read_text())  # when and which
        for p in sorted(repo.glob("*/*archive*"))
    ]
    assert archived[0] == archived[1] != ""
