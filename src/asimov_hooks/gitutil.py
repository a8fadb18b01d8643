"""Git plumbing: the one place that runs `git` for install, uninstall, doctor and the
file search, and the one answer to "where is the top of this work tree".

Everything goes through the real `git` binary (never by editing .git/config), so
scopes, includes and worktrees behave exactly as git itself sees them. Importing this
module costs nothing (subprocess and shlex are imported on first use): `find_toplevel`
is on every hook's path.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    import subprocess

BLOCK_START = "# >>> asimov-hooks merge driver (managed by `asimov-hooks install`)"
BLOCK_END = "# <<< asimov-hooks merge driver"
DRIVER_MODULE = "asimov_hooks.merge.driver"
DRIVER_ARGS = "-- %O %A %B %L %P"  # after `--`, a %P starting with `-` is a path


class GitError(Exception):
    """git is missing or refused; reported as one line, exit code 2."""


def blocking_git_file(cwd: str | None = None, paths: list[str] | None = None) -> str | None:
    """`gitfiles.blocking_git_file`: a file git would open and wait on for ever."""
    from .gitfiles import blocking_git_file as blocking

    return blocking(cwd, paths)


def would_block(
    args: tuple[str, ...] | list[str], cwd: str | None, stdin: str | None
) -> str | None:
    """`gitfiles.would_block`: why `git *args` in `cwd` would wait for ever, or None."""
    from .gitfiles import would_block as blocks

    return blocks(args, cwd, stdin)


def git(
    *args: str, cwd: str | None = None, check: bool = True, stdin: str | None = None
) -> subprocess.CompletedProcess:
    import subprocess

    blocked = would_block(args, cwd, stdin)
    if blocked:
        raise GitError(blocked)
    try:
        done = subprocess.run(  # names that are not UTF-8 round-trip as os paths do
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            encoding="utf-8",
            errors="surrogateescape",
            check=False,
            input=stdin,
        )
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror or exc}") from None
    if check and done.returncode != 0:
        message = (done.stderr or done.stdout).strip().splitlines()
        raise GitError(f"git {args[0]} failed: {message[0] if message else done.returncode}")
    return done


# ---------------------------------------------------------------- the top of the work tree
def toplevel(cwd: str | None = None) -> str | None:
    """`git rev-parse --show-toplevel` run in `cwd`: None outside a work tree. Raises
    GitError when git cannot be run."""
    done = git("rev-parse", "--show-toplevel", cwd=cwd, check=False)
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def redirected() -> bool:
    """Whether GIT_DIR / GIT_WORK_TREE tell git where the repository is (as git sets
    GIT_DIR for hooks in a linked worktree): then only git knows its top."""
    return "GIT_DIR" in os.environ or "GIT_WORK_TREE" in os.environ


def find_toplevel(start: str, for_git: bool = False) -> str | None:
    """The top of the work tree holding `start` (a physical path), or None outside one:
    what `git rev-parse --show-toplevel` answers, found by looking for `.git` upwards
    without starting git (a hook must not pay a process for it).

    `for_git`: the answer is used to hand paths to git, so when GIT_DIR / GIT_WORK_TREE
    redirect git, git is asked (with GIT_DIR alone it takes the directory it runs in as
    the top, which no file system walk can know); None too when git cannot be run.
    """
    if for_git and redirected():
        try:
            return toplevel(start)
        except GitError:
            return None
    from .fs.trees import tree_of  # a link to another repository is not a work tree

    return tree_of(start)


def find_git_dir(top: str) -> str | None:
    """The git directory of the work tree `top` (`gitfiles.find_git_dir`)."""
    from .gitfiles import find_git_dir as git_dir

    return git_dir(top)


def git_path(name: str, cwd: str | None = None) -> str:
    """A path inside the repository's git directory (worktree- and hooksPath-aware)."""
    out = git("rev-parse", "--git-path", name, cwd=cwd).stdout.strip()
    return os.path.abspath(os.path.join(cwd or os.getcwd(), out))


def scope_args(global_: bool) -> list[str]:
    return ["--global"] if global_ else ["--local"]


def config_get(key: str, scope: list[str] | None = None, cwd: str | None = None) -> str | None:
    done = git("config", *(scope or []), "--get", key, cwd=cwd, check=False)
    return done.stdout.rstrip("\n") if done.returncode == 0 else None


def config_scope_of(key: str, cwd: str | None = None) -> tuple[str, str] | None:
    """(scope, value) of the value git will use for `key`, or None."""
    done = git("config", "--show-scope", "--get", key, cwd=cwd, check=False)
    if done.returncode != 0:
        return None
    scope, _, value = done.stdout.rstrip("\n").partition("\t")
    return scope, value


def global_attributes_file() -> str:
    configured = config_get("core.attributesFile", ["--global"])
    if configured:
        return os.path.expanduser(configured)
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(xdg, "git", "attributes")


