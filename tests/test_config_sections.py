"""The `trim` and `merge` config sections are checked once (issue 11): their shape by the
section schemas as each config file loads, what no one file's schema can see by
trim/settings; every command then reads the same checked settings. A bad section is
one line naming the config file, exit 2, from `trim` and `validate` alike."""

from __future__ import annotations

import os

import pytest
from conftest import git_init, run_script, write

from asimov_hooks.config.config import load_rule_file, load_schema
from asimov_hooks.minischema import Evaluator

CP = ".claude_checkpoint.yaml"
LONG = "milestone: m\nstatus: in_progress\ncompleted:\n" + "".join(
    f"  - task {i}\n" for i in range(9)
)


@pytest.mark.parametrize("section", ["trim", "merge"])
def test_the_packs_own_sections_pass_their_schemas(section: str) -> None:
    """What lets the code trust the merged section: every file over the pack is
    checked as it loads, and the pack itself here."""
    data = load_rule_file(f"{section}.json")[section]
    assert Evaluator(load_schema(f"config-{section}.schema.json")).errors(data) == []


BAD = [
    pytest.param("trim:\n  caps: [1]\n", "trim.caps: [1] is not of type object", id="caps-list"),
    pytest.param("trim:\n  kinds: [asimov-checkpoint, 3]\n", "trim.kinds.1: 3", id="kind-int"),
    pytest.param("trim:\n  archive: {path: '   '}\n", "trim.archive.path: '   '", id="blank"),
    pytest.param("trim:\n  archive: {enabled: 1}\n", "trim.archive.enabled: 1", id="enabled-1"),
    pytest.param(
        "trim:\n  caps:\n    blockers: {max: 3}\n", "trim.caps.blockers.keep: missing", id="no-keep"
    ),
    pytest.param(
        "trim:\n  caps:\n    blockers: {keep: last}\n",
        "trim.caps.blockers.max: missing",
        id="no-max",
    ),
    pytest.param(
        "trim:\n  window: {blockers: 2}\n", "trim.window.blockers: no trim.caps entry", id="window"
    ),
    pytest.param(
        "merge:\n  kinds:\n    asimov-checkpoint:\n      fields:\n        status: newest\n",
        "merge.kinds.asimov-checkpoint.fields.status: 'newest' is not one of",
        id="policy",
    ),
]


@pytest.mark.parametrize(("config", "message"), BAD)
@pytest.mark.parametrize("command", ["trim", "validate"])
def test_a_bad_section_is_one_line_naming_the_file(tmp_path, command, config, message) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, LONG)
    write(tmp_path, ".asimov-hooks.yaml", config)
    if command == "trim":
        run = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    else:
        run = run_script("asimov-validate", CP, cwd=tmp_path)
    assert run.returncode == 2, run
    config_file = os.path.realpath(tmp_path / ".asimov-hooks.yaml")
    assert run.stderr.count("\n") == 1 and f"{config_file}: {message}" in run.stderr, run
    assert (tmp_path / CP).read_text() == LONG


def test_a_cap_switched_off_is_read_alike_by_trim_and_validate(tmp_path) -> None:
    """`caps: {completed: null}` once crashed validate's schema suggestion, which read the
    section by hand; both now read the one checked Settings."""
    git_init(tmp_path)
    write(tmp_path, CP, LONG)
    write(tmp_path, ".asimov-hooks.yaml", "trim:\n  caps:\n    completed: null\n")
    run = run_script("asimov-validate", CP, cwd=tmp_path)
    assert run.returncode == 1 and "internal error" not in run.stderr, run
    assert "completed: has 9 items" in run.stdout and "asimov-hooks trim" not in run.stdout
    run = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    assert run.returncode == 0, run
    assert (tmp_path / CP).read_text() == LONG  # nothing caps `completed` any more


@pytest.mark.parametrize("parser", ["hook-path", "click"])
def test_archive_options_over_the_config(tmp_path, monkeypatch, capsys, parser: str) -> None:
    """--archive FILE and --no-archive meet the config's trim.archive in one place
    (Settings.overridden), whichever parser read the command line."""
    from asimov_hooks.cli.commands import main as click_main
    from asimov_hooks.cli.entrypoints import hooks_main

    def trim(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        call = hooks_main if parser == "hook-path" else click_main
        code = call(["trim", *args])
        out, err = capsys.readouterr()
        return code, out, err

    git_init(tmp_path)
    monkeypatch.chdir(tmp_path)
    default_archive = tmp_path / ".claude_checkpoint.archive.yaml"
    write(tmp_path, CP, LONG)
    assert trim("--archive", "elsewhere.yaml", CP)[0] == 1
    assert (tmp_path / "elsewhere.yaml").exists() and not default_archive.exists()
    write(tmp_path, CP, LONG)
    code, out, _ = trim("--no-archive", CP)
    assert code == 1 and "not archived" in out, out
    assert not default_archive.exists()
    write(tmp_path, ".asimov-hooks.yaml", "trim:\n  archive: {enabled: false}\n")
    write(tmp_path, CP, LONG)
    code, out, _ = trim(CP)
    assert code == 1 and "not archived" in out and not default_archive.exists(), out
    write(tmp_path, CP, LONG)
    code, out, _ = trim("--archive", "third.yaml", CP)  # asked for by name: the command wins
    assert code == 1 and "not archived" not in out and (tmp_path / "third.yaml").exists(), out
    code, _, err = trim("--no-archive", "--archive", "x.yaml", CP)
    assert code == 2 and "cannot be used together" in err, err


def test_the_merge_driver_leaves_only_capped_lists_to_the_trimmer(tmp_path) -> None:
    """The driver tolerates a list over its schema maximum only where the trimmer will
    cap it; it reads the trim section through the same Settings as trim does."""
    from asimov_hooks.config.config import load_config
    from asimov_hooks.merge.settings import settings_for

    git_init(tmp_path)
    assert "completed" in settings_for(CP, 7, load_config(None, start=tmp_path)).fixable
    write(tmp_path, ".asimov-hooks.yaml", "trim:\n  caps:\n    completed: null\n")
    found = settings_for(CP, 7, load_config(None, start=tmp_path))
    assert "completed" not in found.fixable and "next_steps" in found.fixable
