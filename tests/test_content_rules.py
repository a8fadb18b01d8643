"""Content rules added after the first suite: file-name agreement, timestamp order,
protocol-specific names never skipped, and misspelt rule ids in a config."""

from __future__ import annotations

from conftest import GOOD_CHECKPOINT, oc_checkpoint, write


def test_skill_must_match_checkpoint_file_name(in_tmp, cli):
    write(
        in_tmp, ".checkpoints/oc-git-ops.checkpoint.json", oc_checkpoint(skill="oc-app-architect")
    )
    run = cli(".checkpoints/oc-git-ops.checkpoint.json")
    assert run.code == 0  # a warning
    assert (
        "warning skill-matches-name skill 'oc-app-architect' does not match the file name 'oc-git-ops'"
        in run.out
    )


def test_updated_before_created_is_an_error_at_updated_at(in_tmp, cli):
    doc = oc_checkpoint(created_at="2026-11-20T10:00:00Z", updated_at="2026-11-19T10:00:00Z")
    path = write(in_tmp, ".checkpoints/oc-app-architect.checkpoint.json", doc)
    run = cli(path)
    assert run.code == 1
    line = next(x for x in run.out.splitlines() if "timestamp-order" in x)
    assert (
        "error timestamp-order updated_at (2026-11-19T10:00:00Z) is earlier than created_at" in line
    )
    lineno = int(line.split(":")[1])
    with open(path) as fh:
        assert '"updated_at"' in fh.read().splitlines()[lineno - 1]


def test_timestamps_in_order_pass(in_tmp, cli):
    write(in_tmp, ".checkpoints/oc-app-architect.checkpoint.json", oc_checkpoint())
    run = cli(".checkpoints/oc-app-architect.checkpoint.json")
    assert "timestamp-order" not in run.out and run.code == 0


def test_a_checkpoint_name_is_never_skipped_as_a_look_alike(in_tmp, cli):
    write(in_tmp, ".claude_checkpoint.yaml", "apiVersion: v1\nkind: Pod\n")
    run = cli(".claude_checkpoint.yaml")
    assert run.code == 1
    assert "missing required property 'milestone'" in run.out
    assert "skipped" not in run.out.splitlines()[0]


def test_look_alike_warmup_is_still_skipped(in_tmp, cli):
    write(in_tmp, "warmup.yaml", "apiVersion: v1\nkind: Pod\n")
    run = cli("warmup.yaml")
    assert run.code == 0 and "skipped" in run.out


def test_misspelt_rule_id_in_config_is_a_usage_error(in_tmp, cli):
    write(
        in_tmp, ".asimov-hooks.yaml", "kinds:\n  claude-md:\n    rules:\n      max-line-soft: 3\n"
    )
    write(in_tmp, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    run = cli(".claude_checkpoint.yaml")
    assert run.code == 2
    assert "kinds.claude-md.rules: unknown rule id 'max-line-soft'" in run.err
    assert "Traceback" not in run.err


def test_misspelt_rule_id_in_ignore_and_overrides(in_tmp, cli):
    write(in_tmp, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    write(in_tmp, ".asimov-hooks.yaml", "ignore: [stale]\n")
    assert "ignore: unknown rule id 'stale'" in cli(".claude_checkpoint.yaml").err
    write(in_tmp, ".asimov-hooks.yaml", "overrides:\n  - files: [x]\n    ignore: [schemas]\n")
    assert "overrides[0].ignore: unknown rule id 'schemas'" in cli(".claude_checkpoint.yaml").err


def test_fix_that_cannot_be_applied_is_reported_and_fails(in_tmp, cli):
    write(in_tmp, ".asimov-hooks.yaml", 'trim:\n  archive:\n    path: "{name}/x.yaml"\n')
    items = "".join(f'  - "t{i}"\n' for i in range(9))
    path = write(in_tmp, ".claude_checkpoint.yaml", f'milestone: "m"\ncompleted:\n{items}')
    before = open(path, "rb").read()  # noqa: SIM115
    run = cli("--fix", ".claude_checkpoint.yaml")
    assert run.code == 1
    assert "Not fixed .claude_checkpoint.yaml: not trimmed: cannot write archive" in run.out
    with open(path, "rb") as fh:
        assert fh.read() == before  # nothing trimmed when nothing could be archived
