"""Generated hostile repositories: no command that writes reaches outside the work tree
or into `.git/`.

Each example copies a real git repository (a trimmable checkpoint, an OC checkpoint with
actions and telemetry, the merge driver installed, a branch to merge), then gives it
random hostile parts: symbolic links to files and directories beside the repository, to
devices and `/proc`, into `.git/`; FIFOs; a committed config whose paths (`trim.archive.path`,
`oc.directory`, `oc.history`, a kind's `schema`) use `..`, absolute paths, `~` and `.git`.
It then runs commands that write, each as a separate process: trim, validate --fix,
ephemeral, init, oc init/new/update/done/rotate/reset, install/uninstall of the merge
driver, agent install (every agent) and a real `git merge` that runs the merge driver. Afterwards the directory beside the
repository and the home directory are byte for byte, mode for mode as before, `.git/`
too (except what git itself keeps there: its config, index, objects, refs, logs, merge
state), and no command printed a traceback.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

import pytest
from agent_support import fixture
from conftest import SCRIPTS, commit_all, git, git_init, oc_checkpoint, script_env, write
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

SKILL = "oc-app-architect"
CP = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"
OC = f".checkpoints/{SKILL}.checkpoint.json"
LONG = "milestone: m\nstatus: in_progress\ncompleted:\n" + "".join(
    f"  - task {i}\n" for i in range(9)
)
# what git itself changes in .git/ (a merge, the driver's registration in git config)
GIT_OWN = {
    "config", "index", "logs", "objects", "refs", "ORIG_HEAD", "MERGE_HEAD", "MERGE_MODE",
    "MERGE_MSG", "AUTO_MERGE", "COMMIT_EDITMSG", "packed-refs", "rr-cache", "MERGE_RR",
    "FETCH_HEAD",
    "asimov-hooks",  # the agent hooks' own state, documented to live here
}  # fmt: skip

# where a hostile link or FIFO may sit, and where a link may lead ("OUT" is the
# directory beside the repository, "HOME" the user's home)
PLACES = [
    CP, ARCHIVE, ".gitattributes", ".checkpoints", ".checkpoints/history", OC,
    ".checkpoints/README.md", ".claude", ".claude/settings.json", ".asimov-hooks.yaml",
    "schemas/cp.json", ".pre-commit-config.yaml", "pyproject.toml", ".gitignore", ".cursor",
    ".gemini/settings.json", ".codex",
]  # fmt: skip
TARGETS = [
    "OUT/secret.txt", "OUT/notes.yaml", "OUT/cp.json", "OUT/dir", "OUT/missing",
    "HOME/.bashrc", "/dev/zero", "/dev/null", "/proc/self/environ",
    ".git/config", ".git/hooks/post-checkout", ".git/hooks", ".git", ".git/HEAD",
]  # fmt: skip
ARCHIVE_PATHS = [
    "../outside/a.yaml", "OUTABS/a.yaml", ".git/hooks/post-checkout", ".git/a.yaml",
    "~/a.yaml", "{dir}/../../outside/a.yaml", ".git/../../outside/a.yaml", "kept.yaml",
]  # fmt: skip
OC_DIRS = ["../outside", "OUTABS", ".git", ".git/hooks", "x/../../outside", ".checkpoints"]
OC_HISTORY = [
    "../../outside/{skill}.json", "OUTABS/{skill}.json", "../.git/{skill}.json",
    "history/{skill}.{date}.json", "../../.git/hooks/{skill}",
]  # fmt: skip
SCHEMAS = ["./.git/config", "../outside/cp.json", "OUTABS/secret.txt", "./schemas/cp.json"]

COMMANDS = {
    "trim": ["asimov-hooks", "trim", "."],
    "fix": ["asimov-validate", "--fix", "."],
    "oc-init": ["asimov-hooks", "oc", "init"],
    "oc-update": ["asimov-hooks", "oc", "update", SKILL, "--step=sprint-9"],
    "oc-done": ["asimov-hooks", "oc", "done", SKILL],
    "oc-rotate": ["asimov-hooks", "oc", "rotate", SKILL],
    "install": ["asimov-hooks", "install"],
    "uninstall": ["asimov-hooks", "uninstall"],
    "agent-install": ["asimov-hooks", "agent", "install", "--agent", "all"],
    "init": ["asimov-hooks", "init", "--repo", "local"],
    "ephemeral": ["asimov-hooks", "ephemeral"],
    "oc-new": ["asimov-hooks", "oc", "new", "second-skill"],
    "oc-reset": ["asimov-hooks", "oc", "reset", SKILL],
    "merge": ["git", "merge", "--no-edit", "other"],
}


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> str:
    """A repository with something for every command to do, and a branch to merge."""
    base = str(tmp_path_factory.mktemp("hostile-template"))
    repo = git_init(os.path.join(base, "repo"))
    write(repo, CP, LONG)
    doc = oc_checkpoint(next_actions=["first", "second"], skill_state={"merged_prs": [1, 2, 3]})
    write(repo, OC, doc)
    write(repo, "schemas/cp.json", '{"type": "object"}\n')
    run = subprocess.run(
        [os.path.join(SCRIPTS, "asimov-hooks"), "install"],
        cwd=repo, capture_output=True, text=True, env=script_env(), check=True,
    )  # fmt: skip
    assert run.returncode == 0, run
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, OC, {**doc, "step": "sprint-3"})
    commit_all(repo, "other: a step further")
    git(repo, "checkout", "-q", "main")
    write(repo, OC, {**doc, "progress_summary": "Sprint 1 passed; sprint 2 half done."})
    commit_all(repo, "main: summary")
    outside = os.path.join(base, "outside")
    write(outside, "secret.txt", "TOKEN=do-not-leak\n")
    write(outside, "notes.yaml", "- keep: me\n")
    write(outside, "cp.json", json.dumps(doc))
    write(outside, "dir/a.txt", "a\n")
    write(base, "home/.bashrc", "export PS1='$ '\n")
    return base


def snapshot(path: str, skip_top: set[str] | frozenset[str] = frozenset()) -> dict:
    """Every entry below `path`: (kind, bytes or link target, mode)."""
    found: dict[str, tuple] = {}
    for directory, dirs, files in os.walk(path):
        rel_dir = os.path.relpath(directory, path)
        if rel_dir == ".":
            dirs[:] = [d for d in dirs if d not in skip_top]
            files = [f for f in files if f not in skip_top]
        for name in sorted(dirs + files):
            full = os.path.join(directory, name)
            st_ = os.lstat(full)
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if os.path.islink(full):
                found[rel] = ("link", os.readlink(full), st_.st_mode)
            elif os.path.isfile(full):
                with open(full, "rb") as fh:
                    found[rel] = ("file", fh.read(), st_.st_mode)
            else:
                found[rel] = ("other", None, st_.st_mode)
    return found


def _resolve(target: str, base: str, absolute: bool) -> str:
    for word, where in (("OUT", "outside"), ("HOME", "home")):
        if target.startswith(word + "/"):
            full = os.path.join(base, where, target[len(word) + 1 :])
            return full if absolute else os.path.join("..", where, target[len(word) + 1 :])
    return target  # /dev/..., /proc/..., or .git/... relative to the repository top


def _clear(path: str) -> None:
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)  # a FIFO


def _free(repo: str, place: str) -> bool:
    """Whether `place` can be made without going through a link (setup must not write
    outside either) or below something that is not a directory (a FIFO `.claude` has no
    `.claude/settings.json`)."""
    parts = place.split("/")
    for i in range(1, len(parts)):
        parent = os.path.join(repo, *parts[:i])
        if os.path.islink(parent) or (os.path.lexists(parent) and not os.path.isdir(parent)):
            return False
    return True


# where git itself opens a file in every command that walks the tree: a FIFO there makes
# `git merge` (git's command, not ours) wait for ever, so none is made when it runs; ours
# refuse it in one line (tests/test_fifo_git_files.py)
GIT_READS = {".gitignore", ".gitattributes", ".checkpoints/.gitignore"}


def _link(repo: str, place: str, target: str) -> None:
    full = os.path.join(repo, place)
    _clear(full)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if not target.startswith("/") and not target.startswith(".."):
        depth = place.count("/")  # a path from the top, made relative to the link
        target = os.path.join(*([".."] * depth), target) if depth else target
    elif target.startswith("..") and place.count("/"):
        target = os.path.join(*([".."] * place.count("/")), target)
    os.symlink(target, full)


def _config(base: str, archive: str | None, ocdir: str | None, history: str | None,
            schema: str | None) -> str:  # fmt: skip
    def fill(value: str) -> str:
        return value.replace("OUTABS", os.path.join(base, "outside"))

    lines = []
    if archive is not None:
        lines += ["trim:", "  archive:", f"    path: '{fill(archive)}'"]
    if ocdir is not None or history is not None:
        lines.append("oc:")
        if ocdir is not None:
            lines.append(f"  directory: '{fill(ocdir)}'")
        if history is not None:
            lines.append(f"  history: '{fill(history)}'")
    if schema is not None:
        lines += ["kinds:", "  asimov-checkpoint:", f"    schema: '{fill(schema)}'"]
    return "\n".join(lines) + "\n"


hostile = st.fixed_dictionaries(
    {
        "links": st.lists(
            st.tuples(st.sampled_from(PLACES), st.sampled_from(TARGETS), st.booleans()),
            max_size=4,
        ),
        "fifos": st.lists(st.sampled_from([*PLACES, ".checkpoints/.gitignore"]), max_size=2),
        "archive": st.none() | st.sampled_from(ARCHIVE_PATHS),
        "ocdir": st.none() | st.sampled_from(OC_DIRS),
        "history": st.none() | st.sampled_from(OC_HISTORY),
        "schema": st.none() | st.sampled_from(SCHEMAS),
        "commands": st.lists(st.sampled_from(sorted(COMMANDS)), min_size=1, max_size=3),
    }
)


def build(template: str, case: dict) -> tuple[str, str]:
    base = tempfile.mkdtemp(prefix="asimov-hostile-")
    for name in ("repo", "outside", "home"):
        shutil.copytree(os.path.join(template, name), os.path.join(base, name), symlinks=True)
    repo = os.path.join(base, "repo")
    config = _config(base, case["archive"], case["ocdir"], case["history"], case["schema"])
    if config.strip():
        write(repo, ".asimov-hooks.yaml", config)
    for place, target, absolute in case["links"]:
        if _free(repo, place):
            _link(repo, place, _resolve(target, base, absolute))
    for place in case["fifos"]:
        if place in GIT_READS and any(COMMANDS[name][0] == "git" for name in case["commands"]):
            continue  # git's own wait, not ours to prevent
        if _free(repo, place):
            _clear(os.path.join(repo, place))
            os.makedirs(os.path.dirname(os.path.join(repo, place)), exist_ok=True)
            os.mkfifo(os.path.join(repo, place))
    return base, repo


def run_all(base: str, repo: str, names: list[str]) -> list[subprocess.CompletedProcess]:
    env = script_env(HOME=os.path.join(base, "home"), XDG_STATE_HOME=os.path.join(base, "state"))
    done = []
    for name in names:
        argv = list(COMMANDS[name])
        if argv[0] != "git":
            argv[0] = os.path.join(SCRIPTS, argv[0])
        done.append(
            subprocess.run(
                argv,
                cwd=repo,
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
                stdin=subprocess.DEVNULL,
            )
        )
    return done


def check(base: str, repo: str, case: dict) -> None:
    before = (
        snapshot(os.path.join(base, "outside")),
        snapshot(os.path.join(base, "home")),
        sorted(os.listdir(base)),
        snapshot(os.path.join(repo, ".git"), GIT_OWN),
    )
    runs = run_all(base, repo, case["commands"])
    for run in runs:
        said = run.stdout + run.stderr
        assert "Traceback" not in said, (case, run)
        if run.args[0] != "git":
            assert run.returncode in (0, 1, 2), (case, run)
            assert "internal error" not in said, (case, run)
    after = (
        snapshot(os.path.join(base, "outside")),
        snapshot(os.path.join(base, "home")),
        sorted(n for n in os.listdir(base) if n != "state"),
        snapshot(os.path.join(repo, ".git"), GIT_OWN),
    )
    assert after[0] == before[0], (case, "the directory beside the repository changed", runs)
    assert after[1] == before[1], (case, "the home directory changed", runs)
    assert after[2] == before[2], (case, "something appeared beside the repository", runs)
    assert after[3] == before[3], (case, ".git/ changed", runs)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(case=hostile)
def test_hostile_repository_changes_nothing_outside(template: str, case: dict) -> None:
    base, repo = build(template, case)
    try:
        check(base, repo, case)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_generator_makes_what_it_is_given(template: str) -> None:
    """A FIFO in a place below another FIFO is skipped (it used to raise
    FileExistsError), and none sits where git reads when git's own command runs."""
    case = {
        "links": [], "archive": None, "ocdir": None, "history": None, "schema": None,
        "fifos": [".claude", ".claude/settings.json", ".gitattributes"], "commands": ["merge"],
    }  # fmt: skip
    base, repo = build(template, case)
    try:
        assert stat.S_ISFIFO(os.lstat(os.path.join(repo, ".claude")).st_mode)
        assert not stat.S_ISFIFO(os.lstat(os.path.join(repo, ".gitattributes")).st_mode)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_every_command_on_the_most_hostile_repository(template: str) -> None:
    """Every command once, with every config path pointing out and links everywhere."""
    for archive, ocdir, history, schema in zip(
        [".git/hooks/post-checkout", "../outside/a.yaml"],
        ["../outside", ".git/hooks"],
        ["../../outside/{skill}.json", "../.git/{skill}.json"],
        ["./.git/config", "OUTABS/secret.txt"],
        strict=True,
    ):
        case = {
            "links": [
                (ARCHIVE, ".git/hooks/post-checkout", False),
                (".gitattributes", "HOME/.bashrc", True),
                (".checkpoints/history", "OUT/dir", False),
                (".claude", "OUT/dir", True),
                (CP, "/proc/self/environ", True),
            ],
            "fifos": [".pre-commit-config.yaml"],
            "archive": archive,
            "ocdir": ocdir,
            "history": history,
            "schema": schema,
            "commands": sorted(COMMANDS),
        }
        base, repo = build(template, case)
        try:
            check(base, repo, case)
        finally:
            shutil.rmtree(base, ignore_errors=True)


