"""`asimov-hooks merge-driver %O %A %B %L %P`: git's custom merge driver for checkpoints.

Git hands us three temporary files and expects the result in %A: exit 0 for a clean
merge, 1 for a conflict (above 128 makes recent git abort the whole merge, so an
expected failure never goes there). The driver resolves what has an obviously right
answer under the field policies in rules/merge.json and fails closed on the rest:
every clean result is re-parsed, compared with the computed merge and checked against
the kind's schema before it is written; anything it cannot vouch for becomes a
conflict, and a side it cannot read goes to git's own line merge.
"""

from __future__ import annotations

import os
import sys

from ..readers.markers import find_conflict_marker

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from .core import Policies

PROG = "asimov-hooks merge-driver"
DISABLE_VALUES = frozenset({"0", "false", "no", "off", "disable", "disabled"})


class Outcome:
    """What the driver decided; `data` None means: run git's line merge on the files."""

    __slots__ = ("conflicts", "data", "how", "reason", "status")

    def __init__(
        self,
        status: int,
        data: bytes | None = None,
        how: str = "clean",  # clean | conflict | line-merge
        conflicts: list[str] | None = None,
        reason: str = "",
    ) -> None:
        self.status, self.data, self.how, self.reason = status, data, how, reason
        self.conflicts = conflicts or []

    def __repr__(self) -> str:
        return f"Outcome({self.status}, {self.how}, {self.reason!r}, {self.conflicts})"


class Settings:
    """Everything one merge needs from the configuration."""

    __slots__ = (
        "fixable",
        "fmt",
        "labels",
        "limits",
        "marker_size",
        "max_bytes",
        "policies",
        "schema",
    )

    def __init__(
        self,
        fmt: str,
        policies: Policies,
        schema: dict[str, Any] | None = None,
        marker_size: int = 7,
        labels: tuple[str, str] = ("ours", "theirs"),
        max_bytes: int | None = None,
        limits: dict[str, int] | None = None,
        fixable: frozenset[str] = frozenset(),
    ) -> None:
        from ..readers.guards import limits as default_limits

        self.fmt, self.policies, self.schema = fmt, policies, schema
        self.marker_size, self.labels, self.max_bytes = marker_size, labels, max_bytes
        lim = limits if limits is not None else default_limits()
        # what each side's parse is bounded by: nesting depth, alias references, alias nodes
        self.limits = (lim["max-depth"], lim["max-aliases"], lim["max-alias-nodes"])
        # top-level lists the trimmer caps: too many items there is the trimmer's to fix
        # (it keeps or archives every item), never a reason for a conflict
        self.fixable = fixable


# ---------------------------------------------------------------- in-process API
def _loader(fmt: str) -> Any:
    if fmt == "yaml":
        from . import yaml_merge as merge_yaml

        return merge_yaml
    from . import json_merge as merge_json

    return merge_json


def _keyed(policies: Policies) -> Any:
    def keyed(item_path: tuple) -> str | None:
        spec = policies.for_path(item_path[:-1])
        return spec.get("key", "id") if spec.get("policy") == "by-key" else None

    return keyed


def _parse(
    mod: Any, raw: bytes | None, limits: tuple[int, int, int]
) -> tuple[Any, Any, str | None]:
    """(Text, data, problem) for one side; data is None when the side is unusable."""
    from .text_merge import Text

    if raw is None:
        return None, None, "missing"
    try:
        text = Text(raw)
    except UnicodeDecodeError:
        return None, None, "not UTF-8 text"
    if not text.body.strip():
        return text, None, "empty"
    line = find_conflict_marker(text.body)
    if line is not None:
        return text, None, f"already holds conflict markers (line {line})"
    try:
        data = mod.load(text.body, *limits)
    except mod.ParseError as exc:
        return text, None, str(exc)
    if data is None:
        return text, None, "empty"
    return text, data, None


def _error_keys(settings: Settings, data: Any) -> set[tuple]:
    if settings.schema is None:
        return set()
    from ..minischema import Evaluator

    keys = set()
    for err in Evaluator(settings.schema).errors(data):
        if err.keyword == "maxItems" and len(err.path) == 1 and err.path[0] in settings.fixable:
            continue
        where = tuple("#" if isinstance(p, int) else p for p in err.path)
        detail = err.message if err.keyword in ("required", "additionalProperties") else ""
        keys.add((where, err.keyword, detail))
    return keys


