"""One declaration of each command's options (options) serves both parsers: the
click commands and the click-free scanner of the hook entry points. For every option
of every table the two must read a command line the same way, and hand the same
command lines to click's usage errors."""

from __future__ import annotations

import ast
from pathlib import Path

import click
import pytest

from asimov_hooks import options
from asimov_hooks.options import COUNT, FILE, FLAG, MULTI, parse_command

SRC = Path(options.__file__)


def _click_command(table: options.Command) -> click.Command:
    if table is options.VALIDATE:
        from asimov_hooks.cli.commands import validate_standalone

        return validate_standalone
    if table is options.CHECK_SIZE:
        from asimov_hooks.cli.commands import check_size_command

        return check_size_command
    if table is options.TRIM:
        from asimov_hooks.trim.command import command

        return command
    from asimov_hooks.agent.cli import ephemeral_command

    return ephemeral_command


TABLES = [options.VALIDATE, options.CHECK_SIZE, options.TRIM, options.EPHEMERAL]


def _value(opt: options.Option) -> str:
    if opt.choices:
        return opt.choices[-1]
    return "3" if opt.kind == COUNT else "some-file.yaml"


def _good_lines(table: options.Command) -> list[list[str]]:
    lines: list[list[str]] = [[], ["a", "b"], ["--", "-x"]]
    for opt in table.options:
        for name in opt.names:
            if opt.kind == FLAG:
                lines.append([name, "p"])
            else:
                lines.append([name, _value(opt), "p"])
                if name.startswith("--"):
                    lines.append([f"{name}={_value(opt)}"])
                if opt.kind == MULTI:
                    lines.append([name, "x,y", name, "z"])
                else:
                    lines.append([name, _value(opt), name, _value(opt)])
    return lines


def _click_params(table: options.Command, argv: list[str]) -> dict[str, object]:
    ctx = _click_command(table).make_context(table.name, list(argv))
    return {k: list(v) if isinstance(v, tuple) else v for k, v in ctx.params.items()}


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_both_parsers_read_every_option_alike(table, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in _good_lines(table):
        fast = parse_command(table, argv)
        assert fast is not None, argv
        assert fast == _click_params(table, argv), argv


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_what_click_refuses_the_scanner_hands_over(table, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-dir").mkdir()
    bad = [["--bogus"], ["-h"], ["--help"]]
    for opt in table.options:
        name = opt.names[-1]
        if opt.kind == FLAG:
            bad.append([f"{name}=1"])
            continue
        bad.append([name])  # missing value
        bad += [[f"{short}={_value(opt)}"] for short in opt.names if not short.startswith("--")]
        if opt.choices:
            bad.append([name, "no-such-choice"])
        if opt.kind == COUNT:
            bad += [[name, "-1"], [name, "two"]]
        if opt.kind == FILE:
            bad.append([name, "a-dir"])
    for argv in bad:
        assert parse_command(table, argv) is None, argv
        with pytest.raises((click.exceptions.Exit, click.UsageError)):
            _click_command(table).make_context(table.name, list(argv))


def test_the_tables_cost_the_hook_no_import() -> None:
    """The hook entry points load this module on every commit: it may import `os` only
    (no click, no re, no typing)."""
    imported = set()
    for node in ast.walk(ast.parse(SRC.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert imported <= {"__future__", "os", "collections.abc"}, imported


def _driver_params(argv: list[str]) -> dict[str, object]:
    from asimov_hooks.merge.driver import command

    return dict(command.make_context("merge-driver", list(argv)).params)


def test_merge_driver_arguments_read_alike(tmp_path, monkeypatch) -> None:
    """git's `%O %A %B [%L [%P]]`: the driver's click-free reading and click's agree."""
    monkeypatch.chdir(tmp_path)
    for argv in (
        ["o", "a", "b"],
        ["o", "a", "b", "9"],
        ["o", "a", "b", "1000", "dir/.claude_checkpoint.yaml"],
        ["o", "a", "b", "1", ""],
    ):
        fast = options.parse_arguments(options.MERGE_DRIVER, argv)
        assert fast is not None, argv
        assert fast == _driver_params(argv), argv


def test_merge_driver_hands_click_what_it_refuses(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-dir").mkdir()
    for argv in (
        [],
        ["o"],
        ["o", "a"],
        ["o", "a", "b", "0"],
        ["o", "a", "b", "1001"],
        ["o", "a", "b", "x"],
        ["o", "a", "b", "7", "p", "extra"],
        ["a-dir", "a", "b"],
        ["-h"],
        ["--help"],
    ):
        assert options.parse_arguments(options.MERGE_DRIVER, argv) is None, argv
        with pytest.raises((click.exceptions.Exit, click.UsageError)):
            _driver_params(argv)


@pytest.mark.parametrize(
    ("argv", "code", "words"),
    [
        (["o", "a", "b", "0"], 2, "0 is not in the range 1<=x<=1000"),
        (["o", "a"], 2, "Missing argument '%B'"),
        (["--help"], 0, "Usage: python -m asimov_hooks.merge.driver [OPTIONS] %O %A %B [%L] [%P]"),
    ],
)
def test_module_driver_defers_to_click(argv, code, words, capsys) -> None:
    """`python -m asimov_hooks.merge.driver` (what install writes) gives click's usage
    message and exit status for anything it does not read itself."""
    from asimov_hooks.merge.driver import main

    assert main(argv) == code
    captured = capsys.readouterr()
    assert words in captured.out + captured.err
    assert "Traceback" not in captured.err
