"""Whether a repository follows the Asimov protocol: the one decision, in two scopes.

A repository follows the protocol where a protocol file has the protocol's content: one
of `profile-markers` (warmup.yaml, a file of a protocol kind in .asimov/,
.claude_checkpoint.yaml) whose top-level keys pass the test that already skips a foreign
file of the same name (config/identify: a Kubernetes `warmup.yaml`, another tool's
`roadmap.yaml`). Which files are looked at depends on who asks:

- SHARED, what the repository shares (validate's profiles, `init`, the pre-commit hooks,
  CI): tracked files and untracked files git does not ignore, i.e. what the next commit
  can carry. A git-ignored file never changes these verdicts, so a new project whose
  files are not committed yet and its committed twin decide alike, and so do a
  developer's machine and CI.
- WORK_TREE, what this work tree holds (the agent hooks, `/checkpoint`, `ephemeral`):
  the shared scope plus git-ignored protocol files on disk: the `.claude_checkpoint.yaml`
  every Asimov repository ignores, protocol files kept out of git in .git/info/exclude.
  The agent works with the files on disk.

Outside a git work tree nothing is ignored: the files on disk count in both scopes.

Asked for a directory, the cheapest source goes first (the agent hooks ask on their
events): git's index (`ls-files --cached`, which reads no directory of the tree); only
where it shows nothing for that directory or one above it, the marker names on disk in
each of those directories (read through fs.access: confined, regular files only, never
waiting on a FIFO), with one `git check-ignore` for the untracked ones in the shared
scope. Git never walks the tree for it, so an ignored `node_modules/` costs nothing.
`init`, which lists the whole tree anyway, hands its listing in.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

PROTOCOL = "asimov"
SHARED, WORK_TREE = "shared", "work-tree"
HEAD_BYTES = 65536  # the top-level keys of a protocol file are near its start
DEFAULT_MARKERS = ("warmup.yaml", ".asimov", ".claude_checkpoint.yaml")


def _kinds() -> dict[str, dict[str, Any]]:
    """The shipped kinds of the Asimov protocol (a repository's config cannot declare
    another file a protocol file: the decision reads what it names)."""
    from .packs import protocol_kinds

    return protocol_kinds([PROTOCOL])


def _specs(markers: tuple[str, ...]) -> list[str]:
    specs = []
    for marker in markers:
        specs += [f":(glob)**/{marker}", f":(glob)**/{marker}/*"]
    return specs


def _listed(top: str, markers: tuple[str, ...], *which: str) -> list[str] | None:
    """The paths (relative to `top`) `git ls-files *which` lists named like a marker or
    inside a marker directory, or None when `top` is not in a git work tree. None of
    them when git cannot list them (a FIFO where it would read .gitignore)."""
    from ..gitutil import GitError, find_toplevel, git

    if find_toplevel(top, for_git=True) is None:
        return None
    try:
        done = git("ls-files", "-z", *which, "--", *_specs(markers), cwd=top)
    except GitError:
        return []
    return sorted({p for p in done.stdout.split("\0") if p})


def _marker_files(top: str, home: str, markers: tuple[str, ...]) -> list[str]:
    """The files on disk named like a marker in `home` (relative to `top`), and the
    files of a marker directory there (a link is not a directory here: git keeps it
    as a link), in marker order."""
    import stat

    found = []
    for marker in markers:
        rel = f"{home}/{marker}" if home else marker
        path = os.path.join(top, rel)
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            continue
        if not stat.S_ISDIR(mode):
            found.append(rel)
            continue
        try:
            found += [f"{rel}/{name}" for name in sorted(os.listdir(path))]
        except OSError:
            continue
    return found


def _ignored(top: str, paths: list[str]) -> set[str]:
    """Which of `paths` git ignores; all of them when git cannot say (a verdict of the
    shared scope never rests on a file it could not place)."""
    from ..gitutil import GitError, git

    try:
        done = git("check-ignore", "-z", "--stdin", cwd=top, check=False, stdin="\0".join(paths))
    except GitError:
        return set(paths)
    if done.returncode not in (0, 1):
        return set(paths)
    return {p for p in done.stdout.split("\0") if p}


def _home(rel: str, markers: tuple[str, ...]) -> tuple[str, str] | None:
    """(the directory a marker path speaks for, the path inside it), or None."""
    parts = rel.split("/")
    if len(parts) >= 2 and parts[-2] in markers:  # a file of a marker directory
        return "/".join(parts[:-2]), "/".join(parts[-2:])
    if parts[-1] in markers:
        return "/".join(parts[:-1]), parts[-1]
    return None


def has_protocol_content(path: str, inner: str, root: str | None = None) -> bool:
    """Whether the file at `path` (named `inner` inside its home, e.g.
    `.asimov/roadmap.yaml`) is a file of an Asimov kind with the protocol's content."""
    from ..fs.access import FileProblem, read_head
    from .globs import match_any
    from .identify import foreign_reason

    spec = next((s for s in _kinds().values() if match_any(inner, s.get("files", ()))), None)
    if spec is None:
        return False
    try:
        head, _ = read_head(path, HEAD_BYTES, root=root)
    except (FileProblem, OSError):
        return False
    keys = _top_keys(head.decode("utf-8", "replace"))
    return bool(keys) and foreign_reason(keys, spec) is None


