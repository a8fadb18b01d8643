"""Issue 13, "the seeds followed exactly": ADR-007 (seed 002) for the Asimov files, the OC
Checkpoint Protocol (seed 004) for `.checkpoints/`. Every case runs the console scripts."""

from __future__ import annotations

import json
import os

from conftest import commit_all, git, git_init, oc_checkpoint, run_script, write

OC = ".checkpoints/oc-app-architect.checkpoint.json"


def validate(cwd, *args: str):
    return run_script("asimov-validate", *args, cwd=cwd)


def finding(run, rule: str) -> str:
    lines = [
        line
        for line in run.stdout.splitlines()
        if f" {rule} " in line and not line.startswith("    suggestion:")
    ]
    assert len(lines) == 1, run.stdout + run.stderr
    return lines[0]


# --------------------------------------------------------------- Asimov checkpoint keys
def test_unknown_checkpoint_key_is_a_warning_naming_the_closest_key(tmp_path) -> None:
    write(tmp_path, ".claude_checkpoint.yaml", 'milestone: "m"\nnext_step:\n  - "a"\nowner: me\n')
    run = validate(tmp_path, ".claude_checkpoint.yaml")
    assert run.returncode == 0, run.stdout
    lines = [line for line in run.stdout.splitlines() if "unknown-key" in line]
    assert lines == [
        ".claude_checkpoint.yaml:2:1: warning unknown-key unknown key 'next_step' "
        "(not one of the checkpoint's known keys); did you mean 'next_steps'?",
        ".claude_checkpoint.yaml:4:1: warning unknown-key unknown key 'owner' "
        "(not one of the checkpoint's known keys)",
    ]
    assert "schema" not in run.stdout
    assert validate(tmp_path, "--strict", ".claude_checkpoint.yaml").returncode == 1


# --------------------------------------------------------------- OC byte size
def test_oc_checkpoint_has_no_hard_byte_cap(tmp_path) -> None:
    doc = oc_checkpoint(skill_state={"log": ["x" * 1000] * 400})  # ~400 KB, valid
    path = write(tmp_path, OC, doc)
    assert os.path.getsize(path) > 262_144
    run = validate(tmp_path, OC)
    assert run.returncode == 0, run.stdout
    assert "warning max-bytes-soft" in run.stdout and "over the 32,768-byte guideline" in run.stdout
    assert "max-bytes-hard" not in run.stdout


def test_oc_resource_bound_is_worded_as_one(tmp_path) -> None:
    path = write(tmp_path, OC, b"{" + b" " * (8 * 1024 * 1024) + b"}")
    run = validate(tmp_path, OC)
    assert run.returncode == 1
    line = finding(run, "max-bytes-hard")
    assert "over the 8,388,608-byte resource bound" in line
    assert "the OC protocol itself sets no byte cap" in line and "not parsed" in line
    os.remove(path)


def test_oc_history_archives_take_any_json_shape(tmp_path) -> None:
    for name, value in (("list", [1, 2]), ("text", "x"), ("num", 3), ("obj", {"a": [1]})):
        write(tmp_path, f".checkpoints/history/oc-git-ops.{name}.json", json.dumps(value))
    write(tmp_path, ".checkpoints/history/bad.json", "[1,")
    run = validate(tmp_path, "-v", ".checkpoints/history")
    assert run.returncode == 1
    assert run.stdout.count(": valid") == 4, run.stdout
    assert "history/bad.json:1:4: error syntax invalid JSON" in run.stdout


# --------------------------------------------------------------- OC timestamps, next_actions
def test_oc_timestamps_with_an_offset_are_valid_and_compared_as_instants(tmp_path) -> None:
    doc = oc_checkpoint(
        created_at="2026-11-20T12:00:00+02:00",  # 10:00 UTC
        updated_at="2026-11-20T10:30:00.250Z",
        status="complete",
    )
    write(tmp_path, OC, doc)
    run = validate(tmp_path, OC)
    assert run.returncode == 0 and f"{OC}: valid" in run.stdout, run.stdout
    doc["updated_at"] = "2026-11-20T09:30:00Z"  # before 10:00 UTC
    write(tmp_path, OC, doc)
    run = validate(tmp_path, OC)
    assert run.returncode == 1 and "timestamp-order" in run.stdout
    doc["updated_at"] = "2026-11-20 10:30"  # not an ISO 8601 instant
    write(tmp_path, OC, doc)
    assert "does not match" in finding(validate(tmp_path, OC), "schema")


def test_oc_empty_next_actions_allowed_while_in_progress(tmp_path) -> None:
    write(tmp_path, OC, oc_checkpoint(next_actions=[]))
    run = validate(tmp_path, "--strict", OC)
    assert run.returncode == 0, run.stdout
    write(tmp_path, OC, oc_checkpoint(next_actions=None))
    run = validate(tmp_path, OC)
    assert run.returncode == 1 and "missing required property 'next_actions'" in run.stdout


