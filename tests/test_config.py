"""Configuration: discovery, extends, per-kind and per-path overrides, bad configs."""

from __future__ import annotations

import os

import pytest
from conftest import GOOD_CHECKPOINT, git_init, write

from asimov_hooks.config.config import ConfigError, find_config, load_config

pytestmark = pytest.mark.usefixtures("in_tmp")

LONG_CLAUDE = "line\n" * 12  # over the soft limit (10), under the hard one (15)
CFG_SOFT_OFF = "kinds:\n  claude-md:\n    rules:\n      max-lines-soft: off\n"


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ------------------------------------------------------------------ discovery
def test_found_upward_from_cwd(tmp_path, cli, monkeypatch) -> None:
    write(tmp_path, ".asimov-hooks.yaml", CFG_SOFT_OFF)
    path = write(tmp_path, "a/b/CLAUDE.md", LONG_CLAUDE)
    monkeypatch.chdir(tmp_path / "a" / "b")
    run = cli("-v", "CLAUDE.md")
    assert run.code == 0 and "CLAUDE.md: valid" in run.out, run
    assert find_config(str(tmp_path / "a" / "b")) == str(tmp_path / ".asimov-hooks.yaml")
    monkeypatch.chdir(tmp_path)
    assert "max-lines-soft" not in cli("-v", path).out


def test_yml_extension(tmp_path, cli) -> None:
    write(tmp_path, ".asimov-hooks.yml", CFG_SOFT_OFF)
    write(tmp_path, "CLAUDE.md", LONG_CLAUDE)
    assert "CLAUDE.md: valid" in cli("-v", "CLAUDE.md").out


def test_search_stops_at_the_git_root(tmp_path, cli, monkeypatch) -> None:
    write(tmp_path, ".asimov-hooks.yaml", CFG_SOFT_OFF)
    repo = git_init(tmp_path / "repo")
    write(repo, "sub/CLAUDE.md", LONG_CLAUDE)
    monkeypatch.chdir(os.path.join(repo, "sub"))
    assert find_config(".") is None
    run = cli("-v", "CLAUDE.md")
    assert "warning max-lines-soft" in run.out, run
    # a config at the repository root itself is found
    write(repo, ".asimov-hooks.yaml", CFG_SOFT_OFF)
    assert "CLAUDE.md: valid" in cli("-v", "CLAUDE.md").out


def test_pyproject_table(tmp_path, cli) -> None:
    write(tmp_path, "CLAUDE.md", LONG_CLAUDE)
    write(tmp_path, "pyproject.toml", '[project]\nname = "x"\n')
    assert "warning max-lines-soft" in cli("-v", "CLAUDE.md").out  # no table: defaults
    write(
        tmp_path,
        "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.asimov-hooks.kinds.claude-md.rules]\n'
        'max-lines-soft = "off"\n',
    )
    run = cli("-v", "CLAUDE.md")
    assert "CLAUDE.md: valid" in run.out, run
    assert load_config().source == str(tmp_path / "pyproject.toml")


def test_dotfile_wins_over_pyproject(tmp_path, cli) -> None:
    write(tmp_path, "CLAUDE.md", LONG_CLAUDE)
    write(tmp_path, "pyproject.toml", '[tool.asimov-hooks]\nignore = ["nope"]\n')
    write(tmp_path, ".asimov-hooks.yaml", CFG_SOFT_OFF)
    assert load_config().source == str(tmp_path / ".asimov-hooks.yaml")


def test_explicit_config_and_env(tmp_path, cli, monkeypatch) -> None:
    write(tmp_path, "CLAUDE.md", LONG_CLAUDE)
    cfg = write(tmp_path, "conf/asimov.yaml", CFG_SOFT_OFF)
    assert "warning max-lines-soft" in cli("-v", "CLAUDE.md").out
    assert "CLAUDE.md: valid" in cli("-v", "--config", cfg, "CLAUDE.md").out
    assert "CLAUDE.md: valid" in cli("-v", f"--config={cfg}", "CLAUDE.md").out
    monkeypatch.setenv("ASIMOV_HOOKS_CONFIG", cfg)
    assert "CLAUDE.md: valid" in cli("-v", "CLAUDE.md").out
    # --config wins over the environment
    strict = write(
        tmp_path,
        "conf/strict.yaml",
        "kinds:\n  claude-md:\n    rules:\n      max-lines-soft: error\n",
    )
    run = cli("-v", "--config", strict, "CLAUDE.md")
    assert run.code == 1 and "error max-lines-soft" in run.out


