"""Checks one file against the rules of its kind (finding the files: discovery.py,
whose names are re-exported here).

Cheap rules (sizes) run on the text; the parser and the schema evaluator are imported
only when a selected rule needs them, so the size-only hook stays at Python start-up
cost.
"""

from __future__ import annotations

from .. import checks
from ..checks.context import Context
from ..config.config import Config, ConfigError
from ..config.discovery import (
    FileRecord,
    discover,
    ensure_exists,
    ephemeral_kinds,
    ignored_ephemeral,
    iter_files,
)
from ..config.registry import (
    DATA_CHECKS,
    ESSENTIAL_RULES,
    PATH_CHECKS,
    PATH_RULES,
    SIZE_RULES,
    TEXT_CHECKS,
    TEXT_RULES,
    ids,
)
from ..conflict_markers import find_conflict_marker
from ..findings import FileResult, Finding
from ..fs.textio import FileProblem, decode, read_text
from ..readers.problem import YAMLProblem  # what every reader raises

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Iterable
    from typing import Any

NOT_PROTOCOL = "not-protocol-file"

__all__ = [
    "PATH_RULES",
    "SIZE_RULES",
    "TEXT_RULES",
    "Checker",
    "Context",
    "FileRecord",
    "discover",
    "ensure_exists",
    "ephemeral_kinds",
    "ignored_ephemeral",
    "iter_files",
]


# the readers and the look-alike test a parsed file needs, imported on first use and
# kept: an import statement run for every file costs more than the lookup
_READERS: dict[str, Any] = {}


def _reader(name: str) -> Any:
    """`load_yaml` ("yaml"), `load_json` ("json") or `foreign_reason` ("foreign")."""
    if name == "yaml":
        from ..readers.loaders import load_yaml as found
    elif name == "json":
        from ..readers.json_loader import load_json as found
    else:
        from ..config.identify import foreign_reason as found
    _READERS[name] = found
    return found


