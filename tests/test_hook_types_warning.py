"""A clone whose git hooks predate the team's adoption: `pre-commit install` ran when the
config asked for no more than `pre-commit`, so merges are not checked and the merge driver
never registers. At commit time one line says which hook types the config asks for and
the clone lacks, and the fix; the commit goes on. Real git, real pre-commit (`repo: local`
hooks, as `init --local` writes them), a real terminal from `script`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import GOOD_CHECKPOINT, GOOD_WARMUP, git, git_init, run_script, script_env, write

PRE_COMMIT = os.path.join(os.path.dirname(sys.executable), "pre-commit")
pytestmark = [
    pytest.mark.skipif(shutil.which("script") is None, reason="no script(1)"),
    pytest.mark.skipif(not os.path.exists(PRE_COMMIT), reason="pre-commit is not installed"),
]
LACKS = "this clone lacks the git hook pre-merge-commit that .pre-commit-config.yaml asks for"
OLD_CONFIG = "repos: []\n"


def on_a_terminal(repo: str, command: str) -> subprocess.CompletedProcess:
    """`command` in a pseudo-terminal (what the person committing sees)."""
    return subprocess.run(
        ["script", "-qec", command, os.devnull],
        cwd=repo,
        capture_output=True,
        text=True,
        env=script_env(PIP_DISABLE_PIP_VERSION_CHECK="1"),
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=False,
    )


def pre_commit_install(repo: str) -> None:
    done = subprocess.run(
        [PRE_COMMIT, "install"], cwd=repo, capture_output=True, text=True, env=script_env()
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture
def old_clone(tmp_path) -> str:
    """A clone set up before adoption: pre-commit's hook for `pre-commit` only."""
    repo = git_init(tmp_path / "repo")
    git(repo, "config", "--unset-all", "core.hooksPath")  # git's own .git/hooks
    write(repo, ".pre-commit-config.yaml", OLD_CONFIG)
    write(repo, "warmup.yaml", GOOD_WARMUP)
    pre_commit_install(repo)
    assert os.listdir(os.path.join(repo, ".git", "hooks")).count("pre-merge-commit") == 0
    # the team adopts asimov-hooks (another clone committed this)
    os.remove(os.path.join(repo, ".pre-commit-config.yaml"))
    done = run_script("asimov-hooks", "init", "--repo", "local", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "adopt asimov-hooks")
    return repo


def test_a_commit_says_which_hooks_are_missing_and_goes_on(old_clone) -> None:
    repo = old_clone
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)  # git-ignored by init
    write(repo, "warmup.yaml", GOOD_WARMUP + "# edited\n")
    git(repo, "add", "warmup.yaml")
    done = on_a_terminal(repo, "git commit -q -m 'edit warmup'")
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(repo, "log", "--format=%s", "-1").stdout.strip() == "edit warmup"
    said = [line for line in done.stdout.splitlines() if "lacks the git hook" in line]
    assert len(said) == 1, done.stdout  # once, though two of our hooks ran
    assert LACKS in said[0] and "run `pre-commit install`" in said[0]
    # `pre-commit install` fixes it: the next commit says nothing about hooks
    pre_commit_install(repo)
    write(repo, "warmup.yaml", GOOD_WARMUP + "# edited twice\n")
    git(repo, "add", "warmup.yaml")
    again = on_a_terminal(repo, "git commit -q -m 'edit again'")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "lacks the git hook" not in again.stdout


def test_not_said_outside_a_commit(old_clone) -> None:
    """`pre-commit run` by hand or in CI: no commit, no hooks to speak of."""
    done = on_a_terminal(old_clone, f"{PRE_COMMIT} run --all-files --verbose")
    assert "lacks the git hook" not in done.stdout, done.stdout


def test_core_hooks_path_gets_its_own_fix(old_clone) -> None:
    repo = old_clone
    hooks = os.path.join(repo, "my-hooks")
    os.makedirs(hooks)
    shutil.copy(os.path.join(repo, ".git", "hooks", "pre-commit"), hooks)
    git(repo, "config", "core.hooksPath", "my-hooks")
    write(repo, "warmup.yaml", GOOD_WARMUP + "# edited\n")
    git(repo, "add", "warmup.yaml")
    done = on_a_terminal(repo, "git commit -q -m 'edit warmup'")
    assert done.returncode == 0, done.stdout + done.stderr
    (said,) = [line for line in done.stdout.splitlines() if "lacks the git hook" in line]
    assert "core.hooksPath points git at" in said and "my-hooks" in said
    assert "`pre-commit install` does not write" in said  # it refuses while it is set


@pytest.mark.parametrize(
    ("text", "types"),
    [
        (
            "default_install_hook_types: [pre-commit, pre-merge-commit]\n",
            ["pre-commit", "pre-merge-commit"],
        ),
        (
            "default_install_hook_types: ['pre-commit',\n  \"post-merge\"]  # ours\n",
            ["pre-commit", "post-merge"],
        ),
        (
            "default_install_hook_types:\n- pre-commit\n- post-checkout # x\nrepos: []\n",
            ["pre-commit", "post-checkout"],
        ),
        (
            "repos: []\ndefault_install_hook_types:\n  - pre-commit\n\n  - pre-merge-commit\n",
            ["pre-commit", "pre-merge-commit"],
        ),
        ("repos:\n  - default_install_hook_types: [post-merge]\n", []),  # not the top level
        # names pre-commit refuses are not looked up: no path out of the hooks folder
        ("default_install_hook_types: [../../../etc/passwd, pre-push, /dev/zero]\n", ["pre-push"]),
        ("default_install_hook_types:\n- pre-push\n- pre-push\n- ../post-merge\n", ["pre-push"]),
        ("repos: []\n", []),
    ],
)
def test_the_asked_types_are_read_without_a_yaml_parser(text: str, types: list[str]) -> None:
    from asimov_hooks.validation.hooktypes import asked_types

    assert asked_types(text) == types


@pytest.mark.parametrize(
    "shape",
    [
        lambda n: "default_install_hook_types: [\n" + "  pre-commit,\n" * n + "]\n",
        lambda n: "default_install_hook_types: [" + "".join(f"x{i}, " for i in range(n)) + "]\n",
        lambda n: "default_install_hook_types:\n" + "".join(f"- x{i}\n" for i in range(n)),
        lambda n: "default_install_hook_types: [\n" + "a\n" * n,
    ],
    ids=["a flow list over many lines", "many names", "a long block list", "never closed"],
)
def test_reading_the_asked_types_grows_linearly(shape) -> None:
    from test_linear_time import assert_linear

    from asimov_hooks.validation.hooktypes import asked_types

    def case(n: int):
        text = shape(n)
        return lambda: asked_types(text)

    assert_linear(case, 4096)
