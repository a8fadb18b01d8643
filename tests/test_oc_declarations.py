"""The `oc` commands declare nothing of their own that is declared elsewhere (issue 11):
their `--color` (and doctor's validate-like options) come from options, and the
rules they run or leave out come from the rule registry (config/registry.py)."""

from __future__ import annotations

import click
import pytest

from asimov_hooks import options
from asimov_hooks.checks import drift
from asimov_hooks.config import registry
from asimov_hooks.oc import drift_report
from asimov_hooks.oc.cli import group

SHARED = {opt.names: opt for opt in (options.COLOR, options.FORMAT, options.STRICT, options.QUIET)}


def _params(command: click.Command) -> dict[tuple[str, ...], click.Parameter]:
    return {tuple(p.opts + p.secondary_opts): p for p in command.params}


@pytest.mark.parametrize("name", sorted(group.commands))
def test_every_color_option_is_the_shared_declaration(name: str) -> None:
    params = _params(group.commands[name])
    color = params.get(options.COLOR.names)
    if color is None:
        assert not any("--color" in opts for opts in params), name
        return
    assert isinstance(color.type, click.Choice)
    assert tuple(color.type.choices) == options.COLOR_MODES
    assert color.help == options.COLOR.help and color.default == options.COLOR.default


def test_doctor_reads_validate_options_from_the_table() -> None:
    params = _params(group.commands["doctor"])
    for names, opt in SHARED.items():
        param = params[names]
        assert param.name == opt.dest and param.help == opt.help, names
        if opt.choices:
            assert tuple(param.type.choices) == opt.choices  # type: ignore[attr-defined]


def test_drift_rules_are_the_registry_answer() -> None:
    assert registry.rules_in("drift") == frozenset(drift.RULES)
    assert frozenset(drift.RULES) == drift_report.DRIFT_RULES
    assert registry.rules_in("no-such-module") == frozenset()


def test_an_unknown_color_is_a_usage_error(tmp_path) -> None:
    from conftest import run_script

    proc = run_script("asimov-hooks", "oc", "status", "--color", "sometimes", cwd=tmp_path)
    assert proc.returncode == 2
    assert "'sometimes' is not one of 'auto', 'always', 'never'" in proc.stderr
