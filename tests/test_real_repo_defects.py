"""Regression tests for smaller defects found trying the tool on real repositories."""

from __future__ import annotations

import json

from conftest import git, git_init, oc_checkpoint, run_script, write

OC = ".checkpoints/oc-app-architect.checkpoint.json"


def _only(run, rule: str) -> list[str]:
    return [line for line in run.out.splitlines() if f" {rule} " in line]


def test_generated_files_with_a_note_after_the_path(tmp_path, cli) -> None:
    write(tmp_path, "spec.md", "spec\n")
    write(tmp_path, "src/auth.ts", "export {}\n")
    write(tmp_path, "notes - draft.md", "a file whose name has a dash\n")
    entries = [
        "spec.md (Round 5 — new)",
        "src/auth.ts — rewritten for the new API",
        "src/auth.ts -- moved (see spec.md)",
        "notes - draft.md",
        "docs/gone.md (Round 6)",
    ]
    path = write(tmp_path, OC, oc_checkpoint(context_primer={"generated_files": entries}))
    run = cli(path)
    assert run.code == 0, run.out
    hits = _only(run, "generated-files-exist")
    assert len(hits) == 1, hits
    assert "generated file 'docs/gone.md' does not exist" in hits[0]
    write(tmp_path, "docs/gone.md", "back\n")
    assert not _only(cli(path), "generated-files-exist")


BLOATED = "milestone: m\nstatus: in_progress\ncompleted:\n" + "".join(
    f"  - Task {n}\n" for n in range(1, 9)
)


def test_a_search_of_asimov_or_code_intel_finds_their_ignored_files(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".gitignore", ".asimov/checkpoint.yaml\n.code-intel/\n")
    write(repo, ".asimov/warmup.yaml", "identity:\n  project: p\n")
    write(repo, ".asimov/checkpoint.yaml", BLOATED)
    write(repo, ".code-intel/sessions/s1.json", '{"session_id": "s1"}\n')
    git(repo, "add", "-A")
    done = run_script("asimov-validate", "--format", "json", ".asimov", ".code-intel", cwd=repo)
    paths = sorted(item["path"] for item in json.loads(done.stdout)["files"])
    assert paths == [
        ".asimov/checkpoint.yaml",
        ".asimov/warmup.yaml",
        ".code-intel/sessions/s1.json",
    ], done.stdout
    inside = run_script("asimov-validate", "--format", "json", ".", cwd=f"{repo}/.asimov")
    assert sorted(i["path"] for i in json.loads(inside.stdout)["files"]) == [
        "checkpoint.yaml",
        "warmup.yaml",
    ]
    trimmed = run_script("asimov-hooks", "trim", "--no-archive", ".asimov", cwd=repo)
    assert trimmed.returncode == 1 and "Fixing .asimov/checkpoint.yaml" in trimmed.stdout


def test_did_you_mean_once_for_a_command_and_for_rules_kinds_and_suppressions(tmp_path) -> None:
    typo = run_script("asimov-hooks", "valdate", cwd=tmp_path)
    assert typo.returncode == 2 and typo.stderr.count("id you mean 'validate'?") == 1
    rule = run_script("asimov-hooks", "rules", "shema", cwd=tmp_path)
    assert (
        rule.returncode == 2 and "unknown rule id 'shema' (did you mean 'schema'?)" in rule.stderr
    )
    kind = run_script("asimov-hooks", "schema", "asimov-warmp", cwd=tmp_path)
    assert kind.returncode == 2 and "(did you mean 'asimov-warmup'?)" in kind.stderr
    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", "milestone: m  # asimov-hooks: disable-line shema\n")
    done = run_script("asimov-validate", ".claude_checkpoint.yaml", cwd=repo)
    assert "names unknown rule id 'shema' (did you mean 'schema'?)" in done.stdout


def test_config_errors_come_one_line_per_problem_each_naming_the_file(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    config = write(
        repo,
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-warmp:\n    files: [x.yaml]\nrules:\n  shema: off\n"
        "  max-line-soft: warning\nbogus: 1\n",
    )
    write(repo, "warmup.yaml", "identity:\n  project: p\n")
    for command in (["asimov-validate", "."], ["asimov-hooks", "trim", "."]):
        done = run_script(*command, cwd=repo)
        assert done.returncode == 2, done
        lines = done.stderr.splitlines()
        assert len(lines) == 4, lines
        assert all(f": error: {config}: " in line for line in lines), lines
        assert any(
            "kinds.asimov-warmp: a new kind needs 'files' and 'format' (did you mean "
            "'asimov-warmup'?)" in line
            for line in lines
        )
        assert any("unknown rule id 'shema' (did you mean 'schema'?)" in line for line in lines)
    opts = run_script("asimov-validate", "--select", "shema,max-line-soft", ".", cwd=tmp_path)
    assert len(opts.stderr.splitlines()) == 2 and "did you mean 'schema'?" in opts.stderr


def test_quiet_prints_no_info_lines(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, "warmup.yaml", "apiVersion: v1\nkind: ConfigMap\n")  # skipped, with an info
    write(repo, ".claude_checkpoint.yaml", "status: in_progress\n")  # an error
    loud = run_script("asimov-validate", ".", cwd=repo)
    assert "info not-protocol-file" in loud.stdout
    quiet = run_script("asimov-validate", "-q", ".", cwd=repo)
    assert quiet.returncode == 1
    assert "info" not in quiet.stdout.replace("in_progress", "")
    assert "error schema missing required property 'milestone'" in quiet.stdout
