"""Command-line parsing without click for the hook hot path.

A pre-commit hook pays interpreter start-up on every commit and importing click costs
about as much as the whole check of one file. The hook entry points parse the common
case here; anything unusual (help, version, an unknown option, a missing value) is
handed to the click command, which prints the proper usage message.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence

FLAGS = {"--fix": "fix", "--strict": "strict", "-q": "quiet", "--quiet": "quiet"}
VALUES = {
    "--format": "fmt",
    "--color": "color",
    "--config": "config_path",
    "-j": "jobs",
    "--jobs": "jobs",
}
MULTI = {"--select": "select", "--ignore": "ignore"}
# the same choices as the click options (report.FORMATS, report.COLOR_MODES; a test checks)
CHOICES = {
    "fmt": ("text", "json", "github", "sarif"),
    "color": ("auto", "always", "never"),
}


def scan(
    argv: Sequence[str],
    flags: dict[str, str],
    values: dict[str, str],
    allowed: frozenset[str] | None = None,
) -> tuple[dict[str, object], list[str]] | None:
    """(options, paths) of a command line, or None for anything to leave to click.

    A flag maps its key to True; an option with a value (`--x v` or `--x=v`) maps its
    key to the list of values given, in order.
    """
    found: dict[str, object] = {}
    paths: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            paths.extend(args[i:])
            break
        if not arg.startswith("-") or arg == "-":
            paths.append(arg)
            continue
        name, eq, inline = arg.partition("=")
        if allowed is not None and name not in allowed:
            return None
        if name in flags and not eq:
            found[flags[name]] = True
        elif name in values:
            if eq:
                value = inline
            elif i < len(args):
                value = args[i]
                i += 1
            else:
                return None
            found.setdefault(values[name], []).append(value)  # type: ignore[union-attr]
        else:
            return None  # -h, --help, -V, --version, unknown: click explains
    return found, paths


def parse(argv: Sequence[str], allowed: frozenset[str] | None = None) -> dict[str, object] | None:
    """Options and paths of a validate-style command line, or None to defer to click."""
    scanned = scan(argv, FLAGS, {**VALUES, **MULTI}, allowed)
    if scanned is None:
        return None
    found, paths = scanned
    opts: dict[str, object] = {
        "fix": False,
        "strict": False,
        "quiet": False,
        "fmt": None,
        "config_path": None,
        "select": [],
        "ignore": [],
        "jobs": 0,
        "color": "auto",
        "paths": paths,
    }
    for key, value in found.items():
        if key in MULTI.values() or value is True:
            opts[key] = value
            continue
        last = value[-1]  # type: ignore[index]  (as click: the last one given wins)
        if any(v not in CHOICES.get(key, (v,)) for v in value):  # type: ignore[attr-defined]
            return None
        if key == "jobs":
            if not all(v.isdigit() for v in value):  # type: ignore[attr-defined]
                return None  # click says what a job count must be
            last = int(last)
        opts[key] = last
    return opts