# ------------------------------------------------------------ move chains in patches
# Codex's apply_patch may move a file onto a checkpoint in several steps (Update File:
# A + Move to: B, then Update File: B + Move to: C, ...). Wherever a step's source is,
# the pre-write check reads nothing outside the repository and says nothing about it.
CHAIN_SOURCES = [
    "../outside/secret.txt", "OUTABS/secret.txt", "out-link.txt", "out-dir/secret.txt",
    ".git/config", "/proc/self/environ", "draft.yaml", "missing.yaml",
]  # fmt: skip
CHAIN_STEPS = ["mid.yaml", "sub/mid.yaml", "draft.yaml", "out-dir/landing.txt", CP]

move_chain = st.fixed_dictionaries(
    {
        "source": st.sampled_from(CHAIN_SOURCES),
        "steps": st.lists(st.sampled_from(CHAIN_STEPS), max_size=3),
        "update_after": st.booleans(),
        "deleted": st.lists(st.sampled_from(CHAIN_STEPS), max_size=1),
    }
)


def chain_patch(case: dict, base: str) -> str:
    names = [case["source"].replace("OUTABS", os.path.join(base, "outside"))]
    names += case["steps"] + [CP]
    lines = ["*** Begin Patch"]
    for name in case["deleted"]:
        lines.append(f"*** Delete File: {name}")
    for here, there in itertools.pairwise(names):
        if here != there:
            lines += [f"*** Update File: {here}", f"*** Move to: {there}"]
            lines += ["@@", "-milestone: m", "+milestone: m"]
    if case["update_after"]:
        lines += [f"*** Update File: {CP}", "@@", "-milestone: m", "+milestone: n"]
    return "\n".join([*lines, "*** End Patch"]) + "\n"


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(case=move_chain)
@example(case={"source": "OUTABS/secret.txt", "steps": ["mid.yaml"], "update_after": True,
               "deleted": []})  # fmt: skip
