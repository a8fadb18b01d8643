"""Merging trim archives is linear: each side is parsed once and entries are found by
a hashable key, not compared with every other entry (a 4.5 MB archive took minutes).
A real git merge of a large archive through the installed driver, an operation count,
and a property test holding the merge to the result of the pairwise reference."""

from __future__ import annotations

import os

import pytest
from conftest import commit_all, git, git_init, run_script, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asimov_hooks.merge import archive_merge
from asimov_hooks.merge.archive_merge import merge_archive
from asimov_hooks.trim.archive import HEADER, dump_entry

pytestmark = pytest.mark.usefixtures("isolated_home")

ARCHIVE = ".claude_checkpoint.archive.yaml"


def entry(i: int, side: str, items: int = 1) -> dict:
    return {
        "archived_at": f"2026-01-{i % 28 + 1:02d}T10:00:00Z",
        "source": ".claude_checkpoint.yaml",
        "reason": "completed past the window",
        "removed": {"completed": [f"{side} task {i}.{k}" for k in range(items)]},
    }


_DUMPED: dict[str, str] = {}


def dumped(item: dict) -> str:
    key = repr(item)
    if key not in _DUMPED:
        _DUMPED[key] = dump_entry(item)
    return _DUMPED[key]


def archive(entries: list[dict]) -> str:
    return HEADER + "".join(dumped(e) for e in entries)


def reference_merge(base: bytes | None, ours: bytes, theirs: bytes) -> bytes | None:
    """The pairwise merge the driver used to run: every entry parsed alone, every
    entry of theirs compared with every entry of base and ours."""
    from asimov_hooks.readers.yamlio import SAFE_PURE, make_yaml, reading, single

    def load(text: str):
        with reading(text, SAFE_PURE):
            return single(list(make_yaml(SAFE_PURE).load_all(text)))

    def entries(text: str):
        try:
            data = load(text)
        except Exception:
            return None
        if data is None:
            return [], []
        if not isinstance(data, list):
            return None
        chunks: list[str] = []
        for line in text.splitlines(keepends=True):
            if line.startswith("- ") or line.rstrip("\r\n") == "-":
                chunks.append(line)
            elif chunks:
                chunks[-1] += line
        if len(chunks) != len(data):
            return None
        for chunk, item in zip(chunks, data, strict=True):
            if load(chunk) != [item]:
                return None
        return data, chunks

    try:
        o_text, t_text = ours.decode("utf-8-sig"), theirs.decode("utf-8-sig")
        b_text = base.decode("utf-8-sig") if base else ""
    except UnicodeDecodeError:
        return None
    sides = [entries(t) for t in (b_text, o_text, t_text)]
    if any(side is None for side in sides):
        return None
    (b_data, _), (o_data, _), (t_data, t_chunks) = sides
    added = [
        (e, c) for e, c in zip(t_data, t_chunks, strict=True) if e not in b_data and e not in o_data
    ]
    newline = "\r\n" if "\r\n" in o_text else "\n"
    joiner = "" if not o_text or o_text.endswith("\n") else newline
    merged = o_text + joiner + "".join(c for _, c in added)
    if not merged.endswith("\n"):
        merged += newline
    if (load(merged) or []) != o_data + [e for e, _ in added]:
        return None
    bom = b"\xef\xbb\xbf" if ours.startswith(b"\xef\xbb\xbf") else b""
    return bom + merged.encode("utf-8")


def quick(item: dict) -> str:
    """`dump_entry`'s text of an `entry(...)`, without the pure-Python emitter."""
    items = "".join(f"      - {text}\n" for text in item["removed"]["completed"])
    return (
        f"- archived_at: '{item['archived_at']}'\n  source: {item['source']}\n"
        f"  reason: {item['reason']}\n  removed:\n    completed:\n{items}"
    )


def test_quick_is_dump_entry() -> None:
    for item in (entry(3, "b"), entry(27, "s", items=3)):
        assert quick(item) == dump_entry(item)


