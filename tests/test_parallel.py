"""Big batches on several processes: the same findings, order and exit code as one."""

from __future__ import annotations

import json
import os

import pytest
from conftest import GOOD_CHECKPOINT, GOOD_WARMUP, oc_checkpoint, run_script, write

from asimov_hooks.config.config import ConfigError, load_config
from asimov_hooks.validation import engine, parallel
from asimov_hooks.validation.engine import Checker

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="workers need os.fork")


@pytest.fixture
def batch(tmp_path):
    """70 files of every family, some bad: enough for auto to use workers."""
    paths = []
    for i in range(70):
        family = i % 5
        if family == 0:
            body = GOOD_CHECKPOINT if i % 3 else 'milestone: "m"\nstatus: finished\n'
            paths.append(write(tmp_path, f"a{i:02}/.claude_checkpoint.yaml", body))
        elif family == 1:
            paths.append(write(tmp_path, f"a{i:02}/warmup.yaml", GOOD_WARMUP + "# c\n" * i * 4))
        elif family == 2:
            doc = oc_checkpoint(status="finished" if i % 4 else "in_progress")
            paths.append(write(tmp_path, f"a{i:02}/.checkpoints/s.checkpoint.json", doc))
        elif family == 3:
            paths.append(write(tmp_path, f"a{i:02}/CLAUDE.md", "line\n" * (i % 20)))
        else:
            paths.append(write(tmp_path, f"a{i:02}/.claude_checkpoint.yaml", "a: [\n"))
    return tmp_path, paths


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_same_output_on_any_number_of_jobs(batch, cli, fmt) -> None:
    _, paths = batch
    serial = cli("--format", fmt, "--jobs", "1", *paths)
    assert serial.code == 1 and serial.out
    for jobs in ("2", "3", "7", "0"):
        run = cli("--format", fmt, "--jobs", jobs, *paths)
        assert (run.code, run.out, run.err) == (serial.code, serial.out, serial.err), jobs


def test_directory_search_and_console_script(batch) -> None:
    root, _ = batch
    one = run_script("asimov-validate", "-j", "1", "--format", "json", ".", cwd=root)
    many = run_script("asimov-validate", "-j", "4", "--format", "json", ".", cwd=root)
    auto = run_script("asimov-validate", "--format", "json", ".", cwd=root)
    assert one.returncode == many.returncode == auto.returncode == 1, one.stderr
    assert json.loads(one.stdout) == json.loads(many.stdout) == json.loads(auto.stdout)
    assert len(json.loads(one.stdout)["files"]) == 70


def test_clean_batch_exits_0(tmp_path, cli) -> None:
    paths = [write(tmp_path, f"d{i}/.claude_checkpoint.yaml", GOOD_CHECKPOINT) for i in range(80)]
    run = cli("-v", "-j", "2", *paths)
    assert run.code == 0, run
    assert "80 files checked: 80 valid" in run.out


def test_plan(monkeypatch) -> None:
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    monkeypatch.setattr(parallel, "cpu_count", lambda: 8)
    assert parallel.plan_jobs(0, 1) == 1
    assert parallel.plan_jobs(0, parallel.MIN_FILES_PER_JOB * 2 - 1) == 1
    assert parallel.plan_jobs(0, parallel.MIN_FILES_PER_JOB * 3) == 3
    assert parallel.plan_jobs(0, 100_000) == 8
    assert parallel.plan_jobs(4, 3) == 3  # never more workers than files
    assert parallel.plan_jobs(1, 100_000) == 1
    assert parallel.plan_jobs(0, 100_000, parsed=0) == 1  # only measured: not worth a fork
    assert parallel.plan_jobs(0, 100_000, parsed=parallel.MIN_FILES_PER_JOB * 2) == 2
    assert parallel.plan_jobs(3, 100_000, parsed=0) == 3  # asked for explicitly
    monkeypatch.setenv("PRE_COMMIT", "1")  # pre-commit already runs a process per core
    assert parallel.plan_jobs(0, 100_000) == 1
    assert parallel.plan_jobs(2, 100_000) == 2  # asked for explicitly


def test_slices_keep_every_file_in_order() -> None:
    paths = [str(i) for i in range(103)]
    for jobs in (1, 2, 3, 7, 103):
        parts = parallel._slices(paths, jobs)
        assert len(parts) == jobs
        assert [p for part in parts for p in part] == paths
        assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_worker_failure_is_one_line_and_exit_2(batch, capsys, monkeypatch) -> None:
    """A worker that fails is an internal error, as it is in a serial run."""
    from asimov_hooks.cli import validate_main

    _, paths = batch
    real = engine.Checker.check

    def check(self, record):
        if record.path == paths[-1]:  # in the last worker's slice
            raise RuntimeError("simulated failure")
        return real(self, record)

    monkeypatch.setattr(engine.Checker, "check", check)
    assert validate_main(["-j", "3", *paths]) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in err and not out
    assert err.count("\n") == 1
    assert "internal error" in err and "simulated failure" in err


def test_config_error_in_a_worker_is_a_usage_error(batch, capsys, monkeypatch) -> None:
    from asimov_hooks.cli import validate_main

    _, paths = batch
    real = engine.Checker.check

    def check(self, record):
        if record.path == paths[-1]:
            raise ConfigError("cfg.yaml: kinds.x: broken")
        return real(self, record)

    monkeypatch.setattr(engine.Checker, "check", check)
    assert validate_main(["-j", "2", *paths]) == 2
    err = capsys.readouterr().err
    assert err == "asimov-validate: error: cfg.yaml: kinds.x: broken\n"


def test_check_files_direct(batch, monkeypatch) -> None:
    root, paths = batch
    monkeypatch.chdir(root)
    checker = Checker(load_config())
    checker.warm_up(["asimov-checkpoint", "oc-checkpoint", "claude-md"])
    serial = [
        (r.path, r.status, [repr(f) for f in r.findings])
        for r in parallel.check_files(checker, paths, 1)
    ]
    forked = [
        (r.path, r.status, [repr(f) for f in r.findings])
        for r in parallel.check_files(checker, paths, 4)
    ]
    assert forked == serial


@pytest.mark.parametrize("value", ["-1", "x", "1.5"])
def test_bad_job_count_is_a_usage_error(cli, value, tmp_path) -> None:
    path = write(tmp_path, "CLAUDE.md", "x\n")
    run = cli("--jobs", value, path)
    assert run.code == 2 and "jobs" in run.err, run


def test_interrupt_is_quiet_with_the_shell_code(batch, capsys, monkeypatch) -> None:
    """Ctrl-C in a batch run (workers or not): exit 130, no traceback, no workers left."""
    _, paths = batch
    real = engine.Checker.check

    def check(self, record):
        if record.path == paths[3]:  # in the parent's own slice, while the workers run
            raise KeyboardInterrupt
        return real(self, record)

    monkeypatch.setattr(engine.Checker, "check", check)
    from asimov_hooks.cli import entrypoints

    assert entrypoints.validate_main(["-j", "3", *paths]) == 130
    out, err = capsys.readouterr()
    assert not out and "Traceback" not in err
    with pytest.raises(ChildProcessError):  # every worker was waited for
        os.waitpid(-1, os.WNOHANG)
