"""Releases: one version source, the repository URL declared once, every example and
document pinned to the current release tag, and the changelog in the Keep a Changelog
form."""

from __future__ import annotations

import glob
import os
import re
import sys

from conftest import ROOT

from asimov_hooks import __version__

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def pyproject() -> dict:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        return tomllib.load(fh)


def text_of(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def documents() -> list[str]:
    return [
        os.path.join(ROOT, "README.md"),
        *glob.glob(os.path.join(ROOT, "docs", "*.md")),
        *glob.glob(os.path.join(ROOT, "examples", "*", ".pre-commit-config.yaml")),
    ]


def test_the_version_and_the_url_are_declared_once() -> None:
    project = pyproject()
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/asimov_hooks/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    url = project["project"]["urls"]["Repository"]
    assert url.startswith("https://")
    # no source module names the URL itself: init reads it from the metadata
    for path in glob.glob(os.path.join(ROOT, "src", "**", "*.py"), recursive=True):
        assert url not in text_of(path), path


def test_hatchling_builds_wheels_twine_accepts() -> None:
    requires = pyproject()["build-system"]["requires"]
    (hatchling,) = [r for r in requires if r.startswith("hatchling")]
    floor = re.search(r">=\s*(\d+)\.(\d+)", hatchling)
    assert floor and (int(floor.group(1)), int(floor.group(2))) >= (1, 26), hatchling


def test_every_example_pins_the_current_release_tag() -> None:
    url = pyproject()["project"]["urls"]["Repository"]
    tag = f"v{__version__}"
    entries = 0
    for path in documents():
        text = text_of(path)
        for found in re.finditer(r"repo: (\S+)\n\s+rev: (\S+)", text):
            if "asimov-hooks" not in found.group(1):
                continue
            entries += 1
            assert found.group(1) == url, (path, found.group(0))
            assert found.group(2) == tag, (path, found.group(0))
        for pinned in re.findall(r"asimov-hooks@(\S+?)[\"`\s]", text):
            assert pinned == tag, (path, pinned)
    assert entries >= 5


def test_the_changelog_keeps_a_changelog() -> None:
    text = text_of(os.path.join(ROOT, "CHANGELOG.md"))
    assert "keepachangelog.com" in text
    versions = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.M)
    assert versions[0] == ("Unreleased", "")
    assert (__version__, versions[1][1]) == versions[1] and versions[1][1]
    for name, _ in versions:  # every heading has its link line
        assert re.search(rf"^\[{re.escape(name)}\]: https://", text, re.M), name
    for heading in re.findall(r"^### (.+)$", text, re.M):
        assert heading in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_ci_builds_and_checks_the_distributions() -> None:
    script = text_of(os.path.join(ROOT, ".ci", "run"))
    assert "-m build" in script and "twine check" in script


def test_supported_pythons_agree_across_metadata_and_readme() -> None:
    """The trove classifiers name every minor version from requires-python's floor to the
    newest one the README states as supported, with nothing missing or beyond it."""
    project = pyproject()["project"]
    floor = re.fullmatch(r">=\s*3\.(\d+)", project["requires-python"])
    assert floor, project["requires-python"]
    classifiers = project["classifiers"]
    assert "Programming Language :: Python :: 3 :: Only" in classifiers
    minors = sorted(
        int(m.group(1))
        for c in classifiers
        if (m := re.fullmatch(r"Programming Language :: Python :: 3\.(\d+)", c))
    )
    readme = text_of(os.path.join(ROOT, "README.md"))
    stated = set(re.findall(r"Python 3\.(\d+)–3\.(\d+)", readme)) | set(
        re.findall(r"\(3\.(\d+)–3\.(\d+) are supported\)", readme)
    )
    assert len(stated) == 1, stated  # one range, the same wherever the README states it
    ((low, high),) = stated
    assert int(low) == int(floor.group(1))
    assert minors == list(range(int(low), int(high) + 1)), minors
