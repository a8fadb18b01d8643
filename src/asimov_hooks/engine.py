"""Checks one file against the rules of its kind; finds files in directories.

Cheap rules (sizes) run on the text; the parser and the schema evaluator are imported
only when a selected rule needs them, so the size-only hook stays at Python start-up
cost.
"""

from __future__ import annotations

import os

from .checks.sizes import count_lines
from .config import ESSENTIAL_RULES, Config, ConfigError
from .findings import FileResult, Finding
from .readers.fileio import FileProblem, TextFile, check_regular_file, decode, read_text
from .readers.markers import find_conflict_marker

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

    RuleResult = Iterable[tuple[tuple | None, str]]  # (instance path, message)
    RuleFunc = Callable[["Context", dict[str, Any]], RuleResult]

SIZE_RULES = frozenset(
    {
        "max-lines-soft",
        "max-lines-hard",
        "max-tokens",
        "max-bytes-soft",
        "max-bytes-hard",
        "max-chars",
        "shared-byte-budget",
    }
)
SUPPRESSION_RULES = frozenset({"unused-suppression", "invalid-suppression"})
# Rules that need no parse; anything else selected makes the file be parsed.
# Rules about where a file is, not what it holds: they run before the file is read, so
# a committed session file fails whether or not it is empty, binary or invalid JSON.
PATH_RULES = frozenset({"must-be-ignored", "checkpoints-tracked"})
TEXT_RULES = (
    SIZE_RULES
    | ESSENTIAL_RULES
    | PATH_RULES
    | SUPPRESSION_RULES
    | {"conflict-markers", "not-protocol-file"}
)


_TOP_KEY = r"""^(?:"([^"\n]+)"|'([^'\n]+)'|([^\s#&*!|>'"%@`{}\[\],?:-][^:\n]*?|-[^\s:][^:\n]*?))[ \t]*:(?:[ \t]|$)"""


class Context:
    """Everything a rule may look at for one file."""

    def __init__(
        self, path: str, rel: str, kind: str, spec: dict[str, Any], config: Config, text: TextFile
    ) -> None:
        self.path, self.rel, self.kind, self.spec = path, rel, kind, spec
        self.config, self.text = config, text
        self.data: Any = None
        self.document: Any = None

    def locate(self, path: tuple, on_key: bool = False) -> tuple[int, int]:
        if self.document is None or (not path and not on_key):
            return (1, 1)
        return self.document.locate(path, on_key)


def _structure_rules() -> dict[str, RuleFunc]:
    from .checks import drift
    from .checks import structure as structure_rules

    return {**structure_rules.RULES, **drift.RULES}


def top_level_keys(text: str) -> list[str]:
    """Keys at column 0 of a block-mapping YAML document, without parsing it."""
    import re  # on first use: most hook runs never need it

    pattern = re.compile(_TOP_KEY, re.M)
    return [a or b or c for a, b, c in pattern.findall(text)]


def foreign_reason(keys: Iterable[str], spec: dict[str, Any]) -> str | None:
    """Why a file that only shares a protocol file's name is not one, or None."""
    wanted = spec.get("identify", {}).get("keys")
    keys = set(keys)
    if not wanted or not keys or keys & set(wanted):
        return None
    description = spec.get("description", "protocol file")
    if {"apiVersion", "kind"} <= keys:
        looks = "looks like a Kubernetes manifest (apiVersion/kind)"
    elif "services" in keys:
        looks = "looks like a Compose file (services)"
    else:
        shown = ", ".join(sorted(keys)[:4])
        looks = f"top-level keys are {shown}"
    return f"not an {description}: {looks}; none of its identifying keys are present"


