"""`asimov-check-size`: ADR-007 size limits only, for the pre-commit size hook.

A hook pays interpreter start-up on every commit, so this entry point parses its
arguments by hand and never imports click, ruamel.yaml or jsonschema.
"""

from __future__ import annotations

import sys

from .engine import SIZE_RULES
from .report import FORMATS, default_format

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Sequence

USAGE = "usage: asimov-check-size [--config FILE] [--strict] [--quiet] [--format text|json|github] FILE..."


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    config = None
    strict = quiet = False
    fmt = default_format()
    files: list[str] = []
    it = iter(args)
    for arg in it:
        if arg in ("-h", "--help"):
            print(USAGE)
            return 0
        if arg == "--strict":
            strict = True
        elif arg in ("-q", "--quiet"):
            quiet = True
        elif arg == "--config" or arg.startswith("--config="):
            config = arg.partition("=")[2] or next(it, None)
        elif arg == "--format" or arg.startswith("--format="):
            fmt = arg.partition("=")[2] or next(it, "")
            if fmt not in FORMATS:
                sys.stderr.write(f"asimov-check-size: error: unknown format {fmt!r}\n{USAGE}\n")
                return 2
        elif arg == "--":
            files.extend(it)
        elif arg.startswith("-") and arg != "-":
            sys.stderr.write(f"asimov-check-size: error: unknown option {arg}\n{USAGE}\n")
            return 2
        else:
            files.append(arg)
    if config is None and "--config" in args:
        sys.stderr.write(f"asimov-check-size: error: --config needs a file\n{USAGE}\n")
        return 2
    from .run import validate

    return validate(
        files or ["."],
        config_path=config,
        strict=strict,
        fmt=fmt,
        quiet=quiet,
        select=set(SIZE_RULES),
        prog="asimov-check-size",
    )


if __name__ == "__main__":
    raise SystemExit(main())
