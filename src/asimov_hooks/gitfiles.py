"""The files git opens for us, looked at before git runs.

git opens its files by name and reads them to the end: a FIFO (or a socket, a device)
where it expects one makes git, and the hook waiting for git, wait for ever. So before a
git command runs, every file it may open is looked at (never opened), and a special file
there is refused in one line naming it. Which files (git's documentation: git-config
"FILES" and "Includes", gitignore, gitattributes, gitmailmap, gitmodules):

- every command: the config files (system: `$GIT_CONFIG_SYSTEM` or `/etc/gitconfig`,
  unless `GIT_CONFIG_NOSYSTEM`; global: `$GIT_CONFIG_GLOBAL`, else `~/.gitconfig` and
  `$XDG_CONFIG_HOME/git/config`; the repository's `config` and `config.worktree`) and
  every file they include (`include.path`, `includeIf.*.path`);
- weighing ignored files (`ls-files --others`, `check-ignore`, `status`...): `.gitignore`
  in each directory, `info/exclude`, `core.excludesFile` (default `$XDG.../git/ignore`);
- reading attributes (`check-attr`, `status`...): `.gitattributes` in each directory,
  `info/attributes`, `core.attributesFile` (default `$XDG.../git/attributes`) and
  `/etc/gitattributes` (unless `GIT_ATTR_NOSYSTEM`);
- `log`, `show`, `shortlog`, `blame`: `.mailmap` at the top and `mailmap.file`;
  `status`: `.gitmodules`.

A configured file (`core.excludesFile`, `core.attributesFile`, `mailmap.file`) is asked
of git, once per process and only where a config file names that key, once every config
file was found regular (so the question cannot hang). The per-directory files are looked
for along the paths a command is given, or through the whole tree for a listing.
"""

from __future__ import annotations

import os
import stat

# git subcommands that open every .gitignore / .gitattributes on their way
READS_IGNORE_FILES = frozenset(
    {"ls-files", "check-ignore", "check-attr", "status", "add", "commit", "clean", "stash", "merge"}
)
_GIT_READS = (".gitignore", ".gitattributes")
# `ls-files` lists the index alone unless one of these asks for what is not tracked
_LS_FILES_READS = ("-o", "--others", "-i", "--ignored", "--exclude-standard", "--eol", "--format")
# the repository-wide files, by what a subcommand reads
_IGNORES = frozenset({"ls-files", "check-ignore", "status", "add", "commit", "clean", "stash"})
_ATTRIBUTES = frozenset({"check-attr", "status", "add", "commit", "stash", "merge", "diff"})
_MAILMAP = frozenset({"log", "show", "shortlog", "blame", "check-mailmap"})
_MODULES = frozenset({"status", "submodule"})
_KEYS = ("core.excludesfile", "core.attributesfile", "mailmap.file")
_MAX_CONFIG = 4 * 1024 * 1024  # a config file larger than this is git's to judge
_MAX_INCLUDES = 10  # git's own depth for include chains
_CONFIGURED: dict[tuple, dict[str, str]] = {}  # per process: (config files) -> key -> path
_TEXTS: dict[str, tuple[tuple[int, int, int], str | None]] = {}  # path -> (stat, text)


def blocking_git_file(cwd: str | None = None, paths: list[str] | None = None) -> str | None:
    """A `.gitignore` or `.gitattributes` that git would open in the work tree holding
    `cwd` and that is a FIFO, a socket or a device: git's open blocks on a FIFO for
    ever. One line naming it, or None.

    git opens these files in every directory it visits: for `paths` (what
    `check-ignore`/`check-attr` are asked about, relative to `cwd`) the top and each
    directory down to each path; otherwise every directory a listing or a status walks
    into, so the whole work tree is looked at: its directories are listed, nothing is
    opened, no link is followed, and `.git/` and nested repositories (which git does not
    enter) are skipped."""
    here = os.path.realpath(cwd or os.getcwd())
    return _blocking(_top(here), here, paths)


