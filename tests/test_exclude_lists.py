"""Long pattern lists (a config's `exclude`, a kind's `files`, overrides) are compiled
once into a `GlobSet` that tries a path only against the patterns that can match its
name: a 1 MB exclude list made validation hundreds of times slower. Operation counts
here, never timings; the set matches exactly what the patterns match one by one."""

from __future__ import annotations

import os

from conftest import run_script, write
from hypothesis import given, settings
from hypothesis import strategies as st

from asimov_hooks.config import globs
from asimov_hooks.config.config import load_config
from asimov_hooks.config.globs import GlobSet, glob_match

CHECKPOINT = "milestone: m\nstatus: in_progress\ncompleted: []\n"
SHAPES = ("vendor{i}/**", "*.tmp{i}", "build{i}", "/out{i}/x", "docs/**/gen{i}.yaml", "a?b{i}")
SHAPES += ("cache{i}*", "[xy]z{i}", "**/deep{i}/**", "/top{i}")


def many(count: int) -> list[str]:
    return [SHAPES[i % len(SHAPES)].format(i=i) for i in range(count)]


def test_a_path_is_tried_against_the_patterns_that_can_match_it() -> None:
    patterns = many(20_000)
    found = GlobSet(patterns)
    paths = [f"src/mod{i}/.claude_checkpoint.yaml" for i in range(300)]
    paths += ["vendor10/x/y.yaml", "a/b.tmp11", "build12", "out13/x", "aqb15", "cache16zz"]
    for path in paths:
        found.match(path)
    assert found.tried <= 2 * len(paths)  # each path: its few candidates, not 20,000


def test_a_config_compiles_its_exclude_list_once(tmp_path, monkeypatch) -> None:
    patterns = many(2_000)
    write(tmp_path, ".asimov-hooks.yaml", "exclude:\n" + "".join(f"  - '{p}'\n" for p in patterns))
    compiled = []
    real = globs._segment
    monkeypatch.setattr(globs, "_segment", lambda seg: compiled.append(seg) or real(seg))
    monkeypatch.setattr(globs, "_COMPILED", {})
    config = load_config(None, str(tmp_path))
    excluded = [config.excluded(f"d{i}/e{i}/.claude_checkpoint.yaml") for i in range(200)]
    assert not any(excluded)
    assert config.excluded("vendor0/lib/x.yaml") and config.excluded("d/build2/y")
    segments = sum(len(p.strip("/").split("/")) for p in patterns)
    assert len(compiled) <= segments  # each pattern's segments once, not once per path
    assert config.derived["exclude"].tried <= 3 * 202


names = st.text(alphabet="ab.*?[]!", min_size=1, max_size=4)
pattern = st.lists(st.one_of(names, st.just("**")), min_size=1, max_size=3).map("/".join)
path = st.lists(st.text(alphabet="ab.!", min_size=1, max_size=3), min_size=1, max_size=4)


@settings(max_examples=300, deadline=None)
@given(
    patterns=st.lists(st.one_of(pattern, pattern.map(lambda p: "/" + p)), max_size=12),
    parts=path,
)
def test_the_set_matches_what_the_patterns_match_one_by_one(patterns, parts) -> None:
    rel = "/".join(parts)
    assert GlobSet(patterns).match(rel) == any(glob_match(rel, p) for p in patterns)


def test_validate_with_a_long_exclude_list_skips_exactly_the_excluded(tmp_path) -> None:
    keep = ["src/.claude_checkpoint.yaml", "app/mod/.claude_checkpoint.yaml"]
    drop = ["vendor30/.claude_checkpoint.yaml", "out33/x/.claude_checkpoint.yaml"]
    drop += ["lib/deep38/.claude_checkpoint.yaml", "top39/.claude_checkpoint.yaml"]
    for rel in keep + drop:
        write(tmp_path, rel, CHECKPOINT)
    listed = "".join(f"  - '{p}'\n" for p in many(30_000))
    write(tmp_path, ".asimov-hooks.yaml", f"exclude:\n{listed}")
    assert os.path.getsize(tmp_path / ".asimov-hooks.yaml") > 500_000
    done = run_script("asimov-validate", "-v", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    reported = {line.split(":")[0] for line in done.stdout.splitlines() if ": valid" in line}
    assert reported == set(keep), done.stdout