@example(case={"source": "../outside/secret.txt", "steps": ["sub/mid.yaml"],
               "update_after": False, "deleted": []})  # fmt: skip
def test_a_move_chain_reads_nothing_outside(tmp_path_factory, case: dict) -> None:
    base = str(tmp_path_factory.mktemp("move-chain"))
    repo = git_init(os.path.join(base, "repo"))
    write(repo, CP, "milestone: m\nstatus: in_progress\n")
    write(repo, "draft.yaml", "milestone: m\nstatus: planned\n")
    write(base, "outside/secret.txt", "milestone: m\nstatus: do-not-leak\n")
    os.symlink(os.path.join(base, "outside", "secret.txt"), os.path.join(repo, "out-link.txt"))
    os.symlink(os.path.join(base, "outside"), os.path.join(repo, "out-dir"))
    before = snapshot(os.path.join(base, "outside"))
    patch = chain_patch(case, base)
    payload = fixture("codex", "pre_tool_use_apply_patch", repo, tool_input={"command": patch})
    done = subprocess.run(
        [os.path.join(SCRIPTS, "asimov-hooks"), "agent-event", "--agent", "codex"],
        cwd=repo,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=script_env(HOME=os.path.join(base, "home")),
        timeout=120,
    )
    said = done.stdout + done.stderr
    assert done.returncode in (0, 1), (case, said)
    assert "Traceback" not in said and "internal error" not in said, (case, said)
    assert "do-not-leak" not in said, (case, said)
    assert os.path.join(base, "outside") not in said, (case, said)
    assert snapshot(os.path.join(base, "outside")) == before, case


