"""Reading many files in one run (`fs.walk.remembered_trees`, as validate does) refuses
and reads exactly what reading each file on its own does.

A run keeps the descriptors of the folders it opened and takes a short way for a path
with no link, `..` or `.git` on it (`fs.walk.open_kept`); everything else takes the full
walk. These tests compare the two on a repository full of what must be refused (links
out, links in, a nested repository and links to it, `.git` in any letter case, FIFOs,
directories, broken links, files where folders go), in several orders, and check what
the kept descriptors may never do: outlive the run, reach a child process, or let a
folder swapped for a link out be read through.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from conftest import git_init, write

from asimov_hooks.fs.access import FileProblem, read_bytes
from asimov_hooks.fs.dirfd import MAX_KEPT_DIRS
from asimov_hooks.fs.walk import remembered_trees

SECRET = b"SECRET outside the repository\n"


def outcome(path: str, cap: int = 200) -> tuple[str, object]:
    try:
        return ("read", read_bytes(path, cap))
    except FileProblem as problem:
        return (problem.rule, problem.message)
    except OSError as exc:
        return ("os", type(exc).__name__)


@pytest.fixture
def hostile(tmp_path) -> tuple[str, list[str]]:
    """A repository with one of each thing a read must refuse or follow, and the paths
    (relative to it) to read there."""
    repo, outside = str(tmp_path / "repo"), str(tmp_path / "outside")
    git_init(repo)
    write(outside, "secret.yaml", SECRET)
    for rel in ("d/a.yaml", "d/b.yaml", "d/sub/c.yaml", "e/a.yaml", "plain/x.yaml"):
        write(repo, rel, f"file: {rel}\n")
    write(repo, "d/big.yaml", "x" * 500)
    write(repo, "d/file.yaml", "not a folder\n")
    os.mkdir(os.path.join(repo, "d", "dir.yaml"))
    os.mkfifo(os.path.join(repo, "d", "fifo.yaml"))
    links = {
        "d/in.yaml": "a.yaml",
        "d/up.yaml": "../e/a.yaml",
        "d/out.yaml": "../../outside/secret.yaml",
        "d/abs.yaml": os.path.join(outside, "secret.yaml"),
        "d/broken.yaml": "missing.yaml",
        "d/loop.yaml": "loop.yaml",
        "d/togit.yaml": "../.git/config",
        "linkdir": "d",
        "outdir": "../outside",
        "nested/up.yaml": "../d/a.yaml",
        "tonested": "nested",
    }
    write(repo, "d/.GIT/config", "[core]\n")
    git_init(os.path.join(repo, "nested"))
    write(repo, "nested/n.yaml", "nested: 1\n")
    write(repo, "nested/deep/n.yaml", "nested: 2\n")
    for rel, target in links.items():
        os.symlink(target, os.path.join(repo, rel))
    rels = [
        "d/a.yaml", "d/b.yaml", "d/sub/c.yaml", "e/a.yaml", "plain/x.yaml", "d/big.yaml",
        "d/dir.yaml", "d/fifo.yaml", "d/file.yaml/x", "d/missing.yaml", "missing/x.yaml",
        *[rel for rel in links if rel.endswith(".yaml")],
        "linkdir/a.yaml", "linkdir/sub/c.yaml", "outdir/secret.yaml", "d/.GIT/config",
        ".git/config", ".Git/HEAD", "nested/n.yaml", "nested/deep/n.yaml", "tonested/n.yaml",
        "tonested/up.yaml", "d/../e/a.yaml", "d/./a.yaml", "./d/a.yaml", "d//a.yaml",
        "d/sub/../../plain/x.yaml", "../outside/secret.yaml", "d/", "d/.",
    ]  # fmt: skip
    return repo, rels


def _alone(paths: list[str]) -> list[tuple[str, object]]:
    return [outcome(path) for path in paths]


def _batch(paths: list[str]) -> list[tuple[str, object]]:
    with remembered_trees():
        return [outcome(path) for path in paths]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("form", ["relative", "absolute", "from-a-folder"])
def test_a_batch_reads_and_refuses_as_single_reads_do(hostile, monkeypatch, seed, form) -> None:
    repo, rels = hostile
    order = list(rels)
    random.Random(seed).shuffle(order)
    if form == "absolute":
        paths = [os.path.join(repo, rel) for rel in order]
    else:
        monkeypatch.chdir(repo if form == "relative" else os.path.join(repo, "d"))
        paths = order if form == "relative" else [os.path.join("..", rel) for rel in order]
    alone = _alone(paths)
    assert _batch(paths) == alone
    assert _batch(paths + paths) == alone + alone  # the second time from kept folders
    said = dict(zip(order, alone, strict=True))
    assert said["d/a.yaml"] == ("read", b"file: d/a.yaml\n")
    assert said["d/in.yaml"] == said["linkdir/a.yaml"] == said["d/a.yaml"]
    assert all(SECRET not in str(got).encode() for got in alone)
    for rel in ("d/out.yaml", "d/abs.yaml", "outdir/secret.yaml", "nested/up.yaml"):
        assert said[rel][1].endswith("leads outside the repository; refused"), said[rel]
    for rel in ("d/.GIT/config", ".git/config", ".Git/HEAD", "d/togit.yaml"):
        assert "git directory" in said[rel][1], said[rel]
    assert said["d/fifo.yaml"] == ("io-error", "not a regular file")
    assert said["d/dir.yaml"] == ("io-error", "is a directory, expected a file")
    assert said["d/broken.yaml"] == ("io-error", "broken symbolic link")
    assert said["d/big.yaml"][0] == "max-bytes-hard"


def test_a_folder_swapped_for_a_link_out_before_its_first_file_is_refused(tmp_path) -> None:
    """The run knows `d/` (and keeps `repo/`); `e/` is met first after it became a
    link out of the repository: refused as on its own, nothing from outside read."""
    repo, outside = str(tmp_path / "repo"), str(tmp_path / "outside")
    git_init(repo)
    write(repo, "d/a.yaml", "a: 1\n")
    write(repo, "e/b.yaml", "b: inside\n")
    write(outside, "b.yaml", SECRET)
    with remembered_trees():
        assert read_bytes(os.path.join(repo, "d", "a.yaml")) == b"a: 1\n"
        os.rename(os.path.join(repo, "e"), os.path.join(repo, "e.old"))
        os.symlink(outside, os.path.join(repo, "e"))
        with pytest.raises(FileProblem) as refused:
            read_bytes(os.path.join(repo, "e", "b.yaml"))
    assert refused.value.message.endswith("leads outside the repository; refused")


def test_a_file_swapped_for_a_link_between_two_reads_of_a_batch_is_refused(tmp_path) -> None:
    """The short way opens the file itself with O_NOFOLLOW: a file of a kept folder that
    became a link out is followed only by the full walk, which refuses it."""
    repo, outside = str(tmp_path / "repo"), str(tmp_path / "outside")
    git_init(repo)
    write(repo, "d/a.yaml", "a: 1\n")
    write(repo, "d/b.yaml", "b: 1\n")
    write(outside, "secret.yaml", SECRET)
    target = os.path.join(repo, "d", "b.yaml")
    with remembered_trees():
        assert read_bytes(os.path.join(repo, "d", "a.yaml")) == b"a: 1\n"
        assert read_bytes(target) == b"b: 1\n"
        os.unlink(target)
        os.symlink(os.path.join(outside, "secret.yaml"), target)
        with pytest.raises(FileProblem) as refused:
            read_bytes(target)
    assert refused.value.message.endswith("leads outside the repository; refused")


def test_a_folder_that_becomes_a_repository_of_its_own_is_read_as_one(tmp_path) -> None:
    """A folder met first in a run and holding `.git` is a work tree of its own (as on
    its own): a link in it to its parent's files leads outside it."""
    repo = str(tmp_path / "repo")
    git_init(repo)
    write(repo, "d/a.yaml", "a: 1\n")
    write(repo, "d/inner/x.yaml", "x: 1\n")
    os.symlink("../a.yaml", os.path.join(repo, "d", "inner", "up.yaml"))
    git_init(os.path.join(repo, "d", "inner"))
    with remembered_trees():
        assert read_bytes(os.path.join(repo, "d", "a.yaml")) == b"a: 1\n"
        assert read_bytes(os.path.join(repo, "d", "inner", "x.yaml")) == b"x: 1\n"
        with pytest.raises(FileProblem) as refused:
            read_bytes(os.path.join(repo, "d", "inner", "up.yaml"))
    assert refused.value.message.endswith("leads outside the repository; refused")