# ---------------------------------------------------------------- the driver command
def driver_command(python: str | None = None, package_dir: str | None = None) -> str:
    """The shell command git runs: this interpreter, guarded so that a deleted
    environment (pre-commit rebuilds its own) degrades to git's line merge with a
    conflict instead of leaving %A untouched behind a bare failure status.

    It runs `python -m asimov_hooks.merge.driver`, the same driver as `asimov-hooks
    merge-driver` without loading the CLI framework, which is most of the start-up.
    """
    import shlex

    python = python or sys.executable
    if package_dir is None:
        package_dir = os.path.dirname(os.path.realpath(__file__))
    py = shlex.quote(python)
    main = shlex.quote(os.path.join(package_dir, "merge", "driver.py"))
    missing = (
        "echo 'asimov-hooks merge driver not found (run asimov-hooks install); "
        "falling back to a line merge' >&2"
    )
    return (
        f"if [ -x {py} ] && [ -f {main} ]; then {py} -m {DRIVER_MODULE} {DRIVER_ARGS}; "
        f"else {missing}; git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B "
        "|| exit 1; fi"
    )


def command_paths(command: str) -> tuple[str, str] | None:
    """(python, merge/driver.py) named by a command `driver_command` wrote, else None."""
    import shlex

    try:
        words = shlex.split(command.replace(";", " ; "))
    except ValueError:
        return None
    checks = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-x", "-f")]
    if len(checks) >= 2 and words[:2] == ["if", "["]:
        return checks[0], checks[1]
    return None


# ---------------------------------------------------------------- attributes file
def read_lines(path: str, git_internal: bool = False) -> tuple[list[str], str]:
    """The file's lines (without endings) and its line ending; missing file is empty.
    Read through fs.access: a link out of the work tree (or into .git/, unless
    `git_internal`) is refused (UnsafePath), a FIFO or device is not read."""
    from .fs.access import confine, read_bytes

    confine(path, what="attributes file", git_internal=git_internal)
    if not os.path.lexists(path):
        return [], "\n"
    text = read_bytes(path, git_internal=git_internal).decode("utf-8", "surrogateescape")
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":  # the final newline does not start another line
        lines.pop()
    return lines, newline


def split_block(lines: list[str]) -> tuple[list[str], list[str], int | None]:
    """(lines outside our block, lines inside it, index where the block started)."""
    outside, inside, start = [], [], None
    in_block = False
    for i, line in enumerate(lines):
        if line.strip() == BLOCK_START:
            in_block, start = True, i
        elif in_block and line.strip() == BLOCK_END:
            in_block = False
        elif in_block:
            inside.append(line)
        else:
            outside.append(line)
    return outside, inside, start


def routed_patterns(lines: list[str], driver: str) -> set[str]:
    """Patterns that these attribute lines already send to `driver`."""
    found = set()
    for line in lines:
        words = line.split()
        if words and not words[0].startswith("#") and f"merge={driver}" in words[1:]:
            found.add(words[0])
    return found


def write_block(
    path: str, wanted: list[str], git_internal: bool = False
) -> tuple[list[str], list[str]]:
    """Make our managed block hold exactly `wanted` lines (none: no block).

    `git_internal`: the file is git's own (`info/attributes`, at the path git gave);
    any other must stay inside the work tree, a link out of it is refused.

    Returns (lines added, lines removed) compared with the block before.
    """
    from .fs.access import atomic_write, make_dirs, remove

    lines, newline = read_lines(path, git_internal)
    outside, inside, start = split_block(lines)
    if inside == wanted and (start is not None) == bool(wanted):
        return [], []
    if start is None:
        new = list(outside)
        if wanted:
            if new and new[-1].strip():
                new.append("")
            new += [BLOCK_START, *wanted, BLOCK_END]
    else:
        before = [ln for ln in lines[:start]]
        after_start = lines[start:]
        end = next(
            (i for i, ln in enumerate(after_start) if ln.strip() == BLOCK_END), len(after_start)
        )
        after = after_start[end + 1 :]
        block = [BLOCK_START, *wanted, BLOCK_END] if wanted else []
        if not wanted and before and not before[-1].strip() and (not after or not after[0].strip()):
            before = before[:-1]  # the blank line install put in front of the block
        new = before + block + after
    if not new and not os.path.exists(path):
        return [], []
    if not new:  # it held only our block: install created it, so it goes
        remove(path, git_internal=git_internal)
    else:
        make_dirs(os.path.dirname(os.path.abspath(path)), git_internal=git_internal)
        atomic_write(
            path,
            (newline.join(new) + newline).encode("utf-8", "surrogateescape"),
            git_internal=git_internal,
        )
    added = [ln for ln in wanted if ln not in inside]
    removed = [ln for ln in inside if ln not in wanted]
    return added, removed
