"""What a user reads speaks to someone who installed the tool: no source-document
numbers ("seed 003"), tracker numbers ("issue 11") or words from how the project was
built ("landing", "arch's"). Say "ADR-007", "the OC Checkpoint Protocol", "the
checkpoint-injection design" instead.

User-facing: README.md, docs/, benchmarks/*.md, the rule packs' text, the hook manifest
and every string of the package (help, messages, docstrings).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

WORDS = re.compile(
    r"""
      \bseeds?\s+0\d+                 # seed 003, seed 00x
    | \bseed's\b | \bseeds/           # the seed's validator, seeds/004...
    | \bissues?\s+\#?\d+              # issue 11, issue #11
    | \blanding | \blanded\b          # process words
    | \barch's\b | \bcoordinator\b
    | \bsession\s+\d+\b | \bthis\s+session's\b | \bstart\s+of\s+session\b
    | \bhelpers'
    """,
    re.IGNORECASE | re.VERBOSE,
)


def _text_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / ".pre-commit-hooks.yaml", ROOT / "hooks" / "pre-commit"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    files += sorted((ROOT / "benchmarks").glob("*.md"))
    return [p for p in files if p.is_file()]


def _strings(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _hits(text: str) -> list[str]:
    return [m.group(0) for m in WORDS.finditer(text)]


def test_the_pattern_catches_what_it_should() -> None:
    for bad in (
        "seed 003's unified turn timer",
        "the seed's validator",
        "restructuring (issue 11)",
        "after arch's last landing",
        "see issue #24",
    ):
        assert _hits(bad), bad
    for fine in ("corpus seed 20251127", "random seed", "ADR-007", "PR #12", "session_id"):
        assert not _hits(fine), fine


@pytest.mark.parametrize("path", _text_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_user_facing_text(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    found = [
        f"{path.relative_to(ROOT)}:{n}: {hit!r}"
        for n, line in enumerate(text.splitlines(), 1)
        for hit in _hits(line)
    ]
    assert not found, found


def test_rule_packs() -> None:
    found = []
    for path in sorted((ROOT / "rules").rglob("*.json")):
        for string in _strings(json.loads(path.read_text(encoding="utf-8"))):
            found += [f"{path.relative_to(ROOT)}: {hit!r}" for hit in _hits(string)]
    assert not found, found


def test_the_package_strings() -> None:
    """Help texts, messages and docstrings (comments are for developers)."""
    found = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found += [
                    f"{path.relative_to(ROOT)}:{node.lineno}: {hit!r}" for hit in _hits(node.value)
                ]
    assert not found, found