def test_a_relative_path_follows_the_working_directory(tmp_path, monkeypatch) -> None:
    repo = str(tmp_path / "repo")
    git_init(repo)
    write(repo, "one/d/a.yaml", "one\n")
    write(repo, "two/d/a.yaml", "two\n")
    with remembered_trees():
        monkeypatch.chdir(os.path.join(repo, "one"))
        assert read_bytes("d/a.yaml") == b"one\n"
        monkeypatch.chdir(os.path.join(repo, "two"))
        assert read_bytes("d/a.yaml") == b"two\n"


def _open_fds(below: str = "") -> list[tuple[str, str]]:
    """This process's descriptors (and what each is), those of files below `below`."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            where = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # the listing's own descriptor, closed by now
            continue
        if where.startswith(below):
            found.append((fd, where))
    return sorted(found)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_kept_descriptors_end_with_the_run_and_stay_in_this_process(tmp_path) -> None:
    """More folders than are kept at once: at most MAX_KEPT_DIRS descriptors are open
    during the run, none after it (nor after a run that ends on an error), and none is
    inherited by a program the run starts."""
    repo = str(tmp_path / "repo")
    git_init(repo)
    paths = [
        write(repo, f"f{index // 2:03d}/{index % 2}.yaml", f"n: {index}\n") for index in range(300)
    ]
    before = _open_fds()
    real = os.path.realpath(repo)
    with remembered_trees():
        for index, path in enumerate(paths):
            assert read_bytes(path) == f"n: {index}\n".encode()
            assert len(_open_fds()) - len(before) <= MAX_KEPT_DIRS
            assert (real + "/" + path.split("/")[-2] in dict(_open_fds(real)).values()) == (
                index % 2 == 1
            )  # a folder's descriptor is kept from its second file on
        kept = [int(fd) for fd, where in _open_fds(real)]
        assert len(kept) == MAX_KEPT_DIRS
        assert not any(os.get_inheritable(fd) for fd in kept)
        show_fds = (
            "import os\n"
            "for fd in os.listdir('/proc/self/fd'):\n"
            "    try:\n"
            "        print(os.readlink(f'/proc/self/fd/{fd}'))\n"
            "    except OSError:\n"
            "        pass\n"
        )
        child = subprocess.run(
            [sys.executable, "-c", show_fds],
            capture_output=True,
            text=True,
            check=True,
            close_fds=False,
        )
        assert not [line for line in child.stdout.splitlines() if line.startswith(real)]
    assert _open_fds() == before
    with pytest.raises(RuntimeError), remembered_trees():
        read_bytes(paths[0])
        raise RuntimeError
    assert _open_fds() == before


@pytest.mark.parametrize("size", [0, 1, 4095, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 7])
def test_a_file_is_read_to_its_end_whatever_its_size(tmp_path, size) -> None:
    """One read takes a file to its end at the size it was checked to have; a file of
    more than a megabyte, or of exactly the bound, is read whole, one byte more refused."""
    repo = str(tmp_path / "repo")
    git_init(repo)
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    path = write(repo, "d/f.bin", data)
    with remembered_trees():
        assert read_bytes(path, 4 << 20) == data
        assert read_bytes(path, size) == data
        if size:
            with pytest.raises(FileProblem) as over:
                read_bytes(path, size - 1)
            assert over.value.rule == "max-bytes-hard"
    assert read_bytes(path, 4 << 20) == data


@pytest.mark.skipif(not os.path.isfile("/proc/self/status"), reason="needs /proc")
def test_a_file_whose_size_says_nothing_is_read_to_its_end() -> None:
    """A regular file that gives its size as 0 (procfs) is read until it ends."""
    assert os.stat("/proc/self/status").st_size == 0
    got = read_bytes("/proc/self/status", confined=False)
    assert got.startswith(b"Name:") and b"\nPid:" in got and b"ctxt_switches" in got
