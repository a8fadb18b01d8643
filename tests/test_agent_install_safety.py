"""`asimov-hooks agent install / uninstall` in a hostile or busy checkout: symlinks out
of the repository or into `.git/`, special files, concurrent writers, the local scope's
git-ignore, and both Claude Code scopes at once. Whole processes, real git."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest
from conftest import git, git_init, run_script, script_env

SETTINGS = ".claude/settings.json"


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return git_init(tmp_path / "repo")


def agent(repo: str, *args: str):
    proc = run_script("asimov-hooks", "agent", *args, cwd=repo)
    assert "Traceback" not in proc.stderr
    return proc


def snapshot(directory) -> dict[str, bytes]:
    out = {}
    for base, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(base, name)
            if not os.path.islink(path) and stat.S_ISREG(os.lstat(path).st_mode):
                with open(path, "rb") as fh:
                    out[os.path.relpath(path, directory)] = fh.read()
    return out


@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_symlinked_directory_out_of_the_repo_is_refused(repo, tmp_path, command) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "settings.json").write_text(
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", '
        '"command": "asimov-hooks agent-event"}]}]}}'
    )
    before = snapshot(outside)
    os.symlink(outside, os.path.join(repo, ".claude"))
    proc = agent(repo, command)
    assert proc.returncode == 2, proc.stdout
    assert "outside the repository" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert snapshot(outside) == before


def test_symlinked_settings_file_out_of_the_repo_is_refused(repo, tmp_path) -> None:
    target = tmp_path / "bashrc.json"
    target.write_text("{}\n")
    os.makedirs(os.path.join(repo, ".claude"))
    os.symlink(target, os.path.join(repo, SETTINGS))
    for command in ("install", "uninstall"):
        proc = agent(repo, command)
        assert proc.returncode == 2 and "outside the repository" in proc.stderr, proc.stderr
    assert target.read_text() == "{}\n"


def test_symlink_into_git_dir_is_refused(repo) -> None:
    git_dir = os.path.join(repo, ".git")
    before = snapshot(git_dir)
    os.symlink(".git", os.path.join(repo, ".codex"))
    proc = agent(repo, "install", "--agent", "codex")
    assert proc.returncode == 2 and "git directory" in proc.stderr, proc.stderr
    assert snapshot(git_dir) == before


def test_symlink_inside_the_repo_is_followed(repo) -> None:
    os.makedirs(os.path.join(repo, "shared"))
    with open(os.path.join(repo, "shared", "claude.json"), "w", encoding="utf-8") as fh:
        fh.write('{"model": "opus"}\n')
    os.makedirs(os.path.join(repo, ".claude"))
    os.symlink("../shared/claude.json", os.path.join(repo, SETTINGS))
    assert agent(repo, "install").returncode == 0
    assert os.path.islink(os.path.join(repo, SETTINGS))
    with open(os.path.join(repo, "shared", "claude.json"), encoding="utf-8") as fh:
        assert "agent-event --agent claude" in fh.read()


def test_fifo_is_refused_without_blocking(repo) -> None:
    os.makedirs(os.path.join(repo, ".claude"))
    path = os.path.join(repo, SETTINGS)
    os.mkfifo(path)
    proc = agent(repo, "install")
    assert proc.returncode == 2 and "not a regular file" in proc.stderr, proc.stderr
    assert stat.S_ISFIFO(os.lstat(path).st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="creating a device node needs root")
def test_device_node_is_never_replaced(repo) -> None:
    os.makedirs(os.path.join(repo, ".claude"))
    path = os.path.join(repo, SETTINGS)
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # like /dev/null
    proc = agent(repo, "install")
    assert proc.returncode == 2 and "not a regular file" in proc.stderr, proc.stderr
    assert stat.S_ISCHR(os.lstat(path).st_mode)


WRITER = """
import json, sys, time
from asimov_hooks.fs.access import atomic_write, locked, read_bytes
path, name = sys.argv[1], sys.argv[2]
for round in range(ROUNDS):
    time.sleep(0.05)  # spread over the install and uninstall runs
    with locked(path):
        data = json.loads(read_bytes(path))
        data[f"{name}-{round}"] = True
        atomic_write(path, (json.dumps(data, indent=2) + "\\n").encode())