class Checker:
    def __init__(
        self,
        config: Config,
        extra_select: set[str] | None = None,
        extra_ignore: set[str] | None = None,
    ) -> None:
        self.config = config
        self.extra_select = extra_select
        self.extra_ignore = extra_ignore or set()
        self._rule_funcs: dict[str, RuleFunc] | None = None
        self._known: set[str] | None = None  # rule ids, for inline directives
        self._selected: dict[int, tuple[dict, dict[str, dict[str, Any]]]] = {}

    # ------------------------------------------------------------- selection
    def rules(self, kind: str, rel: str) -> dict[str, dict[str, Any]]:
        rules = self.config.rules_for(kind, rel)
        # files that share a rule set (the config hands out one dict) share the answer
        selected = self._selected.get(id(rules))
        if selected is not None and selected[0] is rules:
            return selected[1]
        for rid in SIZE_RULES.intersection(rules):
            if not isinstance(rules[rid].get("max"), int):
                raise ConfigError(
                    f"{self.config.source or 'rules/kinds.json'}: rule {rid!r} is on for "
                    f"kind {kind!r} ({rel}) but has no integer 'max'"
                )
        chosen = {
            rid: opts
            for rid, opts in rules.items()
            if rid not in self.extra_ignore
            and (self.extra_select is None or rid in self.extra_select or rid in ESSENTIAL_RULES)
        }
        self._selected[id(rules)] = (rules, chosen)
        return chosen

    def prefetch(self, paths: Iterable[str]) -> None:
        """Ask git once for every file the path rules will look at, not once per file."""
        wanted: dict[str, list[str]] = {}
        for path in paths:
            rel = self.config.relpath(path)
            kind = self.config.kind_for(rel)
            if kind is not None:
                for rid in PATH_RULES.intersection(self.rules(kind, rel)):
                    wanted.setdefault(rid, []).append(path)
        if wanted:
            from .checks.drift import prefetch

            prefetch(wanted)

    # ------------------------------------------------------------- one file
    def check(self, path: str, content: bytes | None = None) -> FileResult:
        """Check the file at `path`, or `content` as if it were that file's bytes
        (a result checked before it is written)."""
        read: list[tuple[str, str, dict[str, dict[str, Any]]]] = []
        result = self._check(path, content, read)
        if read and "asimov-hooks:" in read[0][0]:
            self._suppress(result, *read[0])
        found = result.findings
        if any(f.rule == "max-lines-hard" for f in found):
            found[:] = [f for f in found if f.rule != "max-lines-soft"]
        return result

    def _suppress(
        self, result: FileResult, text: str, fmt: str, rules: dict[str, dict[str, Any]]
    ) -> None:
        """Apply the file's inline directives (see suppress.py) to its findings."""
        from .checks.suppress import apply, comment_style
        from .config import known_rule_ids

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
            self._known = known_rule_ids()
        never: set[str] = set()
        if self.extra_select is None and self.config.select is None and result.kind:
            # nothing narrows the run: a rule the file's kind never runs is a dead directive
            full = self.config.rules_for(result.kind, self.config.relpath(result.path))
            never = set(self._known) - set(full)
        apply(result, text, style, self._known, rules, emit, never)
        result.findings.sort(key=lambda f: (f.line, f.col))

    def _check(
        self,
        path: str,
        content: bytes | None,
        read: list[tuple[str, str, dict[str, dict[str, Any]]]],
    ) -> FileResult:
        rel = self.config.relpath(path)
        kind = self.config.kind_for(rel)
        if kind is None:
            return FileResult(path, None, skipped="no asimov-hooks file kind matches this name")
        spec = self.config.kinds[kind]
        rules = self.rules(kind, rel)
        result = FileResult(path, kind)

        def emit(rule: str, message: str, line: int = 1, col: int = 1) -> None:
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
                    opts.get("suggestion"),
                )
            )

        for rid in sorted(PATH_RULES.intersection(rules)):
            where = Context(path, rel, kind, spec, self.config, None)  # type: ignore[arg-type]
            for _, message in self._funcs()[rid](where, rules[rid]):
                emit(rid, message)

        limit = rules.get("max-bytes-hard", {}).get("max")
        try:
            bound = rules.get("max-bytes-hard", {}).get("bound", "limit")
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
            if problem.rule not in rules:  # switched off: still say why nothing was checked
                result.skipped = f"not checked: {problem.message}"
            return result
        ctx = Context(path, rel, kind, spec, self.config, text)
        fmt = spec.get("format", "text")
        read.append((text.text, fmt, rules))

        marker = find_conflict_marker(text.text) if fmt != "text" else None
        if marker is not None:
            emit("conflict-markers", "unresolved merge conflict markers", marker, 1)
            if "conflict-markers" in rules:
                return result

        size_findings = self._size_rules(ctx, rules, emit)
        needs_parse = fmt != "text" and any(r not in TEXT_RULES for r in rules)
        if fmt == "yaml" and not needs_parse:
            reason = foreign_reason(top_level_keys(text.text), spec) if size_findings else None
            if reason:
                result.findings.clear()
                result.skipped = reason
            return result
        if fmt == "json" and not needs_parse and not size_findings:
            return result
        if fmt == "text":
            return result

        if not text.text.strip():
            emit("empty-file", f"file is empty; expected a {spec.get('description', kind)}")
            return result
        from .readers.loaders import YAMLProblem, load_json, load_yaml

        try:
            if fmt == "yaml":
                max_nodes = rules.get("yaml-aliases", {}).get("max-nodes", 100_000)
                ctx.document = load_yaml(text.text, max_nodes, self.config.limits)
            else:
                ctx.document = load_json(text.text, self.config.limits)
        except YAMLProblem as problem:
            if problem.rule == "multi-document":  # protocol files are always one mapping
                result.skipped = f"not an {spec.get('description', kind)}: {problem.message}"
                return result
            emit(problem.rule, problem.message, problem.line, problem.col)
            if problem.rule not in rules:
                result.skipped = f"not checked: {problem.message}"
            return result
        ctx.data = ctx.document.data
        if isinstance(ctx.data, dict):
            reason = foreign_reason(ctx.data.keys(), spec)
            if reason:
                result.findings.clear()
                result.skipped = reason
                return result
        if "schema" in rules and spec.get("schema"):
            for err_path, message, on_key in schema_errors(ctx.data, spec["schema"], self.config):
                line, col = ctx.locate(err_path, on_key)
                emit(
                    "schema", f"{_dotted(err_path)}: {message}" if err_path else message, line, col
                )
        for rid, func in self._funcs().items():
            if rid in rules and rid not in PATH_RULES:
                for found in func(ctx, rules[rid]):  # (path, message[, on the key])
                    err_path, message = found[0], found[1]
                    on_key = len(found) > 2 and found[2]
                    line, col = ctx.locate(err_path, on_key) if err_path is not None else (1, 1)
                    emit(rid, message, line, col)
        result.findings.sort(key=lambda f: (f.line, f.col))
        return result

    def parses(self, kind: str | None) -> bool:
        """Whether files of `kind` are parsed (the costly part of a check)."""
        return kind is not None and self.config.kinds[kind].get("format", "text") != "text"

    def warm_up(self, kinds: Iterable[str]) -> None:
        """Import the parsers and compile the schemas these kinds need, once, before
        workers fork: they inherit all of it instead of each loading it again."""
        kinds = [k for k in set(kinds) if self.parses(k)]
        if not kinds:
            return
        from .readers import loaders

        loaders._fast_loader_class()
        self._funcs()
        for kind in kinds:
            schema = self.config.kinds[kind].get("schema")
            if schema:
                evaluator = _evaluator(schema, self.config)
                if hasattr(evaluator, "root"):
                    evaluator.errors(None)  # compiles the root and what it reaches first

    def _funcs(self) -> dict[str, RuleFunc]:
        if self._rule_funcs is None:
            self._rule_funcs = _structure_rules()
        return self._rule_funcs

    def _size_rules(
        self, ctx: Context, rules: dict[str, dict[str, Any]], emit: Callable[..., None]
    ) -> bool:
        text = ctx.text.text
        reported = False
        lines = count_lines(text)
        hard = rules.get("max-lines-hard", {}).get("max")
        soft = rules.get("max-lines-soft", {}).get("max")
        # both are found, and only the most severe is reported (see check): a file whose
        # hard limit is suppressed inline still gets its soft warning
        for rid, limit, other, other_name in (
            ("max-lines-hard", hard, soft, "soft"),
            ("max-lines-soft", soft, hard, "hard"),
        ):
            if limit is not None and lines > limit:
                kind_name = rid.rsplit("-", 1)[1]
                also = f" ({other_name} limit {other})" if other is not None else ""
                emit(
                    rid, f"{lines} lines, over the {kind_name} limit of {limit}{also}", limit + 1, 1
                )
                reported = True
        est = self.config.estimator_for(ctx.kind)
        if "max-tokens" in rules:
            cap = rules["max-tokens"]["max"]
            tokens = est.estimate(text)
            if tokens > cap:
                line = 1
                if est.method == "chars":
                    line = text.count("\n", 0, int(cap * est.divisor)) + 1
                emit(
                    "max-tokens",
                    f"~{tokens:,} tokens, over the cap of {cap:,} "
                    f"(estimated as {est.name}, rounded up)",
                    line,
                    1,
                )
                reported = True
        if "max-bytes-soft" in rules:
            cap = rules["max-bytes-soft"]["max"]
            size = len(ctx.text.raw)
            if size > cap:
                line = ctx.text.raw.count(b"\n", 0, cap) + 1
                emit("max-bytes-soft", f"{size:,} bytes, over the {cap:,}-byte guideline", line, 1)
                reported = True
        if "max-chars" in rules or "shared-byte-budget" in rules:
            from .checks import agent_limits

            problems = []
            if "max-chars" in rules:
                found = agent_limits.max_chars(ctx.text, rules["max-chars"], est)
                problems += [("max-chars", p) for p in found]
            if "shared-byte-budget" in rules:
                opts = rules["shared-byte-budget"]
                found = agent_limits.shared_byte_budget(ctx.path, ctx.text, opts, est)
                problems += [("shared-byte-budget", p) for p in found]
            for rid, (line, col, message) in problems:
                emit(rid, message, line, col)
                reported = True
        return reported


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(document)"


