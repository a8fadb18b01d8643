"""`asimov-hooks doctor`: is the checkpoint merge driver actually going to run?

A merge driver fails silently in three ways: no .gitattributes line routes the file to
it, the git config that names it is missing (config is per clone), or the command it
names no longer exists (pre-commit rebuilt its environment, a venv was deleted). The
doctor checks each checkpoint path with `git check-attr`, runs the configured command
on a small merge, and says what to do about anything that is off.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time

import click

from ..fs.access import show
from ..gitutil import (
    GitError,
    command_paths,
    config_scope_of,
    git,
    git_path,
    toplevel,
)
from ..merge.install import merge_settings

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

SMOKE_PATH = ".claude_checkpoint.yaml"
SMOKE = {
    "base": 'timestamp: "2026-01-01T10:00:00Z"\ntool_calls: 1\nmilestone: "doctor"\n',
    "ours": 'timestamp: "2026-01-01T11:00:00Z"\ntool_calls: 3\nmilestone: "doctor"\n',
    "theirs": 'timestamp: "2026-01-01T12:00:00Z"\ntool_calls: 2\nmilestone: "doctor"\n',
}
SMOKE_EXPECT = 'timestamp: "2026-01-01T12:00:00Z"\ntool_calls: 3\nmilestone: "doctor"\n'


class Report:
    """Lines of the report and whether anything failed."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.failed = False
        self.disabled = False  # ASIMOV_HOOKS_MERGE_DRIVER turns it off here

    def add(self, level: str, message: str, fix: str | None = None) -> None:
        self.lines.append(f"  {level:<4} {message}")
        if fix:
            self.lines.append(f"       -> {fix}")
        if level == "FAIL":
            self.failed = True

    def head(self, title: str) -> None:
        self.lines.append(title)