# ------------------------------------------------------------------ a process racing us
# A local process (bounded in swaps and time, inside the example's temporary directory)
# swaps path components for links to the directory beside the repository while
# commands read and write: a file for a link to an outside file, a directory for a link
# to the outside directory, and back, again and again. Checking a path and then opening
# it by name loses this race; walking it by descriptor does not. fs.access's reads and
# writes run in a tight loop meanwhile (thousands of tries), then whole commands: the
# agent's re-read after a compaction, validate, trim, agent install and uninstall.
SECRET = "TOKEN-outside-do-not-leak"
RACE_PLACES = {  # place -> where its link leads, from the repository's top
    CP: "outside/" + CP,
    "d": "outside",
    f"d/{CP}": "outside/" + CP,
    ".claude": "outside",
}
RACE_COMMANDS = {
    "session-start": None,  # the agent's re-read after a compaction: agent context
    "validate": ["asimov-validate", CP, f"d/{CP}"],
    "trim": ["asimov-hooks", "trim", CP, f"d/{CP}"],
    "agent-install": ["asimov-hooks", "agent", "install"],
    "agent-uninstall": ["asimov-hooks", "agent", "uninstall"],
}
# bounds that do not depend on the machine's speed: the racer stops when told to, after
# MAX_SWAPS, or (should the test die) after MAX_RACE_SECONDS; each command is given
# COMMAND_SECONDS, far more than it takes even on a loaded machine (a run that waits
# for its own lock never ends: the bound turns that into a failure, not a hang)
MAX_SWAPS = 2_000_000
MAX_RACE_SECONDS = 900.0
COMMAND_SECONDS = 300