_EVALUATORS: dict[tuple[str, str], Any] = {}


def _evaluator(schema_name: str, config: Config | None = None) -> Any:
    """The compiled schema a kind names: shipped, or a file in the repository (see
    readers.schemas), whose patterns run with a time bound."""
    from .readers.schemas import is_user_schema, schema_for

    user = is_user_schema(schema_name)
    key = (schema_name, config.base_dir if user and config is not None else "")
    if key not in _EVALUATORS:
        schema = schema_for(schema_name, config)
        from .minischema import Evaluator, unsupported_keywords

        seconds = None
        if user:
            limits = config.limits if config is not None else {}
            seconds = limits.get("pattern-milliseconds", 1000) / 1000
        _EVALUATORS[key] = (
            Evaluator(schema, seconds)
            if not unsupported_keywords(schema)
            else _JsonschemaAdapter(schema, seconds)
        )
    return _EVALUATORS[key]


def schema_errors(
    data: Any, schema_name: str, config: Config | None = None
) -> Iterator[tuple[tuple, str, bool]]:
    """(instance path, message, on_key) for each schema violation."""
    from .minischema import PatternTimeout

    try:
        found = _evaluator(schema_name, config).errors(data)
    except PatternTimeout as exc:
        raise ConfigError(
            f"schema {schema_name!r}: keyword 'pattern' {exc.pattern[:80]!r} ran longer than "
            f"{exc.seconds:g} s on one value (limits.pattern-milliseconds); simplify it"
        ) from None
    except RecursionError:
        raise ConfigError(f"schema {schema_name!r}: nests or refers to itself too deeply") from None
    for err in found:
        yield err.path, err.message, err.on_key


