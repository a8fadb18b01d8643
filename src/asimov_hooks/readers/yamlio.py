"""The one place ruamel.yaml is set up (`make_yaml`) and its errors are put into words
(`with reading(text, kind):`), so the same broken file gives the same `YAMLProblem`
whichever reader met it. ruamel.yaml is imported only when a parser is built. Every
reader reads YAML 1.2 (a `%YAML` directive in the file still wins).
"""

from __future__ import annotations

import warnings

from .problem import UnkeptComments, YAMLProblem

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from types import TracebackType
    from typing import Any

# The parsers (which reads what: docs/architecture.md, "Reading YAML"). libyaml words
# its errors differently, so a text SAFE refuses is read again by SAFE_PURE.
SAFE = "safe"
SAFE_PURE = "safe-pure"
ROUND_TRIP = "rt"
KINDS = (SAFE, SAFE_PURE, ROUND_TRIP)


# a mapping as a key (`{a: 1}: x`, `? {{ var }}`): ruamel's safe loader and PyYAML refuse
# it, JSON has no such key; most often an unquoted template placeholder
MAPPING_KEY = (
    "invalid YAML: a mapping cannot be a key (an unquoted `{{ ... }}` template "
    "placeholder? quote it)"
)


def make_yaml(kind: str) -> Any:
    """A new ruamel.yaml instance of `kind` (SAFE, SAFE_PURE or ROUND_TRIP), with the
    options every reader shares; callers add only their dumping options."""
    from ruamel.yaml import YAML

    if kind == SAFE:
        yaml = YAML(typ="safe")
    elif kind == SAFE_PURE:
        yaml = YAML(typ="safe", pure=True)
    elif kind == ROUND_TRIP:
        yaml = YAML(typ="rt", pure=True)
    else:
        raise ValueError(f"unknown YAML reader kind {kind!r} (one of {', '.join(KINDS)})")
    yaml.allow_duplicate_keys = False
    if kind != ROUND_TRIP:
        yaml.Constructor = _safe_constructor()
    return yaml


_SAFE_CONSTRUCTOR: list[Any] = []


def _safe_constructor() -> Any:
    """ruamel's safe constructor (a subclass), reading a plain `=` as the string it is in
    YAML 1.2: ruamel's resolver tags it YAML 1.1's `!!value`, which its safe constructor
    refuses, so the trimmer and the archive would refuse what validate accepts."""
    if not _SAFE_CONSTRUCTOR:
        from ruamel.yaml.constructor import SafeConstructor

        class Constructor(SafeConstructor):
            pass

        Constructor.add_constructor("tag:yaml.org,2002:value", SafeConstructor.construct_yaml_str)
        _SAFE_CONSTRUCTOR.append(Constructor)
    return _SAFE_CONSTRUCTOR[0]