def _race_repo(base: str) -> str:
    repo = git_init(os.path.join(base, "repo"))
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    git(repo, "add", "warmup.yaml")  # committed: the repository follows the protocol
    write(repo, CP, LONG)
    write(repo, f"d/{CP}", LONG)
    write(repo, ".claude/settings.json", '{\n  "model": "opus"\n}\n')
    secret = f"milestone: {SECRET}\nstatus: in_progress\ncompleted:\n" + "".join(
        f"  - {SECRET} {i}\n" for i in range(9)
    )
    write(os.path.join(base, "outside"), CP, secret)
    write(os.path.join(base, "outside"), "settings.json", '{"hooks": {"' + SECRET + '": []}}\n')
    return repo


RACER = """
import json, os, sys, time
repo, stop, plan, pause, max_swaps, max_seconds = sys.argv[1:7]
plan, pause = json.loads(plan), float(pause)
end = time.monotonic() + float(max_seconds)
swaps = 0

def out(place, target):
    full = os.path.join(repo, place)
    if os.path.isdir(full) and not os.path.islink(full):
        os.rename(full, full + ".hold")
        os.symlink(target, full)
    else:
        os.link(full, full + ".hold")
        os.symlink(target, full + ".swap")
        os.replace(full + ".swap", full)

def back(place):
    full = os.path.join(repo, place)
    hold = full + ".hold"
    if not os.path.lexists(hold):
        return
    if os.path.isdir(hold):
        if os.path.islink(full):
            os.unlink(full)
        elif os.path.lexists(full):  # a command made it while it was away
            os.rename(full, full + ".made" + str(swaps))
        os.rename(hold, full)
    else:
        os.replace(hold, full)

while swaps < int(max_swaps) and not (swaps % 64 == 0 and os.path.exists(stop)):
    if time.monotonic() > end:
        break
    for place, target in plan:
        try:
            out(place, target)
            if pause:
                time.sleep(pause)
        except OSError:
            pass
        try:
            back(place)
        except OSError:
            pass
        swaps += 1
for place, _ in plan:
    try:
        back(place)
    except OSError:
        pass
print(swaps)
"""


