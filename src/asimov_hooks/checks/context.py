"""What a rule's check may look at for one file."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any

    from ..config.config import Config
    from ..fs.textio import TextFile


class At:
    """A line and column a check reports at (`where` in a check's findings)."""

    __slots__ = ("col", "line")

    def __init__(self, line: int, col: int = 1) -> None:
        self.line, self.col = line, col


class Context:
    """One file on its way through the checks: where it is, its kind and rules, its text
    and (once parsed) its data.

    A check is `check(ctx, opts) -> iterable of (where, message[, on_key])`, where `opts`
    are the rule's options for this file and `where` is None (the top of the file), a
    line number (int), an `At(line, col)`, or a path into the parsed data (tuple) that
    `locate` turns into a line and column.
    """

    def __init__(
        self,
        path: str,
        rel: str,
        kind: str,
        spec: dict[str, Any],
        config: Config,
        text: TextFile,
        rules: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.path, self.rel, self.kind, self.spec = path, rel, kind, spec
        self.config, self.text = config, text
        self.rules: dict[str, dict[str, Any]] = rules if rules is not None else {}
        self.data: Any = None
        self.document: Any = None
        # what one check works out about the file and another may ask again
        self.memo: dict[str, Any] = {}

    def locate(self, path: tuple, on_key: bool = False) -> tuple[int, int]:
        if self.document is None or (not path and not on_key):
            return (1, 1)
        return self.document.locate(path, on_key)

    def position(self, where: Any, on_key: bool = False) -> tuple[int, int]:
        """Line and column of what a check yielded as `where`."""
        if where is None:
            return (1, 1)
        if isinstance(where, int):
            return (where, 1)
        if isinstance(where, At):
            return (where.line, where.col)
        return self.locate(where, on_key)