# --------------------------------------------------------------- ADR-007 hard limit
def test_hard_limit_fails_and_one_config_line_makes_it_a_warning(tmp_path) -> None:
    body = 'milestone: "m"\n' + "".join(f"# note {i}\n" for i in range(35))
    write(tmp_path, ".claude_checkpoint.yaml", body)
    run = validate(tmp_path, ".claude_checkpoint.yaml")
    assert run.returncode == 1
    assert "error max-lines-hard 36 lines, over the hard limit of 30" in run.stdout
    write(tmp_path, ".asimov-hooks.yaml", "rules: {max-lines-hard: warning}\n")
    run = validate(tmp_path, ".claude_checkpoint.yaml")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "warning max-lines-hard 36 lines" in run.stdout
    # the fixer hook agrees: nothing to trim, over the hard limit only warns
    trim = run_script("asimov-hooks", "trim", ".claude_checkpoint.yaml", cwd=tmp_path)
    assert trim.returncode == 0, trim.stdout + trim.stderr
    assert "warning: still 36 lines after trimming, over the hard limit of 30" in trim.stderr
    os.remove(tmp_path / ".asimov-hooks.yaml")
    trim = run_script("asimov-hooks", "trim", ".claude_checkpoint.yaml", cwd=tmp_path)
    assert trim.returncode == 1 and "error: still 36 lines" in trim.stderr


def test_docs_describe_the_difference_and_the_config_line() -> None:
    from conftest import ROOT

    with open(os.path.join(ROOT, "docs", "adr-007.md"), encoding="utf-8") as fh:
        doc = fh.read()
    assert "rules: {max-lines-hard: warning}" in doc
    assert ".forge/" in doc and ".asimov/" in doc


# --------------------------------------------------------------- modular layouts
def test_forge_and_asimov_layouts_are_recognised_and_named(tmp_path) -> None:
    write(tmp_path, ".forge/autonomy.yaml", "session_rules:\n  - a\n")
    write(tmp_path, ".forge/quality.yaml", "gates: [a\n")
    write(tmp_path, ".asimov/warmup.yaml", "identity:\n  name: x\n")
    write(tmp_path, ".forge/warmup.yaml", "identity:\n  project: x\n")
    run = validate(tmp_path, "-v", ".")
    assert ".forge/autonomy.yaml: valid" in run.stdout, run.stdout
    assert ".forge/warmup.yaml: valid" in run.stdout and ".asimov/warmup.yaml: valid" in run.stdout
    assert ".forge/quality.yaml: error" in run.stdout and "error syntax" in run.stdout
    write(tmp_path, "warmup.yaml", "identity:\n  project: x\n" + "# line\n" * 210)
    run = validate(tmp_path, "-v", "warmup.yaml")
    assert "max-lines-soft" in run.stdout
    assert ".asimov/" in run.stdout and ".forge/" in run.stdout  # the suggestion names both


# --------------------------------------------------------------- OC drift
def test_project_dir_that_does_not_exist_on_this_machine(tmp_path) -> None:
    write(tmp_path, OC, oc_checkpoint(project_dir=str(tmp_path / "nowhere")))
    run = validate(tmp_path, "--strict", OC)
    assert run.returncode == 0  # each clone may live elsewhere: info, never a failure
    assert "info project-dir-exists project_dir" in run.stdout
    assert "does not exist on this machine" in run.stdout
    write(tmp_path, OC, oc_checkpoint(project_dir=str(tmp_path)))
    assert "project-dir-exists" not in validate(tmp_path, OC).stdout


def test_next_actions_pointing_at_merged_tickets(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "README.md", "x\n")
    commit_all(repo, "start")
    git(repo, "checkout", "-q", "-b", "PLAT-4471-auth")
    write(repo, "auth.py", "x\n")
    commit_all(repo, "Add passkeys")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "--no-edit", "PLAT-4471-auth")
    write(repo, "b.py", "x\n")
    commit_all(repo, "PLAT-9: first half of the work")  # mentioned, not merged
    write(repo, "c.py", "x\n")
    commit_all(repo, "Rate limits\n\nFixes #14")
    write(repo, "d.py", "x\n")
    commit_all(repo, "OPS-7 login page (#31)")  # a squash merge
    actions = [
        "Ship PLAT-4471 passkeys",
        "Finish PLAT-9",
        "Close out #14",
        {"text": "Review OPS-7", "done_when": "true"},
        "Start PLAT-10",
    ]
    write(repo, OC, oc_checkpoint(next_actions=actions, project_dir=repo))
    run = validate(repo, OC)
    assert run.returncode == 0
    flagged = [line for line in run.stdout.splitlines() if "next-action-merged" in line]
    assert len(flagged) == 3, run.stdout
    assert "points at PLAT-4471, which git log shows as merged already" in flagged[0]
    assert "points at #14, which git log shows as closed already" in flagged[1]
    assert "points at OPS-7, which git log shows as merged already" in flagged[2]
