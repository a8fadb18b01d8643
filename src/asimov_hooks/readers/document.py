"""What a reader hands on: the parsed data with a way to find any path in the text
(`Document`), the one error every reader raises (`YAMLProblem`), and the guard every
reader runs before parsing."""

from __future__ import annotations

from .guards import InputProblem, _widest_indent, check_depth, check_tags
from .guards import limits as default_limits
from .problem import YAMLProblem

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from collections.abc import Callable
    from typing import Any

Path_ = "tuple[str | int, ...]"


class Document:
    """Parsed data plus a way to find where any path sits in the file."""

    __slots__ = ("data", "locate", "plain")

    def __init__(
        self, data: Any, locate: Callable[[Path_, bool], tuple[int, int]], plain: bool = False
    ) -> None:
        self.data, self.locate = data, locate
        self.plain = plain  # read by `plain_yaml` (the plain subset): its data, as it reads it

    def __repr__(self) -> str:
        return f"Document(data={self.data!r})"


def guard(text: str, fmt: str, limits: dict[str, int] | None = None) -> None:
    """Refuse excessive nesting (and, in YAML, unsupported tags) before parsing."""
    lim = limits if limits is not None else default_limits()
    try:
        check_depth(text, fmt, lim["max-depth"])
        if fmt == "yaml":
            check_tags(text)
    except InputProblem as problem:
        what = "JSON" if fmt == "json" else "YAML"
        message = f"invalid {what}: {problem.message}"
        raise YAMLProblem("syntax", message, problem.line, problem.col) from None


def guard_plain(text: str, limits: dict[str, int]) -> None:
    """`guard` for a text `plain_yaml` has read as block mappings and lists only: without
    `[`, `{` or `!` it holds no flow collection and no tag, and each line adds at most
    one level (its indentation) and one for an item's `- `, so it nests at most its
    line count plus one, and its widest indentation plus two, levels deep."""
    max_depth = limits["max-depth"]
    if (
        "[" in text
        or "{" in text
        or "!" in text
        or (
            text.count("\n") + 2 > max_depth
            and _widest_indent("\n" + text, max_depth) + 2 > max_depth
        )
    ):
        guard(text, "yaml", limits)
