"""Where the hooks come from: the published repository at the installed version's tag
(the form a team commits), or, on request, `repo: local` hooks that run the installed
commands. The repository and the release tag are this installation's (release.py).
"""

from __future__ import annotations

import os
from typing import Any

LOCAL = "local"
MANIFEST = ".pre-commit-hooks.yaml"
# what a local hook keeps of the manifest's (pre-commit's own keys, in this order)
_LOCAL_KEYS = ("id", "name", "entry", "files", "always_run", "pass_filenames", "require_serial")


def _package_dir() -> str:
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def is_remote(repo: str) -> bool:
    """A `repo:` every clone can reach (a URL), not a path on this machine."""
    return "://" in repo or (repo.startswith("git@") and ":" in repo)


def manifest() -> list[dict[str, Any]]:
    """The hooks this installation declares (`.pre-commit-hooks.yaml`)."""
    from ..readers.yamlio import SAFE, load_all, single

    here = _package_dir()
    for path in (
        os.path.join(here, "rules", "pre-commit-hooks.yaml"),
        os.path.join(here, "..", "..", MANIFEST),
    ):
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                return list(single(load_all(fh.read(), SAFE)))
    raise FileNotFoundError(f"{MANIFEST} not found next to {here} (broken installation)")


def hook_entries(repo: str, ids: list[str]) -> list[dict[str, Any]]:
    """The hooks as the config lists them: ids for a repository, the manifest's
    definitions (run as installed commands) for `repo: local`."""
    if repo != LOCAL:
        return [{"id": hook} for hook in ids]
    declared = {hook["id"]: hook for hook in manifest()}
    out = []
    for hook in ids:
        spec = declared[hook]
        entry: dict[str, Any] = {key: spec[key] for key in ("id", "name", "entry")}
        entry["language"] = "system"
        entry.update({key: spec[key] for key in _LOCAL_KEYS if key in spec})
        entry["stages"] = list(spec.get("stages", ()))
        out.append(entry)
    return out
