"""The one error every reader raises (`document` re-exports it); a module of its own
so that the YAML set-up (`yamlio`) and the pre-parse guards can raise it too."""

from __future__ import annotations


class YAMLProblem(Exception):
    """A file no reader can use: the rule it breaks, one line of words, and where.

    `line` and `col` are 1-based; a problem with no place (a stream of two documents)
    is given 0, 0, reported at 1:1, and `placed` is False."""

    def __init__(self, rule: str, message: str, line: int = 0, col: int = 0) -> None:
        super().__init__(message)
        self.rule, self.message, self.placed = rule, message, bool(line)
        self.line, self.col = line or 1, col or 1

    def located(self) -> str:
        """`line N: message`, as trim, the archive and the merge driver say it."""
        return f"line {self.line}: {self.message}" if self.placed else self.message


class UnkeptComments(YAMLProblem):
    """Valid YAML whose comments ruamel's round-trip reader cannot place ("overlap in
    comment"): readers fall back to the safe reading; the merge driver refuses."""

    def __init__(self, line: int = 0, col: int = 0) -> None:
        super().__init__(
            "syntax",
            "comments are placed where the round-trip YAML reader cannot keep them; "
            "the file cannot be rewritten safely",
            line,
            col,
        )
