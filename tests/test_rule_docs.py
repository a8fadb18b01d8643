"""Rule documentation: `asimov-hooks rules [ID]`, docs/rules.md and the examples in it."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, git, git_init, run_script, write

from asimov_hooks.config.registry import ids as registry_ids


def _json(path: str):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


DOCS = _json(os.path.join(ROOT, "rules", "rule-docs.json"))["rules"]
RULE_IDS = sorted(registry_ids())
FIELDS = ("summary", "source", "why", "options", "example")


def test_every_rule_has_docs_and_no_docs_without_a_rule() -> None:
    assert RULE_IDS and sorted(DOCS) == RULE_IDS
    for rid in RULE_IDS:
        doc = DOCS[rid]
        missing = [f for f in FIELDS if f not in doc]
        assert not missing, (rid, missing)
        assert "\n" not in doc["summary"] and doc["summary"].strip(), rid
        assert doc["why"].strip() and doc["example"].get("fix"), rid
        assert doc["example"].get("files") or doc["example"].get("bad"), rid


def test_every_option_in_the_packs_is_documented() -> None:
    """Every option the packs set for a rule is documented."""
    packs = _json(os.path.join(ROOT, "rules", "kinds.json"))
    seen: dict[str, set[str]] = {rid: set() for rid in RULE_IDS}
    for rid, opts in packs["rules"].items():
        seen[rid] |= set(opts)
    for spec in packs["kinds"].values():
        for rid, opts in spec["rules"].items():
            seen[rid] |= set(opts)
    for rid in RULE_IDS:
        undocumented = seen[rid] - set(DOCS[rid]["options"]) - {"level", "suggestion"}
        assert not undocumented, (rid, undocumented)


def test_rules_lists_every_rule(tmp_path) -> None:
    run = run_script("asimov-hooks", "rules", cwd=tmp_path)
    assert run.returncode == 0 and run.stderr == "", run
    lines = run.stdout.splitlines()
    for rid in RULE_IDS:
        first = next(i for i, line in enumerate(lines) if line.split()[:1] == [rid])
        assert lines[first].split()[1] in ("error", "warning", "info"), lines[first]
        assert lines[first + 1].split()[:2] == ["applies", "to:"]
        assert lines[first + 2].strip() == DOCS[rid]["summary"]
    listed = [line.split()[0] for line in lines if line[:1] not in (" ", "`", "")]
    assert listed == RULE_IDS
    levels = {line.split()[0]: line for line in lines if line[:1] not in (" ", "`", "")}
    assert levels["max-tokens"].split(None, 1)[1] == "warning (error: claude-md)"
    assert levels["schema"].split()[1] == "error"


@pytest.mark.parametrize("rid", RULE_IDS)
def test_rules_explains_each_rule(tmp_path, rid) -> None:
    run = run_script("asimov-hooks", "rules", rid, cwd=tmp_path)
    assert run.returncode == 0 and run.stderr == "", run
    out = run.stdout
    assert out.startswith(f"{rid}: {DOCS[rid]['summary']}\n")
    for heading in ("Default level:", "Applies to:", "Source:", "Why:", "Options", "Fix:"):
        assert heading in out, heading
    assert "Example that fails:" in out
    assert DOCS[rid]["source"] in out
    for option in ("level", *DOCS[rid]["options"]):
        assert f"  {option}: " in out, option


def test_rules_explains_defaults_from_the_packs(tmp_path) -> None:
    out = run_script("asimov-hooks", "rules", "max-lines-hard", cwd=tmp_path).stdout
    assert "default 30 (asimov-checkpoint)" in out
    assert "default 15 (claude-md)" in out
    assert "default 500 (asimov-warmup)" in out
    assert "Source:        ADR-007" in out
    out = run_script("asimov-hooks", "rules", "stale-checkpoint", cwd=tmp_path).stdout
    assert "days: " in out and "default 7 (oc-checkpoint)" in out


def test_unknown_rule_is_a_usage_error(tmp_path) -> None:
    run = run_script("asimov-hooks", "rules", "max-line", cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        "asimov-hooks: error: unknown rule id 'max-line' (did you mean 'max-lines-soft'?)"
        " (`asimov-hooks rules` lists them)\n"
    )


def test_docs_page_is_in_sync(tmp_path) -> None:
    """docs/rules.md is generated: `python -m asimov_hooks.output.ruledocs > docs/rules.md`."""
    generated = subprocess.run(
        [sys.executable, "-m", "asimov_hooks.output.ruledocs"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    with open(os.path.join(ROOT, "docs", "rules.md"), encoding="utf-8") as fh:
        assert fh.read() == generated, (
            "regenerate: python -m asimov_hooks.output.ruledocs > docs/rules.md"
        )
    run = run_script("asimov-hooks", "rules", "--format", "markdown", cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == generated
    for rid in RULE_IDS:
        assert f"\n## `{rid}`\n" in generated and f"](#{rid})" in generated


def test_suggestions_point_at_commands_not_at_this_repository() -> None:
    """A user's repository has no rules/schemas/...: suggestions name commands instead."""
    for pack in glob.glob(os.path.join(ROOT, "rules", "*.json")):
        data = _json(pack)

        def walk(node, where):
            if isinstance(node, dict):
                for key, value in node.items():
                    if key == "suggestion":
                        assert "rules/" not in value and ".schema.json" not in value, (where, value)
                    walk(value, f"{where}.{key}")
            elif isinstance(node, list):
                for item in node:
                    walk(item, where)

        walk(data, os.path.basename(pack))
    packs = _json(os.path.join(ROOT, "rules", "kinds.json"))
    for kind, spec in packs["kinds"].items():
        if spec.get("schema") and "schema" in spec["rules"]:
            assert "`asimov-hooks rules schema`" in spec["rules"]["schema"]["suggestion"], kind


RUNNABLE = [rid for rid in RULE_IDS if DOCS[rid]["example"].get("files")]


def _rules_fired(repo: str, target: str) -> set[str]:
    run = run_script("asimov-validate", "--format", "json", target, cwd=repo)
    assert run.returncode in (0, 1), run
    doc = json.loads(run.stdout)
    return {f["rule"] for entry in doc["files"] for f in entry["findings"]}


@pytest.mark.parametrize("rid", RUNNABLE)
def test_documented_example_fails_and_its_fix_passes(tmp_path, rid) -> None:
    """Each example in the docs really fails with its rule, and the fixed files do not."""
    example = DOCS[rid]["example"]
    repo = git_init(tmp_path / "repo")
    for subject in example.get("commits", []):
        git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", subject)
    for rel, text in example["files"].items():
        write(repo, rel, text)
    target = example.get("check") or next(iter(example["files"]))
    assert rid in _rules_fired(repo, target), rid
    if "fixed" in example:
        for rel, text in example["fixed"].items():
            write(repo, rel, text)
        assert rid not in _rules_fired(repo, target), rid


def test_examples_cover_the_git_rules() -> None:
    """The rules that need git state have runnable examples too (commits, .gitignore)."""
    for rid in ("must-be-ignored", "checkpoints-tracked", "next-action-merged"):
        assert rid in RUNNABLE, rid
