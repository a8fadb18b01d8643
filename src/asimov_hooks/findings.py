"""What a check reports: findings per file and the file's overall status."""

from __future__ import annotations

from dataclasses import dataclass, field

LEVEL_ORDER = {"info": 0, "warning": 1, "error": 2}


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    col: int
    level: str
    rule: str
    message: str
    suggestion: str | None = None

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


@dataclass
class FileResult:
    path: str
    kind: str | None
    findings: list[Finding] = field(default_factory=list)
    skipped: str | None = None  # why the file was not checked as a protocol file
    fixed: list[str] = field(default_factory=list)  # what a fixer changed

    @property
    def status(self) -> str:
        if self.skipped is not None and not self.findings:
            return "skipped"
        worst = max((LEVEL_ORDER[f.level] for f in self.findings), default=-1)
        if worst == 2:
            return "error"
        if worst == 1:
            return "warning"
        return "valid"

    def fails(self, strict: bool) -> bool:
        if self.fixed:
            return True
        return any(f.level == "error" or (strict and f.level == "warning") for f in self.findings)