class Racer:
    """A process that swaps `places` for links out and back, as fast as it can (or with
    `pause` seconds out), until stopped or its bounds are hit; the layout is put back."""

    def __init__(self, base: str, repo: str, places: list[str], absolute: bool, pause: float):
        self.stop = os.path.join(base, "stop-racing")
        plan = []
        for place in places:
            lead = RACE_PLACES[place]
            up = os.path.join(*([".."] * (place.count("/") + 1)), lead)
            plan.append((place, os.path.join(base, lead) if absolute else up))
        self.argv = [sys.executable, "-c", RACER, repo, self.stop, json.dumps(plan), str(pause),
                     str(MAX_SWAPS), str(MAX_RACE_SECONDS)]  # fmt: skip
        self.swaps = 0

    def __enter__(self) -> Racer:
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, text=True)
        return self

    def __exit__(self, *exc: object) -> None:
        with open(self.stop, "w", encoding="utf-8"):
            pass
        out, _ = self.proc.communicate(timeout=MAX_RACE_SECONDS + 30)
        os.unlink(self.stop)
        self.swaps = int(out.strip() or 0)


def _race_run(base: str, repo: str, name: str) -> subprocess.CompletedProcess:
    env = script_env(HOME=os.path.join(base, "home"), XDG_STATE_HOME=os.path.join(base, "state"))
    argv = RACE_COMMANDS[name]
    payload = None
    if argv is None:
        argv = ["asimov-hooks", "agent-event"]
        payload = json.dumps({
            "session_id": "s1", "transcript_path": os.path.join(repo, "t.jsonl"), "cwd": repo,
            "permission_mode": "default", "hook_event_name": "SessionStart", "source": "compact",
        })  # fmt: skip
    return subprocess.run(
        [os.path.join(SCRIPTS, argv[0]), *argv[1:]],
        cwd=repo, input=payload or "", capture_output=True, text=True, env=env,
        timeout=COMMAND_SECONDS,
    )  # fmt: skip


HAMMER_ROUNDS = 200


def _hammer(repo: str) -> list[str]:
    """fs.access's reads, writes and locks, in this process, as fast as they go for a
    fixed number of rounds: what any of them got from outside."""
    from asimov_hooks.fs import access

    got: list[str] = []
    for _ in range(HAMMER_ROUNDS):
        with access.locked(os.path.join(repo, CP), os.path.join(repo, "d", CP)):
            pass  # two names that may lead to one directory meanwhile: no self-wait
        for rel in (CP, f"d/{CP}", ".claude/settings.json"):
            path = os.path.join(repo, rel)
            with contextlib.suppress(access.FileProblem, OSError):
                if SECRET.encode() in access.read_bytes(path, 1 << 20, root=repo):
                    got.append(f"read_bytes {rel}")
            with contextlib.suppress(access.FileProblem, OSError):
                if SECRET.encode() in access.read_head(path, 1 << 16, root=repo)[0]:
                    got.append(f"read_head {rel}")
            with contextlib.suppress(access.FileProblem, OSError):
                access.atomic_write(path, LONG.encode(), root=repo)
        with contextlib.suppress(access.FileProblem, OSError):
            access.make_dirs(os.path.join(repo, "d", "sub"), repo)
    return got


racing = st.fixed_dictionaries(
    {
        "places": st.lists(
            st.sampled_from(sorted(RACE_PLACES)), min_size=1, max_size=3, unique=True
        ),
        "absolute": st.booleans(),
        "pause": st.sampled_from([0.0, 0.0002, 0.001]),
        "commands": st.lists(st.sampled_from(sorted(RACE_COMMANDS)), min_size=2, max_size=5),
    }
)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(case=racing)
def test_a_racing_process_gets_nothing_in_or_out(case: dict) -> None:
    """While a process swaps path components for links out, no command reads an outside
    file into its output or the agent's context, and none writes outside."""
    base = tempfile.mkdtemp(prefix="asimov-race-")
    try:
        repo = _race_repo(base)
        os.makedirs(os.path.join(base, "home"))
        before = snapshot(os.path.join(base, "outside")), sorted(os.listdir(base))
        runs = []
        with Racer(base, repo, case["places"], case["absolute"], case["pause"]) as racer:
            got = _hammer(repo)
            for name in case["commands"]:
                runs.append((name, _race_run(base, repo, name)))
        assert racer.swaps > 0, (case, "the racer never swapped anything")
        assert not got, (case, "read from outside", got[:5])
        for name, run in runs:
            said = run.stdout + run.stderr
            assert SECRET not in said, (case, name, said)
            assert os.path.join(base, "outside") not in said, (case, name, said)
            assert "Traceback" not in said and run.returncode in (0, 1, 2), (case, name, said)
        after = (
            snapshot(os.path.join(base, "outside")),
            sorted(n for n in os.listdir(base) if n != "state"),
        )
        assert after[0] == before[0], (case, "the directory beside the repository changed")
        assert after[1] == before[1], (case, "something appeared beside the repository")
    finally:
        shutil.rmtree(base, ignore_errors=True)


