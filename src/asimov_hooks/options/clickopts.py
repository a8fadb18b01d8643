"""click parameters built from the option tables of `options`.

`options.parse_command` reads the same tables for the hook's usual command lines
without click, so the two parsers cannot drift apart: an option, its spellings,
choices, default and help are declared once. Imported only by the click commands.
"""

from __future__ import annotations

import sys

import click

from . import COUNT, DIRS, FILE, FLAG, MULTI, Argument, Command, Option

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable, Sequence
    from typing import Any

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Choice(click.Choice):
    """click's Choice, whose refusal names the closest choice, as git does for a
    misspelt command (`--agent claud`: did you mean 'claude'?)."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            hint = did_you_mean(str(value), [str(c) for c in self.choices])
            if hint:
                exc.message = exc.message.rstrip(".") + hint
            raise


def did_you_mean(word: str, known: Sequence[str]) -> str:
    """ " (did you mean 'x'?)" for the closest of `known`, or nothing."""
    import difflib

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def click_option(opt: Option) -> Callable[[Any], Any]:
    """The click decorator of one option."""
    extra: dict[str, Any] = {}
    if opt.kind == FLAG:
        extra["is_flag"] = True
    elif opt.kind == MULTI:
        extra["multiple"] = True
    elif opt.kind == COUNT:
        extra["type"] = click.IntRange(min=0)
    elif opt.kind == FILE:
        # readable=False: an unreadable file gets our one-line error, as on the fast path
        extra["type"] = click.Path(dir_okay=False, readable=False)
    elif opt.choices:
        extra["type"] = Choice(opt.choices)
    if opt.kind != FLAG and opt.kind != MULTI:
        extra["default"] = opt.default
    if opt.metavar:
        extra["metavar"] = opt.metavar
    if opt.show_default:
        extra["show_default"] = True
    return click.option(*opt.names, opt.dest, help=opt.help, **extra)


def with_options(command: Command) -> Callable[[Any], Any]:
    """Decorate a click command's function with `command`'s argument and options (in
    the table's order, which is the order of its help)."""
    path = (
        click.Path(file_okay=False, readable=False)
        if command.argument_kind == DIRS
        else click.Path(readable=False)
    )
    decorators = [
        click.argument(command.argument, nargs=-1, type=path),
        *(click_option(opt) for opt in command.options),
    ]

    def apply(func: Any) -> Any:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


def with_arguments(arguments: tuple[Argument, ...]) -> Callable[[Any], Any]:
    """Decorate a click command's function with a fixed list of positional arguments
    (`options.MERGE_DRIVER`); `options.parse_arguments` reads the same list."""
    decorators = []
    for arg in arguments:
        extra: dict[str, Any] = {"metavar": arg.metavar}
        if arg.kind == FILE:
            extra["type"] = click.Path(dir_okay=False)
        elif arg.kind == COUNT:
            low, high = arg.bounds or (0, None)
            extra["type"] = click.IntRange(low, high)
        if arg.default is not None:  # optional: the usage line shows it in brackets
            extra.update(default=arg.default, required=False, metavar=f"[{arg.metavar}]")
        decorators.append(click.argument(arg.dest, **extra))

    def apply(func: Any) -> Any:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


# what a user types when they mean to set the merge driver up, not run it
_SETUP_WORDS = ("install", "uninstall", "doctor")


def show_error(exc: click.ClickException, prog: str) -> None:
    """Every error in one style, click's usage errors too: `PROG: error: message`."""
    ctx = getattr(exc, "ctx", None)
    name = ctx.command_path if ctx is not None else prog
    message = exc.format_message()
    if ctx is not None and name.endswith(("merge-driver", "merge.driver")):
        word = ctx.params.get("base") or ""
        if word in _SETUP_WORDS:
            message = (
                f"{word!r} is not a file to merge: git runs the merge driver itself "
                f"(%O %A %B %L %P); to set it up, run `asimov-hooks {word}`"
            )
    if isinstance(exc, click.UsageError):
        message += f" (see `{name} --help`)"
    from ..fs.access import show  # a value typed may hold anything

    sys.stderr.write(show(f"{name}: error: {message}") + "\n")
