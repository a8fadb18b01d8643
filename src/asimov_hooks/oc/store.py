"""Finding, reading and (validated, atomic) writing of a project's checkpoints.

Every write goes read -> change -> validate -> write: the result is checked by the
same validator as `asimov-validate` (schema and content rules of the oc-checkpoint
kind) before anything touches the disk, and a result with errors is refused with the
file left byte for byte as it was.
"""

from __future__ import annotations

import datetime
import os

from ..config.config import Config, load_config
from ..fs.access import (
    FileProblem,
    UnsafePath,
    atomic_write,
    confine,
    read_bytes,
    show,
)
from ..gitutil import find_toplevel
from .jsonfmt import JSONProblem, Layout, dump_bytes, load_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..findings import FileResult

SUFFIX = ".checkpoint.json"


class OcError(Exception):
    """A usage problem or a tool failure: one line, exit 2."""


class Refused(Exception):
    """The validator found errors in a result: nothing was written (exit 1)."""

    def __init__(self, result: FileResult, what: str) -> None:
        super().__init__(what)
        self.result = result
        self.what = what


class Project:
    """A project directory, its checkpoint directory and the configuration for it."""

    def __init__(self, directory: str | None, config_path: str | None = None) -> None:
        if directory is not None:
            if not os.path.isdir(directory):
                raise OcError(f"{directory}: no such directory")
            root = os.path.abspath(directory)
        else:
            root = find_toplevel(os.getcwd()) or os.getcwd()
        try:
            self.config: Config = load_config(config_path, start=root)
        except Exception as exc:  # ConfigError and bad YAML alike: one line
            raise OcError(str(exc)) from None
        self.settings: dict[str, Any] = dict(self.config.section("oc"))
        name = self.settings.get("directory", ".checkpoints")
        if directory is not None and os.path.basename(os.path.normpath(root)) == name:
            root = os.path.dirname(os.path.normpath(root))  # --dir .checkpoints
        elif directory is None:
            root = nearest(os.getcwd(), root, name)
        self.root = root
        # the tree this project's files must stay in: its git work tree, else its directory
        self.top = find_toplevel(root) or os.path.realpath(root)
        if not isinstance(name, str) or not name:
            raise OcError(f"oc.directory: {show(repr(name))} is not a directory name")
        try:  # a committed config's value: never a path out of the tree or into .git/
            confine(os.path.join(root, name), self.top, what="oc.directory")
        except UnsafePath as refused:
            raise OcError(refused.message) from None
        self.dir = os.path.join(root, name)

    def rel(self, path: str) -> str:
        """A path as the user names it: relative to the working directory when below
        it, otherwise absolute (a value for JSON and for the checks; print it through
        `show`)."""
        rel = os.path.relpath(path)
        return path if rel.startswith("..") else rel

    def show(self, path: str) -> str:
        """`rel(path)` escaped for printing (fs.access.show)."""
        from ..fs.access import show

        return show(self.rel(path))

    def files(self) -> list[str]:
        if not os.path.isdir(self.dir):
            return []
        return sorted(
            os.path.join(self.dir, name)
            for name in os.listdir(self.dir)
            if name.endswith(SUFFIX) and os.path.isfile(os.path.join(self.dir, name))
        )

    def path_for(self, skill: str) -> str:
        """The checkpoint file of `skill` (a skill name or a path to its file)."""
        if "/" in skill or os.sep in skill:
            if not os.path.isfile(skill):
                raise OcError(f"{skill}: no such checkpoint file")
            return os.path.abspath(skill)
        if skill.endswith(SUFFIX):
            skill = skill[: -len(SUFFIX)]
        path = os.path.join(self.dir, skill + SUFFIX)
        if not skill or not os.path.isfile(path):
            known = ", ".join(skill_of(p) for p in self.files()) or "none"
            raise OcError(
                f"no checkpoint for skill {skill!r} ({self.show(path)}); known skills: {known}"
            )
        return path

    def rules(self, path: str) -> dict[str, dict[str, Any]]:
        rel = self.config.relpath(path)
        return self.config.rules_for(self.config.kind_for(rel), rel)

    def stale_days(self) -> int:
        return stale_days(self.config)


