"""What `asimov-hooks init` writes, run by the real pre-commit (`pre-commit run
--all-files`), in a repository of each family; and the README's `repo: local` recipe.

The hooks come from a clean clone of HEAD at its commit, as the README's set-up has
them; one pre-commit store serves every test of the run, so the hook environment is
built once (pip, network to PyPI).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, commit_all, git, script_env, write
from test_init import FAMILIES, USER_CONFIG, config_of, family_repo, hook_ids, init, read

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("pre-commit", path=os.path.dirname(sys.executable)) is None,
        reason="pre-commit is not installed",
    ),
]
PRE_COMMIT = os.path.join(os.path.dirname(sys.executable), "pre-commit")


@pytest.fixture
def store(pre_commit_store) -> str:
    return pre_commit_store


def pre_commit(repo: str, store: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PRE_COMMIT, *args, "--color", "never"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=script_env(PRE_COMMIT_HOME=store, PIP_DISABLE_PIP_VERSION_CHECK="1"),
        timeout=900,
        check=False,
    )


def status_lines_only(output: str) -> bool:
    """Nothing but pre-commit's own "name....Passed" / "Skipped" lines (and its notes on
    building an environment, once)."""
    return all(
        re.search(r"(\.Passed|\)Skipped)$", line)
        for line in output.splitlines()
        if line and not line.startswith("[INFO]")
    )


def head_of(clone: str) -> str:
    return git(clone, "rev-parse", "HEAD").stdout.strip()


def python_language_version() -> str:
    """The `language_version` pre-commit gives a Python hook that names none."""
    try:
        from pre_commit.languages import python
    except ImportError:  # the tests that need it are skipped
        return "python3"
    return python.get_default_version()


assert "    python: python3\n" in USER_CONFIG
USER_LOCAL_CONFIG = USER_CONFIG.replace(
    """-   repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.5.0  # pinned on purpose
    hooks:
    -   id: trailing-whitespace
    -   id: end-of-file-fixer
""",
    """-   repo: local  # the team's own check
    hooks:
    -   id: team-check
        name: team check
        entry: "true"
        language: system
        pass_filenames: false
