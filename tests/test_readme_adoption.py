"""Issue 13, "installing from the docs alone": the README works for a reader who has only
this repository, and its claims match the benchmarks and the manifest."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from conftest import GOOD_CHECKPOINT, ROOT, SCRIPTS, commit_all, git, git_init, write
from ruamel.yaml import YAML

PRE_COMMIT = shutil.which("pre-commit", path=SCRIPTS)


def readme() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        return fh.read()


def yaml_blocks(text: str) -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", text, re.S)


def test_no_link_or_path_points_outside_the_repository() -> None:
    text = readme()
    assert "../" not in text
    for target in re.findall(r"\]\(([^)]+)\)", text):
        if target.startswith(("#", "http://", "https://")):
            continue
        assert os.path.exists(os.path.join(ROOT, target.split("#")[0])), target


def test_adr_007_is_explained_inside_the_repository() -> None:
    with open(os.path.join(ROOT, "docs", "adr-007.md"), encoding="utf-8") as fh:
        doc = fh.read()
    for fact in (
        "20 lines",
        "30 lines",
        "750",
        "5 **most recent**",
        "first** 5",
        "notes",
        "archive",
    ):
        assert fact in doc, fact


def test_install_instructions_name_python_and_pre_commit() -> None:
    text = readme()
    assert "Python 3.10 or newer" in text
    assert "pipx install pre-commit" in text
    assert "pip install /path/to/a/clone" in text and "git+" in text


def test_size_only_ratio_matches_the_benchmarks() -> None:
    """The README's figure for the size-only hook is the range of the size-only rows of
    results.md, CLAUDE.md's among them (its limits need no git when it is within every
    profile's)."""
    with open(os.path.join(ROOT, "benchmarks", "results.md"), encoding="utf-8") as fh:
        rows = dict(
            re.findall(r"size only ≤ 2× bare Python start \(([a-z-]+)\).*?= ([0-9.]+)×", fh.read())
        )
    assert "claude-md" in rows and len(rows) > 1
    low, high = min(map(float, rows.values())), max(map(float, rows.values()))
    m = re.search(r"pays about ([0-9.]+)-([0-9.]+)× a bare", readme())
    assert m, "the README states the size-only hook's ratio"
    assert float(m.group(1)) <= low + 0.05 and float(m.group(2)) >= high - 0.05
    assert "`CLAUDE.md` (about" not in readme()


def test_hook_table_matches_the_manifest() -> None:
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        manifest = {h["id"]: h for h in YAML(typ="safe").load(fh)}
    rows = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^\| `([a-z-]+)` \| `([^`]+)` \| (.*) \|$", readme(), re.M)
    }
    for hook_id, hook in manifest.items():
        if hook_id in rows:
            assert rows[hook_id][0] == hook["entry"], hook_id
    trim_files = re.findall(r"`([^`]+)`", rows["asimov-trim"][1])
    regex = re.compile(manifest["asimov-trim"]["files"])
    assert trim_files and all(regex.search(name) for name in trim_files)
    for name in (".claude_checkpoint.yaml", ".asimov/checkpoint.yaml"):
        assert regex.search(name) and name in trim_files


@pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")
def test_the_readme_local_pre_commit_config_works(tmp_path, isolated_home) -> None:
    block = next(b for b in yaml_blocks(readme()) if "repo: local" in b)
    repo = git_init(tmp_path / "repo")
    git(repo, "config", "--unset-all", "core.hooksPath")
    write(repo, ".pre-commit-config.yaml", block)
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    commit_all(repo, "init")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(isolated_home / ".cache" / "pre-commit"),
        "PATH": SCRIPTS + os.pathsep + os.environ.get("PATH", ""),
    }

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(
            [PRE_COMMIT, "run", "--all-files", "--color", "never"],
            cwd=repo,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )

    done = run()
    assert done.returncode == 0, done.stdout + done.stderr
    items = "".join(f'  - "task {i}"\n' for i in range(9))
    write(repo, ".claude_checkpoint.yaml", f'milestone: "m"\nstatus: finished\ncompleted:\n{items}')
    done = run()
    assert done.returncode == 1
    assert "Fixing .claude_checkpoint.yaml" in done.stdout  # the trim hook
    assert "schema status: 'finished'" in done.stdout  # the validate hook