def _blocking(top: str | None, here: str, paths: list[str] | None) -> str | None:
    if top is None:
        return None
    found = _special_git_file(top) if paths is None else _special_on_paths(top, here, paths)
    return None if found is None else _refusal(found)


def would_block(
    args: tuple[str, ...] | list[str], cwd: str | None, stdin: str | None
) -> str | None:
    """Why `git *args` in `cwd` would wait for ever (one line naming the file), or None
    when every file the subcommand opens (above) is a regular file, a directory or missing."""
    if not args:
        return None
    sub = args[0]
    here = os.path.realpath(cwd or os.getcwd())
    top = _top(here)
    found = _repository_file(top, sub, args)
    if found is not None:
        return _refusal(found)
    if sub not in READS_IGNORE_FILES or (sub == "ls-files" and _index_only(args)):
        return None  # the index alone: no need to look at every directory of the tree
    if sub in ("check-ignore", "check-attr"):
        at = list(args).index("--") + 1 if "--" in args else 1  # no `--`: all but options
        listed = [arg for arg in args[at:] if at > 1 or not arg.startswith("-")]
        if "--stdin" in args and stdin:
            listed += [p for p in stdin.split("\0" if "-z" in args else "\n") if p]
        return _blocking(top, here, listed)
    return _blocking(top, here, None)


def find_git_dir(top: str) -> str | None:
    """The git directory of the work tree `top` (`.git`, or where a `.git` file
    of a linked worktree or submodule points), without starting git."""
    dotgit = os.path.join(top, ".git")
    if os.path.isdir(dotgit):
        return dotgit
    from .fs.access import FileProblem, read_bytes

    try:  # the `.git` file is git's, not the checkout's: read, but bounded
        raw = read_bytes(dotgit, 64 * 1024, confined=False)
    except FileProblem:
        return None
    first = raw.decode("utf-8", "replace").split("\n", 1)[0].strip()
    if first.startswith("gitdir:"):
        return os.path.normpath(os.path.join(top, first[len("gitdir:") :].strip()))
    return None


# ---------------------------------------------------------------- repository-wide files
def _top(here: str) -> str | None:
    from .fs.trees import tree_of  # gitutil.find_toplevel without git: no process

    return tree_of(here)


def _index_only(args: tuple[str, ...] | list[str]) -> bool:
    """Whether an `ls-files` command line lists the index alone (no ignore rules read)."""
    end = list(args).index("--") if "--" in args else None
    return not any(
        arg.split("=", 1)[0] in _LS_FILES_READS or arg.startswith("--exclude-per-directory")
        for arg in args[1:end]
    )


def _repository_file(
    top: str | None, sub: str, args: tuple[str, ...] | list[str]
) -> tuple[str, str, bool] | None:
    """(path, shown, whether a FIFO) of the first special file among the config files
    and the repository-wide files `git sub` reads; None when there is none."""
    git_dir, common = _git_dirs(top)
    configs, found = _config_files(git_dir, common)
    if found is not None:
        return found
    ignores = sub in _IGNORES and not (sub == "ls-files" and _index_only(args))
    attributes = sub in _ATTRIBUTES or (sub == "ls-files" and "--eol" in args)
    mailmap = sub in _MAILMAP
    if not (ignores or attributes or mailmap or sub in _MODULES):
        return None
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    configured = _configured(configs, top)
    candidates: list[tuple[str, bool]] = []  # (path, follow links)
    if ignores:
        candidates.append((configured.get("core.excludesfile", f"{xdg}/git/ignore"), True))
        if common:
            candidates.append((os.path.join(common, "info", "exclude"), True))
    if attributes:
        candidates.append((configured.get("core.attributesfile", f"{xdg}/git/attributes"), True))
        if git_dir:
            candidates.append((os.path.join(common or git_dir, "info", "attributes"), True))
        if not _env_true("GIT_ATTR_NOSYSTEM"):
            candidates.append(("/etc/gitattributes", True))
    if mailmap:
        if "mailmap.file" in configured:
            candidates.append((configured["mailmap.file"], True))
        if top:  # git reads the top's .mailmap without following a link
            candidates.append((os.path.join(top, ".mailmap"), False))
    if sub in _MODULES and top:
        candidates.append((os.path.join(top, ".gitmodules"), False))
    for path, follow in candidates:
        found = _special_file(path, top, follow)
        if found is not None:
            return found
    return None


