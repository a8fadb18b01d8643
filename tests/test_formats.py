"""Output formats, options and exit codes of asimov-validate / asimov-check-size."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import GOOD_CHECKPOINT, ROOT, run_script, script_env, write

import asimov_hooks
from asimov_hooks.cli import entrypoints

pytestmark = pytest.mark.usefixtures("in_tmp")

BAD_CHECKPOINT = 'milestone: "m"\nstatus: finished\ntool_calls: -1\n'
KUBE = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: warmup\n"


@pytest.fixture
def mixed(tmp_path):
    """One valid, one warning, one error and one skipped file."""
    return {
        "valid": write(tmp_path, "good/.claude_checkpoint.yaml", GOOD_CHECKPOINT),
        "warning": write(tmp_path, "warn/CLAUDE.md", "line\n" * 11),
        "error": write(tmp_path, "bad/.claude_checkpoint.yaml", BAD_CHECKPOINT),
        "skipped": write(tmp_path, "k8s/warmup.yaml", KUBE),
    }


def test_text_output(mixed, cli) -> None:
    run = cli("-v", *mixed.values())
    assert run.code == 1
    lines = run.out.splitlines()
    good, warn, bad, kube = mixed.values()
    assert f"{good}: valid" in lines
    assert f"{warn}: warning (1 warning)" in lines
    assert f"{bad}: error (2 errors)" in lines
    assert lines[lines.index(f"{bad}: error (2 errors)") + 1] == (
        f"{bad}:2:9: error schema status: 'finished' is not one of: planned, in_progress, blocked, done"
    )
    assert f"{bad}:3:13: error schema tool_calls: -1 is less than the minimum of 0" in lines
    assert (
        f"{warn}:11:1: warning max-lines-soft 11 lines, over the soft limit of 10 (hard limit 15)"
        in lines
    )
    suggestion = lines[
        lines.index(f"{bad}:3:13: error schema tool_calls: -1 is less than the minimum of 0") + 1
    ]
    assert suggestion.startswith("    suggestion: `asimov-hooks schema asimov-checkpoint`")
    assert "trim" not in suggestion  # a tool_calls error is not about trim caps (issue 13)
    assert any(
        line.startswith(f"{kube}: skipped (not an Asimov Protocol warmup file") for line in lines
    )
    assert "Kubernetes manifest" in run.out
    assert lines[-1] == (
        "4 files checked: 1 valid, 1 with warnings, 1 with errors, 1 skipped (2 errors, 1 warning)"
    )
    assert run.err == ""


def test_exit_codes(mixed, cli) -> None:
    assert cli(mixed["valid"]).code == 0
    assert cli(mixed["warning"]).code == 0
    assert cli("--strict", mixed["warning"]).code == 1
    assert cli(mixed["error"]).code == 1
    assert cli(mixed["skipped"]).code == 0
    assert cli("--strict", mixed["skipped"], mixed["valid"]).code == 0


def test_unknown_name_is_skipped(tmp_path, cli) -> None:
    path = write(tmp_path, "README.md", "hello\n")
    run = cli("-v", path)
    assert run.code == 0
    assert f"{path}: skipped (no asimov-hooks file kind matches this name)" in run.out


def test_json_output(mixed, cli) -> None:
    run = cli("--format", "json", *mixed.values())
    assert run.code == 1
    doc = json.loads(run.out)
    assert doc["tool"] == "asimov-hooks"
    files = {f["path"]: f for f in doc["files"]}
    assert files[mixed["valid"]]["status"] == "valid"
    assert files[mixed["valid"]]["kind"] == "asimov-checkpoint"
    assert files[mixed["skipped"]]["status"] == "skipped"
    assert "Kubernetes" in files[mixed["skipped"]]["skipped"]
    bad = files[mixed["error"]]
    assert bad["status"] == "error"
    finding = bad["findings"][0]
    assert finding == {
        "path": mixed["error"],
        "line": 2,
        "col": 9,
        "level": "error",
        "rule": "schema",
        "message": "status: 'finished' is not one of: planned, in_progress, blocked, done",
        "suggestion": finding["suggestion"],
    }
    assert doc["summary"] == {
        "files": 4,
        "valid": 1,
        "warning": 1,
        "error": 1,
        "skipped": 1,
        "errors": 2,
        "warnings": 1,
        "fixed": 0,
    }


def test_json_output_quiet_is_still_json(mixed, cli) -> None:
    run = cli("--format=json", "--quiet", mixed["valid"])
    assert json.loads(run.out)["summary"]["valid"] == 1


def test_github_output(mixed, cli) -> None:
    run = cli("--format", "github", *mixed.values())
    assert run.code == 1
    lines = run.out.splitlines()
    bad = mixed["error"]
    assert (
        f"::error file={bad},line=2,col=9,title=schema::status: 'finished' is not one of: "
        "planned, in_progress, blocked, done (suggestion: `asimov-hooks schema "
        "asimov-checkpoint` prints the expected shape; `asimov-hooks rules schema` explains "
        "the rule)"
    ) in lines
    assert any(
        line.startswith(f"::warning file={mixed['warning']},line=11,col=1,title=max-lines-soft::")
        for line in lines
    )
    assert any(
        line.startswith(f"::notice file={mixed['skipped']},title=skipped::") for line in lines
    )
    assert lines[-1].startswith("4 files checked:")
    assert not any(line.endswith(": valid") for line in lines)


def test_github_escapes_properties(tmp_path, cli) -> None:
    path = write(tmp_path, "a,b:c/CLAUDE.md", "line\n" * 16)
    run = cli("--format", "github", path)
    escaped = path.replace(":", "%3A").replace(",", "%2C")
    assert f"::error file={escaped},line=16,col=1,title=max-lines-hard::" in run.out


def test_github_is_the_default_on_actions(mixed, cli, monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    run = cli(mixed["error"])
    assert run.out.startswith("::error file=")
    run = cli("--format", "text", mixed["error"])
    assert run.out.startswith(f"{mixed['error']}: error")
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert cli(mixed["error"]).out.startswith(f"{mixed['error']}: error")


def test_quiet(mixed, cli) -> None:
    run = cli("--quiet", *mixed.values())
    assert run.code == 1
    assert f"{mixed['valid']}: valid" not in run.out
    assert f"{mixed['skipped']}: skipped" not in run.out
    assert "suggestion:" not in run.out
    assert f"{mixed['error']}: error (2 errors)" in run.out
    assert f"{mixed['error']}:2:9: error schema status" in run.out
    assert run.out.splitlines()[-1].startswith("4 files checked:")
    quiet = cli("-q", mixed["valid"])
    assert (quiet.code, quiet.out, quiet.err) == (0, "", "")


def test_a_clean_run_prints_nothing_and_verbose_lists_every_file(mixed, cli, tmp_path) -> None:
    """As ruff and yamllint do: nothing to report, nothing printed; -v lists each file
    with its status and always ends with the summary."""
    other = write(tmp_path, "README.md", "hello\n")
    quiet = cli(mixed["valid"], other)
    assert (quiet.code, quiet.out, quiet.err) == (0, "", "")
    run = cli("-v", mixed["valid"], other)
    assert run.code == 0
    assert run.out.splitlines() == [
        f"{mixed['valid']}: valid",
        f"{other}: skipped (no asimov-hooks file kind matches this name)",
        "2 files checked: 1 valid, 0 with warnings, 0 with errors, 1 skipped (0 errors, 0 warnings)",
    ]
    default = cli(*mixed.values())  # problems: the problem files, their findings, the summary
    assert f"{mixed['valid']}: valid" not in default.out
    assert f"{mixed['error']}: error (2 errors)" in default.out
    assert default.out.splitlines()[-1].startswith("4 files checked:")


def test_select_and_ignore(tmp_path, cli) -> None:
    path = write(tmp_path, ".claude_checkpoint.yaml", BAD_CHECKPOINT + "# c\n" * 30)
    everything = cli(path)
    assert "max-lines-hard" in everything.out and "schema" in everything.out
    only_size = cli("--select", "max-lines-hard,max-lines-soft", path)
    assert "max-lines-hard" in only_size.out and "error schema" not in only_size.out
    repeated = cli("--select", "max-lines-hard", "--select", "schema", path)
    assert "max-lines-hard" in repeated.out and "error schema" in repeated.out
    ignored = cli("--ignore", "schema", path)
    assert "max-lines-hard" in ignored.out and "error schema" not in ignored.out
    both = cli("--ignore", "schema", "--ignore=max-lines-hard", path)
    assert both.code == 0, both
    assert cli("--ignore", "schema,max-lines-hard", path).code == 0


def test_select_keeps_problems_that_stop_reading(tmp_path, cli) -> None:
    path = write(tmp_path, ".claude_checkpoint.yaml", b"milestone: \xff\n")
    run = cli("--select", "schema", path)
    assert run.code == 1 and "error encoding" in run.out


def test_version(cli, capsys) -> None:
    run = cli("--version")
    assert run.code == 0 and asimov_hooks.__version__ in run.out
    from asimov_hooks.cli import main

    assert main(["--version"]) == 0
    assert asimov_hooks.__version__ in capsys.readouterr().out
    assert entrypoints.validate_main(["-V"]) == 0
    assert asimov_hooks.__version__ in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["--bogus"], ["--format", "xml", "."], ["--format"], ["--config"], ["--select"]],
)
def test_usage_errors_exit_2(cli, capsys, argv) -> None:
    run = cli(*argv)
    assert run.code == 2, run
    assert run.err.strip(), run
    assert entrypoints.validate_main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip()


def test_help(cli) -> None:
    run = cli("--help")
    assert run.code == 0
    for option in ("--strict", "--format", "--select", "--ignore", "--config", "--quiet", "--fix"):
        assert option in run.out


def test_subcommand_and_shortcut_agree(mixed, capsys) -> None:
    from asimov_hooks.cli import main, validate_main

    argv = ["--format", "json", *mixed.values()]
    assert validate_main(argv) == 1
    shortcut = json.loads(capsys.readouterr().out)
    assert main(["validate", *argv]) == 1
    group = json.loads(capsys.readouterr().out)
    assert entrypoints.validate_main(argv) == 1
    fast = json.loads(capsys.readouterr().out)
    assert shortcut == group == fast


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--strict"],
        ["--quiet"],
        ["--format", "json"],
        ["--format=github"],
        ["--select", "schema,max-lines-soft"],
        ["--ignore=schema", "--ignore", "max-lines-soft"],
        ["--strict", "-q", "--"],
    ],
)
def test_fast_entry_point_matches_click(mixed, capsys, argv) -> None:
    """The click-free hook entry point gives the same result as the click command."""
    from asimov_hooks.cli import validate_main

    paths = list(mixed.values())
    code = validate_main([*argv, *paths])
    slow = capsys.readouterr()
    assert entrypoints.validate_main([*argv, *paths]) == code
    fast = capsys.readouterr()
    assert (fast.out, fast.err) == (slow.out, slow.err)


def test_default_path_is_the_current_directory(tmp_path, cli) -> None:
    write(tmp_path, "CLAUDE.md", "line\n" * 16)
    run = cli()
    assert run.code == 1 and "CLAUDE.md:16:1: error max-lines-hard" in run.out


# ------------------------------------------------------------------ whole process
def test_console_scripts(tmp_path, mixed) -> None:
    paths = [os.path.relpath(p, tmp_path) for p in mixed.values()]
    for cmd in (["asimov-validate"], ["asimov-hooks", "validate"]):
        proc = run_script(cmd[0], *cmd[1:], *paths, cwd=tmp_path)
        assert proc.returncode == 1, proc
        assert "bad/.claude_checkpoint.yaml:2:9: error schema status" in proc.stdout
        assert "Traceback" not in proc.stderr
        proc = run_script(cmd[0], *cmd[1:], paths[0], cwd=tmp_path)
        assert proc.returncode == 0, proc
    proc = run_script("asimov-check-size", *paths, cwd=tmp_path)
    assert proc.returncode == 0, proc  # sizes only: the bad schema is not its business
    assert "max-lines-soft" in proc.stdout
    proc = run_script("asimov-check-size", "--strict", *paths, cwd=tmp_path)
    assert proc.returncode == 1
    proc = run_script("asimov-validate", "missing.yaml", cwd=tmp_path)
    assert proc.returncode == 2 and "missing.yaml" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = run_script("asimov-validate", paths[2], cwd=tmp_path, GITHUB_ACTIONS="true")
    assert proc.stdout.startswith("::error file=bad/.claude_checkpoint.yaml,line=2,col=9")


def test_python_dash_m(tmp_path, mixed) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "asimov_hooks", "validate", mixed["error"]],
        capture_output=True,
        text=True,
        env=script_env(),
        cwd=tmp_path,
    )
    assert proc.returncode == 1 and "error schema status" in proc.stdout


def test_output_to_a_closed_pipe(tmp_path) -> None:
    """`asimov-validate . | head -1` ends quietly."""
    for i in range(200):
        write(tmp_path, f"d{i}/CLAUDE.md", "line\n" * 16)
    proc = subprocess.run(
        f"'{os.path.join(os.path.dirname(sys.executable), 'asimov-validate')}' . | head -1",
        shell=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=script_env(),
    )
    assert len(proc.stdout.splitlines()) == 1
    assert "Traceback" not in proc.stderr and "Exception" not in proc.stderr, proc.stderr


SIZE_ONLY_PROBE = """
import sys
from asimov_hooks.cli.entrypoints import check_size_main
code = check_size_main(sys.argv[1:])
heavy = sorted(m for m in ("jsonschema", "ruamel", "ruamel.yaml", "click") if m in sys.modules)
print("HEAVY:", ",".join(heavy))
sys.exit(code)
"""


def run_probe(probe: str, args: list[str], cwd) -> subprocess.CompletedProcess:
    """A probe script in a fresh interpreter: what a hook run imports."""
    return subprocess.run(
        [sys.executable, "-c", probe, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=script_env(),
    )


def test_size_only_check_imports_no_parser(tmp_path) -> None:
    files = [
        write(tmp_path, ".claude_checkpoint.yaml", BAD_CHECKPOINT + "# c\n" * 40),
        write(tmp_path, "CLAUDE.md", "x" * 2000 + "\n"),
        write(tmp_path, "warmup.yaml", "identity: {project: x}\n" + "# c\n" * 600),
        write(tmp_path, "k8s/warmup.yaml", KUBE + "# c\n" * 600),
        write(tmp_path, ".checkpoints/a.checkpoint.json", '{"x": "' + "y" * 40000 + '"}'),
        write(
            tmp_path, ".asimov/project.yaml", "identity: {name: x, type: rust}\n" + "# c\n" * 120
        ),
    ]
    for args in (files, ["--format", "json", *files], ["."]):
        proc = run_probe(SIZE_ONLY_PROBE, args, tmp_path)
        assert proc.returncode == 1, proc
        assert "HEAVY: \n" in proc.stdout, proc.stdout[-300:]
        assert "Traceback" not in proc.stderr


def test_size_console_script_imports_no_parser(tmp_path) -> None:
    write(tmp_path, "CLAUDE.md", "line\n" * 16)
    probe = (
        "import runpy, sys\n"
        "sys.argv = ['asimov-check-size', 'CLAUDE.md']\n"
        "from asimov_hooks.cli.entrypoints import check_size_main\n"
        "code = check_size_main()\n"
        "print('HEAVY:', [m for m in ('jsonschema', 'ruamel.yaml', 'click') if m in sys.modules])\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=script_env(),
    )
    assert proc.returncode == 1 and "HEAVY: []" in proc.stdout, proc


def test_source_checkout_rules_are_used() -> None:
    from asimov_hooks.config.config import rules_dir

    assert os.path.isfile(os.path.join(rules_dir(), "kinds.json"))
    assert os.path.isdir(ROOT)


def test_tool_failure_is_one_line_and_exit_2(mixed, cli, capsys, monkeypatch) -> None:
    """A bug or an environment failure: exit 2, one line, no traceback (unless debugging)."""
    from asimov_hooks.validation import engine

    def broken(self, path):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(engine.Checker, "check", broken)
    from asimov_hooks.validation import slim  # asimov-check-size's check of a clean file

    monkeypatch.setattr(slim._Plan, "within", lambda self, path, rel: broken(self, path))
    from asimov_hooks.cli import validate_main

    for entry in (validate_main, entrypoints.validate_main, entrypoints.check_size_main):
        assert entry([mixed["valid"]]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "internal error: RuntimeError: disk on fire" in err
        assert "Traceback" not in err
    monkeypatch.setenv("ASIMOV_HOOKS_DEBUG", "1")  # the traceback, and still exit 2
    assert validate_main([mixed["valid"]]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and "internal error: RuntimeError: disk on fire" in err


@pytest.mark.parametrize("argv", [[], ["no-such-command"], ["validate", "--bogus"]])
def test_command_group_usage(argv, capsys) -> None:
    from asimov_hooks.cli import main

    code = main(argv)
    captured = capsys.readouterr()
    assert code in (0, 2)
    assert "Traceback" not in captured.err
    if argv:
        assert code == 2 and captured.err.strip()


LIGHT_PROBE = """
import sys
before = set(sys.modules)
from asimov_hooks.cli.entrypoints import check_size_main
code = check_size_main(sys.argv[1:])
light = ("re", "json", "functools", "enum", "math", "asimov_hooks.validation.parallel")
added = sorted(m for m in light if m in sys.modules and m not in before)
print("ADDED:", ",".join(added))
sys.exit(code)
"""


def test_size_check_of_ordinary_files_stays_off_re_and_json(tmp_path) -> None:
    """The commit that passes pays no more than the interpreter start plus our modules:
    `re` and `json` together cost more than the size check itself (and `math`, or the
    worker machinery a serial check does not use, each cost a tenth of it)."""
    files = [
        write(tmp_path, ".claude_checkpoint.yaml", GOOD_CHECKPOINT),
        write(tmp_path, "CLAUDE.md", "# Project\n\nRead warmup.yaml.\n"),
        write(tmp_path, ".checkpoints/a.checkpoint.json", '{"skill": "a"}\n'),
    ]
    proc = run_probe(LIGHT_PROBE, files, tmp_path)
    assert proc.returncode == 0, proc
    assert "ADDED: \n" in proc.stdout, proc.stdout


VALID_YAML_PROBE = """
import sys
from asimov_hooks.cli.entrypoints import validate_main
code = validate_main(sys.argv[1:])
unused = ("json", "difflib", "asimov_hooks.trim", "asimov_hooks.readers.json_loader", "click")
print("UNUSED:", ",".join(sorted(m for m in unused if m in sys.modules)))
sys.exit(code)
"""


def test_validating_a_valid_checkpoint_pays_only_for_yaml(tmp_path) -> None:
    """A valid YAML checkpoint (the usual commit) loads the YAML reader and the schema
    evaluator, not the JSON reader, the trimmer (only advice on a list over its cap
    needs its settings) or difflib (only an unknown key is compared with known ones)."""
    cp = write(tmp_path, ".claude_checkpoint.yaml", GOOD_CHECKPOINT)
    proc = run_probe(VALID_YAML_PROBE, [cp], tmp_path)
    assert proc.returncode == 0, proc
    assert "UNUSED: \n" in proc.stdout, proc.stdout


def test_validating_an_oc_checkpoint_pays_only_for_json(tmp_path) -> None:
    """An OC checkpoint is JSON: its check loads neither the YAML reader nor the merge
    driver (the drift rules' times come from `timestamps`)."""
    cp = write(
        tmp_path,
        ".checkpoints/a.checkpoint.json",
        '{"skill": "a", "status": "in_progress", "updated_at": "2026-01-01T00:00:00Z"}\n',
    )
    probe = VALID_YAML_PROBE.replace(
        '("json", "difflib", "asimov_hooks.trim", "asimov_hooks.readers.json_loader", "click")',
        '("ruamel.yaml", "asimov_hooks.readers.fast_yaml", "asimov_hooks.merge", "click")',
    )
    assert probe != VALID_YAML_PROBE
    proc = run_probe(probe, [cp], tmp_path)
    assert "UNUSED: \n" in proc.stdout, proc.stdout + proc.stderr
