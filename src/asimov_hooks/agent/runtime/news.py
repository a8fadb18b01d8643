"""After a write of a protocol file, only its news: the findings the write introduced
or made worse, one line each, and a count of those it left as they were, with the
command that lists them.

A file's standing report (a dozen drift warnings of an OC checkpoint, say) told again
after every checkpoint write fills the agent's context with what it already knows. So
what the agent was told about each file is kept in the turn state, per session; the
next write of the file is compared with it (`verdict.worse`: the same rule and message,
numbers aside, is not news unless a size grows). The first write of a file in a session
is compared with the file as last committed, when git has it; a file with neither is
all news.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from ...config.config import Config
    from ...findings import Finding
    from .model import Event

DIR_NAME = "told"  # in the state directory: one record per session and file
MAX_COMMITTED = 1024 * 1024  # a committed version past this is not read for comparison
MAX_RECORD = 4 * 1024 * 1024


def report(
    event: Event, config: Config, path: str, rel: str, findings: list[Finding]
) -> str | None:
    """What to tell the agent about `findings` (the file's errors and warnings now)."""
    from .common import line
    from .verdict import worse

    told = _exchange(event, path, findings)
    if told is None and findings:  # a clean file has no news whatever it was: no git
        told = _committed(config, path, event.project)
    news = findings if told is None else worse(told, findings)
    same = [f for f in findings if f not in news]
    if not news and not same:
        return None
    from ...fs.access import show

    what = event.tool or "write"
    rel = show(rel)
    lines = []
    if news:
        head = "" if told is None else f"; new or worse after this {what}"
        lines.append(f"asimov-hooks checked {rel}{head}:")
        lines += [f"- {line(rel, f)}" for f in news]
    if same:
        errors = sum(f.level == "error" for f in same)
        kinds = f"{errors} error{'s' * (errors != 1)}, {len(same) - errors} warning"
        kinds += "s" * (len(same) - errors != 1)
        lead = "" if news else f"asimov-hooks checked {rel}: nothing new or worse; "
        lines.append(
            f"{lead}{len(same)} finding{'s' * (len(same) != 1)} ({kinds}) left as "
            f"{'they were' if len(same) != 1 else 'it was'}: `asimov-validate {_quoted(rel)}` lists them"
        )
    return "\n".join(lines)


def _quoted(rel: str) -> str:
    """`rel` as a shell word (shlex would import `re` on a write's path)."""
    from ...fs.access import show

    safe = all(ch.isalnum() or ch in "._/-+" for ch in rel)
    return show(rel if safe else "'" + rel.replace("'", "'\\''") + "'")


def _record_path(event: Event, path: str) -> str:
    from .turnlog import keyed_path

    return keyed_path(event.turns, DIR_NAME, f"{event.session}\0{os.path.realpath(path)}", ".txt")


def _exchange(event: Event, path: str, findings: list[Finding]) -> list[Finding] | None:
    """What the agent was last told about the file in this session (None: nothing),
    replaced by `findings`. One line per finding (level, rule, message, tab-separated);
    no JSON or SQLite on a checkpoint write's path, and nothing read or written for a
    clean file that was clean before."""
    from ...fs.access import FileProblem, atomic_write, make_dirs, read_bytes
    from .common import warn
    from .turnlog import StateError

    if event.session is None:
        return None  # no conversation to remember it for
    try:
        target = _record_path(event, path)
        told = None
        if os.path.lexists(target):
            raw = read_bytes(target, MAX_RECORD, git_internal=True)
            told = [_finding(path, text) for text in raw.decode("utf-8", "replace").splitlines()]
        if findings or told:
            data = "".join(_row(f) + "\n" for f in findings).encode("utf-8", "surrogatepass")
            make_dirs(os.path.dirname(target), git_internal=True)
            atomic_write(target, data, mode=0o600, git_internal=True)
    except (OSError, FileProblem, StateError, UnicodeError) as exc:  # the report matters more
        warn(f"what the agent was told about {os.path.basename(path)} was not recorded: {exc}")
        return None
    return None if told is None else [f for f in told if f is not None]


def _row(finding: Finding) -> str:
    return "\t".join(
        " ".join(str(v).split()) for v in (finding.level, finding.rule, finding.message)
    )


def _finding(path: str, text: str) -> Finding | None:
    from ...findings import Finding

    fields = text.split("\t")
    return Finding(path, 1, 1, *fields) if len(fields) == 3 else None


def _committed(config: Config, path: str, project: str) -> list[Finding] | None:
    """The findings of the file as last committed (None: git has no such file)."""
    from ...gitutil import GitError, git
    from .common import checker

    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(project))
    if rel.startswith(".."):
        return None
    spec = "HEAD:./" + rel.replace(os.sep, "/")
    try:
        size = git("cat-file", "-s", spec, cwd=project, check=False)
        if size.returncode != 0 or int(size.stdout.strip() or "0") > MAX_COMMITTED:
            return None
        shown = git("cat-file", "blob", spec, cwd=project, check=False)
    except (GitError, ValueError):
        return None
    if shown.returncode != 0:
        return None
    data = shown.stdout.encode("utf-8", "surrogateescape")
    result = checker(config).check(path, data)
    return [f for f in result.findings if f.level in ("error", "warning")]