def test_missing_explicit_config(tmp_path, cli, monkeypatch) -> None:
    write(tmp_path, "CLAUDE.md", "x\n")
    run = cli("--config", "nope.yaml", "CLAUDE.md")
    assert run.code == 2
    assert "nope.yaml" in one_line(run.err) and "not found" in run.err
    monkeypatch.setenv("ASIMOV_HOOKS_CONFIG", str(tmp_path / "gone.yaml"))
    run = cli("CLAUDE.md")
    assert run.code == 2 and "gone.yaml: config file not found" in one_line(run.err)


# ------------------------------------------------------------------ extends
def test_extends_chain(tmp_path, cli) -> None:
    write(tmp_path, "base/root.yaml", "ignore: [max-tokens]\n")
    write(
        tmp_path,
        "base/team.yaml",
        "extends: root.yaml\nkinds:\n  claude-md:\n    rules:\n      max-lines-hard: {max: 12}\n",
    )
    write(tmp_path, ".asimov-hooks.yaml", "extends: base/team.yaml\n" + CFG_SOFT_OFF)
    write(tmp_path, "CLAUDE.md", "x" * 2000 + "\n" + "line\n" * 12)
    run = cli("CLAUDE.md")
    assert run.code == 1, run
    assert "error max-lines-hard 13 lines, over the hard limit of 12" in run.out
    assert "max-tokens" not in run.out  # from root.yaml
    assert "max-lines-soft" not in run.out  # from the file itself


def test_extends_default_is_explicitly_allowed(tmp_path, cli) -> None:
    write(tmp_path, ".asimov-hooks.yaml", "extends: default\n" + CFG_SOFT_OFF)
    write(tmp_path, "CLAUDE.md", LONG_CLAUDE)
    assert "CLAUDE.md: valid" in cli("-v", "CLAUDE.md").out


def test_extends_loop_and_missing_parent(tmp_path, cli) -> None:
    write(tmp_path, "CLAUDE.md", "x\n")
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    run = cli("--config", "a.yaml", "CLAUDE.md")
    assert run.code == 2 and "loops back" in one_line(run.err)
    write(tmp_path, "c.yaml", "extends: missing.yaml\n")
    run = cli("--config", "c.yaml", "CLAUDE.md")
    assert run.code == 2 and "missing.yaml" in one_line(run.err)


# ------------------------------------------------------------------ rule overrides
def test_kind_rule_levels_and_max(tmp_path, cli) -> None:
    text = GOOD_CHECKPOINT + "# c\n" * (25 - GOOD_CHECKPOINT.count("\n"))
    path = write(tmp_path, ".claude_checkpoint.yaml", text)
    assert "warning max-lines-soft 25 lines" in cli("-v", path).out
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-checkpoint:\n    rules:\n      max-lines-soft: {max: 25}\n",
    )
    assert f"{path}: valid" in cli("-v", path).out
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-checkpoint:\n    rules:\n      max-lines-soft: {level: error, max: 24}\n",
    )
    run = cli("-v", path)
    assert run.code == 1 and "error max-lines-soft 25 lines, over the soft limit of 24" in run.out


def test_level_shorthand_keeps_the_default_options(tmp_path, cli) -> None:
    """`max-tokens: warning` changes the level only; the cap (250) stays."""
    write(tmp_path, "CLAUDE.md", "x" * 1100 + "\n")
    assert cli("-v", "CLAUDE.md").code == 1
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  claude-md:\n    rules:\n      max-tokens: warning\n",
    )
    run = cli("-v", "CLAUDE.md")
    assert run.code == 0, run
    assert "warning max-tokens ~276 tokens, over the cap of 250" in run.out
    assert "suggestion: CLAUDE.md is loaded on every turn" in run.out
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  claude-md:\n    rules:\n      max-tokens: false\n",
    )
    assert "CLAUDE.md: valid" in cli("-v", "CLAUDE.md").out
    write(
        tmp_path, ".asimov-hooks.yaml", "kinds:\n  claude-md:\n    rules:\n      max-tokens: true\n"
    )
    assert cli("-v", "CLAUDE.md").code == 1


