"""`asimov-check-size FILE...`: the slim check (validation/slim.py) says exactly what the
full size check says, and on the common clean commit loads neither a YAML library nor
the validate machinery.

The full check is reached with an option (`--color never`: it changes nothing in a
captured run), which the slim check never takes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import bench_module, call_script, git, git_init, write

from asimov_hooks.config import packs, profiles
from asimov_hooks.validation import slim

corpus = bench_module("corpus")
VARIANTS = ("valid", "oversized", "schema", "syntax", "foreign")


def _samples() -> list[tuple[str, str, str, str]]:
    """(family, variant, path in the repository, text): the first file of each variant
    the benchmark corpus makes for each family."""
    out, wanted = [], {(f, v) for f in corpus.FAMILIES for v in VARIANTS}
    for index in range(2000):
        for family in corpus.FAMILIES:
            rel, text, variant = corpus.render(family, corpus.DEFAULT_SEED, index)
            if (family, variant) in wanted:
                wanted.discard((family, variant))
                out.append((family, variant, rel, text))
        if not wanted:
            break
    assert not wanted, wanted
    return sorted(out)


SAMPLES = _samples()

# what only the full check, or a parser, brings in
HEAVY = (
    "yaml",
    "_yaml",
    "ruamel",
    "ruamel.yaml",
    "sqlite3",
    "json",
    "re",
    "asimov_hooks.config.config",
    "asimov_hooks.validation.engine",
    "asimov_hooks.validation.run",
    "asimov_hooks.options",
    "click",
)


def _probe(cwd: str, *args: str, **env: str) -> dict:
    """Run the entry point in a fresh interpreter; its exit code and which of HEAVY it
    had loaded before the probe's own `json` import."""
    code = (
        "import sys\n"
        "from asimov_hooks.cli.entrypoints import check_size_main\n"
        "code = check_size_main(sys.argv[1:])\n"
        f"heavy = {list(HEAVY)!r}\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "import json\n"
        "sys.stdout.write('\\n' + json.dumps({'code': code, 'loaded': loaded}) + '\\n')\n"
    )
    full_env = {**os.environ, **env}
    full_env.pop("ASIMOV_HOOKS_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=60,
        check=False,
    )
    assert done.returncode in (0, 1, 2), done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _both(repo: str, *paths: str, **env: str) -> tuple:
    slim_run = call_script("asimov-check-size", *paths, cwd=repo, env={**_env(), **env})
    full_run = call_script(
        "asimov-check-size", "--color", "never", *paths, cwd=repo, env={**_env(), **env}
    )
    return slim_run, full_run


def _env() -> dict[str, str]:
    from conftest import script_env

    return script_env()


def _same(slim_run, full_run) -> None:
    assert (slim_run.returncode, slim_run.stdout, slim_run.stderr) == (
        full_run.returncode,
        full_run.stdout,
        full_run.stderr,
    )


@pytest.mark.parametrize(("family", "variant", "rel", "text"), SAMPLES)
def test_slim_says_what_the_full_check_says(tmp_path, family, variant, rel, text) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, rel, text)
    slim_run, full_run = _both(repo, rel)
    _same(slim_run, full_run)
    if variant == "oversized" and family != "oc":
        assert full_run.returncode == 1 and "over the" in full_run.stdout