class Checker:
    """One file through the stages its selected rules need: path rules, reading, text
    rules, then (only if a selected rule needs the data) parsing and the data rules.
    Which rule runs where is the registry's answer (config/registry.py)."""

    def __init__(
        self,
        config: Config,
        extra_select: set[str] | None = None,
        extra_ignore: set[str] | None = None,
    ) -> None:
        self.config = config
        self.extra_select = extra_select
        self.extra_ignore = extra_ignore or set()
        self._known: set[str] | None = None  # rule ids, for inline directives
        # id(the config's rules for a file) -> (those rules, what this run selects of them)
        self._narrowed: dict[int, tuple[dict[str, Any], dict[str, dict[str, Any]]]] = {}
        # id(a file's selected rules) -> (those rules, the checks of each stage they run,
        # whether any rule needs the data): files that share their rules share the plan
        self._plans: dict[int, tuple[Any, ...]] = {}

    # ------------------------------------------------------------- selection
    def record(self, path: str | FileRecord) -> FileRecord:
        """The record of `path` (a path named outside discovery gets one here)."""
        return path if isinstance(path, FileRecord) else FileRecord.of(path, self.config)

    def selected(self, record: FileRecord) -> dict[str, dict[str, Any]]:
        """The record's rules, chosen once and kept on it for every later stage."""
        if record.rules is None or record.chooser is not self:
            record.rules = self.rules(record.kind, record.rel) if record.kind else {}
            record.chooser = self
        return record.rules

    def rules(self, kind: str, rel: str) -> dict[str, dict[str, Any]]:
        """The rules a file of `kind` at `rel` runs: the config's, narrowed by the
        command line's --select / --ignore."""
        rules = self.config.rules_for(kind, rel)
        # files of one kind under the same overrides share the config's answer: narrowed
        # once for all of them (kept with the answer, so its id is never reused)
        known = self._narrowed.get(id(rules))
        if known is not None and known[0] is rules:
            return known[1]
        narrowed = self._narrow(kind, rel, rules)
        self._narrowed[id(rules)] = (rules, narrowed)
        return narrowed

    def _narrow(
        self, kind: str, rel: str, rules: dict[str, dict[str, Any]]
    ) -> dict[str, dict[str, Any]]:
        for rid in SIZE_RULES.intersection(rules):
            if not isinstance(rules[rid].get("max"), int):
                raise ConfigError(
                    f"{self.config.source or 'rules/kinds.json'}: rule {rid!r} is on for "
                    f"kind {kind!r} ({rel}) but has no integer 'max'"
                )
        if self.extra_select is None and not self.extra_ignore:
            if not any(opts.get("on-request") for opts in rules.values()):
                return rules  # the config's own (shared by files alike: read only)
            # rules that cost a look at git history per file run only when asked for
            # (`--select`, `oc doctor`), never in a batch by default
            return {rid: opts for rid, opts in rules.items() if not opts.get("on-request")}
        return {
            rid: opts
            for rid, opts in rules.items()
            if rid not in self.extra_ignore
            and (self.extra_select is None or rid in self.extra_select or rid in ESSENTIAL_RULES)
        }

    def prefetch(self, files: Iterable[str | FileRecord]) -> None:
        """Ask git once for every file the path rules will look at, not once per file."""
        wanted: dict[str, list[str]] = {}
        for item in files:
            record = self.record(item)
            if record.kind is not None:
                for rid in self._plan_of(self.selected(record))[1]:  # its path rules
                    wanted.setdefault(rid, []).append(record.path)
        if wanted:
            checks.prefetch(wanted)

    # ------------------------------------------------------------- one file
    def check(self, path: str | FileRecord, content: bytes | None = None) -> FileResult:
        """Check the file at `path` (its record from discovery, or a path), or `content`
        as if it were that file's bytes (a result checked before it is written)."""
        record = self.record(path)
        read: list[tuple[str, str, dict[str, dict[str, Any]]]] = []
        result = self._check(record, content, read)
        if read and "asimov-hooks:" in read[0][0]:
            self._suppress(result, record, *read[0])
        found = result.findings
        if found and any(f.rule == "max-lines-hard" for f in found):
            found[:] = [f for f in found if f.rule != "max-lines-soft"]
        return result

    def _suppress(
        self,
        result: FileResult,
        record: FileRecord,
        text: str,
        fmt: str,
        rules: dict[str, dict[str, Any]],
    ) -> None:
        """Apply the file's inline directives (see suppress.py) to its findings."""
        from ..checks.suppress import apply, comment_style

        style = comment_style(fmt)
        if style is None:  # JSON: no comments, nothing to read
            return

        def emit(rule: str, message: str, line: int = 1, col: int = 1) -> None:
            opts = rules.get(rule)
            if opts is not None:
                result.findings.append(
                    Finding(result.path, line, col, opts.get("level", "error"), rule, message)
                )

        if self._known is None:
            self._known = set(ids())
        never: set[str] = set()
        if self.extra_select is None and self.config.select is None and result.kind:
            # nothing narrows the run: a rule the file's kind never runs is a dead directive
            full = self.config.rules_for(result.kind, record.rel)
            never = set(self._known) - set(full)
        apply(result, text, style, self._known, rules, emit, never)
        result.findings.sort(key=lambda f: (f.line, f.col))

    def _check(
        self,
        record: FileRecord,
        content: bytes | None,
        read: list[tuple[str, str, dict[str, dict[str, Any]]]],
    ) -> FileResult:
        path, rel, kind = record.path, record.rel, record.kind
        if kind is None:
            return FileResult(path, None, skipped="no asimov-hooks file kind matches this name")
        spec = self.config.kinds[kind]
        rules = self.selected(record)
        result = FileResult(path, kind)
        check = checks.check  # a rule's check, imported on its first use

        def emit(
            rule: str, message: str, line: int = 1, col: int = 1, advice: str | None = None
        ) -> None:
            opts = rules.get(rule)
            if opts is None:
                return
            result.findings.append(
                Finding(
                    path,
                    line,
                    col,
                    opts.get("level", "error"),
                    rule,
                    message,
                    advice or opts.get("suggestion"),
                )
            )

        def run(ctx: Context, rid: str) -> None:
            # (where, message[, on_key[, suggestion for this finding]])
            for found in check(rid)(ctx, rules[rid]):
                line, col = ctx.position(found[0], len(found) > 2 and found[2])
                emit(rid, found[1], line, col, found[3] if len(found) > 3 else None)

        _, path_checks, text_checks, data_checks, needs_data, limit, bound, max_nodes = (
            self._plan_of(rules)
        )
        for rid in path_checks:
            run(Context(path, rel, kind, spec, self.config, None, rules), rid)  # type: ignore[arg-type]

        try:
            if content is None:
                text = read_text(path, limit, bound)
            elif limit is not None and len(content) > limit:
                raise FileProblem(
                    "max-bytes-hard", f"{len(content):,} bytes, over the {limit:,}-byte {bound}"
                )
            else:
                text = decode(path, content)
        except FileProblem as problem:
            emit(problem.rule, problem.message, problem.line, problem.col)
            if problem.rule == "max-bytes-hard" and spec.get("format", "text") == "text":
                from ..checks.agent_limits import unread_findings  # where an agent cuts it

                unread_findings(path, rules, emit)
            if problem.rule not in rules:  # switched off: still say why nothing was checked
                result.skipped = f"not checked: {problem.message}"
            return result
        ctx = Context(path, rel, kind, spec, self.config, text, rules)
        fmt = spec.get("format", "text")
        read.append((text.text, fmt, rules))

        marker = find_conflict_marker(text.text, markdown=fmt == "text")
        if marker is not None:
            from ..checks.reading import conflict_advice

            advice = conflict_advice(self.config, kind, rules)
            emit("conflict-markers", "unresolved merge conflict markers", marker, 1, advice)
            if "conflict-markers" in rules:
                return result

        before = len(result.findings)
        for rid in text_checks:
            run(ctx, rid)
        size_findings = len(result.findings) > before
        needs_parse = fmt != "text" and needs_data
        if fmt == "yaml" and not needs_parse:
            # a look-alike only matters here when it would fail or is to be reported
            if size_findings or NOT_PROTOCOL in rules:
                from ..config.identify import foreign_reason, top_level_keys

                reason = foreign_reason(top_level_keys(text.text), spec)
                if reason:
                    self._look_alike(result, reason, kind, rel, emit)
            return result
        if fmt == "json" and not needs_parse and not size_findings:
            return result
        if fmt == "text":
            return result

        if not text.text or text.text.isspace():  # (no stripped copy of the text)
            emit("empty-file", f"file is empty; expected a {spec.get('description', kind)}")
            return result
        try:
            if fmt == "yaml":
                load_yaml = _READERS.get("yaml") or _reader("yaml")
                # without a data check nothing asks where a value sits (the archive):
                # the data is read without a node tree
                positions = bool(data_checks)
                if "problem" in ctx.memo:  # the size rules' reading of the text failed
                    raise ctx.memo["problem"]
                ctx.document = ctx.memo.get("document") or load_yaml(
                    text.text, max_nodes, self.config.limits, positions
                )
            else:
                load_json = _READERS.get("json") or _reader("json")
                ctx.document = load_json(text.text, self.config.limits)
        except YAMLProblem as problem:
            if problem.rule == "multi-document":
                # a shared name (warmup.yaml): another tool's file
                why = f"not an {spec.get('description', kind)}: {problem.message}"
                if spec.get("identify") and self._look_alike(result, why, kind, rel, emit):
                    return result
                # a name only the protocol uses is always checked (as trim and the merge
                # driver say too): a protocol file is one document
                problem.rule = "syntax"
                problem.message = (
                    f"invalid YAML: {problem.message}; a protocol file is one document"
                )
            emit(problem.rule, problem.message, problem.line, problem.col)
            if problem.rule not in rules:
                result.skipped = f"not checked: {problem.message}"
            return result
        ctx.data = ctx.document.data
        if isinstance(ctx.data, dict):
            foreign_reason = _READERS.get("foreign") or _reader("foreign")
            reason = foreign_reason(ctx.data.keys(), spec)
            if reason and self._look_alike(result, reason, kind, rel, emit):
                return result
        for rid in data_checks:
            run(ctx, rid)
        result.findings.sort(key=lambda f: (f.line, f.col))
        return result

    def _plan_of(self, rules: dict[str, dict[str, Any]]) -> tuple[Any, ...]:
        """The plan of a file's selected rules (`_plan`), made once per rule set."""
        plan = self._plans.get(id(rules))
        if plan is None or plan[0] is not rules:
            plan = self._plans[id(rules)] = self._plan(rules)
        return plan

    @staticmethod
    def _plan(rules: dict[str, dict[str, Any]]) -> tuple[Any, ...]:
        """(the rules, the checks each stage runs, whether any needs the data, the byte
        cap and its wording, the alias bound)."""
        return (
            rules,
            tuple(rid for rid in PATH_CHECKS if rid in rules),
            tuple(rid for rid in TEXT_CHECKS if rid in rules),
            tuple(rid for rid in DATA_CHECKS if rid in rules),
            any(rid not in TEXT_RULES for rid in rules),
            rules.get("max-bytes-hard", {}).get("max"),
            rules.get("max-bytes-hard", {}).get("bound", "limit"),
            rules.get("yaml-aliases", {}).get("max-nodes", 100_000),
        )

    def _look_alike(self, result: FileResult, reason: str, kind: str, rel: str, emit: Any) -> bool:
        """A file named like a protocol file that is not one (config/identify): it is
        skipped, its other findings dropped, and `not-protocol-file` reports it at its
        level (info by default: said, never failed). With the rule's level `off` the file
        is checked as a protocol file instead (False); `ignore`, `--select` and inline
        suppressions only hide the finding. True when the file was skipped."""
        if self.config.level_of(NOT_PROTOCOL, kind, rel) == "off":
            return False
        result.findings.clear()
        result.skipped = reason
        emit(NOT_PROTOCOL, reason)
        return True

    def parses(self, kind: str | None) -> bool:
        """Whether files of `kind` are parsed (the costly part of a check)."""
        return kind is not None and self.config.kinds[kind].get("format", "text") != "text"

    def warm_up(self, kinds: Iterable[str]) -> None:
        """Import the parsers, the data rules and compile the schemas these kinds need,
        once, before workers fork: they inherit all of it instead of each loading it."""
        kinds = [k for k in set(kinds) if self.parses(k)]
        if not kinds:
            return
        from ..checks.schema import evaluator
        from ..readers import fast_yaml, loaders  # noqa: F401 - loaded before the fork

        # what the plain reader hands over, in a batch (loaders.batch_reading); PyYAML's
        # event stream, for a text past its size there, is loaded by a worker that meets one
        fast_yaml._fast_loader_class()
        for rid in DATA_CHECKS:
            checks.check(rid)
        for kind in kinds:
            schema = self.config.kinds[kind].get("schema")
            if schema:
                compiled = evaluator(schema, self.config)
                if hasattr(compiled, "root"):
                    compiled.errors(None)  # compiles the root and what it reaches first