def stale_days(config: Config) -> int:
    """Days after which an in-progress skill is stale: the stale-checkpoint rule's `days`,
    so `oc`, validate and the agent's resume brief call the same checkpoint stale."""
    opts = config.rules_for("oc-checkpoint", ".checkpoints/x" + SUFFIX)
    return int(opts.get("stale-checkpoint", {}).get("days", 7))


def nearest(start: str, top: str, name: str) -> str:
    """The closest directory from `start` up to `top` that holds `name` (a project inside
    a monorepo has its own .checkpoints/), else `top`."""
    here = os.path.realpath(start)
    top = os.path.realpath(top)
    while True:
        if os.path.isdir(os.path.join(here, name)):
            return here
        if here == top or os.path.dirname(here) == here:
            return top
        here = os.path.dirname(here)


def skill_of(path: str) -> str:
    name = os.path.basename(path)
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name


class Checkpoint:
    """One checkpoint file as read: its bytes, layout and data, or why it is unusable
    (what validate refuses, in validate's words: `limits` are the project's, as
    validate reads the file with them)."""

    def __init__(self, path: str, limits: dict[str, int] | None = None) -> None:
        self.path = path
        self.skill = skill_of(path)
        self.raw = b""
        self.data: dict[str, Any] | None = None
        self.layout = Layout()
        self.problem: str | None = None
        try:
            self.raw = read_bytes(path)
            data, self.layout = load_bytes(self.raw, limits)
        except FileProblem as exc:
            self.problem = exc.message
            return
        except JSONProblem as exc:
            self.problem = str(exc)
            return
        if not isinstance(data, dict):
            self.problem = "not a JSON object"
            return
        self.data = data

    def require(self, project: Project) -> dict[str, Any]:
        if self.data is None:
            raise OcError(f"{project.show(self.path)}: {self.problem}")
        return self.data


def validate(project: Project, path: str, content: bytes) -> FileResult:
    """The validator's verdict on `content` as the file at `path` (drift rules and
    rules about the file's place in git are the doctor's, not a write's)."""
    from ..config.registry import PATH_RULES, rules_in
    from ..validation.engine import Checker

    checker = Checker(project.config, None, set(PATH_RULES | rules_in("drift")))
    return checker.check(project.rel(path), content)


def save(project: Project, cp: Checkpoint, data: dict[str, Any], what: str) -> FileResult:
    """Validate `data` as the new content of `cp` and write it atomically, or raise
    Refused (nothing written). Refuses too when the file changed since it was read."""
    content = dump_bytes(data, cp.layout)
    result = validate(project, cp.path, content)
    if result.status == "error":
        raise Refused(result, what)
    if content != cp.raw:
        try:
            current = read_bytes(cp.path, root=project.top)
            if current != cp.raw:  # a writer that does not take our lock (an editor)
                raise OcError(
                    f"{show(project.show(cp.path))}: changed while being updated; run it again"
                )
            atomic_write(cp.path, content, root=project.top)
        except FileProblem as exc:
            raise OcError(f"{show(project.show(cp.path))}: {exc.message}; not written") from None
        except OSError as exc:
            raise OcError(
                f"{show(project.show(cp.path))}: cannot write: {exc.strerror or exc}"
            ) from None
    return result


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def stamp(like: Any = None, when: datetime.datetime | None = None) -> str:
    """Now as the protocol writes it (UTC, `Z`); with milliseconds when the value it
    replaces had fractional seconds (JavaScript's toISOString), else whole seconds."""
    when = (when or now()).astimezone(datetime.timezone.utc)
    if isinstance(like, str) and "." in like:
        return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")