""".replace("ROUNDS", "25")


def test_concurrent_writers_are_never_dropped(repo) -> None:
    """15 processes add their own keys (under the lock, as any careful writer does)
    while install and uninstall run again and again: every key is there after."""
    os.makedirs(os.path.join(repo, ".claude"))
    path = os.path.join(repo, SETTINGS)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('{\n  "model": "opus"\n}\n')
    env = script_env()
    names = [f"writer{i}" for i in range(15)]
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, path, name], cwd=repo, env=env)
        for name in names
    ]
    exe = os.path.join(os.path.dirname(sys.executable), "asimov-hooks")
    for _ in range(4):
        for command in ("install", "uninstall"):
            done = subprocess.run([exe, "agent", command], cwd=repo, env=env, capture_output=True)
            assert done.returncode == 0, done.stderr
    for proc in writers:
        assert proc.wait(timeout=120) == 0
    assert agent(repo, "install").returncode == 0
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    missing = [f"{n}-{r}" for n in names for r in range(25) if data.get(f"{n}-{r}") is not True]
    assert not missing
    assert data["model"] == "opus" and len(data["hooks"]) == 6


def test_local_scope_is_kept_out_of_git(repo) -> None:
    exclude = os.path.join(repo, ".git", "info", "exclude")
    with open(exclude, "rb") as fh:
        original = fh.read()
    proc = agent(repo, "install", "--scope", "local")
    assert proc.returncode == 0, proc.stderr
    assert ".claude/settings.local.json: added to .git/info/exclude" in proc.stdout
    assert git(repo, "check-ignore", "-q", ".claude/settings.local.json").returncode == 0
    status = git(repo, "status", "--porcelain", "--untracked-files=all").stdout
    assert "settings.local.json" not in status
    again = agent(repo, "install", "--scope", "local")
    assert "exclude" not in again.stdout  # already ignored: said once, written once
    proc = agent(repo, "uninstall", "--scope", "local")
    assert proc.returncode == 0 and "(file removed)" in proc.stdout
    with open(exclude, "rb") as fh:
        assert fh.read() == original


def test_local_scope_already_ignored_by_gitignore(repo) -> None:
    with open(os.path.join(repo, ".gitignore"), "w", encoding="utf-8") as fh:
        fh.write(".claude/*.local.json\n")
    exclude = os.path.join(repo, ".git", "info", "exclude")
    with open(exclude, "rb") as fh:
        original = fh.read()
    proc = agent(repo, "install", "--scope", "local")
    assert proc.returncode == 0 and "exclude" not in proc.stdout + proc.stderr
    with open(exclude, "rb") as fh:
        assert fh.read() == original


def test_both_scopes_warn(repo) -> None:
    assert agent(repo, "install").returncode == 0
    proc = agent(repo, "install", "--scope", "local")
    assert proc.returncode == 0
    assert "installed in both .claude/settings.json and .claude/settings.local.json" in proc.stderr
    assert "runs twice" in proc.stderr
    doctor = run_script("asimov-hooks", "doctor", cwd=repo)
    assert "warn Claude Code hooks are in both .claude/settings.json and" in doctor.stdout
    proc = agent(repo, "uninstall", "--scope", "local")
    assert proc.returncode == 0 and "both" not in proc.stderr


def test_local_scope_is_only_for_claude(repo) -> None:
    proc = agent(repo, "install", "--agent", "codex", "--scope", "local")
    assert proc.returncode == 2 and "only for Claude Code" in proc.stderr
    assert not os.path.exists(os.path.join(repo, ".codex"))


def test_directory_name_taken_by_a_file(repo) -> None:
    with open(os.path.join(repo, ".claude"), "w", encoding="utf-8") as fh:
        fh.write("notes\n")
    proc = agent(repo, "install")
    assert proc.returncode == 2
    assert proc.stderr.strip().endswith(
        ".claude: cannot create the directory: File exists; nothing changed"
    )


LINK_PLACES = [
    ".claude", ".claude/commands", ".claude/commands/checkpoint.md", ".codex", ".codex/hooks.json",
    ".gemini", ".gemini/settings.json", ".gemini/commands", ".cursor", ".cursor/hooks.json",
    ".cursor/commands/checkpoint.md", ".agents", ".agents/skills/checkpoint", ".github",
    ".github/hooks", ".github/hooks/asimov-hooks.json", ".qwen", ".qwen/settings.json",
]  # fmt: skip


@pytest.mark.parametrize("place", LINK_PLACES)
@pytest.mark.parametrize("target", ["OUT", "GIT"])
def test_no_link_leads_install_or_uninstall_out(repo, tmp_path, place: str, target: str) -> None:
    """Every file and directory `agent install --agent all` writes, linked out of the
    repository or into .git/: nothing outside or in .git/ (but our own state) changes."""
    outside = tmp_path / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "file.json").write_text('{"keep": true}\n')
    is_dir = not os.path.splitext(place)[1]
    if target == "OUT":
        dest = str(outside / ("dir" if is_dir else "file.json"))
    else:
        dest = os.path.join(repo, ".git", "hooks" if is_dir else "config")
    os.makedirs(os.path.dirname(os.path.join(repo, place)), exist_ok=True)
    os.symlink(dest, os.path.join(repo, place))
    git_dir = os.path.join(repo, ".git")
    before = snapshot(outside), {k: v for k, v in snapshot(git_dir).items()}
    for command in ("install", "uninstall"):
        proc = agent(repo, command, "--agent", "all")
        assert proc.returncode in (0, 1, 2), proc
        assert "internal error" not in proc.stderr
        text = proc.stdout + proc.stderr
        assert "outside the repository" in text or "git directory" in text, text
    after_git = {k: v for k, v in snapshot(git_dir).items() if not k.startswith("asimov-hooks")}
    assert snapshot(outside) == before[0]
    assert after_git == before[1]


def test_local_scope_in_linked_worktrees_shares_the_exclude(repo, tmp_path) -> None:
    """Linked worktrees share .git/info/exclude: the pattern stays while any of them
    still has its local settings file."""
    from conftest import commit_all

    commit_all(repo, "first")
    other = str(tmp_path / "other")
    git(repo, "worktree", "add", "-q", other, "-b", "other")
    exclude = os.path.join(repo, ".git", "info", "exclude")
    assert agent(repo, "install", "--scope", "local").returncode == 0
    proc = agent(other, "install", "--scope", "local")
    assert proc.returncode == 0 and "exclude" not in proc.stdout  # already ignored
    assert "taken out" not in agent(other, "uninstall", "--scope", "local").stdout
    assert git(repo, "check-ignore", "-q", ".claude/settings.local.json").returncode == 0
    assert "taken out" in agent(repo, "uninstall", "--scope", "local").stdout
    with open(exclude, encoding="utf-8") as fh:
        assert "settings.local.json" not in fh.read()


def test_concurrent_installs_of_every_agent_share_the_record(repo) -> None:
    """Eight installs at once each record what they created: uninstall --agent all then
    leaves nothing behind."""
    env = script_env()
    exe = os.path.join(os.path.dirname(sys.executable), "asimov-hooks")
    procs = [
        subprocess.Popen([exe, "agent", "install", "--agent", name], cwd=repo, env=env,
                         stdout=subprocess.DEVNULL)
        for name in ("claude", "codex", "gemini", "cursor", "copilot", "qwen", "claude", "copilot")
    ]  # fmt: skip
    assert all(proc.wait(timeout=120) == 0 for proc in procs)
    proc = agent(repo, "uninstall", "--agent", "all")
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(repo)) == [".git"]
