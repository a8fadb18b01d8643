"""Cheap checks that run on untrusted text (a pull request can change every file a hook
reads, the committed config included) before any parser sees it:

- nesting depth: libyaml's composer and Python's recursion fail (a segmentation fault,
  or seconds of work) on `[[[[...` tens of thousands deep; `check_depth` measures it in
  one pass without recursion;
- YAML tags other than the standard ones (`!!python/...`, `!local`): the same error in
  every reader (`check_tags`);
- aliases: references and expansion counted without expanding (`alias_expansion`).

The numbers are data (rules/limits.json, the config's `limits:`); docs/limits.md.
"""

from __future__ import annotations

from .fastjson import depth_past, line_col, loads

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

DEFAULT_LIMITS = {  # used only when rules/limits.json cannot be read
    "max-depth": 100,
    "max-aliases": 1000,
    "max-alias-nodes": 100_000,
    "max-config-bytes": 1 << 20,
    "max-pattern-length": 1000,
    "pattern-milliseconds": 1000,
    "archive-check-bytes": 1 << 20,
}

# tags every reader resolves; anything else is refused with one message everywhere
STANDARD_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp", "merge")
)


class InputProblem(Exception):
    """The text is refused before parsing; one line, with where it happened."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


def limits(data: dict[str, Any] | None = None) -> dict[str, int]:
    """The limits in force: rules/limits.json under a config's merged `limits:` section."""
    merged = dict(DEFAULT_LIMITS)
    if data is None:
        data = _pack()
    section = data.get("limits") if isinstance(data, dict) else None
    if isinstance(section, dict):
        for key, value in section.items():
            if key in merged and isinstance(value, int) and not isinstance(value, bool):
                merged[key] = value
    return merged


_PACK: list[Any] = []


def _pack() -> Any:
    """rules/limits.json, found as config.rules_dir finds the packs (wheel or checkout);
    read here, not through config, which itself reads its files through these guards."""
    if not _PACK:
        import os

        here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
        data: Any = {}
        for candidate in (os.path.join(here, "rules"), os.path.join(here, "..", "..", "rules")):
            path = os.path.join(candidate, "limits.json")
            if os.path.isfile(path):
                try:
                    with open(path, encoding="utf-8") as fh:
                        data = loads(fh.read(), max_depth=None)
                except (OSError, ValueError):
                    data = {}
                break
        _PACK.append(data)
    return _PACK[0]


# ------------------------------------------------------------------ depth
def check_depth(text: str, fmt: str, max_depth: int) -> None:
    """Raise InputProblem when `text` nests deeper than `max_depth` (JSON or YAML)."""
    # every level needs an opening bracket or (YAML) a line or an indicator: most files
    # cannot reach the limit at all, and are not scanned
    openers = text.count("[") + text.count("{")
    if fmt == "json":
        at = depth_past(text, max_depth) if openers > max_depth else -1
        if at >= 0:
            raise _too_deep(text, at, max_depth)
        return
    if openers + text.count("\n") + text.count("- ") + text.count("? ") + 1 <= max_depth:
        return
    if _yaml_depth_bound(text, max_depth - openers) + openers <= max_depth:
        return
    _yaml_depth(text, max_depth)


def _yaml_depth_bound(text: str, enough: int = 0) -> int:
    """An upper bound of the block depth `_yaml_depth` can find, from C-speed scans (so a
    long warmup.yaml never pays the line-by-line scan): its stack holds distinct
    indentations, and a line adds at most its leading `- `/`? ` indicators. Up to
    `enough`, the widest indentation (a few substring searches) bounds the distinct ones."""
    import re

    body = "\n" + text  # every line starts after a "\n" (re.M's `^` is slower)
    # a line's leading indicators, as _yaml_depth matches them; one adds 1 at most
    leads = re.findall(r"\n *((?:[-?:](?:[ \t]+|(?=\n)|\Z)){2,})", body)
    lead = max((lead.count("-") + lead.count("?") for lead in leads), default=1)
    widest = _widest_indent(body, enough)
    if widest + 1 + lead <= enough:
        return widest + 1 + lead
    return len(set(re.findall(r"\n( +)", body))) + 1 + lead  # and no indentation


def _widest_indent(body: str, cap: int) -> int:
    """The most spaces any line of `body` starts with, up to `cap` (a line indented by
    n spaces is also indented by fewer: a binary search over substring tests)."""
    low, high = 0, max(cap, 0)
    while low < high:
        mid = (low + high + 1) // 2
        if "\n" + " " * mid in body:
            low = mid
        else:
            high = mid - 1
    return low


def _too_deep(text: str, offset: int, max_depth: int) -> InputProblem:
    message = f"nested more than {max_depth} levels deep; not parsed"
    return InputProblem(message, *line_col(text, offset))