def test_many_files_at_once_as_pre_commit_passes_them(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    for _family, _variant, rel, text in SAMPLES:
        write(repo, rel, text)
    rels = [rel for *_, rel, _ in SAMPLES]
    _same(*_both(repo, *rels))
    valid = [rel for family, variant, rel, _ in SAMPLES if variant == "valid"]
    _same(*_both(repo, *valid))


@pytest.mark.parametrize("family", ["asimov", "warmup", "oc"])
def test_a_clean_file_loads_no_parser_and_no_validate_machinery(tmp_path, family) -> None:
    repo = git_init(tmp_path / "repo")
    rel, text = next((r, t) for f, v, r, t in SAMPLES if f == family and v == "valid")
    write(repo, rel, text)
    probe = _probe(repo, rel)
    assert probe == {"code": 0, "loaded": []}


def test_a_file_over_its_limit_takes_the_full_check(tmp_path) -> None:
    """The probe can see the full check: an oversized checkpoint loads the engine."""
    repo = git_init(tmp_path / "repo")
    rel, text = next((r, t) for f, v, r, t in SAMPLES if f == "asimov" and v == "oversized")
    write(repo, rel, text)
    probe = _probe(repo, rel)
    assert probe["code"] == 1
    assert "asimov_hooks.validation.engine" in probe["loaded"]


def test_a_repository_config_is_honoured(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    rel, text = next((r, t) for f, v, r, t in SAMPLES if f == "asimov" and v == "valid")
    write(repo, rel, text)
    write(repo, ".asimov-hooks.yaml", "rules:\n  max-lines-hard:\n    max: 3\n")
    slim_run, full_run = _both(repo, rel)
    _same(slim_run, full_run)
    assert slim_run.returncode == 1 and "max-lines-hard" in slim_run.stdout
    write(repo, ".asimov-hooks.yaml", "rules:\n  max-lines-hard: off\n")
    _same(*_both(repo, rel))


@pytest.mark.parametrize(
    "env",
    [
        {"GITHUB_ACTIONS": "true"},
        {"ASIMOV_HOOKS_PROFILE": "bogus"},
        {"ASIMOV_HOOKS_PROFILE": "generic"},
    ],
)
def test_the_environment_is_heeded(tmp_path, env) -> None:
    repo = git_init(tmp_path / "repo")
    for family, variant, rel, text in SAMPLES:
        if variant in ("valid", "oversized") and family == "asimov":
            write(repo, rel, text)
    rels = [r for f, v, r, _ in SAMPLES if f == "asimov" and v in ("valid", "oversized")]
    for rel in rels:
        _same(*_both(repo, rel, **env))


def test_a_named_config_file_in_the_environment(tmp_path) -> None:
    repo = git_init(tmp_path / "repo")
    rel, text = next((r, t) for f, v, r, t in SAMPLES if f == "asimov" and v == "valid")
    write(repo, rel, text)
    write(tmp_path, "shared.yaml", "rules:\n  max-tokens:\n    max: 5\n")
    slim_run, full_run = _both(repo, rel, ASIMOV_HOOKS_CONFIG=str(tmp_path / "shared.yaml"))
    _same(slim_run, full_run)
    assert "max-tokens" in slim_run.stdout


@pytest.mark.parametrize(
    "text",
    [
        "status: ok  # asimov-hooks: disable-line max-tokens\n",
        "\ufeff\ufeffstatus: ok\n",
        "status: ok\x00\n",
        b"status: \xff\n",
        "",
        "no newline at the end",
    ],
    ids=["directive", "second-bom", "nul", "not-utf8", "empty", "no-final-newline"],
)
def test_odd_text_is_said_alike(tmp_path, text) -> None:
    repo = git_init(tmp_path / "repo")
    write(repo, ".claude_checkpoint.yaml", text)
    _same(*_both(repo, ".claude_checkpoint.yaml"))


def test_untrusted_paths_are_said_alike(tmp_path) -> None:
    """A FIFO (never opened for a blocking read), a link out of the work tree, a link
    into .git/, a directory, a missing file and a file of no kind."""
    repo = git_init(tmp_path / "repo")
    write(tmp_path, "outside.yaml", "status: ok\n")
    os.makedirs(os.path.join(repo, "a"))
    os.mkfifo(os.path.join(repo, "a", ".claude_checkpoint.yaml"))
    os.makedirs(os.path.join(repo, "b"))
    os.symlink(tmp_path / "outside.yaml", os.path.join(repo, "b", ".claude_checkpoint.yaml"))
    os.makedirs(os.path.join(repo, "c"))
    os.symlink(os.path.join(repo, ".git", "HEAD"), os.path.join(repo, "c", "warmup.yaml"))
    os.makedirs(os.path.join(repo, "d", ".claude_checkpoint.yaml"))
    write(repo, "notes.txt", "hello\n")
    for rel in (
        "a/.claude_checkpoint.yaml",
        "b/.claude_checkpoint.yaml",
        "c/warmup.yaml",
        "d/.claude_checkpoint.yaml",
        "e/.claude_checkpoint.yaml",
        "notes.txt",
        "../outside.yaml",
    ):
        slim_run, full_run = _both(repo, rel)
        _same(slim_run, full_run)
        if rel[0] in "abce":  # refused or missing: said, never passed over
            assert slim_run.returncode != 0, rel


def test_cut_at_the_limits_exactly(tmp_path) -> None:
    """At each limit the file passes; one over, the full check's finding."""
    repo = git_init(tmp_path / "repo")
    rules = packs.load_rule_file("kinds.json")["kinds"]["asimov-checkpoint"]["rules"]
    hard = rules["max-lines-hard"]["max"]
    for lines in (hard, hard + 1):
        write(repo, ".claude_checkpoint.yaml", "".join(f"k{i}: 1\n" for i in range(lines)))
        slim_run, full_run = _both(repo, ".claude_checkpoint.yaml")
        _same(slim_run, full_run)
    tokens = rules["max-tokens"]["max"]
    for chars in (tokens * 4, tokens * 4 + 1):  # the shipped estimate: characters / 4
        write(repo, ".claude_checkpoint.yaml", "k: " + "x" * (chars - 4) + "\n")
        _same(*_both(repo, ".claude_checkpoint.yaml"))


def test_the_slim_check_reads_only_kinds_json() -> None:
    """What the slim check takes from rules/kinds.json alone is in no other pack."""
    for pack in packs.PACKS:
        if pack != "kinds.json":
            data = packs.load_rule_file(pack)
            assert not {"kinds", "rules", "exclude", "token-estimator"} & set(data), pack
            assert not set(slim._UNHANDLED_KEYS) & set(data), pack


def test_profile_names_are_the_profiles_modules() -> None:
    assert slim._ENV_PROFILE == profiles.ENV_PROFILE
    assert set(slim._PROFILES) == {"", profiles.AUTO, profiles.ASIMOV, profiles.GENERIC}


SHORT_CLAUDE_MD = "# CLAUDE.md\n\nRead warmup.yaml first.\n"
LONG_CLAUDE_MD = "".join(f"- rule {n}: keep it short\n" for n in range(20))  # 20 lines


@pytest.mark.parametrize("asimov", [False, True], ids=["generic-repo", "asimov-repo"])
def test_a_short_claude_md_needs_no_profile_decision(tmp_path, monkeypatch, asimov) -> None:
    """Within the limits of every profile, CLAUDE.md passes whichever applies: the slim
    check says so without asking git which profile the repository follows."""
    monkeypatch.delenv("ASIMOV_HOOKS_PROFILE")  # auto: decided by the repository
    repo = git_init(tmp_path / "repo")
    write(repo, "CLAUDE.md", SHORT_CLAUDE_MD)
    if asimov:
        write(repo, "warmup.yaml", "identity:\n  project: p\n")
        git(repo, "add", "-A")
    _same(*_both(repo, "CLAUDE.md"))
    assert _probe(repo, "CLAUDE.md") == {"code": 0, "loaded": []}


@pytest.mark.parametrize("asimov", [False, True], ids=["generic-repo", "asimov-repo"])
def test_a_claude_md_between_the_profiles_takes_the_full_check(
    tmp_path, monkeypatch, asimov
) -> None:
    """Over the Asimov protocol's limits, within the loader's: the profile decides, so
    the full check runs, and fails the file only in a repository that follows it."""
    monkeypatch.delenv("ASIMOV_HOOKS_PROFILE")
    repo = git_init(tmp_path / "repo")
    write(repo, "CLAUDE.md", LONG_CLAUDE_MD)
    if asimov:
        write(repo, "warmup.yaml", "identity:\n  project: p\n")
        git(repo, "add", "-A")
    slim_run, full_run = _both(repo, "CLAUDE.md")
    _same(slim_run, full_run)
    assert slim_run.returncode == (1 if asimov else 0)
    probe = _probe(repo, "CLAUDE.md")
    assert "asimov_hooks.validation.engine" in probe["loaded"]
    assert probe["code"] == (1 if asimov else 0)


@pytest.mark.parametrize(
    ("body", "fast"),
    [
        ("x" * 40_000, True),
        ("x" * 40_001, False),
        ("\U0001f600" * 20_000, True),
        ("\U0001f600" * 20_001, False),
    ],
    ids=["ascii-at-limit", "ascii-past", "astral-at-limit", "astral-past"],
)
def test_characters_are_counted_as_the_agent_counts_them(tmp_path, body, fast) -> None:
    """CLAUDE.md's character limit is in UTF-16 code units (an astral character counts
    two): at the limit the slim check passes the file, past it the full check warns."""
    repo = git_init(tmp_path / "repo")
    write(repo, "CLAUDE.md", body)
    env = {"ASIMOV_HOOKS_PROFILE": "generic"}
    slim_run, full_run = _both(repo, "CLAUDE.md", **env)
    _same(slim_run, full_run)
    probe = _probe(repo, "CLAUDE.md", **env)
    if fast:
        assert probe == {"code": 0, "loaded": []}
    else:
        assert "asimov_hooks.validation.engine" in probe["loaded"]
        assert "warning max-chars" in full_run.stdout
