"""Which work tree holds a path (`tree_of`): the nearest directory upwards with a
`.git`, looked for along the path as written, where a nested tree counts only when no
symbolic link inside the outer tree leads to it (a link to another repository is not a
work tree of its own).

Kept apart from `fs.walk` (which re-exports it): every agent event asks which tree its
project is, and most ask nothing else of the file system. Here too: `.git` in any letter
case (`is_git_name`), and where a run's reads of plain paths start (`plain_folder`).
"""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (quoted: `__future__` is an import of its own)
    from .dirfd import Kept, KeptDirs

# Inside `remembered_trees()` (one validate run: its files share ancestors) which
# directories hold a `.git`, which work tree holds a directory, and where a found top
# resolves, are looked up once; outside it nothing is kept. What is read is still walked
# by descriptor, file by file (`Walk`), but a directory the run has opened already is
# not opened again: its descriptor is kept (`KeptDirs`), so a shared folder is resolved
# once, by `openat(O_NOFOLLOW)` from its parent's descriptor, however many files it holds.
_MEMO: list[dict[tuple[str, str], object]] = []


class remembered_trees:  # a statement: `with remembered_trees():`
    def __enter__(self) -> None:
        from .dirfd import DIRS, KeptDirs

        _MEMO.append({})
        DIRS.append(KeptDirs())

    def __exit__(self, *exc: object) -> None:
        from .dirfd import DIRS

        _MEMO.pop()
        DIRS.pop().close()


def _asked(question: str, path: str) -> object:
    """lexists(path/.git) ("git"), realpath ("real") or islink ("link") of `path`."""
    memo = _MEMO[-1] if _MEMO else {}
    found = memo.get((question, path), memo)
    if found is memo:
        if question == "git":
            found = os.path.lexists(os.path.join(path, ".git"))
        else:
            found = os.path.realpath(path) if question == "real" else os.path.islink(path)
        if _MEMO:
            memo[(question, path)] = found
    return found


def absolute(path: str) -> str:
    """`os.path.abspath(path)`, without its normalising pass over a path that is absolute
    and normal already (no `//`, no `.` or `..` component, no trailing `/`)."""
    if (
        os.sep == "/"
        and path[:1] == "/"
        and "//" not in path
        and "/." not in path
        and path[-1:] != "/"
    ):
        return path
    return os.path.abspath(path)


def tree_of(directory: str) -> str | None:
    """The real path of the work tree holding `directory` (None outside one). Looked for
    along the path as written: the outermost directory with a `.git`, then each nested
    one inside it that is reached without a symbolic link (a nested repository or a
    submodule); a link out to another repository does not make it the tree. A path with
    no `.git` on it as written (a link outside every tree, into one) is looked at as the
    file system resolves it."""
    directory = absolute(directory)
    if not _MEMO:
        return _tree_of(directory)
    memo = _MEMO[-1]
    # a folder with no `.git` that is no link answers as its parent does: the same `.git`
    # directories lie on its path as written, and it resolves just below its parent
    passed: list[str] = []
    here = directory
    while True:
        known = memo.get(("tree", here), memo)
        if known is not memo:
            break
        parent = os.path.dirname(here)
        if parent == here or os.path.islink(here) or _asked("git", here):
            known = _tree_of(here)
            memo[("tree", here)] = known
            break
        passed.append(here)
        here = parent
    for folder in passed:
        memo[("tree", folder)] = known
    return known  # type: ignore[return-value]


def _tree_of(directory: str) -> str | None:
    chain = [directory]
    while True:
        parent = os.path.dirname(chain[-1])
        if parent == chain[-1]:
            break
        chain.append(parent)
    found = [d for d in chain if _asked("git", d)]
    if not found:
        physical = os.path.realpath(directory)
        while True:
            if _asked("git", physical):
                return physical
            parent = os.path.dirname(physical)
            if parent == physical:
                return None
            physical = parent
    accepted = found[-1]
    for inner in reversed(found[:-1]):
        step, linked = inner, False
        while step != accepted and not linked:
            linked = bool(_asked("link", step))
            step = os.path.dirname(step)
        if linked:
            break
        accepted = inner
    # resolved through the outermost top only: no link lies below it on the way to a
    # nested one (checked above), and resolving the nested one itself would follow a
    # link the checkout swapped in since
    return str(_asked("real", found[-1])) + accepted[len(found[-1]) :]


def is_git_name(name: str) -> bool:
    """`.git` as a case-insensitive file system sees it (`.GIT`, `.Git`, `.git.`, `.git `:
    Windows drops trailing dots and spaces)."""
    return name.rstrip(". ").casefold() == ".git" or name.casefold() == ".git"


def inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def plain_folder(dirs: "KeptDirs", cwd: str, folder: str) -> "tuple[Kept, ...] | None":
    """The kept-directory keys (`fs.dirfd.KeptDirs`: a work tree's top, and the names
    below it) of each directory from the top of a work tree down to `folder` (relative
    to `cwd`, or absolute when `cwd` is empty), which is written plainly below that top
    (no `..`, no `.git`); None when there is none. Remembered for the run.

    A folder below one answered already is answered from it and its own name, with no
    question to the file system: it is for reading a path by plain names from the top
    (`fs.walk.open_kept`), one `openat(O_NOFOLLOW)` at a time, and along names that are
    no links, started from the outer tree or from one nested in it (`tree_of`'s answer
    when a folder holds a `.git`), the same file is opened. A path that is not all plain
    names takes the full walk, from the tree `tree_of` names."""
    found: tuple[Kept, ...] | None = None
    parent, _, leaf = folder.rpartition("/")
    if leaf not in ("", ".", "..") and not is_git_name(leaf):
        up = dirs.folders.get((cwd, parent), ())
        up = plain_folder(dirs, cwd, parent) if up == () else up
        if up:
            top, names, _ = up[-1]
            found = (*up, (top, (*names, leaf), False))
    if found is None:
        full = absolute(os.path.join(cwd, folder) if cwd else folder or "/")
        top = tree_of(full)
        if top is not None and inside(full, top):
            parts = tuple(p for p in full[len(top) :].split("/") if p)
            if not any(p in (".", "..") or is_git_name(p) for p in parts):
                found = tuple((top, parts[:depth], False) for depth in range(len(parts) + 1))
    dirs.folders[(cwd, folder)] = found
    return found
