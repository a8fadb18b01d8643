"""Shared fixtures and helpers for the asimov-hooks test suite.

Tests call the real entry points on real files in tmp_path; git repositories are
real (`git init`), nothing is mocked.
"""

from __future__ import annotations

import copy
import datetime
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from typing import Any, ClassVar, NamedTuple

import pytest
from hypothesis import settings

# Hypothesis's per-example deadline is a timing assertion: on a loaded machine it fails
# a property that holds. The suite asserts no timing, so it has none; case counts stay.
settings.register_profile("asimov-hooks", deadline=None)
settings.load_profile("asimov-hooks")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.dirname(sys.executable)  # where this interpreter's console scripts live

GOOD_CHECKPOINT = """\
# Session checkpoint (ADR-007): current state only.
timestamp: "2026-11-20T10:30:00Z"
tool_calls: 45
milestone: "Add feature X"
status: in_progress
completed:
  - "Task 6: wire the parser"
  - "Task 7: add tests"
in_progress: "Task 9: benchmark the hot path"
next_steps:
  - "Task 10: release notes"
on_confusion: "cat warmup.yaml"
"""

GOOD_WARMUP = """\
identity:
  project: "demo-service"
  tagline: "A small service"
mission:
  problem: "Agents lose their place"
  solution: "Small files"
"""

GOOD_CLAUDE_MD = "# CLAUDE.md\n\nRead warmup.yaml first.\n"


def oc_checkpoint(**changes: object) -> dict:
    """A valid OC checkpoint (protocol 1.0, in_progress, recent) with `changes` applied.

    A value of None removes the key.
    """
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    doc: dict = {
        "protocol_version": "1.0",
        "skill": "oc-app-architect",
        "project": "gtrack",
        "project_dir": "/home/claude/gtrack",
        "created_at": (now - datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "updated_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "phase": "build-loop",
        "step": "sprint-2",
        "status": "in_progress",
        "progress_summary": "Sprint 1 passed. Sprint 2 is being built.",
        "progress_table": [
            {"id": "sprint-1", "label": "Sprint 1", "status": "complete"},
            {"id": "sprint-2", "label": "Sprint 2", "status": "in_progress"},
            {"id": "sprint-3", "label": "Sprint 3", "status": "not_started"},
        ],
        "context_primer": {"key_decisions": ["Stack: Hono"], "generated_files": []},
        "next_actions": ["Read the evaluator report", {"text": "Re-run", "done_when": "true"}],
    }
    doc = copy.deepcopy(doc)
    for key, value in changes.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def write(base: os.PathLike | str, rel: str, content: str | bytes | dict) -> str:
    """Write `content` to base/rel (dicts as indented JSON); returns the path."""
    path = os.path.join(os.fspath(base), rel)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if isinstance(content, dict):
        content = json.dumps(content, indent=2) + "\n"
    data = content.encode("utf-8") if isinstance(content, str) else content
    with open(path, "wb") as fh:
        fh.write(data)
    return path


GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd: os.PathLike | str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", *args],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        check=check,
        env={**os.environ, **GIT_ENV},
    )


_TEMPLATE: list[str] = []  # this process's freshly initialised repository, made once


def _template_git_dir() -> str:
    """The `.git` of a repository made by `git init` and configured as git_init does,
    once per test process; git_init copies it rather than running git three times."""
    if not _TEMPLATE:
        import atexit
        import tempfile

        scratch = tempfile.mkdtemp(prefix="asimov-hooks-template-")
        atexit.register(shutil.rmtree, scratch, True)
        where = os.path.join(scratch, "repo")
        os.makedirs(where)
        git(where, "init", "-q", "-b", "main")
        git(where, "config", "commit.gpgsign", "false")
        git(where, "config", "core.hooksPath", ".git/hooks")
        _TEMPLATE.append(os.path.join(where, ".git"))
    return _TEMPLATE[0]


def git_init(path: os.PathLike | str) -> str:
    """A new repository at `path` (made if missing): branch main, unsigned commits, the
    hooks in .git/hooks whatever the user's global configuration says."""
    path = os.fspath(path)
    os.makedirs(path, exist_ok=True)
    if os.path.lexists(os.path.join(path, ".git")):  # git init on a repository: as git does
        git(path, "init", "-q", "-b", "main")
        git(path, "config", "commit.gpgsign", "false")
        git(path, "config", "core.hooksPath", ".git/hooks")
        return path
    shutil.copytree(_template_git_dir(), os.path.join(path, ".git"), symlinks=True)
    return path


