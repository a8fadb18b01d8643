"""This installation's release: its version's tag and the repository it is published
from.

The repository URL is declared once, in `pyproject.toml`'s `[project.urls]`, and read
here from the installed distribution's metadata; the version is the package's
`__version__` (which the build reads too), and its release tag is `v` + version, which
is what `pre-commit autoupdate` looks for.
"""

DISTRIBUTION = "asimov-hooks"
# the [project.urls] labels that name the source repository, in order of preference
URL_LABELS = ("repository", "source", "source code", "homepage")


def release_tag(version: "str | None" = None) -> str:
    """The tag of a release (`v1.2.3`): one per version."""
    if version is None:
        from . import __version__ as version
    return f"v{version}"


def published_url() -> "str | None":
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