class reading:  # a statement, not a value: `with reading(text, kind):`
    """Parse inside this block: ruamel's warnings are silenced and anything a parse of
    `text` raises (its own errors, and what its constructors and scanner let through)
    leaves as a YAMLProblem (`problem_from`), or `UnkeptComments` where the round trip
    cannot place the comments of valid YAML."""

    def __init__(self, text: str, kind: str = ROUND_TRIP) -> None:
        self.text, self.kind = text, kind
        self._silence = warnings.catch_warnings()

    def __enter__(self) -> None:
        self._silence.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(
        self, typ: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        self._silence.__exit__(typ, exc, tb)
        if exc is None or isinstance(exc, YAMLProblem):
            return False
        from ruamel.yaml.error import YAMLError

        if self.kind == ROUND_TRIP and isinstance(exc, (NotImplementedError, AssertionError)):
            # ruamel's round trip gives up on some comment blocks ("overlap in comment")
            raise UnkeptComments() from None
        if isinstance(exc, (YAMLError, *_CONSTRUCTION_ERRORS, RecursionError, AssertionError)):
            raise problem_from(exc, self.text, self.kind) from None
        return False


# what ruamel's constructors raise for a scalar that scans but does not convert:
# `2026-13-45`, `!!int foo`, `!!bool maybe`, an integer of 5,000 digits
_CONSTRUCTION_ERRORS = (ValueError, LookupError, TypeError, ArithmeticError)


def problem_from(exc: BaseException, text: str = "", kind: str = ROUND_TRIP) -> YAMLProblem:
    """Our rule, message, line and column for an exception a ruamel parse raised."""
    from ruamel.yaml.composer import ComposerError
    from ruamel.yaml.constructor import DuplicateKeyError
    from ruamel.yaml.error import YAMLError

    if isinstance(exc, RecursionError):
        return YAMLProblem("syntax", "invalid YAML: nesting too deep")
    if isinstance(exc, AssertionError):  # ruamel's scanner gives up on some comments
        return YAMLProblem(
            "syntax", "invalid YAML: comments are placed where the YAML reader cannot keep them"
        )
    if isinstance(exc, _CONSTRUCTION_ERRORS) and not isinstance(exc, YAMLError):
        detail = f"unknown value {exc.args[0]!r}" if isinstance(exc, KeyError) else exc
        line, col = unreadable_scalar(text, kind)
        return YAMLProblem("syntax", f"invalid YAML: a value cannot be read ({detail})", line, col)
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
    problem = getattr(exc, "problem", None) or (str(exc).strip().splitlines() or [""])[0]
    context = getattr(exc, "context", None)
    if isinstance(exc, DuplicateKeyError):
        import re

        key = re.search(r'found duplicate key "(.*?)"', str(exc))
        name = key.group(1) if key else "?"
        return YAMLProblem("duplicate-key", f"duplicate key {name!r}", line, col)
    if isinstance(exc, ComposerError) and "single document" in f"{context} {problem}":
        return YAMLProblem("multi-document", "a stream of more than one YAML document")
    if problem == "found unhashable key":  # the one wording, whichever reader met it
        return YAMLProblem("syntax", MAPPING_KEY, line, col)
    message = f"invalid YAML: {problem or type(exc).__name__}"
    return YAMLProblem("syntax", message + (f" ({context})" if context else ""), line, col)


def single(docs: list[Any]) -> Any:
    """The one document of a stream (None for an empty one); more is a YAMLProblem."""
    if len(docs) > 1:
        raise YAMLProblem("multi-document", f"a stream of {len(docs)} YAML documents")
    return docs[0] if docs else None


def load_all(text: str, kind: str) -> list[Any]:
    """Every document of `text`, as plain data (SAFE or SAFE_PURE) or round-trip objects;
    a text libyaml refuses is read again by the pure parser, whose words are the
    reference (and which reads YAML 1.2 line breaks)."""
    try:
        with reading(text, kind):
            return list(make_yaml(kind).load_all(text))
    except YAMLProblem:
        if kind != SAFE:
            raise
    with reading(text, SAFE_PURE):
        return list(make_yaml(SAFE_PURE).load_all(text))


# what only ruamel's pure-Python scanner refuses, where libyaml and the YAML 1.2 spec read
# the text (docs/architecture.md, "Reading YAML")
_PURE_SCANNER_ONLY = (
    "found character '\\t' that cannot start any token",
    "more indented follow up line than first in a block scalar",
    "expected a digit, but found '\\t'",
)


def libyaml_reading(text: str, problem: YAMLProblem) -> tuple[Any, Any] | None:
    """(composed node, data) as libyaml reads `text`, where the pure reader refused it with
    `problem` for a reason of its scanner alone; None: the refusal stands. The node
    marks are character offsets, so positions and the trimmer's cuts hold."""
    if problem.rule != "syntax" or not any(s in problem.message for s in _PURE_SCANNER_ONLY):
        return None
    if _PURE_SCANNER_ONLY[1] in problem.message and not _leading_blanks_fit(text):
        return None  # libyaml lets this one through, the spec does not
    try:
        from ruamel.yaml.cyaml import CParser  # noqa: F401 - libyaml is there
    except ImportError:
        return None
    try:
        return compose(text, SAFE)
    except YAMLProblem:
        return None


def compose(text: str, kind: str) -> tuple[Any, Any]:
    """(composed node, data) of a one-document text, read by `kind` (SAFE or SAFE_PURE)."""
    yaml = make_yaml(kind)
    with reading(text, kind):
        node = single(list(yaml.compose_all(text)))
        return node, yaml.constructor.construct_document(node) if node is not None else None


def _leading_blanks_fit(text: str) -> bool:
    """No blank line before a block scalar's first line holds more spaces than that line
    is indented (the spec's rule, which the pure scanner applies to too many lines)."""
    import re

    header = re.compile(r"(?:^|[\s:?-])[|>][-+1-9]{0,2}[ \t]*(?:#.*)?$")
    lines = text.replace("\r", "").split("\n")
    for i, line in enumerate(lines):
        if not header.search(line):
            continue
        widest, j = 0, i + 1
        while j < len(lines) and not lines[j].strip(" "):
            widest, j = max(widest, len(lines[j])), j + 1
        if j < len(lines) and widest > len(lines[j]) - len(lines[j].lstrip(" ")):
            return False
    return True


def unreadable_scalar(text: str, kind: str = ROUND_TRIP) -> tuple[int, int]:
    """Where the first scalar that fails to construct sits (error path only)."""
    from ruamel.yaml.nodes import ScalarNode

    try:
        yaml = make_yaml(SAFE_PURE if kind == SAFE else kind)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for node in nodes([yaml.compose(text)], in_order=True):
                if isinstance(node, ScalarNode):
                    try:
                        yaml.constructor.construct_object(node, deep=True)
                    except Exception:
                        return node.start_mark.line + 1, node.start_mark.column + 1
    except Exception:
        pass
    return 1, 1


def nodes(roots: list[Any], in_order: bool = False) -> Any:
    """Each composed node under `roots` once (aliases share nodes), depth first, the
    last child first unless `in_order`."""
    todo = list(roots)
    seen: set[int] = set()
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        if isinstance(node.value, list):
            children: list[Any] = []
            for item in node.value:
                children.extend(item if isinstance(item, tuple) else (item,))
            todo.extend(reversed(children) if in_order else children)
