"""`asimov-hooks stats [--since DURATION] [--format text|json|html] [-o FILE] [--clear]`.

Exit status: 0 (also when nothing is recorded: the text form then prints nothing),
2 for a usage error, an unusable config or a file that cannot be written.
"""

from __future__ import annotations

import os
import sys

import click

from ..fs.access import show
from ..options.clickopts import CONTEXT

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

PROG = "asimov-hooks stats"
FORMATS = ("text", "json", "html")
EXIT_OK, EXIT_USAGE = 0, 2


def _fail(message: str) -> None:
    sys.stderr.write(f"{PROG}: error: {show(message)}\n")
    sys.exit(EXIT_USAGE)


@click.command(
    "stats",
    context_settings=CONTEXT,
    short_help="What the agent hooks recorded about this repository's checkpoints: sizes "
    "written and kept, trims, refusals, re-reads, requests; what it says about the limits.",
)
@click.option("--since", metavar="DURATION", help="Only records this recent: 90s, 30m, 12h, "
              "7d, 2w, or an ISO 8601 date (default: everything recorded).")  # fmt: skip
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text (quiet when nothing is recorded), json (combinable across members: "
              "it carries the records), or html (one self-contained page with charts).")  # fmt: skip
@click.option("-o", "--output", metavar="FILE", help="Write the report to FILE (atomically) "
              "instead of standard output.")  # fmt: skip
@click.option("--add", "added", metavar="FILE", multiple=True, help="Also count the records "
              "in FILE, another member's `stats --format json` output (repeatable).")  # fmt: skip
@click.option("--clear", is_flag=True, help="Empty the record and stop.")
def command(
    since: str | None, fmt: str, output: str | None, added: tuple[str, ...], clear: bool
) -> None:
    """What the agent hooks recorded about this repository's protocol files: the sizes
    of checkpoint writes as written and as kept (median, p90, max; lines and tokens),
    how often each limit fired and what the trim cut, refusals by rule, re-reads after
    a compaction, checkpoint requests and how soon they were answered; then what the
    data says about the limits, with the config lines that change one.

    The record lives in .git/asimov-hooks/ and holds numbers only, never a file's text
    (`agent: {stats: false}` in .asimov-hooks.yaml turns it off).
    """
    sys.exit(run(since, fmt, output, clear, added))


def run(
    since: str | None, fmt: str, output: str | None, clear: bool, added: tuple[str, ...] = ()
) -> int:
    import time

    from ..gitutil import find_toplevel
    from .summary import load, record_path, summarize

    top = find_toplevel(os.getcwd()) or os.getcwd()
    path = record_path(top)
    if clear:
        from ..fs.journal import clear as clear_record

        try:
            count = clear_record(path)
        except OSError as exc:
            _fail(f"{path}: cannot empty the record: {exc.strerror or exc}")
        sys.stdout.write(f"{PROG}: {count:,} records removed ({show(_shown(path, top))})\n")
        return EXIT_OK
    start = None
    if since:
        from .summary import parse_since

        try:
            start = parse_since(since, time.time())
        except ValueError as exc:
            _fail(str(exc))
    config, kinds = _config(top)
    try:
        records = load(path, start)
    except OSError as exc:
        _fail(f"{path}: cannot read the record: {exc.strerror or exc}")
    if added:
        from .summary import entries_of

        for name in added:
            try:
                records += entries_of(name, start)
            except ValueError as exc:
                _fail(f"{name}: {exc}")
        records.sort(key=lambda r: r["t"])
    summary = summarize(records, config, kinds)
    text = _render(fmt, summary, records, _shown(path, top))
    if output:
        from ..fs.access import FileProblem, atomic_write

        try:
            atomic_write(os.path.abspath(output), text.encode("utf-8"))
        except (OSError, FileProblem) as exc:
            _fail(f"{output}: cannot write the report: {getattr(exc, 'strerror', None) or exc}")
    elif text:
        sys.stdout.write(text)
    return EXIT_OK


def _shown(path: str, top: str) -> str:
    rel = os.path.relpath(path, top)
    return path if rel.startswith("..") else rel


def _config(top: str) -> tuple[Any, list[str]]:
    from ..config.config import ConfigError, load_config

    try:
        config = load_config(None, start=top)
        kinds = config.section("agent").get("checkpoint-kinds", [])
    except ConfigError as exc:
        _fail(f"configuration: {exc}")
    return config, [k for k in kinds if isinstance(k, str)]


def _render(fmt: str, summary: dict[str, Any], records: list[dict[str, Any]], where: str) -> str:
    if fmt == "json":
        from ..readers.json_loader import dump_text  # never NaN or Infinity

        data = {**summary, "record": where, "entries": records}
        return dump_text(data, ascii=True, sort_keys=True) + "\n"
    if fmt == "html":
        from .html import render

        return render(summary, records, where)
    from .text import render as render_text

    # kinds and agents come from the record and from `--add` files: escaped as every value is
    return "".join(show(line) + "\n" for line in render_text(summary, records, where).splitlines())


def text_report(top: str) -> str:
    """The text form, for `/checkpoint stats` (empty when nothing is recorded)."""
    from .summary import load, record_path, summarize

    config, kinds = _config(top)
    path = record_path(top)
    records = load(path)
    return _render("text", summarize(records, config, kinds), records, _shown(path, top))
