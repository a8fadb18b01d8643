"""Rules about reading the file at all: reported while it is read or parsed.

They have no check function here: `readers/fileio` raises `FileProblem` (io-error,
encoding, and max-bytes-hard from `sizes`), `readers/loaders` raises `YAMLProblem`
(syntax, duplicate-key, yaml-aliases), `readers/markers` finds conflict markers, and the
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

RULES: dict[str, object] = {}