# ------------------------------------------------- config kinds aimed at ignored files
# A committed config declares kinds (new ones, or the shipped checkpoint kinds re-aimed)
# for git-ignored secrets and names them checkpoint kinds and protocol kinds. Whatever it
# says, no event puts a secret into the agent's context, and Stop never asks the agent to
# write one (which would overwrite it).
SECRETS = {
    ".env": "API_TOKEN=do-not-leak-env\n",
    "keys/deploy.pem": "-----BEGIN OPENSSH PRIVATE KEY-----\ndo-not-leak-pem\n",
    "secrets/prod.yaml": "password: do-not-leak-yaml\n",
    ".aws/credentials": "[default]\nkey = do-not-leak-aws\n",
}
SECRET_PATTERNS = [
    ".env", ".env*", "keys/*.pem", "*.pem", "secrets/*.yaml", "**/*.yaml", ".aws/credentials",
]  # fmt: skip
KIND_NAMES = [
    "secrets",
    "asimov-checkpoint",
    "oc-checkpoint",
    "asimov-warmup",
    "code-intel-session",
]
kind_spec = st.fixed_dictionaries(
    {
        "files": st.lists(st.sampled_from(SECRET_PATTERNS), min_size=0, max_size=3),
        "format": st.sampled_from(["text", "yaml"]),
    }
)
aimed_config = st.fixed_dictionaries(
    {
        "kinds": st.dictionaries(st.sampled_from(KIND_NAMES), kind_spec, min_size=1, max_size=3),
        "checkpoint-kinds": st.none() | st.lists(st.sampled_from(KIND_NAMES), max_size=3),
        "protocols": st.none()
        | st.dictionaries(
            st.sampled_from(["asimov", "oc", "secret"]),
            st.lists(st.sampled_from(KIND_NAMES), max_size=3),
            max_size=2,
        ),
        "checkpoint": st.booleans(),
        "ignored": st.lists(st.sampled_from(sorted(SECRETS)), min_size=1, unique=True),
    }
)


def _agent_events(repo: str, secrets: list[str]) -> list[tuple[str, dict]]:
    def event(name: str, **fields: object) -> dict:
        return {"session_id": "s1", "cwd": repo, "hook_event_name": name, **fields}

    edits = []
    for rel in secrets:
        tool_input = {"file_path": os.path.join(repo, rel), "old_string": "do", "new_string": "x"}
        edits += [
            ("pre", event("PreToolUse", tool_name="Edit", tool_input=tool_input)),
            ("post", event("PostToolUse", tool_name="Edit", tool_input=tool_input,
                           tool_response={"filePath": tool_input["file_path"]})),
        ]  # fmt: skip
    return [
        ("start", event("SessionStart", source="compact")),
        ("prompt", event("UserPromptSubmit", prompt="go on")),
        *edits,
        ("stop", event("Stop", stop_hook_active=False)),
    ]


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(case=aimed_config)
def test_config_kinds_aimed_at_ignored_files_never_reach_the_agent(case: dict) -> None:
    from agent_support import age_turn, run_event, turn_row

    base = tempfile.mkdtemp(prefix="aimed-")
    try:
        repo = git_init(os.path.join(base, "repo"))
        write(repo, ".gitignore", "".join(f"/{rel}\n" for rel in case["ignored"]) + f"{CP}\n")
        for rel, text in SECRETS.items():
            write(repo, rel, text)
        write(repo, "warmup.yaml", "identity:\n  project: demo\n")
        if case["checkpoint"]:
            write(repo, CP, "milestone: m\nstatus: in_progress\n")
        agent = {k: case[k] for k in ("checkpoint-kinds", "protocols") if case[k] is not None}
        write(repo, ".asimov-hooks.yaml", json.dumps({"kinds": case["kinds"], "agent": agent}))
        env = {"HOME": os.path.join(base, "home"), "XDG_STATE_HOME": os.path.join(base, "state")}
        for step, payload in _agent_events(repo, case["ignored"][:2]):
            if step == "stop" and turn_row(repo, "s1") is not None:
                age_turn(repo, "s1", 3600)  # an hour of work: the stop is due
            proc = run_event(None, payload, repo, **env)
            said = proc.stdout + proc.stderr
            for rel in case["ignored"]:
                marker = SECRETS[rel].split("do-not-leak", 1)[1].split()[0]
                assert f"do-not-leak{marker}" not in said, (case, step, said)
            if step == "stop":
                for rel in SECRETS:
                    assert rel not in said, (case, said)  # never asked to write a secret
        for rel, text in SECRETS.items():
            with open(os.path.join(repo, rel), encoding="utf-8") as fh:
                assert fh.read() == text, (case, rel)
    finally:
        shutil.rmtree(base, ignore_errors=True)