def merge_bytes(base: bytes | None, ours: bytes, theirs: bytes, settings: Settings) -> Outcome:
    """The merge of three file contents; pure, so tests and benchmarks call it directly."""
    from .core import memoized

    with memoized():
        return _merge_bytes(base, ours, theirs, settings)


def _merge_bytes(base: bytes | None, ours: bytes, theirs: bytes, settings: Settings) -> Outcome:
    from .core import MISSING, has_conflicts, merge_trees, resolve, same
    from .text_merge import merge3, with_markers

    if ours == theirs or base == theirs:
        return Outcome(0, ours)
    if base == ours:
        return Outcome(0, theirs)
    if settings.fmt == "archive":
        from .archive_merge import merge_archive

        merged = merge_archive(base, ours, theirs)
        if merged is None:
            return Outcome(1, None, "line-merge", reason="a side is not a plain archive list")
        return Outcome(0, merged)
    if settings.max_bytes is not None and max(len(ours), len(theirs)) > settings.max_bytes:
        return Outcome(1, None, "line-merge", reason=f"over {settings.max_bytes:,} bytes")
    mod = _loader(settings.fmt)
    o_text, o_data, o_problem = _parse(mod, ours, settings.limits)
    t_text, t_data, t_problem = _parse(mod, theirs, settings.limits)
    if o_problem or t_problem:
        side, problem = ("ours", o_problem) if o_problem else ("theirs", t_problem)
        return Outcome(1, None, "line-merge", reason=f"{side} {_phrase(problem)}")
    b_text, b_data, _ = _parse(mod, base, settings.limits)
    b_value = MISSING if b_data is None else b_data

    tree, conflicts = merge_trees(b_value, o_data, t_data, settings.policies)
    keyed = _keyed(settings.policies)

    def render(value: Any) -> str:
        if settings.fmt == "yaml":
            return mod.render(o_text.body, value, keyed, o_data)
        return mod.render(o_text.body, value, keyed, t_text.body, o_data, t_data)

    def parses_to(body: str, value: Any) -> Any:
        if find_conflict_marker(body) is not None:
            return None
        try:
            parsed = mod.load(body, *settings.limits)
        except mod.ParseError:
            return None
        return parsed if same(parsed, value) else None

    if not conflicts:

        def candidates() -> Any:
            """git-style line merge first (keeps both sides' comment edits), then ours'
            text with the merged values written in; each is only built if needed."""
            if b_data is not None:
                line_merged = merge3(b_text.body, o_text.body, t_text.body)
                if line_merged is not None:
                    yield line_merged
            yield render(tree)

        allowed = _error_keys(settings, o_data) | _error_keys(settings, t_data)
        for body in candidates():
            parsed = parses_to(body, tree)
            if parsed is None:
                continue
            new_errors = _error_keys(settings, parsed) - allowed
            if not new_errors:
                return Outcome(0, o_text.encode(body))
            tree = _schema_conflicts(tree, new_errors, b_value, o_data, t_data)
            if tree is None:
                reason = "the merged file would fail its schema"
                return Outcome(1, None, "line-merge", reason=reason)
            break
        else:
            return Outcome(1, None, "line-merge", reason="the merged text did not re-parse")
    if not has_conflicts(tree):  # pragma: no cover - defensive
        return Outcome(1, None, "line-merge", reason="internal: no conflict to show")
    sides = []
    for side in ("ours", "theirs"):
        value = resolve(tree, side)
        body = render(value)
        if parses_to(body, value) is None:
            return Outcome(1, None, "line-merge", reason="the conflict could not be laid out")
        sides.append(body)
    if sides[0] == sides[1]:
        return Outcome(1, None, "line-merge", reason="the conflict could not be laid out")
    marked = with_markers(sides[0], sides[1], settings.marker_size, settings.labels)
    paths = _conflict_paths(tree)
    return Outcome(1, o_text.encode(marked), "conflict", paths)


def _phrase(problem: str | None) -> str:
    if problem in ("empty", "missing", "not UTF-8 text"):
        return f"is {problem}" if problem != "not UTF-8 text" else "is not UTF-8 text"
    if problem and problem.startswith("already"):
        return problem
    return f"does not parse ({problem})"