def smoke_test(command: str, top: str) -> tuple[bool, str]:
    """Run the configured driver command as git would, on a merge with a known answer."""
    from ..fs.access import FileProblem, atomic_write, read_bytes

    with tempfile.TemporaryDirectory(prefix="asimov-doctor-") as tmp:
        paths = {}
        for name, text in SMOKE.items():
            paths[name] = os.path.join(tmp, name)
            atomic_write(paths[name], text.encode("utf-8"))
        expanded = (
            command.replace("%O", shlex.quote(paths["base"]))
            .replace("%A", shlex.quote(paths["ours"]))
            .replace("%B", shlex.quote(paths["theirs"]))
            .replace("%L", "7")
            .replace("%P", shlex.quote(SMOKE_PATH))
        )
        env = {k: v for k, v in os.environ.items() if k != "ASIMOV_HOOKS_MERGE_DRIVER"}
        started = time.perf_counter()
        try:
            done = subprocess.run(
                ["sh", "-c", expanded],
                cwd=top,
                capture_output=True,
                text=True,
                env=env,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, f"could not run it: {exc}"
        took = (time.perf_counter() - started) * 1000
        try:
            result = read_bytes(paths["ours"], confined=False).decode("utf-8", "replace")
        except FileProblem as problem:
            result = f"({problem.message})"
    if done.returncode == 0 and result == SMOKE_EXPECT:
        return True, f"the command runs and merged a test checkpoint correctly ({took:.0f} ms)"
    if done.returncode == 1 and "merge-driver: CONFLICT in" in done.stderr:
        return True, (
            f"the command runs ({took:.0f} ms); this repository's merge policies make the "
            "test merge (timestamp, tool_calls) a conflict"
        )
    first = (done.stderr.strip().splitlines() or [""])[0]
    return False, f"exit {done.returncode}" + (f": {first}" if first else "")


def _check_driver(report: Report, name: str, top: str) -> str | None:
    report.head(f"merge driver '{name}' (git config):")
    found = config_scope_of(f"merge.{name}.driver", cwd=top)
    if found is None:
        report.add(
            "FAIL", f"merge.{name}.driver is not set, so git ignores merge={name}", _register(top)
        )
        return None
    scope, command = found
    report.add("ok", f"merge.{name}.driver is set ({scope} config)")
    paths = command_paths(command)
    if paths is not None:
        python, main = paths
        if not (os.path.isfile(python) and os.access(python, os.X_OK)):
            report.add(
                "FAIL",
                f"its interpreter no longer exists: {python}",
                "the environment was rebuilt or deleted (pre-commit does this on updates); "
                "run `asimov-hooks install` again from the current environment",
            )
        elif not os.path.isfile(main):
            report.add(
                "FAIL",
                f"asimov-hooks is no longer installed next to {python}",
                "reinstall asimov-hooks in that environment, or run `asimov-hooks install` "
                "from the one you use now",
            )
        elif os.path.realpath(python) != os.path.realpath(sys.executable):
            report.add("info", f"it uses {python} (this doctor runs {sys.executable})")
    ok, detail = smoke_test(command, top)
    if ok:
        report.add("ok", detail)
    else:
        report.add(
            "FAIL",
            f"the command does not merge checkpoints: {detail}",
            "run `asimov-hooks install` to point it at a working environment",
        )
    recursive = config_scope_of(f"merge.{name}.recursive", cwd=top)
    if recursive is None or recursive[1] != "binary":
        report.add(
            "warn",
            f"merge.{name}.recursive is not 'binary'; criss-cross merges will run the "
            "driver on a virtual base that may hold conflict markers",
            "run `asimov-hooks install`",
        )
    if os.environ.get("ASIMOV_HOOKS_MERGE_DRIVER", "").strip().lower() in (
        "0",
        "false",
        "no",
        "off",
        "disable",
        "disabled",
    ):
        report.add(
            "FAIL",
            "ASIMOV_HOOKS_MERGE_DRIVER disables the driver in this environment "
            "(git's line merge runs instead)",
            "unset ASIMOV_HOOKS_MERGE_DRIVER",
        )
        report.disabled = True
    return command


def _register(top: str) -> str:
    """How this clone gets the driver registered: the team's pre-commit hook (once its
    git hooks are installed), or `asimov-hooks install`."""
    if b"asimov-merge-driver" not in _config_ids(top):
        return "run `asimov-hooks install` (or add the asimov-merge-driver pre-commit hook)"
    if all(_hook_installed(stage, top) for stage in _DRIVER_HOOK_TYPES):
        return (
            "the asimov-merge-driver pre-commit hook registers it at the next checkout or "
            "merge; `asimov-hooks install` registers it now"
        )
    return (
        "run `pre-commit install`: .pre-commit-config.yaml has the asimov-merge-driver "
        "hook, which then registers it at the next checkout or merge (`asimov-hooks "
        "install` registers it now)"
    )


def checkpoint_paths(top: str, config: Any, patterns: list[str], kinds: list[str]) -> list[str]:
    """Checkpoint files in the work tree, or example paths when there are none yet."""
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=top)
    found = []
    for rel in sorted(set(filter(None, listed.stdout.split("\0")))):
        if config.kind_for(rel) in kinds:
            found.append(rel)
    if found:
        return found
    return [p.replace("**/", "").replace("*", "example").lstrip("/") for p in patterns]


def archive_paths(top: str, config: Any) -> list[str]:
    """Trim archives (every volume) git would merge: tracked, or untracked and not
    ignored; none when there are none (an ignored archive is never merged)."""
    kinds = [kind for kind, spec in config.kinds.items() if spec.get("archive")]
    return checkpoint_paths(top, config, [], kinds) if kinds else []


def _check_attributes(report: Report, name: str, top: str, config: Any, settings: dict) -> None:
    wanted = [
        (rel, name, settings["patterns"])
        for rel in checkpoint_paths(top, config, settings["patterns"], settings["kinds"])
    ]
    driver = settings["archive-driver"]
    wanted += [(rel, driver, settings["archive-patterns"]) for rel in archive_paths(top, config)]
    report.head("checkpoint paths (git check-attr merge):")
    listed = "".join(f"{rel}\0" for rel, _, _ in wanted)  # --stdin: no argument-length limit
    out = git("check-attr", "--stdin", "-z", "merge", cwd=top, stdin=listed).stdout.split("\0")
    values = {out[i]: out[i + 2] for i in range(0, len(out) - 2, 3)}
    for rel, expected, patterns in wanted:
        value = values.get(rel, "unspecified")
        if value == expected:
            report.add("ok", f"{rel}: merge={expected}")
        elif value == "unspecified":
            report.add(
                "FAIL",
                f"{rel}: no merge attribute, so git's line merge runs",
                f"add `{_pattern_for(rel, patterns)} merge={expected}` to "
                ".gitattributes (`asimov-hooks install` does it) and commit it",
            )
        else:
            report.add(
                "FAIL",
                f"{rel}: merge={value} (set by an attributes line), not merge={expected}",
                "find the line with `git check-attr -a -- " + shlex.quote(rel) + "` and change it",
            )


