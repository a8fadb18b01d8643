"""Rules about reading the file at all: reported while it is read or parsed.

They have no check function here: `fs/textio` raises `FileProblem` (io-error,
encoding, and max-bytes-hard from `sizes`), `readers/loaders` raises `YAMLProblem`
(syntax, duplicate-key, yaml-aliases), `conflict_markers` finds git conflict markers, and the
engine reports an empty file before it parses. Each problem carries its rule id, so
levels and `select` / `ignore` work on them like on any other rule.

  io-error          the path is missing, a directory, a broken link or unreadable
  encoding          binary content or not UTF-8
  conflict-markers  git conflict markers (what hosted merge buttons leave behind)
  empty-file        nothing to parse where a document is expected
  syntax            invalid YAML or JSON
  duplicate-key     the same key twice in one mapping
  yaml-aliases      aliases that expand past `max-nodes` (a "billion laughs" file)
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

RULES: dict[str, object] = {}


def conflict_advice(config: Any, kind: str, rules: dict[str, dict[str, Any]]) -> str | None:
    """What to do about conflict markers in a file of `kind`: the merge driver resolves
    only the kinds it merges (and the trim archives); any other file is resolved by hand."""
    opts = rules.get("conflict-markers", {})
    if kind in config.section("merge").get("kinds", {}) or config.kinds[kind].get("archive"):
        return opts.get("suggestion")
    return opts.get("suggestion-by-hand") or opts.get("suggestion")