def test_level_shorthand_in_pyproject(tmp_path, cli) -> None:
    write(tmp_path, "CLAUDE.md", "line\n" * 16)
    write(
        tmp_path,
        "pyproject.toml",
        '[tool.asimov-hooks.kinds.claude-md.rules]\n"max-lines-hard" = "warning"\n',
    )
    run = cli("CLAUDE.md")
    assert run.code == 0, run
    assert "warning max-lines-hard 16 lines, over the hard limit of 15" in run.out


def test_size_rule_without_a_limit_is_a_config_error(tmp_path, cli) -> None:
    """Switching on a size rule for a kind that has no default limit needs `max`."""
    write(tmp_path, "sprint.yaml", "sprint:\n  current: x\n")
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-sprint:\n    rules:\n      max-tokens: warning\n",
    )
    run = cli("sprint.yaml")
    assert run.code == 2, run
    assert "max-tokens" in one_line(run.err) and "max" in run.err
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  asimov-sprint:\n    rules:\n      max-tokens: {level: warning, max: 2}\n",
    )
    run = cli("sprint.yaml")
    assert run.code == 0 and "over the cap of 2" in run.out


def test_path_overrides(tmp_path, cli) -> None:
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "overrides:\n"
        "  - files: ['legacy/**']\n"
        "    rules: {max-lines-hard: warning}\n"
        "    ignore: [schema]\n",
    )
    bad = "milestone: m\nstatus: finished\n" + "# c\n" * 40
    legacy = write(tmp_path, "legacy/old/.claude_checkpoint.yaml", bad)
    current = write(tmp_path, "app/.claude_checkpoint.yaml", bad)
    run = cli(legacy)
    assert run.code == 0, run
    assert "warning max-lines-hard 42 lines, over the hard limit of 30" in run.out
    assert "schema" not in run.out
    run = cli(current)
    assert run.code == 1
    assert "error max-lines-hard" in run.out and "error schema status" in run.out


def test_exclude(tmp_path, cli) -> None:
    write(tmp_path, ".asimov-hooks.yaml", "exclude: ['vendor/**', 'third_party/CLAUDE.md']\n")
    write(tmp_path, "vendor/x/CLAUDE.md", "line\n" * 40)
    write(tmp_path, "third_party/CLAUDE.md", "line\n" * 40)
    write(tmp_path, "CLAUDE.md", "ok\n")
    run = cli("-v", ".")
    assert run.code == 0, run
    assert "vendor" not in run.out and "third_party" not in run.out
    assert "1 file checked" in run.out
    assert "0 files checked" in cli("-v", "vendor/x/CLAUDE.md").out


def test_select_and_ignore_in_config(tmp_path, cli) -> None:
    path = write(tmp_path, ".claude_checkpoint.yaml", "milestone: m\nstatus: nope\n" + "# c\n" * 30)
    write(tmp_path, ".asimov-hooks.yaml", "ignore: [schema]\n")
    run = cli(path)
    assert "max-lines-hard" in run.out and "schema" not in run.out
    write(tmp_path, ".asimov-hooks.yaml", "select: [schema]\n")
    run = cli(path)
    assert "max-lines-hard" not in run.out and "error schema status" in run.out


def test_new_kind(tmp_path, cli) -> None:
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  agents-md:\n    files: [AGENTS.md]\n    format: text\n"
        "    rules:\n      max-lines-hard: {level: error, max: 3}\n",
    )
    write(tmp_path, "AGENTS.md", "a\nb\nc\nd\n")
    run = cli(".")
    assert run.code == 1 and "AGENTS.md:4:1: error max-lines-hard 4 lines" in run.out