""",
).replace(
    # the team's default Python, named as pre-commit names the one it picks itself: the
    # hook environment is the one the other tests of the run built (pre-commit keys it
    # by the language version), not a second one (pip, a minute of CPU)
    "    python: python3\n",
    f"    python: {python_language_version()}\n",
)


@pytest.mark.parametrize("family", [*sorted(FAMILIES), "user-config"])
def test_init_then_pre_commit_passes_quietly(tmp_path, head_clone, store, family) -> None:
    repo = family_repo(tmp_path, "asimov" if family == "user-config" else family)
    if family == "user-config":
        write(repo, ".pre-commit-config.yaml", USER_LOCAL_CONFIG)
    done = init(repo, "--repo", head_clone, "--rev", head_of(head_clone))
    assert done.returncode == 0, done.stdout + done.stderr
    commit_all(repo, "set up")
    run = pre_commit(repo, store, "run", "--all-files")
    assert run.returncode == 0, run.stdout + run.stderr
    assert status_lines_only(run.stdout), run.stdout
    if family == "user-config":
        assert "team check" in run.stdout  # the user's hook still runs
        assert hook_ids(config_of(repo))[0] == "team-check"


@pytest.mark.parametrize(
    ("family", "rel"),
    [("oc", ".checkpoints/oc-app.checkpoint.json"), ("asimov", ".claude_checkpoint.yaml")],
)
def test_a_conflict_is_reported_once(tmp_path, head_clone, store, family, rel) -> None:
    repo = family_repo(tmp_path, family)
    assert init(repo, "--repo", head_clone, "--rev", head_of(head_clone)).returncode == 0
    if family == "asimov":  # a team that commits its checkpoint
        write(repo, ".gitignore", "")
    text = read(repo, rel)
    write(repo, rel, "<<<<<<< ours\n" + text + "=======\n" + text + ">>>>>>> theirs\n")
    commit_all(repo, "a hosted merge left markers")
    run = pre_commit(repo, store, "run", "--all-files")
    assert run.returncode == 1
    assert run.stdout.count("conflict-markers") == 1, run.stdout


def readme_local_recipe() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    after = readme[readme.index("**Or `repo: local`**") :]
    return after[after.index("```yaml\n") + len("```yaml\n") : after.index("```\n", 8)]


def test_the_readme_local_recipe_is_what_init_writes(tmp_path) -> None:
    repo = family_repo(tmp_path, "asimov")
    assert init(repo, "--repo", "local").returncode == 0
    assert "# .pre-commit-config.yaml\n" + read(repo, ".pre-commit-config.yaml") == (
        readme_local_recipe()
    )


def test_the_readme_local_recipe_through_pre_commit(tmp_path, store) -> None:
    """The recipe runs the installed commands: an unrelated commit passes while a
    git-ignored checkpoint has an error, and a checkout runs nothing."""
    repo = family_repo(tmp_path, "asimov")
    write(repo, ".pre-commit-config.yaml", readme_local_recipe())
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n.claude_checkpoint.archive.yaml\n")
    commit_all(repo, "set up")
    write(repo, ".claude_checkpoint.yaml", "milestone: m\nstatus: finished\n")  # ignored, bad
    write(repo, "src/app.py", "print('hi')\n")
    git(repo, "add", "src/app.py")
    run = pre_commit(repo, store, "run")
    assert run.returncode == 0, run.stdout + run.stderr
    assert status_lines_only(run.stdout), run.stdout
    # a committed protocol file with an error does fail
    write(repo, "warmup.yaml", "identity: [not, a, mapping]\n")
    git(repo, "add", "warmup.yaml")
    bad = pre_commit(repo, store, "run")
    assert bad.returncode == 1
    assert "warmup.yaml" in bad.stdout
    checkout = pre_commit(repo, store, "run", "--hook-stage", "post-checkout")
    assert checkout.stdout.strip() == "", checkout.stdout


def test_init_then_pre_commit_install_stops_a_merge_that_breaks_claude_md(
    tmp_path, head_clone, store
) -> None:
    """The default form (the repository at the version's tag; here a local clone stands
    in for the published URL, and the tag's commit hash for the tag), installed by the
    real `pre-commit install`: two branches
    each keep CLAUDE.md within the Asimov limit (15 lines), and git's own merge of them,
    19 lines, is stopped by the pre-merge-commit hook before the merge commit exists."""
    from asimov_hooks import __version__

    tag = f"v{__version__}"
    if git(head_clone, "tag", "--list", tag).stdout.strip() != tag:
        git(head_clone, "tag", tag)
    repo = family_repo(tmp_path, "asimov")
    base = ["# CLAUDE.md", "", "Read warmup.yaml first.", *(f"- rule {n}" for n in range(8))]
    write(repo, "CLAUDE.md", "\n".join(base) + "\n")  # 11 lines
    done = init(repo, "--repo", head_clone)
    assert done.returncode == 0, done.stdout + done.stderr
    assert config_of(repo)["repos"][0]["rev"] == tag
    # pre-commit keys a hook environment by the rev as written: the tag's commit by its
    # hash is the environment the other tests of the run have built (pip, minutes)
    config = os.path.join(repo, ".pre-commit-config.yaml")
    with open(config, encoding="utf-8") as fh:
        text = fh.read()
    with open(config, "w", encoding="utf-8") as fh:
        fh.write(text.replace(f"rev: {tag}", f"rev: {head_of(head_clone)}", 1))
    assert config_of(repo)["repos"][0]["rev"] == head_of(head_clone)
    git(repo, "config", "--unset-all", "core.hooksPath")  # the test repository's guard
    installed = pre_commit(repo, store, "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    for hook in ("pre-commit", "pre-merge-commit"):
        assert os.path.isfile(os.path.join(repo, ".git", "hooks", hook)), hook
    commit = ["commit", "-q", "-m"]
    env = {"PRE_COMMIT_HOME": store}
    git(repo, "add", "-A")
    first = git_with(repo, env, *commit, "set up asimov-hooks")
    assert first.returncode == 0, first.stdout + first.stderr
    git(repo, "checkout", "-q", "-b", "topic")
    write(repo, "CLAUDE.md", "\n".join([*base, *(f"- topic {n}" for n in range(4))]) + "\n")
    topic = git_with(repo, env, *commit, "topic rules", "CLAUDE.md")
    assert topic.returncode == 0, topic.stdout + topic.stderr  # 15 lines: within the limit
    git(repo, "checkout", "-q", "main")
    lead = [*base[:3], *(f"- main {n}" for n in range(4)), *base[3:]]
    write(repo, "CLAUDE.md", "\n".join(lead) + "\n")
    ours = git_with(repo, env, *commit, "main rules", "CLAUDE.md")
    assert ours.returncode == 0, ours.stdout + ours.stderr
    merged = git_with(repo, env, "merge", "--no-edit", "topic")
    assert merged.returncode != 0, merged.stdout + merged.stderr
    assert "CLAUDE.md" in merged.stdout + merged.stderr
    assert read(repo, "CLAUDE.md").count("\n") == 19  # git merged it; the hook refused it
    assert git(repo, "rev-parse", "-q", "--verify", "MERGE_HEAD", check=False).returncode == 0
    assert git(repo, "log", "--format=%s", "-1").stdout.strip() == "main rules"


def git_with(repo: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """git with the hooks' environment (pre-commit's store, our scripts on PATH)."""
    return subprocess.run(
        ["git", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env=script_env(**env, PIP_DISABLE_PIP_VERSION_CHECK="1"),
        timeout=900,
        check=False,
    )


def test_pre_commit_autoupdate_moves_to_the_release_tag(tmp_path, head_clone, store) -> None:
    """A release is a tag `vX.Y.Z`: `pre-commit autoupdate` finds it and moves `rev:` to
    it, keeping the rest of what init wrote."""
    from asimov_hooks import __version__

    tag = f"v{__version__}"
    if git(head_clone, "tag", "--list", tag).stdout.strip() != tag:
        git(head_clone, "tag", tag)
    repo = family_repo(tmp_path, "agents")
    assert init(repo, "--repo", head_clone, "--rev", head_of(head_clone)).returncode == 0
    moved = pre_commit(repo, store, "autoupdate")
    assert moved.returncode == 0, moved.stdout + moved.stderr
    config = config_of(repo)
    assert config["repos"][0]["rev"] == tag
    assert config["default_install_hook_types"] == ["pre-commit", "pre-merge-commit"]