def _yaml_depth(text: str, max_depth: int) -> None:
    """Block nesting (an indentation stack, plus `- `/`? ` indicators sharing a line) and
    flow nesting (brackets outside quotes and comments), in one pass."""
    import re

    # tokens in flow context: quoted scalars, comments, brackets
    flow_token = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'\')*\'|[ \t]#.*|[\[{\]}]')
    # where a flow collection or a quoted scalar may start in block context
    block_start = re.compile(r"(?:^|(?<=[\s,\[{]))([\[{\"'])|(?:^|(?<=\s))#")
    indicators = re.compile(r"(?:[-?:](?:[ \t]+|$))+")
    stack: list[int] = []
    flow = 0
    block_scalar: int | None = None  # indentation of the line that opened a `|`/`>` scalar
    quote: str | None = None  # a quoted scalar that runs over lines
    offset = 0
    for line in text.split("\n"):
        start, offset = offset, offset + len(line) + 1
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if block_scalar is not None:
            if not stripped.strip() or indent > block_scalar:
                continue
            block_scalar = None
        pos = 0
        if quote is None and flow == 0:
            if not stripped.strip() or stripped.startswith("#"):
                continue
            while stack and stack[-1] >= indent:
                stack.pop()
            stack.append(indent)
            lead = indicators.match(stripped)
            extra = lead.group().count("-") + lead.group().count("?") if lead else 0
            if len(stack) + extra > max_depth:
                raise _too_deep(text, start + indent, max_depth)
            pos = indent + (lead.end() if lead else 0)
        elif quote is not None:
            end = _quote_end(line, 0, quote)
            if end < 0:
                continue
            quote, pos = None, end
        base = len(stack)
        while pos < len(line):
            if flow == 0:
                found = block_start.search(line, pos)
                if found is None:
                    break
                opener = found.group(1)
                if opener is None:  # a comment
                    break
                pos = found.end()
                if opener in "\"'":
                    end = _quote_end(line, pos, opener)
                    if end < 0:
                        quote = opener
                        break
                    pos = end
                    continue
                flow = 1
                if base + flow > max_depth:
                    raise _too_deep(text, start + found.start(1), max_depth)
                continue
            found = flow_token.search(line, pos)
            if found is None:
                break
            token = found.group()
            pos = found.end()
            if token in "[{":
                flow += 1
                if base + flow > max_depth:
                    raise _too_deep(text, start + found.start(), max_depth)
            elif token in "]}":
                flow -= 1
            elif token[0] in "\"'" and (len(token) < 2 or token[-1] != token[0]):
                quote = token[0]  # runs over the line end
                break
            elif token.lstrip().startswith("#"):
                break
        if (
            quote is None
            and flow == 0
            and re.search(r"(?:^|[\s:\-?])[|>][-+0-9]*[ \t]*(?:#.*)?$", line)
        ):
            block_scalar = indent


def _quote_end(line: str, pos: int, quote: str) -> int:
    """Offset just past the closing `quote` on this line, or -1."""
    while True:
        end = line.find(quote, pos)
        if end < 0:
            return -1
        if quote == '"':
            backslashes = len(line[pos:end]) - len(line[pos:end].rstrip("\\"))
            if backslashes % 2:
                pos = end + 1
                continue
            return end + 1
        if line.startswith("''", end):
            pos = end + 2
            continue
        return end + 1


# ------------------------------------------------------------------ tags
def check_tags(text: str) -> None:
    """Raise InputProblem for a node with a tag no reader resolves (a compose: only
    when the text has a `!` where a tag can start)."""
    if "!" not in text:
        return
    import re

    if not re.search(r"(?:^|[\s\[{,])!", text):
        return
    from .problem import YAMLProblem
    from .yamlio import SAFE_PURE, make_yaml, nodes, reading

    try:
        with reading(text, SAFE_PURE):
            roots = list(make_yaml(SAFE_PURE).compose_all(text))
    except YAMLProblem:
        return  # the reader's own parse reports it
    for node in nodes(roots):
        tag = str(getattr(node.tag, "value", node.tag) or "")
        if tag not in STANDARD_TAGS and tag != "tag:yaml.org,2002:value":
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            mark = node.start_mark
            raise InputProblem(
                f"unsupported YAML tag {shown!r} (only the standard tags !!str, !!int, !!float, "
                "!!bool, !!null, !!seq, !!map and !!timestamp are read)",
                mark.line + 1,
                mark.column + 1,
            )


# ------------------------------------------------------------------ aliases
def alias_expansion(root: Any, max_aliases: int, max_nodes: int) -> tuple[int, int]:
    """(alias references, nodes their expansion adds) of loaded data (ruamel shares an
    aliased object); InputProblem past either bound. Linear in the data: each shared
    object is sized once; a document without aliases adds nothing, however long."""
    if not isinstance(root, (dict, list)):
        return 0, 0
    size: dict[int, int] = {}
    order: list[Any] = []  # containers, children before parents
    stack: list[tuple[Any, Any]] = [(root, iter(_children(root)))]
    size[id(root)] = 1  # being sized: a recursive alias counts once and ends here
    edges = 0
    while stack:
        node, children = stack[-1]
        for child in children:
            if isinstance(child, (dict, list)):
                edges += 1
                if id(child) not in size:
                    size[id(child)] = 1
                    stack.append((child, iter(_children(child))))
                    break
        else:
            stack.pop()
            order.append(node)
    # every reference to a container past its first is an alias, whose expansion adds
    # the container's whole size
    aliases = edges - (len(order) - 1)
    if aliases > max_aliases:
        raise InputProblem(f"more than {max_aliases:,} alias references (*name)")
    if not aliases:
        return 0, 0
    for node in order:
        total = 1
        for child in _children(node):
            total += size[id(child)] if isinstance(child, (dict, list)) else 1
        size[id(node)] = min(total, max_nodes + 1)
    seen: set[int] = {id(root)}
    added = 0
    for node in order:
        for child in _children(node):
            if isinstance(child, (dict, list)):
                if id(child) in seen:
                    added += size[id(child)]
                    if added > max_nodes:
                        raise InputProblem(
                            f"aliases expand to more than {max_nodes:,} nodes (alias bomb?)"
                        )
                else:
                    seen.add(id(child))
    return aliases, added


def _children(node: Any) -> Any:
    return node.values() if isinstance(node, dict) else node
