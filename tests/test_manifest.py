""".pre-commit-hooks.yaml is valid and its `files` patterns agree with rules/kinds.json."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from conftest import ROOT, SCRIPTS, script_env

from asimov_hooks.config.config import Config, default_data
from asimov_hooks.validation.engine import SIZE_RULES

MANIFEST = os.path.join(ROOT, ".pre-commit-hooks.yaml")
GIT_HOOK = os.path.join(ROOT, "hooks", "pre-commit")


def hooks() -> dict[str, dict]:
    from ruamel.yaml import YAML

    with open(MANIFEST, encoding="utf-8") as fh:
        return {hook["id"]: dict(hook) for hook in YAML(typ="safe").load(fh)}


@pytest.fixture(scope="module")
def config() -> Config:
    return Config(default_data(), None, ROOT)


# Paths a repository may hold: every protocol name, at the root and nested, and near misses.
SAMPLES = [
    ".claude_checkpoint.yaml",
    "sub/.claude_checkpoint.yaml",
    "a/b/c/.claude_checkpoint.yaml",
    ".claude_checkpoint.yml",
    ".claude_checkpoint.archive.yaml",
    "sub/.claude_checkpoint.archive.yaml",
    ".asimov/checkpoint.archive.yaml",
    ".claude_checkpoint.archive.yml",
    # the volumes a trim starts when the archive is full
    ".claude_checkpoint.archive.2.yaml",
    "sub/.claude_checkpoint.archive.12.yaml",
    ".asimov/checkpoint.archive.3.yaml",
    ".claude_checkpoint.archive.2.yml",
    ".claude_checkpoint.archive.2.yaml.bak",
    ".claude_checkpoint.archive/2.yaml",
    "claude_checkpoint.yaml",
    ".claude_checkpoint.yaml.bak",
    "x.claude_checkpoint.yaml",
    "CLAUDE.md",
    "docs/CLAUDE.md",
    "claude.md",
    "CLAUDE.md.orig",
    "MY-CLAUDE.md",
    "warmup.yaml",
    "deploy/warmup.yaml",
    "warmup.yml",
    "my-warmup.yaml",
    "warmup.yaml~",
    "sprint.yaml",
    "x/sprint.yaml",
    "roadmap.yaml",
    "ethics.yaml",
    "asimov.yaml",
    "pkg/asimov.yaml",
    ".asimov/checkpoint.yaml",
    ".asimov/warmup.yaml",
    ".asimov/sprint.yaml",
    ".asimov/roadmap.yaml",
    ".asimov/ethics.yaml",
    ".asimov/asimov.yaml",
    ".asimov/project.yaml",
    "sub/.asimov/project.yaml",
    "project.yaml",
    ".asimov/other.yaml",
    ".asimov/sub/project.yaml",
    "asimov/project.yaml",
    ".forge/autonomy.yaml",
    "sub/.forge/quality.yaml",
    ".forge/warmup.yaml",
    ".forge/sub/x.yaml",
    ".forge/x.yml",
    ".checkpoints/oc-app.checkpoint.json",
    "proj/.checkpoints/oc-app.checkpoint.json",
    ".checkpoints/a.b.checkpoint.json",
    ".checkpoints/oc-app.json",
    ".checkpoints/sub/oc-app.checkpoint.json",
    ".checkpoints/oc-app.checkpoint.json.bak",
    "checkpoints/oc-app.checkpoint.json",
    ".checkpoints/history/oc-app.2026-10-31.json",
    ".checkpoints/history/oc-app.20261031.checkpoint.json",
    ".checkpoints/history/deep/er/x.json",
    "proj/.checkpoints/history/x.json",
    ".checkpoints/history/x.yaml",
    ".code-intel/sessions/sess-42.json",
    "svc/.code-intel/sessions/s.json",
    ".code-intel/sessions/sub/s.json",
    ".code-intel/s.json",
    ".code-intel/sessions/s.yaml",
    "README.md",
    "src/main.py",
    # other agents' instruction files
    "AGENTS.md",
    "svc/api/AGENTS.md",
    "AGENTS.override.md",
    "agents.md",
    "AGENTS.md.bak",
    "GEMINI.md",
    "pkg/GEMINI.md",
    "gemini.md",
    ".github/copilot-instructions.md",
    "pkg/.github/copilot-instructions.md",
    "copilot-instructions.md",
    ".github/instructions/py.instructions.md",
    ".github/instructions/.instructions.md",
    ".github/instructions/sub/py.instructions.md",
    ".github/instructions/py.md",
    ".cursor/rules/style.mdc",
    ".cursor/rules/team/deep/style.mdc",
    ".cursor/rules/.mdc",
    "web/.cursor/rules/style.mdc",
    ".cursor/style.mdc",
    ".cursor/rules/style.md",
    "rules/style.mdc",
]


def files_regex(hook_id: str) -> re.Pattern[str]:
    return re.compile(hooks()[hook_id]["files"])


def test_validate_manifest() -> None:
    proc = subprocess.run(
        [os.path.join(SCRIPTS, "pre-commit"), "validate-manifest", MANIFEST],
        capture_output=True,
        text=True,
        env=script_env(),
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_entries_are_console_scripts() -> None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        scripts = tomllib.load(fh)["project"]["scripts"]
    rule_ids = set()
    data = default_data()
    rule_ids |= set(data["rules"])
    for spec in data["kinds"].values():
        rule_ids |= set(spec.get("rules", {}))
    for hook in hooks().values():
        entry = hook["entry"].split()
        assert entry[0] in scripts, hook["id"]
        assert hook["language"] == "python"
        if "--select" in entry:
            selected = entry[entry.index("--select") + 1].split(",")
            assert set(selected) <= rule_ids, (hook["id"], set(selected) - rule_ids)


def kind_of(config: Config, path: str) -> str | None:
    return config.kind_for(path)


def test_validate_hook_matches_every_kind(config) -> None:
    regex = files_regex("asimov-validate")
    mismatched = [
        (path, kind_of(config, path), bool(regex.search(path)))
        for path in SAMPLES
        if bool(regex.search(path)) != (kind_of(config, path) is not None)
    ]
    assert mismatched == []


def test_size_hook_matches_kinds_with_size_limits(config) -> None:
    """asimov-size runs where a kind has a size limit beyond the universal byte cap."""
    regex = files_regex("asimov-size")

    def sized(path: str) -> bool:
        kind = kind_of(config, path)
        if kind is None:
            return False
        rules = config.rules_for(kind, path)
        return bool((SIZE_RULES - {"max-bytes-hard"}) & set(rules))

    mismatched = [
        (path, kind_of(config, path)) for path in SAMPLES if bool(regex.search(path)) != sized(path)
    ]
    assert mismatched == []


@pytest.mark.parametrize(
    ("hook_id", "kinds"),
    [
        ("asimov-trim", {"asimov-checkpoint"}),
        (
            "asimov-checkpoint-conflicts",
            {"asimov-checkpoint", "asimov-checkpoint-archive", "oc-checkpoint"},
        ),
        ("asimov-forbid-sessions", {"code-intel-session"}),
    ],
)
def test_single_purpose_hooks(config, hook_id: str, kinds: set[str]) -> None:
    regex = files_regex(hook_id)
    mismatched = [
        (path, kind_of(config, path))
        for path in SAMPLES
        if bool(regex.search(path)) != (kind_of(config, path) in kinds)
    ]
    assert mismatched == []


def test_trim_hook_covers_the_trimmed_kinds(config) -> None:
    trim = default_data()["trim"]
    regex = files_regex("asimov-trim")
    for path in SAMPLES:
        if kind_of(config, path) in trim["kinds"]:
            assert regex.search(path), path


def test_plain_git_hook_uses_the_validate_pattern() -> None:
    with open(GIT_HOOK, encoding="utf-8") as fh:
        text = fh.read()
    match = re.search(r"^pattern='([^']*)'$", text, re.M)
    assert match, "hooks/pre-commit has no pattern= line"
    assert match.group(1) == hooks()["asimov-validate"]["files"]
    assert os.access(GIT_HOOK, os.X_OK)


def test_samples_cover_every_kind(config) -> None:
    covered = {kind_of(config, path) for path in SAMPLES}
    assert set(config.kinds) <= covered


def test_post_checkout_hook_shape() -> None:
    hook = hooks()["asimov-merge-driver"]
    assert set(hook["stages"]) == {"post-checkout", "post-merge"}
    assert hook["pass_filenames"] is False and hook["always_run"] is True


def test_pre_commit_selects_the_files_our_kinds_match(config) -> None:
    """pre-commit's own filter (`files` applied with re.search to the relative path)
    passes the validate hook exactly the sample paths that have a kind."""
    from pre_commit.commands.run import filter_by_include_exclude

    picked = set(filter_by_include_exclude(SAMPLES, hooks()["asimov-validate"]["files"], "^$"))
    assert picked == {path for path in SAMPLES if kind_of(config, path)}