def _schema_conflicts(
    tree: dict, new_errors: set[tuple], base: Any, ours: dict, theirs: dict
) -> dict | None:
    """Turn the top-level fields a schema error points at into conflicts."""
    from .core import MISSING, Conflict

    keys = {where[0] for where, _, _ in new_errors if where}
    if any(not where for where, _, _ in new_errors) or not keys:
        return None
    out = dict(tree)
    for key in keys:
        b = base.get(key, MISSING) if isinstance(base, dict) else MISSING
        o, t = ours.get(key, MISSING), theirs.get(key, MISSING)
        if o is MISSING and t is MISSING:
            return None
        out[key] = Conflict((key,), b, o, t, "the merged value fails the schema")
    return out


def _conflict_paths(tree: Any) -> list[str]:
    from .core import Conflict, show_path

    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, Conflict):
            found.append(f"{show_path(node.path)}: {node.why}")
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(tree)
    return found


# ---------------------------------------------------------------- configuration
def settings_for(relpath: str, marker_size: int, config: Any = None) -> Settings | str:
    """Settings for the file git is merging, or why the driver does not handle it."""
    from ..config import load_config
    from .core import POLICIES, Policies

    if config is None:
        config = load_config(None)
    section = config.section("merge")
    kind = config.kind_for(relpath)
    if kind is None:
        return f"no asimov-hooks file kind matches {relpath!r}"
    if config.kinds[kind].get("archive"):  # a trim archive: append-only, keep both sides
        return Settings(fmt="archive", policies=Policies({}, "conflict"), marker_size=marker_size)
    kind_merge = section.get("kinds", {}).get(kind)
    fmt = config.kinds.get(kind, {}).get("format")
    if not kind_merge or fmt not in ("yaml", "json"):
        return f"no merge policies for {kind!r} files"
    fields = kind_merge.get("fields", {})
    for pattern, spec in fields.items():
        policy = spec if isinstance(spec, str) else spec.get("policy")
        if policy not in POLICIES:
            return f"merge.kinds.{kind}.fields.{pattern}: unknown policy {policy!r}"
    schema_name = config.kinds[kind].get("schema")
    schema = None
    if schema_name and section.get("schema-check", True):
        from ..readers.schemas import schema_for

        schema = schema_for(schema_name, config)
    labels = section.get("labels", {})
    trim = config.section("trim")
    fixable = frozenset(trim.get("caps", {})) if kind in trim.get("kinds", []) else frozenset()
    return Settings(
        fmt=fmt,
        policies=Policies(fields, kind_merge.get("default", section.get("default", "conflict"))),
        schema=schema,
        marker_size=marker_size,
        labels=(labels.get("ours", "ours"), labels.get("theirs", "theirs")),
        max_bytes=section.get("max-bytes"),
        limits=config.limits,
        fixable=fixable,
    )


def disabled(env: Any = None) -> bool:
    value = (env if env is not None else os.environ).get("ASIMOV_HOOKS_MERGE_DRIVER", "")
    return value.strip().lower() in DISABLE_VALUES


# ---------------------------------------------------------------- git's line merge
def line_merge(base: str, ours: str, theirs: str, size: int, labels: tuple[str, str]) -> int:
    """git merge-file into `ours`; its exit status folded to 0 (clean) or 1."""
    import subprocess

    cmd = [
        "git",
        "merge-file",
        f"--marker-size={size}",
        "-L",
        labels[0],
        "-L",
        "base",
        "-L",
        labels[1],
        ours,
        base,
        theirs,
    ]
    try:
        done = subprocess.run(cmd, capture_output=True, check=False)
    except OSError:
        done = None
    if done is not None and 0 <= done.returncode < 128:
        return 0 if done.returncode == 0 else 1
    from ..readers.fileio import atomic_write
    from .text_merge import whole_file_conflict

    def read(path: str) -> str:
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8", "replace")

    atomic_write(ours, whole_file_conflict(read(ours), read(theirs), size, labels).encode())
    return 1