def test_kind_files_replace_the_defaults(tmp_path, cli) -> None:
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  claude-md:\n    files: [AGENT.md]\n",
    )
    write(tmp_path, "CLAUDE.md", "line\n" * 40)
    write(tmp_path, "AGENT.md", "line\n" * 40)
    run = cli(".")
    assert "AGENT.md:16:1: error max-lines-hard" in run.out
    assert "CLAUDE.md:" not in run.out and "1 file checked" in run.out


# ------------------------------------------------------------------ bad configs
@pytest.mark.parametrize(
    ("config", "names"),
    [
        ("bogus: 1\n", "bogus"),
        ("token-estimator: {method: guess}\n", "token-estimator.method"),
        ("token-estimator: {divisor: 0}\n", "token-estimator.divisor"),
        ("ignore: schema\n", "ignore"),
        ("exclude: [1]\n", "exclude"),
        ("kinds:\n  claude-md:\n    rules:\n      max-tokens: loud\n", "max-tokens"),
        ("kinds:\n  claude-md:\n    rules:\n      max-tokens: {max: big}\n", "max-tokens.max"),
        ("kinds:\n  claude-md:\n    rules:\n      max-tokens: {maxx: 3}\n", "maxx"),
        ("kinds:\n  claude-md:\n    colour: red\n", "colour"),
        ("kinds:\n  new-kind:\n    files: [X.md]\n", "new-kind"),
        ("overrides:\n  - rules: {schema: off}\n", "overrides"),
        ("- just\n- a list\n", "mapping"),
        ("key: [unclosed\n", ":"),
        ("a: 1\na: 2\n", "duplicate"),
    ],
)
def test_bad_config_is_one_line_and_exit_2(tmp_path, cli, config: str, names: str) -> None:
    cfg = write(tmp_path, ".asimov-hooks.yaml", config)
    write(tmp_path, "CLAUDE.md", "x\n")
    run = cli("CLAUDE.md")
    assert run.code == 2, run
    line = one_line(run.err)
    assert line.startswith(f"asimov-validate: error: {cfg}"), line
    assert names in line, line
    assert run.out == ""


def test_bad_value_message_points_at_the_real_problem(tmp_path, cli) -> None:
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "kinds:\n  claude-md:\n    rules:\n      max-tokens: {max: big}\n",
    )
    write(tmp_path, "CLAUDE.md", "x\n")
    line = one_line(cli("CLAUDE.md").err)
    assert "'big' is not of type integer" in line, line


def test_bad_toml(tmp_path, cli) -> None:
    write(tmp_path, "pyproject.toml", "[tool.asimov-hooks]\nignore = [\n")
    write(tmp_path, "CLAUDE.md", "x\n")
    run = cli("CLAUDE.md")
    assert run.code == 2 and "invalid TOML" in one_line(run.err)
    write(tmp_path, "pyproject.toml", '[tool.asimov-hooks]\nexclude = "x"\n')
    run = cli("CLAUDE.md")
    assert run.code == 2 and "pyproject.toml: exclude:" in one_line(run.err)


def test_config_that_is_a_directory(tmp_path, cli) -> None:
    os.mkdir(tmp_path / "cfgdir")
    write(tmp_path, "CLAUDE.md", "x\n")
    run = cli("--config", "cfgdir", "CLAUDE.md")
    assert run.code == 2 and "cfgdir" in run.err


def test_size_hook_reports_bad_config(tmp_path, size_cli) -> None:
    write(tmp_path, ".asimov-hooks.yaml", "bogus: 1\n")
    write(tmp_path, "CLAUDE.md", "x\n")
    run = size_cli("CLAUDE.md")
    assert run.code == 2 and "bogus" in one_line(run.err)


def test_load_config_api_raises_config_error(tmp_path) -> None:
    write(tmp_path, ".asimov-hooks.yaml", "bogus: 1\n")
    with pytest.raises(ConfigError, match="bogus"):
        load_config()


