"""A config's kinds are matched through one compiled matcher (globs.FirstMatch): it
names the same kind as trying each kind's patterns in order, on the shipped kinds over
generated paths and on generated pattern lists."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asimov_hooks.config.config import load_config
from asimov_hooks.config.globs import FirstMatch, match_any


def first_by_lists(lists, path: str):
    for name, patterns in lists:
        if match_any(path, patterns):
            return name
    return None


SEGMENTS = ["a", "b", "src", "docs", ".asimov", ".claude", ".checkpoints", ".code-intel",
            "sessions", "roadmap.yaml", "warmup.yaml", "CLAUDE.md", "AGENTS.md", "x.md",
            ".claude_checkpoint.yaml", "checkpoint.yaml", "a.checkpoint.json", "GEMINI.md",
            "sprint.yaml", "project.yaml", "ethics.yaml", "s1.json", "README.md", "x"]  # fmt: skip
paths = st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5).map("/".join)


def test_the_shipped_kinds_over_every_short_path(tmp_path) -> None:
    config = load_config(None, str(tmp_path))
    lists = [(name, spec.get("files", [])) for name, spec in config.kinds.items()]
    matcher = FirstMatch(lists)
    named = 0
    for a in SEGMENTS:
        for b in SEGMENTS:
            for path in (a, f"{a}/{b}", f"x/{a}/{b}", f"{a}/{b}/{b}"):
                expected = first_by_lists(lists, path)
                assert matcher(path) == expected == config.kind_for(path), path
                assert matcher(path) == expected  # the kept answer
                named += expected is not None
    assert named > 50


PATTERNS = ["*.md", "CLAUDE.md", "/CLAUDE.md", "docs/*.md", "**/x.md", "a/**", "**",
            "*.yaml", ".asimov/*.yaml", "/.asimov/**", "*checkpoint*", "[ab]", "?.md",
            "a/*/b", "sessions/**/*.json", "x", "*"]  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(st.sampled_from(PATTERNS), max_size=12),
        min_size=1,
        max_size=5,
    ),
    st.lists(paths, min_size=1, max_size=20),
)
def test_generated_pattern_lists(groups, queries) -> None:
    lists = [(f"kind{i}", group) for i, group in enumerate(groups)]
    matcher = FirstMatch(lists)
    for path in queries:
        assert matcher(path) == first_by_lists(lists, path), (lists, path)
