"""`--format sarif`: SARIF 2.1.0 for GitHub code scanning (and other SARIF viewers).

One run; the driver lists every rule with the documentation `asimov-hooks rules ID`
prints; one result per finding, the same findings as the text output. Locations are
relative to the repository root (the directory `git` would upload from), so GitHub maps
them onto its files. Imported only for `--format sarif`.
"""

from __future__ import annotations

import hashlib
import os
import re

from .. import __version__
from ..findings import FileResult

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from collections.abc import Sequence
    from typing import Any, TextIO

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note", "off": "none"}
FINGERPRINT = "asimovHooks/v1"


def published_url() -> str | None:
    from ..release import published_url as declared

    return declared()


def _root(path: str, roots: dict[str, str]) -> str:
    """The root of the repository that holds `path`, or the working directory."""
    from ..gitutil import find_toplevel

    directory = os.path.dirname(os.path.abspath(path))
    if directory not in roots:
        roots[directory] = find_toplevel(directory) or os.getcwd()
    return roots[directory]


# RFC 3986 unreserved characters and the path separator stay; anything else is %-encoded
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")


def artifact_uri(path: str, root: str) -> str:
    """`path` relative to `root` as a URI reference: forward slashes, no leading slash."""
    where = os.path.abspath(path)  # the link itself, not where a symbolic link points
    where = os.path.join(os.path.realpath(os.path.dirname(where)), os.path.basename(where))
    rel = os.path.relpath(where, os.path.realpath(root)).replace(os.sep, "/")
    return "".join(
        c if c in _SAFE else "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogateescape"))
        for c in rel
    )


def _rule_descriptor(rule: Any) -> dict[str, Any]:
    from .ruledocs import explain_text, rule_markdown

    doc = rule.doc
    return {
        "id": rule.id,
        "name": "".join(part.capitalize() for part in rule.id.split("-")),
        "shortDescription": {"text": doc["summary"]},
        "fullDescription": {"text": doc["why"]},
        "help": {"text": explain_text(rule), "markdown": rule_markdown(rule, "###")},
        "defaultConfiguration": {"level": LEVELS[rule.default_level()]},
        "properties": {"tags": sorted({"asimov-hooks", *doc["source"].split(" / ")})},
    }


def _fingerprint(rule: str, uri: str, message: str, seen: dict[str, int]) -> str:
    """Stable across runs: rule, file and the message with its numbers blanked (a count
    that grows is the same problem), plus which occurrence of that it is; never the line,
    so editing above a finding does not open a new alert."""
    key = f"{rule}\0{uri}\0{re.sub(r'[0-9][0-9,.]*', '#', message)}"
    seen[key] = seen.get(key, 0) + 1
    return hashlib.sha256(f"{key}\0{seen[key]}".encode("utf-8", "surrogatepass")).hexdigest()


def document(results: Sequence[FileResult]) -> dict[str, Any]:
    from .ruledocs import infos

    rules = infos()
    index = {rule.id: i for i, rule in enumerate(rules)}
    roots: dict[str, str] = {}
    seen: dict[str, int] = {}
    sarif_results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for res in results:
        uri = artifact_uri(res.path, _root(res.path, roots))
        for f in res.findings:
            message = f.message + (f" (suggestion: {f.suggestion})" if f.suggestion else "")
            region: dict[str, int] = {"startLine": max(1, f.line)}
            if f.col >= 1:
                region["startColumn"] = f.col
            result: dict[str, Any] = {
                "ruleId": f.rule,
                "level": LEVELS.get(f.level, "warning"),
                "message": {"text": message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                            "region": region,
                        }
                    }
                ],
                "partialFingerprints": {FINGERPRINT: _fingerprint(f.rule, uri, f.message, seen)},
            }
            if f.rule in index:
                result["ruleIndex"] = index[f.rule]
            sarif_results.append(result)
        location = [
            {"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}}}
        ]
        for change in res.fixed:  # --fix: what the fixer changed (the text output's "Fixing")
            notifications.append(
                {"level": "note", "message": {"text": f"fixed: {change}"}, "locations": location}
            )
        if res.fix_error:
            notifications.append(
                {
                    "level": "error",
                    "message": {"text": f"not fixed: {res.fix_error}"},
                    "locations": location,
                }
            )
        if res.status == "skipped":
            notifications.append(
                {
                    "level": "note",
                    "message": {"text": f"skipped: {res.skipped}"},
                    "locations": location,
                }
            )
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "asimov-hooks",
                        "version": __version__,
                        "semanticVersion": __version__,
                        # the project's repository, as pyproject.toml declares it
                        **({"informationUri": url} if (url := published_url()) else {}),
                        "rules": [_rule_descriptor(rule) for rule in rules],
                    }
                },
                "invocations": [
                    {"executionSuccessful": True, "toolExecutionNotifications": notifications}
                ],
                "columnKind": "unicodeCodePoints",
                "results": sarif_results,
            }
        ],
    }


def write(results: Sequence[FileResult], out: TextIO) -> None:
    from ..readers.json_loader import dump_text  # never NaN or Infinity

    out.write(dump_text(document(results), ascii=True) + "\n")