class _JsonschemaAdapter:
    """Full jsonschema for user schemas that go beyond the in-house subset."""

    def __init__(self, schema: dict[str, Any], seconds: float | None = None) -> None:
        import jsonschema

        self.seconds = seconds

        cls = jsonschema.validators.validator_for(schema)
        try:
            cls.check_schema(schema)
        except jsonschema.SchemaError as exc:
            raise ConfigError(f"invalid JSON Schema: {exc.message}") from None
        self.validator = cls(schema)

    def errors(self, data: Any) -> list[Any]:
        from .minischema import SchemaError
        from .readers.loaders import to_plain

        out = []
        if self.seconds is not None:  # a user's schema: the whole check is time-bounded
            from .minischema import _timed_call

            found = _timed_call(
                lambda: list(self.validator.iter_errors(to_plain(data))), self.seconds * 5
            )
        else:
            found = self.validator.iter_errors(to_plain(data))
        for err in found:
            on_key = err.validator == "additionalProperties"
            out.append(
                SchemaError(tuple(err.absolute_path), err.message, str(err.validator), on_key)
            )
        return out


# ------------------------------------------------------------------ discovery
def iter_files(paths: Iterable[str], config: Config) -> Iterator[tuple[str, bool]]:
    """(path, explicit) for every file to check; directories are searched by name.

    Inside a git work tree a directory search honours .gitignore (tracked files and
    untracked files that are not ignored), except for files of the kinds marked
    `ephemeral` (local by design, so always ignored: the session checkpoints), which
    it finds ignored or not; elsewhere it walks the tree.
    """
    seen: set[str] = set()
    for raw in paths:
        if os.path.isdir(raw):
            for found in sorted(_walk(raw, config)):
                rel = config.relpath(found)
                if found not in seen and config.kind_for(rel) and not config.excluded(rel):
                    seen.add(found)
                    yield found, False
        else:
            if raw not in seen and not config.excluded(config.relpath(raw)):
                seen.add(raw)
                yield raw, True


