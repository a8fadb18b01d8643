"""Output formats: text for people, json for machines, github for Actions annotations."""

from __future__ import annotations

import os

from .findings import FileResult

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Sequence
    from typing import TextIO

FORMATS = ("text", "json", "github")


def default_format() -> str:
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary(results: Sequence[FileResult]) -> dict[str, int]:
    counts = {
        "files": len(results),
        "valid": 0,
        "warning": 0,
        "error": 0,
        "skipped": 0,
        "errors": 0,
        "warnings": 0,
        "fixed": 0,
    }
    for res in results:
        counts[res.status] += 1
        counts["errors"] += sum(f.level == "error" for f in res.findings)
        counts["warnings"] += sum(f.level == "warning" for f in res.findings)
        counts["fixed"] += bool(res.fixed)
    return counts


def summary_line(results: Sequence[FileResult]) -> str:
    c = summary(results)
    line = (
        f"{_plural(c['files'], 'file')} checked: {c['valid']} valid, "
        f"{c['warning']} with warnings, {c['error']} with errors, {c['skipped']} skipped "
        f"({_plural(c['errors'], 'error')}, {_plural(c['warnings'], 'warning')})"
    )
    if c["fixed"]:
        line += f"; {_plural(c['fixed'], 'file')} fixed"
    return line


def _status_text(res: FileResult) -> str:
    status = res.status
    if status == "skipped":
        return f"{res.path}: skipped ({res.skipped})"
    if status == "valid":
        return f"{res.path}: valid"
    errors = sum(f.level == "error" for f in res.findings)
    warnings = sum(f.level == "warning" for f in res.findings)
    parts = [
        p
        for p in (errors and _plural(errors, "error"), warnings and _plural(warnings, "warning"))
        if p
    ]
    return f"{res.path}: {status} ({', '.join(parts)})"


def write_text(results: Sequence[FileResult], out: TextIO, quiet: bool = False) -> None:
    for res in results:
        for change in res.fixed:
            out.write(f"Fixing {res.path}: {change}\n")
        if res.fix_error:
            out.write(f"Not fixed {res.path}: {res.fix_error}\n")
        if not (quiet and res.status in ("valid", "skipped")):
            out.write(_status_text(res) + "\n")
        for f in res.findings:
            out.write(f"{f.path}:{f.line}:{f.col}: {f.level} {f.rule} {f.message}\n")
            if f.suggestion and not quiet:
                out.write(f"    suggestion: {f.suggestion}\n")
    out.write(summary_line(results) + "\n")


def write_json(results: Sequence[FileResult], out: TextIO) -> None:
    doc = {
        "tool": "asimov-hooks",
        "files": [
            {
                "path": r.path,
                "kind": r.kind,
                "status": r.status,
                "skipped": r.skipped,
                "fixed": r.fixed,
                "fix_error": r.fix_error,
                "findings": [f.as_dict() for f in r.findings],
            }
            for r in results
        ],
        "summary": summary(results),
    }
    import json

    json.dump(doc, out, indent=2)
    out.write("\n")


def _escape(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def write_github(results: Sequence[FileResult], out: TextIO) -> None:
    kinds = {"error": "error", "warning": "warning", "info": "notice"}
    for res in results:
        for f in res.findings:
            message = f.message + (f" (suggestion: {f.suggestion})" if f.suggestion else "")
            out.write(
                f"::{kinds[f.level]} file={_escape(f.path, True)},line={f.line},col={f.col},"
                f"title={_escape(f.rule, True)}::{_escape(message)}\n"
            )
        if res.fix_error:
            out.write(
                f"::error file={_escape(res.path, True)},title=fix::{_escape(res.fix_error)}\n"
            )
        if res.status == "skipped":
            out.write(
                f"::notice file={_escape(res.path, True)},title=skipped::{_escape(res.skipped or '')}\n"
            )
    out.write(summary_line(results) + "\n")


def write(results: Sequence[FileResult], fmt: str, out: TextIO, quiet: bool = False) -> None:
    if fmt == "json":  # json.dump escapes what the stream could not encode
        write_json(results, out)
        return
    import io

    buf = io.StringIO()
    if fmt == "github":
        write_github(results, buf)
    else:
        write_text(results, buf, quiet)
    # Keys, values and file names can hold lone surrogates (JSON "\ud800", a file
    # name that is not UTF-8); print them escaped instead of failing on the stream.
    encoding = getattr(out, "encoding", None) or "utf-8"
    out.write(buf.getvalue().encode(encoding, "backslashreplace").decode(encoding))