# ---------------------------------------------------------------- the command
def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def run(base: str, ours: str, theirs: str, size: int, relpath: str) -> int:
    """The driver end to end; never raises for a problem it can describe."""
    labels = ("ours", "theirs")
    where = relpath or ours
    if not os.path.isfile(ours):
        _say(f"{where}: %A ({ours}) is not a file git gave the driver; nothing merged")
        return 2
    if disabled():
        return line_merge(base, ours, theirs, size, labels)
    try:
        from ..config import ConfigError

        try:
            settings = settings_for(relpath, size)
        except ConfigError as exc:
            _say(f"{where}: {exc}; fell back to a line merge")
            line_merge(base, ours, theirs, size, labels)
            return 1
        if isinstance(settings, str):
            return line_merge(base, ours, theirs, size, labels)
        labels = settings.labels
        ours_raw, theirs_raw = _read(ours), _read(theirs)
        if ours_raw is None or theirs_raw is None:
            _say(f"{where}: cannot read the versions git gave; fell back to a line merge")
            line_merge(base, ours, theirs, size, labels)
            return 1
        outcome = merge_bytes(_read(base), ours_raw, theirs_raw, settings)
    except Exception as exc:  # never leave git with an untouched %A and a bare exit code
        if os.environ.get("ASIMOV_HOOKS_DEBUG"):  # the traceback; the fallback still runs
            import traceback

            traceback.print_exc()
        _say(f"{where}: internal error ({type(exc).__name__}: {exc}); fell back to a line merge")
        line_merge(base, ours, theirs, size, labels)
        return 1
    if outcome.how == "line-merge":
        _say(f"{where}: {outcome.reason}; fell back to git's line merge")
        line_merge(base, ours, theirs, size, labels)
        return 1
    from ..readers.fileio import atomic_write

    if outcome.data is not None and outcome.data != ours_raw:
        atomic_write(ours, outcome.data)
    if outcome.how == "conflict":
        count = len(outcome.conflicts)
        _say(
            f"CONFLICT in {where}: "
            + (f"{count} fields need" if count != 1 else "1 field needs")
            + " a decision (everything else is merged):"
        )
        for line in outcome.conflicts:
            sys.stderr.write(f"  {line}\n")
    return outcome.status


def _say(message: str) -> None:
    sys.stderr.write(f"{PROG}: {message}\n")


USAGE = "usage: python -m asimov_hooks.merge.driver %O %A %B [%L [%P]]"


def _build_command() -> Any:
    import click

    @click.command("merge-driver", context_settings={"help_option_names": ["-h", "--help"]})
    @click.argument("base", metavar="%O", type=click.Path(dir_okay=False))
    @click.argument("ours", metavar="%A", type=click.Path(dir_okay=False))
    @click.argument("theirs", metavar="%B", type=click.Path(dir_okay=False))
    @click.argument(
        "marker_size", metavar="%L", type=click.IntRange(1, 1000), default=7, required=False
    )
    @click.argument("relpath", metavar="%P", default="", required=False)
    def command(base: str, ours: str, theirs: str, marker_size: int, relpath: str) -> None:
        """Merge checkpoint files for git (merge.asimov-checkpoint.driver).

        Writes the result into %A; exit 0 when clean, 1 on a conflict. Field policies
        come from rules/merge.json and the repository's config. Set
        ASIMOV_HOOKS_MERGE_DRIVER=0 to fall back to git's own line merge.
        """
        sys.exit(run(base, ours, theirs, marker_size, relpath.replace(os.sep, "/")))

    return command


def __getattr__(name: str) -> Any:
    """`command` is built on first use: git's fast path (`main`) never imports click."""
    if name == "command":
        built = _build_command()
        globals()["command"] = built
        return built
    raise AttributeError(name)


def main(argv: list[str] | None = None) -> int:
    """`python -m asimov_hooks.merge.driver %O %A %B %L %P`, the command install writes.

    The same driver as `asimov-hooks merge-driver`, without loading the CLI framework
    (most of a merge's start-up time).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3 or len(args) > 5 or any(a in ("-h", "--help") for a in args):
        sys.stderr.write(USAGE + "\n")
        return 2
    size = 7
    if len(args) > 3:
        try:
            size = int(args[3])
        except ValueError:
            size = 0
        if not 1 <= size <= 1000:
            sys.stderr.write(f"{PROG}: %L must be a number from 1 to 1000, not {args[3]!r}\n")
            return 2
    relpath = args[4] if len(args) > 4 else ""
    try:
        return run(args[0], args[1], args[2], size, relpath.replace(os.sep, "/"))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