def test_a_large_archive_merges_in_a_real_git_merge(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(globals(), "dumped", quick)
    repo = git_init(tmp_path / "repo")
    assert run_script("asimov-hooks", "install", cwd=repo).returncode == 0
    base = [entry(i, "b") for i in range(4000)]
    write(repo, ARCHIVE, archive(base))
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, ARCHIVE, archive(base + [entry(i, "s") for i in range(3)]))
    commit_all(repo, "side trims")
    git(repo, "checkout", "-q", "main")
    write(repo, ARCHIVE, archive(base + [entry(i, "m") for i in range(2)]))
    commit_all(repo, "main trims")
    assert os.path.getsize(os.path.join(repo, ARCHIVE)) > 500_000
    done = git(repo, "merge", "-q", "--no-edit", "side", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(os.path.join(repo, ARCHIVE), encoding="utf-8") as fh:
        merged = fh.read()
    expected = archive(base + [entry(i, "m") for i in range(2)] + [entry(i, "s") for i in range(3)])
    assert merged == expected


class Counted(dict):
    """An archive entry that counts how often it is compared with another."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        Counted.compared += 1
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]


@pytest.mark.parametrize("size", [10, 1000])
def test_entries_are_compared_a_bounded_number_of_times_each(monkeypatch, size: int) -> None:
    parsed = []
    real_read, real_parsed = archive_merge._read, archive_merge._parsed

    def counting_read(text: str):
        parsed.append(text)
        return real_read(text)

    def counted(distinct):
        read = real_parsed(distinct)
        return None if read is None else {k: Counted(v) for k, v in read.items()}

    monkeypatch.setattr(archive_merge, "_read", counting_read)
    monkeypatch.setattr(archive_merge, "_parsed", counted)
    Counted.compared = 0
    base = [entry(i, "b") for i in range(size)]
    ours = archive([*base, entry(1, "o")]).encode()
    theirs = archive([*base, entry(2, "t")]).encode()
    merged = merge_archive(archive(base).encode(), ours, theirs)
    assert merged == archive([*base, entry(1, "o"), entry(2, "t")]).encode()
    # every item is the trimmer's own: recognised line by line, none parsed as YAML
    # (before, each side and the result were parsed whole)
    assert parsed == []
    assert Counted.compared <= 2 * (size + 2)  # the result's check, not pairs


def test_only_the_items_not_of_the_trimmers_shape_are_parsed(monkeypatch) -> None:
    parsed = []
    real_read = archive_merge._read

    def counting_read(text: str):
        parsed.append(text)
        return real_read(text)

    monkeypatch.setattr(archive_merge, "_read", counting_read)
    base = [entry(i, "b") for i in range(50)]
    by_hand = "- archived_at: 2026-01-05  # restored by hand\n  note: kept\n"
    ours = archive([*base, entry(1, "o")]).encode()
    theirs = (archive(base) + by_hand).encode()
    merged = merge_archive(archive(base).encode(), ours, theirs)
    assert merged == ours + by_hand.encode()
    assert parsed == [by_hand]  # that item alone, once


def test_an_entry_theirs_repeats_from_base_is_not_added_twice() -> None:
    base = [entry(i, "b") for i in range(5)]
    theirs = archive([*base, entry(3, "b")]).encode()  # re-adds an old entry's data
    ours = archive([*base, entry(9, "o")]).encode()
    merged = merge_archive(archive(base).encode(), ours, theirs)
    assert merged == ours


values = st.text(alphabet=st.sampled_from("ab -:#'\"é\\"), max_size=6)
entries = st.builds(
    lambda when, items: {"archived_at": when, "removed": {"completed": items}},
    values,
    st.lists(values, max_size=3),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.lists(entries, max_size=4),
    ours=st.lists(entries, max_size=3),
    theirs=st.lists(entries, max_size=3),
    shared=st.lists(entries, max_size=2),
    crlf=st.booleans(),
    bom=st.booleans(),
)
def test_the_merge_is_the_pairwise_merge(base, ours, theirs, shared, crlf, bom) -> None:
    def text(items: list[dict]) -> bytes:
        body = archive(items)
        if crlf:
            body = body.replace("\n", "\r\n")
        return (b"\xef\xbb\xbf" if bom else b"") + body.encode()

    sides = (text(base), text(base + shared + ours), text(base + theirs + shared))
    assert merge_archive(*sides) == reference_merge(*sides)
