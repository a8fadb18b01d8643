"""`not-protocol-file` does what its level says (issue 11): a file named like a protocol
file that is not one is skipped and reported at the rule's level (info by default: said,
never failed); `error` fails it, `off` checks it as a protocol file, and `ignore`,
`--ignore`, `--select` and inline suppressions hide the finding (the file stays skipped)."""

from __future__ import annotations

import json

import pytest
from conftest import run_script, write

KUBE = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: warmup\n"
RULE = "not-protocol-file"
WHY = "not an Asimov Protocol warmup file: looks like a Kubernetes manifest (apiVersion/kind)"


def _config(root, text: str) -> None:
    write(root, ".asimov-hooks.yaml", text)


def _lines(out: str, path: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(path)]


def test_default_is_an_info_finding_on_a_skipped_file(in_tmp, cli) -> None:
    path = write(in_tmp, "warmup.yaml", KUBE)
    run = cli(path)
    assert run.code == 0, run
    assert _lines(run.out, path) == [
        f"{path}: skipped ({WHY}; none of its identifying keys are present)",
        f"{path}:1:1: info {RULE} {WHY}; none of its identifying keys are present",
    ]
    assert run.out.rstrip().endswith(
        "1 file checked: 0 valid, 0 with warnings, 0 with errors, 1 skipped (0 errors, 0 warnings)"
    )
    assert cli("--strict", path).code == 0
    doc = json.loads(cli("--format", "json", path).out)["files"][0]
    assert doc["status"] == "skipped" and doc["skipped"].startswith(WHY)
    assert [(f["rule"], f["level"]) for f in doc["findings"]] == [(RULE, "info")]


def test_github_annotation_is_a_notice(in_tmp, cli) -> None:
    path = write(in_tmp, "warmup.yaml", KUBE)
    run = cli("--format", "github", path)
    assert run.code == 0
    assert f"::notice file={path},line=1,col=1,title={RULE}::" in run.out


@pytest.mark.parametrize(("level", "code", "strict_code"), [("error", 1, 1), ("warning", 0, 1)])
def test_a_stricter_level_fails_the_file(in_tmp, cli, level, code, strict_code) -> None:
    _config(in_tmp, f"rules:\n  {RULE}: {level}\n")
    path = write(in_tmp, "warmup.yaml", KUBE + "# pad\n" * 400)
    run = cli(path)
    assert run.code == code, run
    assert f"{path}: {level} (1 {level})" in run.out
    assert f"{path}:1:1: {level} {RULE} {WHY}" in run.out
    assert "max-lines" not in run.out  # still not checked as a protocol file
    assert cli("--strict", path).code == strict_code


def test_off_checks_the_file_as_a_protocol_file(in_tmp, cli) -> None:
    _config(in_tmp, f"kinds:\n  asimov-warmup:\n    rules:\n      {RULE}: off\n")
    path = write(in_tmp, "warmup.yaml", KUBE + "session: run it\n")
    run = cli(path)
    assert run.code == 1, run
    assert f"{path}: skipped" not in run.out and RULE not in run.out
    # checked as a warmup file: its `session` is not the protocol's
    assert f"{path}:5:10: error schema session: 'run it' is not of type object" in run.out


def test_off_makes_a_multi_document_look_alike_a_syntax_error(in_tmp, cli) -> None:
    path = write(in_tmp, "warmup.yaml", KUBE + "---\n" + KUBE)
    run = cli(path)
    assert run.code == 0 and f"{path}: skipped (" in run.out
    assert f"{path}:1:1: info {RULE} not an Asimov Protocol warmup file:" in run.out
    _config(in_tmp, f"rules:\n  {RULE}: off\n")
    run = cli(path)
    assert run.code == 1 and "error syntax invalid YAML" in run.out, run
    assert "a protocol file is one document" in run.out


@pytest.mark.parametrize(
    ("config", "argv"),
    [
        (f"ignore: [{RULE}]\n", []),
        (f"overrides:\n  - files: [warmup.yaml]\n    ignore: [{RULE}]\n", []),
        ("", ["--ignore", RULE]),
        ("", ["--select", "schema"]),
    ],
)
def test_hiding_the_finding_keeps_the_file_skipped(in_tmp, cli, config, argv) -> None:
    if config:
        _config(in_tmp, config)
    path = write(in_tmp, "warmup.yaml", KUBE)
    run = cli("-v", *argv, path)
    assert run.code == 0, run
    assert _lines(run.out, path) == [
        f"{path}: skipped ({WHY}; none of its identifying keys are present)"
    ]


def test_inline_suppression_hides_the_finding(in_tmp, cli) -> None:
    path = write(
        in_tmp, "warmup.yaml", f"# asimov-hooks: disable-file {RULE} -- a k8s job\n" + KUBE
    )
    run = cli("-v", path)
    assert run.code == 0, run
    assert RULE not in run.out.replace(f"disable-file {RULE}", "")
    assert f"{path}: skipped (" in run.out


def test_size_hook_skips_look_alikes_without_a_finding(in_tmp) -> None:
    path = write(in_tmp, "warmup.yaml", KUBE + "# pad\n" * 400)
    run = run_script("asimov-check-size", "-v", path, cwd=in_tmp)
    assert run.returncode == 0, run
    assert _lines(run.stdout, path) == [
        f"{path}: skipped ({WHY}; none of its identifying keys are present)"
    ]


def test_quiet_run_prints_no_info_line(in_tmp, cli) -> None:
    """As hooks/pre-commit runs it (--quiet): problems only, so the skipped look-alike's
    info line is left out with the rest; the summary still counts it; the run passes."""
    path = write(in_tmp, "warmup.yaml", KUBE)
    run = cli("--quiet", path)
    assert (run.code, run.out, run.err) == (0, "", ""), run
    run = cli("-v", "--quiet", path)
    assert run.code == 0, run
    assert "1 skipped" in run.out.splitlines()[-1]