def _top_keys(text: str) -> list[str]:
    """The keys at column 0 of a block mapping, as config/identify reads them, without
    `re` (this runs on the size hook's path for every CLAUDE.md)."""
    keys = []
    for line in text.splitlines():
        if not line or line[0] in " \t#-[]{}&*!|>%@`,?" or ":" not in line:
            continue
        key, _, rest = line.partition(": ") if ": " in line else line.partition(":")
        if rest and not rest[0].isspace() and ": " not in line and not line.endswith(":"):
            continue
        key = key.strip()
        if len(key) > 1 and key[0] == key[-1] and key[0] in "'\"":
            key = key[1:-1]
        if key:
            keys.append(key)
    return keys


def _judge(top: str, listed: list[str], markers: tuple[str, ...]) -> dict[str, str]:
    """{home directory: its first listed protocol file with the protocol's content}."""
    found: dict[str, str] = {}
    order = {name: i for i, name in enumerate(markers)}
    for rel in sorted(listed, key=lambda r: (r.count("/"), _rank(r, order), r)):
        home = _home(rel, markers)
        if home is None or home[0] in found:
            continue
        if has_protocol_content(os.path.join(top, rel), home[1], root=top):
            found[home[0]] = rel
    return found


def _rank(rel: str, order: dict[str, int]) -> int:
    parts = rel.split("/")
    return order.get(parts[-1], order.get(parts[-2] if len(parts) > 1 else "", len(order)))


def _indexed(top: str, markers: tuple[str, ...], cache: dict | None) -> tuple[list, dict] | None:
    """(the index's marker paths, the evidence among them), once per run; None
    outside git."""
    key = ("index", top, markers)
    if cache is not None and key in cache:
        return cache[key]
    listed = _listed(top, markers, "--cached")
    answer = None if listed is None else (listed, _judge(top, listed, markers))
    if cache is not None:
        cache[key] = answer
    return answer


def _on_disk(
    top: str,
    home: str,
    markers: tuple[str, ...],
    scope: str,
    tracked: list | None,
    cache: dict | None,
) -> str | None:
    """The evidence in `home` among the files on disk that are not in the index: every
    one in the work-tree scope (and outside git), those git does not ignore in the
    shared scope."""
    key = ("disk", top, home, markers, scope)
    if cache is not None and key in cache:
        return cache[key]
    candidates = _marker_files(top, home, markers)
    if tracked is not None:
        known = set(tracked)
        candidates = [rel for rel in candidates if rel not in known]
        if scope == SHARED and candidates:
            ignored = _ignored(top, candidates)
            candidates = [rel for rel in candidates if rel not in ignored]
    found = _judge(top, candidates, markers).get(home)
    if cache is not None:
        cache[key] = found
    return found


def follows_here(
    top: str,
    directory: str,
    markers: tuple[str, ...] = DEFAULT_MARKERS,
    cache: dict | None = None,
    scope: str = SHARED,
) -> str | None:
    """The evidence (relative to `top`) that `directory` (relative to `top`) or a
    directory above it up to `top` follows the protocol in `scope`, or None. `cache`
    keeps answers for one run (a validate run's config), so a batch asks git once per
    repository."""
    top = os.path.realpath(top)
    markers = tuple(markers)
    indexed = _indexed(top, markers, cache)
    chain = [directory]
    while chain[-1]:
        chain.append(os.path.dirname(chain[-1]))
    if indexed is not None:
        hit = next((indexed[1][d] for d in chain if d in indexed[1]), None)
        if hit is not None:
            return hit
    tracked = None if indexed is None else indexed[0]
    for home in chain:
        hit = _on_disk(top, home, markers, scope, tracked, cache)
        if hit is not None:
            return hit
    return None


def follows(
    top: str, markers: tuple[str, ...] = DEFAULT_MARKERS, listed: list[str] | None = None
) -> str | None:
    """The evidence that anything in the repository at `top` follows the protocol, in
    the shared scope. `listed`: the repository's tracked and untracked, not ignored
    paths where the caller has them (`init`); otherwise git is asked."""
    top = os.path.realpath(top)
    markers = tuple(markers)
    if listed is None:
        listed = _listed(top, markers, "--cached", "--others", "--exclude-standard")
    if listed is None:  # outside git: what is on disk at the top
        found = {"": hit} if (hit := _on_disk(top, "", markers, SHARED, None, None)) else {}
    else:
        found = _judge(top, [p for p in listed if _home(p, markers)], markers)
    return found[min(found, key=lambda d: (d.count("/"), d))] if found else None
