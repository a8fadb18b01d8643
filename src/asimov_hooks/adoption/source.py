"""Where the hooks come from: the published repository at the installed version's tag
(the form a team commits), or, on request, `repo: local` hooks that run the installed
commands.

The repository URL is declared once, in `pyproject.toml`'s `[project.urls]`, and read
here from the installed distribution's metadata; the version is the package's
`__version__` (which the build reads too), and its release tag is `v` + version, which
is what `pre-commit autoupdate` looks for.
"""

from __future__ import annotations

import os
from typing import Any

LOCAL = "local"
MANIFEST = ".pre-commit-hooks.yaml"
DISTRIBUTION = "asimov-hooks"
# the [project.urls] labels that name the source repository, in order of preference
URL_LABELS = ("repository", "source", "source code", "homepage")
# what a local hook keeps of the manifest's (pre-commit's own keys, in this order)
_LOCAL_KEYS = ("id", "name", "entry", "files", "always_run", "pass_filenames", "require_serial")


def _package_dir() -> str:
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def release_tag(version: str | None = None) -> str:
    """The tag of a release (`v1.2.3`): one per version."""
    if version is None:
        from .. import __version__ as version
    return f"v{version}"


def published_url() -> str | None:
    """The project's repository URL as the installed distribution declares it (its
    `Project-URL` metadata, from `[project.urls]`), or None when it declares none."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        entries = metadata(DISTRIBUTION).get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    urls: dict[str, str] = {}
    for entry in entries:
        label, _, url = str(entry).partition(",")
        if url.strip():
            urls.setdefault(label.strip().lower(), url.strip())
    return next((urls[label] for label in URL_LABELS if label in urls), None)


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
