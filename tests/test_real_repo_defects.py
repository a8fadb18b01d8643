"""Regression tests for smaller defects found trying the tool on real repositories."""

from __future__ import annotations

from conftest import oc_checkpoint, write

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
