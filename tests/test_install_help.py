"""`asimov-hooks install --help` says what install sets up: the trim archives go to the
merge driver (which keeps both branches' entries), not to git's union merge."""

from __future__ import annotations

from conftest import run_script


def test_install_help_describes_the_archive_merge(tmp_path) -> None:
    done = run_script("asimov-hooks", "install", "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "union merge" not in text
    assert "trim archives to it" in text and "keeping both branches' entries" in text