def _env_true(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _git_dirs(top: str | None) -> tuple[str | None, str | None]:
    """(the git directory, its common directory) of the repository git will use."""
    env_dir = os.environ.get("GIT_DIR")
    git_dir = os.path.abspath(env_dir) if env_dir else (find_git_dir(top) if top else None)
    if git_dir is None:
        return None, None
    common = os.environ.get("GIT_COMMON_DIR")
    if common:
        return git_dir, os.path.abspath(common)
    from .fs.access import FileProblem, read_bytes

    try:  # a linked worktree's git directory names the shared one in `commondir`
        raw = read_bytes(os.path.join(git_dir, "commondir"), 64 * 1024, confined=False)
    except FileProblem:
        return git_dir, git_dir
    named = raw.decode("utf-8", "replace").strip()
    return git_dir, os.path.normpath(os.path.join(git_dir, named)) if named else git_dir


def _config_files(
    git_dir: str | None, common: str | None
) -> tuple[list[tuple[str, str]], tuple[str, str, bool] | None]:
    """([(path, text)] of every config file git reads, includes too), or the first that
    is a special file as `_special_file` gives it."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    todo: list[tuple[str, int]] = []
    if not _env_true("GIT_CONFIG_NOSYSTEM"):
        todo.append((os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig", 0))
    if "GIT_CONFIG_GLOBAL" in os.environ:
        todo.append((os.environ["GIT_CONFIG_GLOBAL"], 0))
    else:
        todo += [(os.path.join(xdg, "git", "config"), 0), (os.path.join(home, ".gitconfig"), 0)]
    if common:
        todo.append((os.path.join(common, "config"), 0))
    if git_dir:
        todo.append((os.path.join(git_dir, "config.worktree"), 0))
    read: list[tuple[str, str]] = []
    seen: set[str] = set()
    while todo:
        path, depth = todo.pop(0)
        if not path or path in seen or path == os.devnull:
            continue
        seen.add(path)
        found = _special_file(path, None, True)
        if found is not None:
            return read, found
        text = _read_config(path)
        if text is None:
            continue
        read.append((path, text))
        if depth < _MAX_INCLUDES and "include" in text.lower():
            todo += [(inc, depth + 1) for inc in _includes(path, text)]
    return read, None


def _read_config(path: str) -> str | None:
    """A config file's text, read once per process while it stays the same file."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    sign = (st.st_ino, st.st_size, st.st_mtime_ns)
    known = _TEXTS.get(path)
    if known is not None and known[0] == sign:
        return known[1]
    from .fs.access import FileProblem, read_bytes

    try:  # the user's and git's own files, not the checkout's: read, but bounded
        text: str | None = read_bytes(path, _MAX_CONFIG, confined=False).decode("utf-8", "replace")
    except (FileProblem, OSError):
        text = None
    _TEXTS[path] = (sign, text)
    return text


def _includes(path: str, text: str) -> list[str]:
    """The files `path` includes (`[include]` / `[includeIf "..."]` `path = ...`),
    whatever the condition: each may be read, so each is looked at."""
    found: list[str] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            end = line.find("]")
            if end < 0:
                continue
            section = line[1:end].strip().split(" ", 1)[0].split('"', 1)[0].lower()
            line = line[end + 1 :].strip()
        if section not in ("include", "includeif") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if value.startswith('"'):
            value = value[1:].split('"', 1)[0]
        for mark in (" #", " ;", "\t#", "\t;"):
            value = value.split(mark, 1)[0].strip()
        if key.strip().lower() == "path" and value:  # relative to the including file
            found.append(os.path.join(os.path.dirname(path), os.path.expanduser(value)))
    return found


def _configured(configs: list[tuple[str, str]], top: str | None) -> dict[str, str]:
    """core.excludesFile, core.attributesFile and mailmap.file as git reads them, where a
    config file names one (asked of git once per process)."""
    if not any(key.split(".")[1] in text.lower() for _, text in configs for key in _KEYS):
        return {}
    memo_key = (top, tuple(path for path, _ in configs))
    known = _CONFIGURED.get(memo_key)
    if known is not None:
        return known
    import subprocess

    pattern = "^(" + "|".join(key.replace(".", "\\.") for key in _KEYS) + ")$"
    try:
        done = subprocess.run(
            ["git", "config", "-z", "--type=path", "--get-regexp", pattern],
            cwd=top or None,
            capture_output=True,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except OSError:
        done = None
    found: dict[str, str] = {}
    if done is not None and done.returncode == 0:
        for record in done.stdout.decode("utf-8", "surrogateescape").split("\0"):
            key, _, value = record.partition("\n")
            if key and value:
                found[key.lower()] = os.path.join(top or os.getcwd(), value)
    _CONFIGURED[memo_key] = found
    return found


# ---------------------------------------------------------------- special files
def _special_file(path: str, top: str | None, follow: bool) -> tuple[str, str, bool] | None:
    """(path, how to show it, whether a FIFO) when `path` (its link followed with
    `follow`) is neither missing, a regular file nor a directory."""
    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
    except (OSError, ValueError):
        return None  # missing, a dangling link: git skips it
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
        return None
    shown = path
    if top is not None:
        rel = os.path.relpath(path, top)
        if not rel.startswith(".."):
            shown = rel.replace(os.sep, "/")
    return path, shown, stat.S_ISFIFO(mode)


def _refusal(found: tuple[str, str, bool] | tuple[str, bool]) -> str:
    from .fs.access import show

    kind = "a FIFO" if found[-1] else "not a regular file"
    return f"{show(str(found[-2]))} is {kind}: git would wait on it for ever; refused (remove it)"


def _special_on_paths(top: str, here: str, paths: list[str]) -> tuple[str, bool] | None:
    dirs = {top}
    for path in [here, *(os.path.join(here, p) for p in paths)]:
        rel = os.path.relpath(os.path.dirname(path) if path != here else path, top)
        if rel == "." or rel.startswith(".."):
            continue
        current = top
        for part in rel.split(os.sep):
            current = os.path.join(current, part)
            if current not in dirs and not os.path.isdir(current):
                break  # nothing below to open: a deep path costs its length, not its square
            dirs.add(current)
    return next((f for d in sorted(dirs) if (f := _special_in(top, d)) is not None), None)


def _special_in(top: str, directory: str) -> tuple[str, bool] | None:
    for name in _GIT_READS:
        path = os.path.join(directory, name)
        try:
            found = _special(top, path, os.lstat(path).st_mode)
        except OSError:
            continue
        if found is not None:
            return found
    return None


def _special(top: str, path: str, mode: int) -> tuple[str, bool] | None:
    """(path from `top`, whether a FIFO) when `mode` is neither a file, a directory nor
    a link: the kinds of file git would block on when it opens one by name."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
        return None
    return os.path.relpath(path, top).replace(os.sep, "/"), stat.S_ISFIFO(mode)


def _special_git_file(top: str) -> tuple[str, bool] | None:
    """(path from `top`, whether a FIFO) of the first `.gitignore`/`.gitattributes` in
    the work tree that is neither a file, a directory nor a link; None when none is."""
    todo = [top]
    while todo:
        directory = todo.pop()
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError:
            continue  # git reports a directory it cannot read itself
        if directory != top and any(entry.name == ".git" for entry in entries):
            continue  # a nested repository: git lists it, never enters it
        for entry in entries:
            if entry.name in _GIT_READS:
                try:
                    found = _special(top, entry.path, entry.stat(follow_symlinks=False).st_mode)
                except OSError:
                    continue
                if found is not None:
                    return found
            elif entry.name != ".git":
                try:
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
                except OSError:
                    continue
    return None
