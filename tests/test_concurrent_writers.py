"""Writers running side by side lose nothing they report as done.

`oc update`, `oc done`, `oc rotate` and trim's archive append each read, change and
write a file under an advisory lock (`fs.access.locked`). Each test starts 10-20 real
processes on one file at once and checks that every change a process reported as
written is in the file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from conftest import SCRIPTS, git_init, oc_checkpoint, script_env, write

SKILL = "oc-app-architect"
OC = f".checkpoints/{SKILL}.checkpoint.json"
CP = ".claude_checkpoint.yaml"


def spawn(cwd, commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """Start every command at once (as separate processes), then wait for all."""
    exe = shutil.which("asimov-hooks", path=SCRIPTS) or "asimov-hooks"
    env = script_env()
    procs = [
        subprocess.Popen(
            [exe, *args],
            cwd=os.fspath(cwd),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for args in commands
    ]
    done = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return done


def clean(run: subprocess.CompletedProcess) -> bool:
    text = run.stdout + run.stderr
    return "Traceback" not in text and "internal error" not in text


def load(path) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def test_concurrent_oc_updates_of_distinct_fields_all_land(tmp_path) -> None:
    repo = Path(git_init(tmp_path / "repo"))
    write(repo, OC, oc_checkpoint(skill_state={}))
    count = 16
    runs = spawn(
        repo,
        [
            ["oc", "update", SKILL, "--new-key", f"--skill_state.w{i}=value {i}"]
            for i in range(count)
        ],
    )
    assert all(clean(r) for r in runs), runs
    reported = [i for i, r in enumerate(runs) if r.returncode == 0 and "updated" in r.stdout]
    assert len(reported) == count, [(r.returncode, r.stdout, r.stderr) for r in runs]
    state = load(repo / OC)["skill_state"]
    for i in reported:
        assert state.get(f"w{i}") == f"value {i}", (i, state)
    assert not [n for n in os.listdir(repo / ".checkpoints") if n.endswith(".tmp")]


def test_concurrent_oc_appends_to_one_list_all_land(tmp_path) -> None:
    repo = Path(git_init(tmp_path / "repo"))
    write(repo, OC, oc_checkpoint())
    count = 12
    runs = spawn(
        repo,
        [["oc", "update", SKILL, f"--context_primer.key_decisions+=D{i}"] for i in range(count)],
    )
    assert all(r.returncode == 0 and clean(r) for r in runs), runs
    decisions = load(repo / OC)["context_primer"]["key_decisions"]
    assert sorted(decisions) == sorted(["Stack: Hono", *(f"D{i}" for i in range(count))])


def test_concurrent_oc_done_moves_each_action_once(tmp_path) -> None:
    repo = Path(git_init(tmp_path / "repo"))
    count = 12
    actions = [f"action {i}" for i in range(count)]
    write(repo, OC, oc_checkpoint(next_actions=[*actions, "the last one"]))
    runs = spawn(repo, [["oc", "done", SKILL] for _ in range(count)])
    assert all(r.returncode == 0 and clean(r) for r in runs), runs
    reported = sorted(r.stdout.split("done: ", 1)[1].split("\n", 1)[0] for r in runs)
    assert reported == sorted(actions)  # each process moved a different action
    doc = load(repo / OC)
    assert doc["next_actions"] == ["the last one"]
    done = [d["action"] for d in doc["recently_done"] if isinstance(d, dict)]
    assert sorted(done) == sorted(actions), doc["recently_done"]


def test_concurrent_rotations_and_appends_lose_no_item(tmp_path) -> None:
    """Updates append telemetry while rotations move it to history/: every item ends in
    exactly one of the two files."""
    repo = Path(git_init(tmp_path / "repo"))
    write(repo, OC, oc_checkpoint(skill_state={"merged_prs": [0]}))
    count = 8
    commands = []
    for i in range(1, count + 1):
        commands.append(["oc", "update", SKILL, f"--skill_state.merged_prs:json+={i}"])
        commands.append(["oc", "rotate", SKILL])
    runs = spawn(repo, commands)
    assert all(r.returncode in (0, 1) and clean(r) for r in runs), runs
    updates = [r for r, c in zip(runs, commands, strict=True) if c[1] == "update"]
    assert all(r.returncode == 0 for r in updates), updates
    left = load(repo / OC)["skill_state"]["merged_prs"]
    moved = []
    history = repo / ".checkpoints" / "history"
    for name in os.listdir(history) if history.is_dir() else []:
        for rotation in load(history / name)["rotations"]:
            moved += rotation["fields"].get("skill_state.merged_prs", [])
    assert sorted(left + moved) == list(range(count + 1)), (left, moved)


def test_concurrent_trims_append_every_entry_to_one_archive(tmp_path) -> None:
    repo = Path(git_init(tmp_path / "repo"))
    write(repo, ".asimov-hooks.yaml", "trim:\n  archive:\n    path: ../../archive.yaml\n")
    long = "milestone: m\nstatus: in_progress\ncompleted:\n"
    paths = [f"d{i:02}/sub/{CP}" for i in range(16)]
    for i, path in enumerate(paths):
        write(repo, path, long + "".join(f"  - d{i} task {n}\n" for n in range(8)))
    runs = spawn(repo, [["trim", path] for path in paths])
    assert all(r.returncode == 1 and "archived" in r.stdout and clean(r) for r in runs), runs
    from ruamel.yaml import YAML

    with open(repo / "archive.yaml", encoding="utf-8") as fh:
        entries = YAML(typ="safe").load(fh)
    assert sorted(e["source"] for e in entries) == sorted(paths)
    removed = [item for e in entries for item in e["removed"]["completed"]]
    assert len(removed) == len(set(removed)) == 16 * 3
