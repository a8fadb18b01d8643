"""What a check reports: findings per file and the file's overall status."""

from __future__ import annotations

LEVEL_ORDER = {"info": 0, "warning": 1, "error": 2}


class Finding:
    __slots__ = ("col", "level", "line", "message", "path", "rule", "suggestion")

    def __init__(
        self,
        path: str,
        line: int,
        col: int,
        level: str,
        rule: str,
        message: str,
        suggestion: str | None = None,
    ) -> None:
        self.path, self.line, self.col, self.level = path, line, col, level
        self.rule, self.message, self.suggestion = rule, message, suggestion

    def __repr__(self) -> str:
        return (
            f"Finding({self.path}:{self.line}:{self.col} {self.level} {self.rule} {self.message})"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "level": self.level,
            "rule": self.rule,
            "message": self.message,
            "suggestion": self.suggestion,
        }


class FileResult:
    def __init__(self, path: str, kind: str | None, skipped: str | None = None) -> None:
        self.path = path
        self.kind = kind
        self.findings: list[Finding] = []
        self.skipped = skipped  # why the file was not checked as a protocol file
        self.fixed: list[str] = []  # what a fixer changed
        self.fix_error: str | None = None  # why a requested fix could not be applied

    @property
    def status(self) -> str:
        if not self.findings:  # most files
            return "valid" if self.skipped is None else "skipped"
        # a skipped file's info findings (not-protocol-file says why) do not check it
        if self.skipped is not None and all(f.level == "info" for f in self.findings):
            return "skipped"
        worst = max((LEVEL_ORDER[f.level] for f in self.findings), default=-1)
        if worst == 2:
            return "error"
        if worst == 1:
            return "warning"
        return "valid"

    def fails(self, strict: bool) -> bool:
        if self.fixed or self.fix_error:
            return True
        return any(f.level == "error" or (strict and f.level == "warning") for f in self.findings)