def test_config_select_keeps_the_problems_that_stop_reading(tmp_path, cli) -> None:
    """`select` in a config, like --select, never drops io-error, encoding or the byte cap."""
    write(tmp_path, ".asimov-hooks.yaml", "select: [schema]\n")
    path = write(tmp_path, ".claude_checkpoint.yaml", b"milestone: m\n\x00")
    run = cli(path)
    assert run.code == 1 and "error encoding binary content" in run.out
    write(tmp_path, ".claude_checkpoint.yaml", "milestone: m\nnotes:\n" + "  - item\n" * 40000)
    run = cli(path)
    assert run.code == 1
    size = os.path.getsize(path)
    assert (
        f"error max-bytes-hard {size:,} bytes, over the 262,144-byte limit; not parsed" in run.out
    )


def test_top_level_rules_apply_to_every_kind(tmp_path, cli) -> None:
    """README: top-level `rules` are rules for every kind."""
    write(tmp_path, "CLAUDE.md", "x" * 1100 + "\n")
    write(tmp_path, ".claude_checkpoint.yaml", GOOD_CHECKPOINT + "notes: '" + "y" * 3000 + "'\n")
    write(tmp_path, "sprint.yaml", "sprint:\n  current: x\n")
    write(tmp_path, ".asimov-hooks.yaml", "rules:\n  max-tokens: 'off'\n")
    run = cli("-v", ".")
    assert run.code == 0 and "max-tokens" not in run.out, run
    # a level changes every cap and adds none where a kind has no cap (sprint.yaml)
    write(tmp_path, ".asimov-hooks.yaml", "rules:\n  max-tokens: warning\n")
    run = cli("-v", ".")
    assert run.code == 0, run
    assert "CLAUDE.md:1:1: warning max-tokens ~276 tokens, over the cap of 250" in run.out
    assert "sprint.yaml: valid" in run.out
    # the kind's own setting in the same file wins
    write(
        tmp_path,
        ".asimov-hooks.yaml",
        "rules:\n  max-tokens: warning\nkinds:\n  claude-md:\n    rules:\n      max-tokens: error\n",
    )
    run = cli("-v", ".")
    assert run.code == 1 and "error max-tokens ~276" in run.out
    assert ".claude_checkpoint.yaml:13:1: warning max-tokens" in run.out
    # options too, and generic rules keep working
    write(tmp_path, ".asimov-hooks.yaml", "rules:\n  max-tokens: {max: 5000}\n  syntax: warning\n")
    write(tmp_path, "roadmap.yaml", "current: [unclosed\n")
    run = cli("-v", ".")
    assert run.code == 0, run
    assert "max-tokens" not in run.out and "warning syntax invalid YAML" in run.out


def test_extends_child_top_level_rule_beats_parent_kind_rule(tmp_path, cli) -> None:
    write(tmp_path, "base.yaml", "kinds:\n  claude-md:\n    rules:\n      max-lines-soft: error\n")
    write(tmp_path, ".asimov-hooks.yaml", "extends: base.yaml\nrules:\n  max-lines-soft: 'off'\n")
    write(tmp_path, "CLAUDE.md", LONG_CLAUDE)
    assert "CLAUDE.md: valid" in cli("-v", "CLAUDE.md").out


@pytest.mark.parametrize("pattern", ["vendor", "vendor/", "/vendor", "vendor/**", "x"])
def test_exclude_directory_patterns_as_in_gitignore(tmp_path, cli, pattern: str) -> None:
    write(tmp_path, ".asimov-hooks.yaml", f"exclude: ['{pattern}']\n")
    write(tmp_path, "vendor/x/CLAUDE.md", "line\n" * 40)
    write(tmp_path, "CLAUDE.md", "ok\n")
    run = cli("-v", ".")
    assert run.code == 0, run
    assert "vendor" not in run.out and "1 file checked" in run.out


@pytest.mark.parametrize("pattern", ["/x", "vend", "vendor/y"])
def test_exclude_does_not_overreach(tmp_path, cli, pattern: str) -> None:
    write(tmp_path, ".asimov-hooks.yaml", f"exclude: ['{pattern}']\n")
    write(tmp_path, "vendor/x/CLAUDE.md", "line\n" * 40)
    assert cli(".").code == 1