# ------------------------------------------ control bytes and `::` in every printed field
# Skill names (committed file names), next_actions, config keys, settings keys and URLs
# built from pieces that forge CI workflow commands or drive a terminal, run through the
# commands that print them, each as its own process: no raw control byte is printed, and
# no line starts like a workflow command unless it is an annotation the command writes.
PIECES = [
    "::error file=f.py,line=1::FORGED", "::stop-commands::tok", "##[error]x", "::", "\n",
    "\r", "\t", "\x1b[31m", "\x1b]0;title\x07", "\x9b2J", "\u2028", "\x85", "\x0b", " ",
    "\u3000", "%0A", "a", "skill",
]  # fmt: skip
RAW = ("\x1b", "\x07", "\x9b", "\r", "\x00", "\x0b", "\x85", "\u2028")
ANNOTATION = re.compile(r"^::(error|warning|notice) file=[^\n]*?,line=\d+,col=\d+,title=")
forged = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join)
printed = st.fixed_dictionaries(
    {
        "skill": forged.filter(lambda s: s.strip() not in ("", ".", "..")),
        "action": forged,
        "summary": forged,
        "config_key": st.none() | forged,
        "settings_key": forged,
        "url": forged,
    }
)
# (arguments, also run in .checkpoints/ where a file name starts the line, also under
# GITHUB_ACTIONS=true where the command writes annotations)
PRINTING = [
    (("oc", "status"), True, True), (("oc", "status", "--brief"), False, False),
    (("oc", "list"), True, False), (("oc", "next"), False, False), (("oc", "show"), False, False),
    (("oc", "doctor"), True, True), (("oc", "doctor", "--online"), False, True),
    (("oc", "done", "{skill}"), True, False),
    (("oc", "doctor", "--online", "--url", "{url}"), False, False),
    (("agent", "install"), False, False), (("agent", "uninstall"), False, False),
    (("validate", "."), False, True),
]  # fmt: skip


def assert_printed_clean(proc: subprocess.CompletedProcess, github: bool) -> None:
    said = proc.stdout + proc.stderr
    assert "Traceback" not in said and "internal error" not in said, said
    for byte in RAW:
        assert byte not in said, (byte, proc.args, said)
    for line in said.split("\n"):
        if line.lstrip().startswith(("::", "##[")):
            assert github and ANNOTATION.match(line), (proc.args, line)


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(case=printed)
def test_printed_fields_cannot_forge_output(case: dict) -> None:
    base = tempfile.mkdtemp(prefix="printed-")
    try:
        repo = git_init(os.path.join(base, "repo"))
        skill = case["skill"].replace("/", "_").replace("\x00", "_")
        doc = oc_checkpoint(
            skill=skill,
            next_actions=[case["action"], "second"],
            progress_summary=case["summary"],
        )
        write(repo, f".checkpoints/{skill}.checkpoint.json", doc)
        config = {"oc": {"health-url": case["url"]}}
        if case["config_key"] is not None:
            config[case["config_key"]] = 1
        write(repo, ".asimov-hooks.yaml", json.dumps(config))
        key = json.dumps(case["settings_key"])
        write(repo, ".claude/settings.json", f'{{{key}: 1, "hooks": {{}}, {key}: 2}}\n')
        commit_all(repo, "hostile fields")
        env = script_env(HOME=os.path.join(base, "home"), XDG_STATE_HOME=os.path.join(base, "s"))
        for command, in_dir, annotated in PRINTING:
            argv = [a.format(skill=skill, url=case["url"]) for a in command]
            runs = [(repo, False)] + [(os.path.join(repo, ".checkpoints"), False)] * in_dir
            runs += [(repo, True)] * annotated
            for cwd, github in runs:
                proc = subprocess.run(
                    [os.path.join(SCRIPTS, "asimov-hooks"), *argv],
                    cwd=cwd, capture_output=True, text=True, errors="surrogateescape",
                    env={**env, "GITHUB_ACTIONS": "true"} if github else env,
                    timeout=120, stdin=subprocess.DEVNULL,
                )  # fmt: skip
                assert proc.returncode in (0, 1, 2), proc
                assert_printed_clean(proc, github)
    finally:
        shutil.rmtree(base, ignore_errors=True)
