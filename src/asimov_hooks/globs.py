"""File-name patterns for rule packs.

Patterns are gitignore-like: `*` stays inside one path segment, `**` spans segments,
a pattern with no `/` matches the base name anywhere, and any other pattern matches
the end of the path (a leading `/` anchors it to the repository root).
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=512)
def compile_glob(pattern: str) -> re.Pattern[str]:
    anchored = pattern.startswith("/")
    pattern = pattern.strip("/")
    out = []
    segments = pattern.split("/")
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == "**":
            out.append("(?:.*/)?" if not last else ".*")
            continue
        part = ""
        j = 0
        while j < len(seg):
            ch = seg[j]
            if ch == "*":
                part += "[^/]*"
            elif ch == "?":
                part += "[^/]"
            elif ch == "[":
                end = seg.find("]", j + 1)
                if end == -1:
                    part += re.escape(ch)
                else:
                    body = seg[j + 1 : end].replace("\\", "\\\\")
                    if body.startswith("!"):
                        body = "^" + body[1:]
                    part += f"[{body}]"
                    j = end
            else:
                part += re.escape(ch)
            j += 1
        out.append(part + ("" if last else "/"))
    prefix = "^" if anchored else "(?:^|.*/)"
    return re.compile(prefix + "".join(out) + "$")


def match_any(path: str, patterns: list[str] | tuple[str, ...]) -> bool:
    """True when the POSIX relative `path` matches one of `patterns`."""
    return any(compile_glob(p).match(path) for p in patterns)
