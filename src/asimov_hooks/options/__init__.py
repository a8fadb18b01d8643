"""Every command's options, declared once, as data, and the click-free scanner.

Two parsers read these tables: `clickopts` builds the click commands' parameters
from them (help, usage errors, every unusual command line) and `parse_command` below
reads the hook's usual command lines with them, because importing click costs a
pre-commit hook about as much as checking one file. Anything unusual (help, version, an
unknown option, a missing or bad value) makes `parse_command` return None and the caller
hands the command line to click, which prints the proper usage message. A new option is
one line in a table and both parsers see it. This module imports only `os`: the hook
entry points load it on every commit.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence

# the output formats and colour modes (report reads them from here)
FORMATS = ("text", "json", "github", "sarif")
COLOR_MODES = ("auto", "always", "never")

# option kinds: how a value is read (its click type; what parse_command accepts)
FLAG = "flag"  # no value; True when given
VALUE = "value"  # one string, the last one given wins (choices, when set, restrict it)
FILE = "file"  # a value naming a file, never a directory
MULTI = "multi"  # repeatable; every value given, in order
COUNT = "count"  # a whole number >= 0

# argument kinds
PATHS = "paths"  # files or directories
DIRS = "dirs"  # directories only


class Option:
    """One command-line option: its spellings, the keyword it fills and how."""

    __slots__ = ("choices", "default", "dest", "help", "kind", "metavar", "names", "show_default")

    def __init__(
        self,
        *names: str,
        dest: str,
        kind: str = FLAG,
        help: str = "",
        default: object = None,
        choices: tuple[str, ...] | None = None,
        metavar: str | None = None,
        show_default: bool = False,
    ) -> None:
        self.names, self.dest, self.kind, self.help = names, dest, kind, help
        self.default = False if kind == FLAG else ([] if kind == MULTI else default)
        self.choices, self.metavar, self.show_default = choices, metavar, show_default


class Command:
    """A command's positional arguments (`argument`, nargs=-1) and its options, in the
    order its help lists them."""

    __slots__ = ("argument", "argument_kind", "name", "options")

    def __init__(
        self, name: str, argument: str, options: tuple[Option, ...], argument_kind: str = PATHS
    ) -> None:
        self.name, self.argument, self.options = name, argument, options
        self.argument_kind = argument_kind


CONFIG_HELP = (
    "Config file (default: nearest .asimov-hooks.yaml or pyproject.toml "
    "with [tool.asimov-hooks]; $ASIMOV_HOOKS_CONFIG)."
)
COLOR_HELP = (
    "Colour the text output: auto = on a terminal, unless NO_COLOR is set (FORCE_COLOR forces it)."
)
QUIET_HELP = "Only print problems: no suggestions, no notes."
VERBOSE_HELP = "List every file checked, valid and skipped ones too, and always print the summary."

STRICT = Option("--strict", dest="strict", help="Fail on warnings too.")
COLOR = Option(
    "--color",
    dest="color",
    kind=VALUE,
    choices=COLOR_MODES,
    default="auto",
    show_default=True,
    help=COLOR_HELP,
)
QUIET = Option("-q", "--quiet", dest="quiet", help=QUIET_HELP)
VERBOSE = Option("-v", "--verbose", dest="verbose", help=VERBOSE_HELP)
FORMAT = Option(
    "--format",
    dest="fmt",
    kind=VALUE,
    choices=FORMATS,
    help="Output format [default: text; github when GITHUB_ACTIONS=true].",
)

# `oc doctor --online`: where the health URL may come from (docs/oc-toolkit.md)
ONLINE = Option(
    "--online",
    dest="online",
    help="Also compare the commit the deployed health endpoint reports with the local HEAD.",
)
HEALTH_URL = Option(
    "--url",
    dest="url",
    kind=VALUE,
    metavar="URL",
    help="The health endpoint for --online (http or https) [default: git config "
    "asimov-hooks.healthUrl].",
)
ALLOW_COMMITTED_URL = Option(
    "--allow-committed-url",
    dest="allow_committed_url",
    help="With --online, fetch the oc.health-url of the repository's config (without it a "
    "committed URL is never fetched).",
)
HEALTH_COMMIT_KEY = Option(
    "--commit-key",
    dest="commit_keys",
    kind=MULTI,
    metavar="KEY",
    help="With --online, a field of the health answer that holds the deployed commit "
    "(repeatable; replaces the documented fields) [default: git config "
    "asimov-hooks.healthCommitKeys].",
)

VALIDATE = Command(
    "validate",
    "paths",
    (
        Option("--fix", dest="fix", help="Apply safe fixes (checkpoint trimming) first."),
        STRICT,
        FORMAT,
        COLOR,
        Option("--config", dest="config_path", kind=FILE, help=CONFIG_HELP),
        Option(
            "--select",
            dest="select",
            kind=MULTI,
            metavar="RULE[,RULE]",
            help="Only run these rules (repeatable).",
        ),
        Option(
            "--ignore",
            dest="ignore",
            kind=MULTI,
            metavar="RULE[,RULE]",
            help="Do not run these rules (repeatable).",
        ),
        Option(
            "--format-assertion",
            dest="format_assertion",
            help="Assert the `format` of strings in schemas (date-time, date, time, "
            "duration, email, hostname, ipv4, ipv6, uri, uri-reference, uuid, json-pointer, "
            "regex), as check-jsonschema does; by default `format` is an annotation.",
        ),
        Option(
            "-j",
            "--jobs",
            dest="jobs",
            kind=COUNT,
            default=0,
            show_default=True,
            help="Processes to check files with; 0 = one per core for big batches "
            "(serial under pre-commit, which already spreads files over cores).",
        ),
        QUIET,
        VERBOSE,
    ),
)

CHECK_SIZE = Command(
    "asimov-check-size",
    "paths",
    (
        STRICT,
        Option("--format", dest="fmt", kind=VALUE, choices=FORMATS, help="Output format."),
        COLOR,
        Option("--config", dest="config_path", kind=FILE, help="Config file."),
        QUIET,
        VERBOSE,
    ),
)

TRIM = Command(
    "trim",
    "files",
    (
        Option(
            "--config",
            dest="config_path",
            kind=FILE,
            help=CONFIG_HELP,
        ),
        Option(
            "--archive",
            dest="archive_path",
            kind=FILE,
            help="Append what is removed to this file (default: trim.archive.path, "
            "next to each checkpoint).",
        ),
        Option("--no-archive", dest="no_archive", help="Do not keep what is removed."),
        Option("--dry-run", dest="dry_run", help="Report what would be removed; write nothing."),
        Option("--diff", dest="diff", help="Also print a unified diff of each change."),
        Option("-q", "--quiet", dest="quiet", help="Do not mention skipped files."),
        Option(
            "--skip-conflicts",
            dest="skip_conflicts",
            help="Leave a file with conflict markers to asimov-validate, which reports it "
            "(the hook: one report per problem); no message, exit 0 for it.",
        ),
    ),
)

EPHEMERAL = Command(
    "ephemeral",
    "paths",
    (
        Option("--strict", dest="strict", help="Fail (exit 1) on errors in these files."),
        Option("--no-trim", dest="no_trim", help="Check only; do not trim checkpoints."),
        Option("--config", dest="config_path", kind=FILE, help="Config file."),
        QUIET,
    ),
    argument_kind=DIRS,
)


class Argument:
    """One positional argument of a command with a fixed list of them (git's merge
    driver: `%O %A %B [%L [%P]]`): the keyword it fills, how it is shown, its kind
    (FILE, COUNT within `bounds`, VALUE) and its default (None: required)."""

    __slots__ = ("bounds", "default", "dest", "kind", "metavar")

    def __init__(
        self,
        dest: str,
        metavar: str,
        kind: str = VALUE,
        default: object = None,
        bounds: tuple[int, int] | None = None,
    ) -> None:
        self.dest, self.metavar, self.kind = dest, metavar, kind
        self.default, self.bounds = default, bounds


# git runs the merge driver as `... -- %O %A %B %L %P` (merge.<name>.driver): after
# `--`, a path that starts with `-` (%P) is a path, never an option
MERGE_DRIVER = (
    Argument("base", "%O", FILE),
    Argument("ours", "%A", FILE),
    Argument("theirs", "%B", FILE),
    Argument("marker_size", "%L", COUNT, default=7, bounds=(1, 1000)),
    Argument("relpath", "%P", VALUE, default=""),
)


def parse_arguments(arguments: Sequence[Argument], argv: Sequence[str]) -> dict[str, object] | None:
    """The keyword arguments click would pass for a fixed list of positional `arguments`,
    or None to defer to click (an option such as --help, too few or too many values, a
    value click would refuse)."""
    argv = list(argv)
    if "--" in argv:  # what follows the marker is a value even if it starts with `-`
        at = argv.index("--")
        if any(a.startswith("-") for a in argv[:at]):
            return None
        argv = argv[:at] + argv[at + 1 :]
    elif any(a.startswith("-") for a in argv):
        return None
    required = sum(1 for arg in arguments if arg.default is None)
    if not required <= len(argv) <= len(arguments):
        return None
    out: dict[str, object] = {arg.dest: arg.default for arg in arguments}
    for arg, value in zip(arguments, argv, strict=False):  # optional ones may be absent
        if arg.kind == COUNT:
            if not value.isdigit():
                return None
            number = int(value)
            if arg.bounds and not arg.bounds[0] <= number <= arg.bounds[1]:
                return None
            out[arg.dest] = number
        elif arg.kind == FILE and os.path.isdir(value):
            return None
        else:
            out[arg.dest] = value
    return out


# validate's choices by keyword (report.FORMATS, report.COLOR_MODES)
CHOICES = {opt.dest: opt.choices for opt in VALIDATE.options if opt.choices}


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
        # `--name=value`; a short option's `=` is part of its value for click (`-j=3`
        # reads "=3"), so such a line is left to click
        name, eq, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
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


def parse_command(command: Command, argv: Sequence[str]) -> dict[str, object] | None:
    """The keyword arguments click would pass `command` (every option, its default when
    not given; the positional arguments as a list), or None to defer to click."""
    flags: dict[str, str] = {}
    values: dict[str, str] = {}
    for opt in command.options:
        for name in opt.names:
            (flags if opt.kind == FLAG else values)[name] = opt.dest
    scanned = scan(argv, flags, values)
    if scanned is None:
        return None
    found, paths = scanned
    opts: dict[str, object] = {opt.dest: opt.default for opt in command.options}
    opts[command.argument] = paths
    for opt in command.options:
        given = found.get(opt.dest)
        if given is None:
            continue
        if opt.kind in (FLAG, MULTI):
            opts[opt.dest] = given
            continue
        if opt.choices and any(v not in opt.choices for v in given):  # type: ignore[attr-defined]
            return None
        if opt.kind == COUNT:
            if not all(v.isdigit() for v in given):  # type: ignore[attr-defined]
                return None  # click says what the number must be
            opts[opt.dest] = int(given[-1])  # type: ignore[index]
            continue
        if opt.kind == FILE and any(os.path.isdir(v) for v in given):  # type: ignore[attr-defined]
            return None  # click says it must be a file
        opts[opt.dest] = given[-1]  # type: ignore[index]  (as click: the last one given wins)
    return opts
