"""Output formats: text for people (coloured on a terminal), json for machines, github for
Actions annotations, sarif for code scanning (asimov_hooks.output.sarif, imported only for it)."""

from __future__ import annotations

import os

from ..findings import FileResult
from ..fs.access import github_escape
from ..fs.access import show as _show  # repository text made safe to print (fs.access)

# declared with the command-line options that offer them
from ..options import COLOR_MODES as COLOR_MODES
from ..options import FORMATS as FORMATS

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Callable, Sequence
    from typing import TextIO


def default_format() -> str:
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def wants_color(mode: str, out: object) -> bool:
    """--color always|never wins; for auto, NO_COLOR (set, not empty) turns colour off,
    FORCE_COLOR (set, not empty or 0) turns it on, else colour only on a terminal."""
    if mode != "auto":
        return mode == "always"
    env = os.environ
    if env.get("NO_COLOR"):
        return False
    force = env.get("FORCE_COLOR")
    if force:
        return force not in ("0", "false")
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(out, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


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
        if res.findings:
            levels = [f.level for f in res.findings]
            counts["errors"] += levels.count("error")
            counts["warnings"] += levels.count("warning")
        if res.fixed:
            counts["fixed"] += 1
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


def _plain(role: str, text: str) -> str:
    return text


def _status_text(
    res: FileResult, paint: Callable[[str, str], str] = _plain, status: str | None = None
) -> str:
    """`path: status (counts)`; `status`: the result's, when the caller has it."""
    status = status or res.status
    path = paint("path", _show(res.path))
    if status == "skipped":
        return f"{path}: skipped ({_show(res.skipped or '')})"
    if status == "valid":
        return f"{path}: {paint('valid', 'valid')}"
    levels = [f.level for f in res.findings]
    errors, warnings = levels.count("error"), levels.count("warning")
    parts = [
        p
        for p in (errors and _plural(errors, "error"), warnings and _plural(warnings, "warning"))
        if p
    ]
    return f"{path}: {paint(status, status)} ({', '.join(parts)})"


def write_text(
    results: Sequence[FileResult],
    out: TextIO,
    quiet: bool = False,
    color: bool = False,
    verbose: bool = False,
) -> None:
    """`path:line:col: level rule-id message`; level, rule id and path coloured if `color`.

    Like ruff and yamllint, a clean run prints nothing: a valid or skipped file is listed
    only with `verbose`, and the summary comes when there is something to report (or
    with `verbose`). `quiet` drops suggestions and info findings."""
    paint = _plain
    if color:
        from .color import paint
    reported = False
    for res in results:
        if not (res.findings or res.fixed or res.fix_error or verbose):
            continue  # valid or skipped, nothing to say
        for change in res.fixed:
            out.write(f"Fixing {paint('path', _show(res.path))}: {_show(change)}\n")
            reported = True
        if res.fix_error:
            out.write(f"Not fixed {paint('path', _show(res.path))}: {_show(res.fix_error)}\n")
            reported = True
        problems = [f for f in res.findings if f.level != "info"] if quiet else res.findings
        status = res.status
        if verbose or problems or status not in ("valid", "skipped"):
            out.write(_status_text(res, paint, status) + "\n")
        at, shown = None, ""  # a result's findings share its path: shown once
        for f in problems:
            if f.path is not at:
                at, shown = f.path, paint("path", _show(f.path))
            out.write(
                f"{shown}:{f.line}:{f.col}: {paint(f.level, f.level)} "
                f"{paint('rule', f.rule)} {_show(f.message)}\n"
            )
            if f.suggestion and not quiet:
                out.write(f"    suggestion: {_show(f.suggestion)}\n")
        reported = reported or bool(problems) or status not in ("valid", "skipped")
    if verbose or reported:
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
    from ..readers.json_loader import dump_text  # never NaN or Infinity

    out.write(dump_text(doc, ascii=True) + "\n")  # one write


def _escape(value: str, prop: bool = False) -> str:
    """A workflow-command value (fs.access.github_escape): data escapes %, CR and LF,
    a property (`file=`, `title=`) also `:` and `,`. Other control characters, which
    the command syntax cannot carry (an escape sequence would colour the log), are
    shown as text."""
    if not value.isprintable():
        lines = value.split("\n")
        value = "\n".join(
            "\r".join(_show(part, line_start=False) for part in line.split("\r")) for line in lines
        )
    return github_escape(value, property_value=prop)


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


def write(
    results: Sequence[FileResult],
    fmt: str,
    out: TextIO,
    quiet: bool = False,
    color: str = "auto",
    verbose: bool = False,
) -> None:
    """Print `results` in `fmt`; colour (text only) as `wants_color(color, out)` decides."""
    if fmt == "json":  # json.dump escapes what the stream could not encode
        write_json(results, out)
        return
    if fmt == "sarif":
        from .sarif import write as write_sarif

        write_sarif(results, out)
        return
    import io

    buf = io.StringIO()
    if fmt == "github":
        write_github(results, buf)
    else:
        write_text(results, buf, quiet, fmt == "text" and wants_color(color, out), verbose)
    # Keys, values and file names can hold lone surrogates (JSON "\ud800", a file
    # name that is not UTF-8); print them escaped instead of failing on the stream.
    encoding = getattr(out, "encoding", None) or "utf-8"
    out.write(buf.getvalue().encode(encoding, "backslashreplace").decode(encoding))
