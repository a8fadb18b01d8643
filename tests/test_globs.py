"""File-name patterns: gitignore-like, matched per path segment without regular expressions."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asimov_hooks.config.globs import glob_match, match_any


def reference(pattern: str) -> re.Pattern[str]:
    """The documented semantics, written as one regular expression per pattern."""
    anchored = pattern.startswith("/")
    segments = pattern.strip("/").split("/")
    out = []
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == "**":
            out.append(".+" if last else "(?:[^/]+/)*")
            continue
        part, j = "", 0
        while j < len(seg):
            ch = seg[j]
            end = seg.find("]", j + 1) if ch == "[" else -1
            if end != -1 and seg[j + 1 : end] in ("", "!"):  # empty class: a literal `[`
                end = -1
            if ch == "*":
                part += "[^/]*"
            elif ch == "?":
                part += "[^/]"
            elif end != -1:
                body = seg[j + 1 : end].replace("[", "\\[")
                part += f"(?![/])[^{body[1:]}]" if body.startswith("!") else f"[{body}]"
                j = end
            else:
                part += re.escape(ch)
            j += 1
        out.append(part + ("" if last else "/"))
    return re.compile(("" if anchored else "(?:[^/]+/)*") + "".join(out))


CASES = [
    (".claude_checkpoint.yaml", ".claude_checkpoint.yaml", True),
    (".claude_checkpoint.yaml", "sub/dir/.claude_checkpoint.yaml", True),
    (".claude_checkpoint.yaml", "x.claude_checkpoint.yaml", False),
    (".asimov/warmup.yaml", ".asimov/warmup.yaml", True),
    (".asimov/warmup.yaml", "pkg/.asimov/warmup.yaml", True),
    (".asimov/warmup.yaml", "warmup.yaml", False),
    (".asimov/warmup.yaml", "x.asimov/warmup.yaml", False),
    ("/warmup.yaml", "warmup.yaml", True),
    ("/warmup.yaml", "sub/warmup.yaml", False),
    (".checkpoints/*.checkpoint.json", ".checkpoints/deploy.checkpoint.json", True),
    (".checkpoints/*.checkpoint.json", "a/.checkpoints/x.checkpoint.json", True),
    (".checkpoints/*.checkpoint.json", ".checkpoints/.checkpoint.json", True),
    (".checkpoints/*.checkpoint.json", ".checkpoints/history/x.checkpoint.json", False),
    (".checkpoints/*.checkpoint.json", ".checkpoints/x.checkpoint.json.bak", False),
    (".checkpoints/history/**/*.json", ".checkpoints/history/a.json", True),
    (".checkpoints/history/**/*.json", ".checkpoints/history/2026/11/a.json", True),
    (".checkpoints/history/**/*.json", ".checkpoints/a.json", False),
    ("vendor/**", "vendor/a/b.yaml", True),
    ("vendor/**", "vendor", False),
    ("**", "anything/at/all", True),
    ("a*b*c", "abc", True),
    ("a*b*c", "aXbYc", True),
    ("a*b*c", "acb", False),
    ("a*a", "a", False),
    ("*.y?ml", "x.yaml", True),
    ("*.y?ml", "x.yml", False),
    ("[Cc]LAUDE.md", "cLAUDE.md", True),
    ("[!C]LAUDE.md", "CLAUDE.md", False),
    ("[!C]LAUDE.md", "XLAUDE.md", True),
    ("a[b", "a[b", True),
    ("a[]b", "a[]b", True),
    ("[!]x", "[!]x", True),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), CASES)
def test_pattern_table(pattern: str, path: str, expected: bool) -> None:
    assert glob_match(path, pattern) is expected
    assert bool(reference(pattern).fullmatch(path)) is expected


def test_match_any() -> None:
    assert match_any("a/CLAUDE.md", ["warmup.yaml", "CLAUDE.md"])
    assert not match_any("a/CLAUDE.md", [])


SEGMENT = st.text(alphabet="ab.*?[!]", min_size=1, max_size=5).filter(lambda s: "/" not in s)
PATTERN = st.builds(
    lambda lead, segs: lead + "/".join(segs),
    st.sampled_from(["", "/"]),
    st.lists(st.one_of(SEGMENT, st.just("**")), min_size=1, max_size=4),
)
PATH = st.lists(st.text(alphabet="ab.[]!", min_size=1, max_size=4), min_size=1, max_size=5).map(
    "/".join
)


@settings(max_examples=1500, deadline=None)
@given(PATTERN, PATH)
def test_agrees_with_the_reference_regex(pattern: str, path: str) -> None:
    try:
        expected = bool(reference(pattern).fullmatch(path))
    except re.error:  # a class the oracle cannot express (`[]`, `[!]`): no claim
        return
    assert glob_match(path, pattern) is expected, (pattern, path)