def _walk(directory: str, config: Config | None = None) -> Iterator[str]:
    listed = _git_ls_files(directory)
    if listed is not None:
        yield from listed
        if config is not None:
            yield from ignored_ephemeral(directory, config)
        return
    for root, dirs, files in os.walk(directory):
        dirs[:] = [d for d in dirs if d not in (".git", ".hg", ".svn")]
        for name in files:
            yield os.path.normpath(os.path.join(root, name))


def ephemeral_kinds(config: Config) -> list[str]:
    """Kinds that are local by design (rules/kinds.json `ephemeral: true`)."""
    return [name for name, spec in config.kinds.items() if spec.get("ephemeral")]


def ignored_ephemeral(directory: str, config: Config, untracked: bool = False) -> list[str]:
    """Git-ignored files under `directory` whose kind is ephemeral (one git call);
    `untracked`: every file of those kinds that is not in the index, ignored or not."""
    specs = []
    for kind in ephemeral_kinds(config):
        for pattern in config.kinds[kind].get("files", []):
            glob = pattern[1:] if pattern.startswith("/") else "**/" + pattern
            specs.append(":(glob)" + glob)
    if not specs:
        return []
    which = ["--others"] if untracked else ["--others", "--ignored", "--exclude-standard"]
    listed = _git_ls_files(directory, which, specs) or []
    return [
        path
        for path in listed
        if config.kinds.get(config.kind_for(config.relpath(path)) or "", {}).get("ephemeral")
    ]


def _git_ls_files(
    directory: str,
    which: tuple | list = ("--cached", "--others", "--exclude-standard"),
    specs: tuple | list = (".",),
) -> list[str] | None:
    import subprocess

    try:
        proc = subprocess.run(
            [
                "git",
                "-C",
                directory,
                "ls-files",
                "-z",
                *which,
                "--full-name",
                "--",
                *specs,
            ],
            capture_output=True,
            check=False,
        )
        top = subprocess.run(
            ["git", "-C", directory, "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    if proc.returncode != 0 or top.returncode != 0:
        return None
    root = top.stdout.strip()
    out = []
    for name in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if name:
            full = os.path.join(root, name)
            if os.path.lexists(full):
                out.append(os.path.relpath(full) if not os.path.isabs(directory) else full)
    return out


def ensure_exists(path: str) -> None:
    """Raise FileProblem for a path argument that names nothing."""
    if not os.path.lexists(path):
        raise FileProblem("io-error", "no such file or directory")
    if os.path.isdir(path):
        return
    check_regular_file(path)
