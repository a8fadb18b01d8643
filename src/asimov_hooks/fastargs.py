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
VALUES = {"--format": "fmt", "--config": "config_path", "-j": "jobs", "--jobs": "jobs"}
MULTI = {"--select": "select", "--ignore": "ignore"}
CHOICES = {"fmt": ("text", "json", "github")}


def parse(argv: Sequence[str], allowed: frozenset[str] | None = None) -> dict[str, object] | None:
    """Options and paths of a validate-style command line, or None to defer to click."""
    opts: dict[str, object] = {
        "fix": False,
        "strict": False,
        "quiet": False,
        "fmt": None,
        "config_path": None,
        "select": [],
        "ignore": [],
        "jobs": 0,
        "paths": [],
    }
    paths: list[str] = opts["paths"]  # type: ignore[assignment]
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
        if name in FLAGS and not eq:
            opts[FLAGS[name]] = True
        elif name in VALUES or name in MULTI:
            if eq:
                value = inline
            elif i < len(args):
                value = args[i]
                i += 1
            else:
                return None
            if name in VALUES:
                key = VALUES[name]
                if value not in CHOICES.get(key, (value,)):
                    return None
                if key == "jobs":
                    if not value.isdigit():
                        return None  # click says what a job count must be
                    opts[key] = int(value)
                    continue
                opts[key] = value
            else:
                opts[MULTI[name]].append(value)  # type: ignore[attr-defined]
        else:
            return None  # -h, --help, -V, --version, unknown: click explains
    return opts