def _pattern_for(rel: str, patterns: list[str]) -> str:
    """The attributes pattern that would route `rel`: gitattributes anchors a pattern
    with a slash at the file's directory, so a nested file gets its prefix."""
    from ..config.globs import match_any

    for pattern in patterns:
        if match_any(rel, [pattern]):
            bare = pattern.strip("/")
            if "/" not in bare:
                return bare
            prefix = "/".join(rel.split("/")[: -(bare.count("/") + 1)])
            return f"{prefix}/{bare}" if prefix else bare
    return rel


# the git hooks pre-commit must install for our hooks to run: the file hooks on commits
# and on the merge commits git makes itself, the merge-driver hook on checkouts and merges
_FILE_HOOK_TYPES = ("pre-commit", "pre-merge-commit")
_DRIVER_HOOK_TYPES = ("post-checkout", "post-merge")


def _config_ids(top: str) -> set[bytes]:
    """Our hook ids in the repository's pre-commit config (none without one)."""
    import re

    from ..fs.access import FileProblem, read_bytes

    config_file = os.path.join(top, ".pre-commit-config.yaml")
    try:
        return set(re.findall(rb"id:\s*['\"]?(asimov-[a-z-]+)", read_bytes(config_file)))
    except FileProblem:
        return set()


def _check_hooks(report: Report, top: str) -> None:
    ids = _config_ids(top)
    wanted = [
        *(_FILE_HOOK_TYPES if ids - {b"asimov-merge-driver"} else ()),
        *(_DRIVER_HOOK_TYPES if b"asimov-merge-driver" in ids else ()),
    ]
    if not wanted:
        return
    report.head("pre-commit's git hooks (.pre-commit-config.yaml):")
    missing = [stage for stage in wanted if not _hook_installed(stage, top)]
    fix = (
        "run `pre-commit install` with them in default_install_hook_types (`asimov-hooks "
        "init` adds them there), or `pre-commit install "
        + " ".join(f"--hook-type {t}" for t in missing)
        + "`"
    )
    for stage in wanted:
        if stage not in missing:
            report.add("ok", f"{stage} hook installed")
        else:
            last = stage == missing[-1]
            report.add(
                "warn", f"{stage} hook not installed: {_WHAT_RUNS[stage]}", fix if last else None
            )


def _hook_installed(stage: str, top: str) -> bool:
    from ..fs.access import FileProblem, read_bytes

    path = git_path(f"hooks/{stage}", cwd=top)
    try:  # git's own hook file, where git says it is (core.hooksPath)
        return b"pre-commit" in read_bytes(path, confined=False)
    except FileProblem:
        return False


_WHAT_RUNS = {
    "pre-commit": "commits are not checked",
    "pre-merge-commit": "a merge git completes on its own is not checked",
    "post-checkout": "new clones do not register the merge driver",
    "post-merge": "new clones do not register the merge driver",
}


def diagnose(top: str) -> Report:
    from ..config.config import load_config

    config = load_config(None, start=top)
    settings = merge_settings(config)
    report = Report()
    _check_driver(report, settings["name"], top)
    _check_attributes(report, settings["name"], top, config, settings)
    _check_hooks(report, top)
    from ..agent.install.health import diagnose as agent_lines

    report.head("Agent hooks (asimov-hooks agent install):")
    for level, message, fix in agent_lines(top):
        report.add(level, message, fix)
    return report


@click.command("doctor", context_settings={"help_option_names": ["-h", "--help"]})
def command() -> None:
    """Check that the checkpoint merge driver is registered, resolves and is active.

    Exit 0 when everything is in place, 1 when something needs fixing (each problem
    comes with what to do), 2 when the check itself could not run.
    """
    from ..config.config import ConfigError

    try:
        top = toplevel()
        if top is None:
            raise GitError("not inside a git work tree")
        report = diagnose(top)
    except (GitError, ConfigError, OSError) as exc:
        sys.stderr.write(f"asimov-hooks doctor: {show(str(exc))}\n")
        sys.exit(2)
    for line in report.lines:  # one line each: a path cannot start a line of its own
        click.echo(show(line))
    if report.disabled:
        click.echo("merge driver disabled here by ASIMOV_HOOKS_MERGE_DRIVER")
    else:
        click.echo(
            "problems found" if report.failed else "merge driver active for every checkpoint path"
        )
    sys.exit(1 if report.failed else 0)