def commit_all(repo: os.PathLike | str, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", message)


def script_env(**extra: str) -> dict[str, str]:
    """Environment for whole-process runs: our console scripts first on PATH."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("GITHUB_ACTIONS", "ASIMOV_HOOKS_CONFIG", "CLAUDE_PROJECT_DIR")
    }
    env.update(GIT_ENV)
    env["PATH"] = SCRIPTS + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


ENTRY_POINTS = {  # console script -> its function (pyproject.toml [project.scripts])
    "asimov-hooks": "hooks_main",
    "asimov-validate": "validate_main",
    "asimov-check-size": "check_size_main",
}


def call_script(
    name: str,
    *args: str,
    cwd: os.PathLike | str,
    stdin: bytes | str = b"",
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """What the console script `name ARGS` does as a process, run in this one: the
    entry point pyproject.toml names, with its argv, cwd, environment (script_env's,
    or `env`), stdin (bytes) and a UTF-8 stdout and stderr of its own, and its exit
    code (returned or raised). Everything the process would leave behind (cwd,
    environment, streams) is put back. An exception that escapes the entry point
    fails the test, as a traceback would.

    A subprocess adds only the interpreter's start-up, which a few tests per entry
    point still check (run_script)."""
    import io

    from asimov_hooks.cli import entrypoints

    main = getattr(entrypoints, ENTRY_POINTS[name])
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    streams = (sys.stdin, sys.stdout, sys.stderr, sys.argv)
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(
        io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True
    )
    try:
        os.environ.clear()
        os.environ.update(script_env() if env is None else env)
        os.chdir(os.fspath(cwd))
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
        sys.stdout, sys.stderr = out, err
        sys.argv = [os.path.join(SCRIPTS, name), *args]
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code
            if isinstance(code, str):
                err.write(code + "\n")
                code = 1
        code = 0 if code is None else code
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.argv = streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(
        [name, *args],
        code,
        out.buffer.getvalue().decode("utf-8"),
        err.buffer.getvalue().decode("utf-8"),
    )


def _universal(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def bench_module(name: str) -> Any:
    """benchmarks/NAME.py as a module (the benchmarks are scripts, not a package), loaded
    once per process."""
    import importlib.util

    module_name = f"asimov_bench_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    path = os.path.join(ROOT, "benchmarks", f"{name}.py")
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def run_script(
    name: str, *args: str, cwd: os.PathLike | str, process: bool = False, **extra: str
) -> subprocess.CompletedProcess:
    """`name ARGS` in `cwd` with script_env(**extra), its output as text (universal
    newlines, as subprocess's text mode has it): the entry point called in this
    process (call_script), or with `process=True` the installed console script as a
    process of its own. Two cases always get a process: a PYTHON* variable (the
    interpreter reads them when it starts) and `asimov-hooks init` (it runs commands
    that write to its own stdout and stderr)."""
    if any(key.startswith("PYTHON") for key in extra) or (name, *args[:1]) == (
        "asimov-hooks",
        "init",
    ):
        process = True
    if not process:
        done = call_script(name, *args, cwd=cwd, env=script_env(**extra))
        return subprocess.CompletedProcess(
            done.args, done.returncode, _universal(done.stdout), _universal(done.stderr)
        )
    return run_installed(name, *args, cwd=cwd, env=script_env(**extra))


def run_installed(
    name: str,
    *args: str,
    cwd: os.PathLike | str,
    env: dict[str, str],
    stdin: bytes | None = None,
    text: bool = True,
) -> subprocess.CompletedProcess:
    """The installed console script `name ARGS` as a process of its own (two minutes at
    most), its output as text or, with `text=False`, as the bytes it wrote."""
    exe = shutil.which(name, path=SCRIPTS) or name
    return subprocess.run(
        [exe, *args],
        cwd=os.fspath(cwd),
        input=stdin,
        capture_output=True,
        text=text,
        env=env,
        timeout=120,
        check=False,
    )


def run_with_deadline(
    args: list[str], cwd: os.PathLike | str, timeout: float, hang: str
) -> subprocess.CompletedProcess:
    """`args` in `cwd` with script_env(), in a process group of its own: past `timeout`
    seconds the whole group (a git it started, waiting too) is killed and the test
    fails with `hang`, instead of the suite stopping."""
    import signal

    proc = subprocess.Popen(
        args,
        cwd=os.fspath(cwd),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=script_env(),
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(hang)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


# `pre-commit try-repo` as pre-commit's own console script runs it, with one change:
# the store (where pre-commit clones a hook repository and builds its environment) is
# the one given, not a new temporary directory per call. The environment is keyed by
# the repository and its commit, so a second call on the same clone finds it built.
# try-repo names a local repository by its path from the work tree's top (which it
# enters); the store is asked for it by its absolute path, the key `repo: PATH` in a
# configuration gives it, so tests run from any directory share one environment.
_TRY_REPO = """\
import os
import sys
from pre_commit.commands import try_repo
from pre_commit.main import main
from pre_commit.store import Store

class SharedStore(Store):
    def clone(self, repo, ref, deps=()):
        local = os.path.isdir(repo)
        return super().clone(os.path.abspath(repo) if local else repo, ref, deps)

store = sys.argv.pop(1)
try_repo.Store = lambda _tempdir: SharedStore(store)
sys.exit(main(sys.argv[1:]))
"""


def try_repo(
    clone: str,
    hook: str,
    *args: str,
    cwd: os.PathLike | str,
    store: os.PathLike | str,
    color: str = "never",
) -> subprocess.CompletedProcess:
    """`pre-commit try-repo CLONE HOOK --color COLOR ARGS` in `cwd`, as a user runs it.

    `store` is the pre-commit store (the `pre_commit_store` fixture: one per test run),
    where the hook environment is built once (pip, network to PyPI) and then reused."""
    argv = ["try-repo", clone, hook, "--color", color, *args]
    return subprocess.run(
        [sys.executable, "-c", _TRY_REPO, os.fspath(store), *argv],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        env=script_env(PRE_COMMIT_HOME=os.fspath(store), PIP_DISABLE_PIP_VERSION_CHECK="1"),
        timeout=600,
        check=False,
    )


def _share_bytecode(config: pytest.Config) -> None:
    """The Python processes of a test run (the xdist workers, our console scripts,
    pre-commit's hook environment) keep their compiled bytecode in one directory, as an
    installed hook has it, instead of compiling every module they import in every
    process when PYTHONDONTWRITEBYTECODE is set. Nothing is written into the source
    tree: the directory is pytest's cache directory (.pytest_cache/, kept from one run
    to the next; Python checks each file against its source), or without the cache
    plugin a temporary one that goes when the run ends. Set once, by the first process
    of the run (the xdist workers inherit it); a PYTHONPYCACHEPREFIX of the user's
    stays."""
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    cache = getattr(config, "cache", None)
    if cache is not None:
        where = str(cache.mkdir("bytecode"))
    else:
        import atexit
        import tempfile

        where = tempfile.mkdtemp(prefix="asimov-hooks-bytecode-")
        atexit.register(shutil.rmtree, where, True)
    os.environ["PYTHONPYCACHEPREFIX"] = where
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


E2E = os.path.join(ROOT, "tests", "e2e")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--e2e",
        action="store_true",
        help="also run the end-to-end suite (tests/e2e/): the real agents, installed from "
        "the npm registry (naming a path under tests/e2e/ runs it too)",
    )


def _e2e_wanted(config: pytest.Config) -> bool:
    """--e2e, or a path under tests/e2e/ named on the command line."""
    if config.getoption("e2e"):
        return True
    for arg in config.args:
        path = os.path.abspath(os.path.join(config.invocation_params.dir, arg.split("::")[0]))
        if path == E2E or path.startswith(E2E + os.sep):
            return True
    return False


def pytest_ignore_collect(collection_path, config: pytest.Config) -> bool | None:
    """The end-to-end suite runs on request (it drives the real agents for minutes)."""
    if os.fspath(collection_path) == E2E and not _e2e_wanted(config):
        return True
    return None


def pytest_configure(config: pytest.Config) -> None:
    _share_bytecode(config)
    config.addinivalue_line(
        "markers",
        "slow: builds a wheel or pre-commit environment (network to PyPI), or runs "
        "hundreds of hypothesis examples; "
        "run by default, deselect with -m 'not slow'",
    )


def _test_files(config: pytest.Config) -> list[str]:
    """The test modules this run collects (its arguments, or testpaths), by path."""
    found: set[str] = set()
    for arg in config.args:
        path = os.path.abspath(os.path.join(config.invocation_params.dir, arg.split("::")[0]))
        if os.path.isfile(path):
            found.add(path)
            continue
        for where, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if d != "e2e" or _e2e_wanted(config)]
            found.update(
                os.path.join(where, name)
                for name in files
                if name.startswith("test_") and name.endswith(".py")
            )
    return sorted(found)


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    """With -n 2 or more, the workers share pytest's assertion rewriting of the test
    modules (the most of a collection's time when the cache is empty) instead of each
    doing all of it: every second worker rewrites them in the reverse of the order
    collection imports them, into the cache (_share_bytecode's), until it meets what
    the first worker has already written; both then collect as usual, from the cache.
    Nothing is imported here; any failure leaves collection to do the work itself."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or not worker[2:].isdigit() or int(worker[2:]) % 2 == 0:
        return
    if sys.dont_write_bytecode or sys.pycache_prefix is None:
        return
    try:
        from pathlib import Path

        from _pytest.assertion import rewrite

        state = session.config.stash[rewrite.assertstate_key]
        for name in reversed(_test_files(session.config)):
            source = Path(name)
            pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(source, pyc, state.trace) is not None:
                break  # the first worker has come this far
            if not rewrite.try_makedirs(pyc.parent):
                break
            stamp, code = rewrite._rewrite_test(source, session.config)
            rewrite._write_pyc(state, code, stamp, pyc)
    except Exception:  # pytest's internals moved: the collection rewrites as it always does
        return


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadgroup` (pyproject.toml) as pytest-xdist has it, less its cost per
    test: each test not in a group is a work unit of its own, and xdist counts what a
    worker has left over every unit it ever gave that worker, once per test finished
    (seconds of the controller's CPU, beside the workers', on a run of thousands of
    tests). Here a unit whose every test has finished is dropped from the count (it
    adds nothing to it), so the count is over the few units the worker has in hand."""
    if config.getvalue("dist") != "loadgroup":
        return None
    try:
        from xdist.scheduler import LoadGroupScheduling
    except ImportError:  # pragma: no cover - an xdist without it runs its own
        return None
    needed = ("_split_scope", "_reschedule", "mark_test_complete", "_pending_of")
    if not all(hasattr(LoadGroupScheduling, name) for name in needed):
        return None

    class Scheduling(LoadGroupScheduling):
        def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
            nodeid = self.registered_collections[node][item_index]
            work = self.assigned_work[node]
            scope = self._split_scope(nodeid)
            work[scope][nodeid] = True
            if all(work[scope].values()):
                del work[scope]
            self._reschedule(node)

    return Scheduling(config, log)


def _cost(item: pytest.Item) -> int:
    """How long a test takes, roughly, as a rank (0 the longest): the real agents'
    end-to-end runs; then the tests marked slow (a hook environment, a wheel, hundreds
    of generated examples); then the other property tests (hypothesis: a hundred
    examples or more each); then the rest."""
    if item.path.parent.name == "e2e":
        return 0
    if item.get_closest_marker("slow") is not None:
        return 1
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        return 2
    return 3


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long tests first, then the rest, each group in its own order: with -n auto
    the workers start on the long ones and the many short ones fill in around them,
    rather than one worker finishing a long test alone at the end.

    The tests that run pre-commit on the clean clone (pre_commit_store) form one
    xdist group (`--dist loadgroup`, in pyproject.toml): one worker runs them one after
    another, the first building the hook environment, instead of the other worker
    waiting on pre-commit's lock while it is built."""
    items.sort(key=_cost)  # stable
    group = pytest.mark.xdist_group("pre-commit-store")
    for item in items:
        if "pre_commit_store" in getattr(item, "fixturenames", ()):
            item.add_marker(group)


@pytest.fixture
def isolated_home(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """No test may read or write the developer's global git or pre-commit state."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.delenv("ASIMOV_HOOKS_MERGE_DRIVER", raising=False)
    return home


@pytest.fixture
def agent_repo(tmp_path, isolated_home) -> str:
    """A repository that follows the protocol (warmup.yaml staged), its session
    checkpoint and archive git-ignored, the agent's turn threshold at 30."""
    repo = git_init(tmp_path / "repo")
    write(repo, ".asimov-hooks.yaml", "agent:\n  turn-threshold: 30\n")
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n.claude_checkpoint.archive.yaml\n")
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    git(repo, "add", "warmup.yaml")  # the repository follows the protocol
    return repo


@pytest.fixture
def checkpoint_repo(agent_repo) -> str:
    """agent_repo with a valid session checkpoint (GOOD_CHECKPOINT) on disk."""
    write(agent_repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    return agent_repo


def run_module(cwd: os.PathLike | str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`python -m asimov_hooks ARGS` in `cwd` (the `asimov-hooks` entry point): called in
    this process (call_script) but for the cases run_script gives a process of its own."""
    if not any(key.startswith("PYTHON") for key in env) and args[:1] != ("init",):
        done = call_script("asimov-hooks", *args, cwd=cwd, env={**os.environ, **env})
        return subprocess.CompletedProcess(
            done.args, done.returncode, _universal(done.stdout), _universal(done.stderr)
        )
    return subprocess.run(
        [sys.executable, "-m", "asimov_hooks", *args],
        cwd=os.fspath(cwd),
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )


def shared_dir(tmp_path_factory: pytest.TempPathFactory, name: str, make) -> str:
    """A directory every process of this test run shares (each xdist worker included),
    made once by `make(path)` under a lock; the others wait for it."""
    import fcntl

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # pytest-N/, above each worker's popen-gwK/
    path = os.path.join(base, name)
    with open(os.path.join(base, f"{name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(path + ".done"):
            shutil.rmtree(path, ignore_errors=True)  # a half-made one
            make(path)
            with open(path + ".done", "w"):
                pass
    return path


def _clone_head(where: str) -> None:
    subprocess.run(
        ["git", "clone", "-q", "--no-hardlinks", ROOT, os.path.join(where, "asimov-hooks")],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


@pytest.fixture(scope="session")
def head_clone(tmp_path_factory) -> str:
    """A clean `git clone` of the project's HEAD: what a user installs, without
    anyone's uncommitted work in the shared tree. One per test run: tests only read it
    (or add a tag), so pre-commit builds its hook environment once (pre_commit_store)."""
    return os.path.join(shared_dir(tmp_path_factory, "head", _clone_head), "asimov-hooks")


@pytest.fixture(scope="session")
def pre_commit_store(tmp_path_factory) -> str:
    """The pre-commit store (PRE_COMMIT_HOME) of this test run: the hook environment
    of head_clone's commit is built in it once (pre-commit locks it while it builds)."""
    return shared_dir(tmp_path_factory, "pre-commit-store", os.makedirs)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither the CI nor the developer's environment may change what a test sees."""
    for name in ("GITHUB_ACTIONS", "ASIMOV_HOOKS_CONFIG", "ASIMOV_HOOKS_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    # the suite's CLAUDE.md files are checked as in an Asimov repository (ADR-007's
    # limits) wherever they are written; tests/test_profiles.py unsets it
    monkeypatch.setenv("ASIMOV_HOOKS_PROFILE", "asimov")
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """Run from tmp_path, so config discovery starts there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


class Run:
    """The result of one in-process CLI call: exit code, stdout and stderr."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def cli(capsys):
    """cli(*argv) runs `asimov-validate argv` in process; never a traceback."""
    from asimov_hooks.cli import validate_main

    def run(*argv: str) -> Run:
        capsys.readouterr()
        code = validate_main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err and "Traceback" not in out
        assert "internal error" not in err, err
        return Run(code, out, err)

    return run


@pytest.fixture
def size_cli(capsys):
    """size_cli(*argv) runs `asimov-check-size argv` in process."""
    from asimov_hooks.cli.entrypoints import check_size_main as main

    def run(*argv: str) -> Run:
        capsys.readouterr()
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert "Traceback" not in err and "Traceback" not in out
        return Run(code, out, err)

    return run


class Reply(NamedTuple):
    """What the scripted health endpoint answers on one path."""

    status: int
    body: bytes
    headers: dict[str, str] = {}  # noqa: RUF012  (never mutated)
    delay: float = 0.0  # seconds before the answer
    reason: str | None = None  # the status line's words (the server's own)


class _Health(http.server.BaseHTTPRequestHandler):
    answers: ClassVar[dict[str, Reply]] = {}
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        reply = self.answers.get(self.path, Reply(404, b"nope"))
        if reply.delay:
            time.sleep(reply.delay)
        self.send_response(reply.status, reply.reason)
        for key, value in reply.headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, *args: object) -> None:
        pass


class HealthServer:
    """A deployed app's health endpoint on 127.0.0.1: `answers[path] = Reply(...)`;
    `hits` lists the paths asked for, in order."""

    def __init__(self, url: str, handler: type[_Health]) -> None:
        self.url, self.answers, self.hits = url, handler.answers, handler.hits


class _HealthHTTPServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the client stopped reading (its deadline, its bounded read): not ours
        super().handle_error(request, client_address)


@pytest.fixture
def health_server():
    handler = type("Health", (_Health,), {"answers": {}, "hits": []})
    httpd = _HealthHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield HealthServer(f"http://127.0.0.1:{httpd.server_address[1]}", handler)
    httpd.shutdown()
    httpd.server_close()


from unprivileged import unprivileged  # noqa: E402, F401  (fixture: runs as nobody under root)
