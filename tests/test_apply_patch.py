"""Codex's apply_patch envelope, worked out without writing (agent/agents/apply_patch.py).

Cases follow the format as Codex's tool instructions describe it and as Codex
applies it; the property tests compare against a plain list-of-lines reference.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asimov_hooks.agent.agents.apply_patch import PatchError, apply_patch, parse_patch, patch_paths


def run(patch: str, files: dict[str, str], **kw):
    return apply_patch(patch, files.get, **kw)


def envelope(*body: str) -> str:
    return "\n".join(["*** Begin Patch", *body, "*** End Patch"]) + "\n"


def test_add_file_is_its_plus_lines_with_newlines() -> None:
    assert run(envelope("*** Add File: docs/new.md", "+# Title", "+", "+text"), {}) == {
        "docs/new.md": "# Title\n\ntext\n"
    }


def test_add_file_may_be_empty_and_overwrites_an_existing_file() -> None:
    assert run(envelope("*** Add File: a"), {"a": "old\n"}) == {"a": ""}


def test_update_replaces_the_lines_after_context() -> None:
    files = {"f": "a\nb\nc\nd\n"}
    assert run(envelope("*** Update File: f", "@@", " a", "-b", "+B", " c"), files) == {
        "f": "a\nB\nc\nd\n"
    }


def test_first_hunk_may_leave_out_the_at_marker() -> None:
    assert run(envelope("*** Update File: f", "-x", "+y"), {"f": "x\n"}) == {"f": "y\n"}


def test_later_hunks_need_the_at_marker() -> None:
    with pytest.raises(PatchError, match="expected a hunk starting with '@@'"):
        parse_patch(envelope("*** Update File: f", "-x", "+y", "*** End of File", "-z"))


def test_several_hunks_apply_in_order() -> None:
    files = {"f": "1\n2\n3\n4\n5\n6\n"}
    patch = envelope("*** Update File: f", "@@", "-2", "+two", "@@", " 4", "-5", "+five")
    assert run(patch, files) == {"f": "1\ntwo\n3\n4\nfive\n6\n"}


def test_context_header_jumps_to_the_named_line() -> None:
    files = {"f": "def a():\n    x = 1\ndef b():\n    x = 1\n"}
    patch = envelope("*** Update File: f", "@@ def b():", "-    x = 1", "+    x = 2")
    assert run(patch, files) == {"f": "def a():\n    x = 1\ndef b():\n    x = 2\n"}


def test_missing_context_header_is_an_error() -> None:
    with pytest.raises(PatchError, match="context 'def c\\(\\):' not found in f"):
        run(envelope("*** Update File: f", "@@ def c():", "-x", "+y"), {"f": "x\n"})


def test_lines_not_in_the_file_are_an_error_naming_the_patch_line() -> None:
    with pytest.raises(PatchError) as info:
        run(envelope("*** Add File: g", "+1", "*** Update File: f", "-nope", "+y"), {"f": "x\n"})
    assert info.value.line == 4
    assert "not in f" in info.value.message


def test_delete_needs_an_existing_file() -> None:
    assert run(envelope("*** Delete File: old.txt"), {"old.txt": "x\n"}) == {"old.txt": None}
    with pytest.raises(PatchError, match=r"cannot delete gone\.txt: no such file"):
        run(envelope("*** Delete File: gone.txt"), {})


def test_update_needs_an_existing_file() -> None:
    with pytest.raises(PatchError, match="cannot update f: no such file"):
        run(envelope("*** Update File: f", "@@", "-x", "+y"), {})


def test_move_removes_the_source_and_overwrites_the_target() -> None:
    files = {"old/name.txt": "a\nb\n", "new/name.txt": "other\n"}
    patch = envelope("*** Update File: old/name.txt", "*** Move to: new/name.txt", "@@", "-b", "+B")
    assert run(patch, files) == {"old/name.txt": None, "new/name.txt": "a\nB\n"}


def test_later_sections_see_earlier_results() -> None:
    patch = envelope("*** Add File: f", "+one", "*** Update File: f", "@@", "-one", "+two")
    assert run(patch, {}) == {"f": "two\n"}


def test_result_always_ends_with_a_newline() -> None:
    assert run(envelope("*** Update File: f", "@@", " a", "+b"), {"f": "a"}) == {"f": "a\nb\n"}


def test_pure_addition_goes_at_the_end() -> None:
    assert run(envelope("*** Update File: f", "@@", "+z"), {"f": "a\nb\n"}) == {"f": "a\nb\nz\n"}


def test_deletion_only_hunk() -> None:
    assert run(envelope("*** Update File: f", "@@", " a", "-b", " c"), {"f": "a\nb\nc\n"}) == {
        "f": "a\nc\n"
    }


def test_end_of_file_hunk_matches_at_the_end() -> None:
    files = {"f": "x\ny\nx\ny\n"}
    patch = envelope("*** Update File: f", "@@", " x", "-y", "+Y", "*** End of File")
    assert run(patch, files) == {"f": "x\ny\nx\nY\n"}


def test_looser_matches_trailing_whitespace_then_unicode_punctuation() -> None:
    files = {"f": "a = 1   \nsay(\u201chi\u201d) \u2014 ok\n"}
    patch = envelope("*** Update File: f", "@@", "-a = 1", "+a = 2", ' say("hi") - ok')
    assert run(patch, files) == {"f": 'a = 2\nsay("hi") - ok\n'}


def test_empty_patch_line_in_a_hunk_is_an_empty_context_line() -> None:
    files = {"f": "a\n\nb\n"}
    assert run(envelope("*** Update File: f", "@@", " a", "", "-b", "+c"), files) == {
        "f": "a\n\nc\n"
    }


def test_markers_padded_with_whitespace_and_a_heredoc_are_accepted() -> None:
    patch = "<<'EOF'\n  *** Begin Patch \n *** Update File: f\n@@\n-x\n+y\n*** End Patch  \nEOF\n"
    assert run(patch, {"f": "x\n"}) == {"f": "y\n"}


def test_crlf_patch_text() -> None:
    patch = envelope("*** Update File: f", "@@", "-x", "+y").replace("\n", "\r\n")
    assert run(patch, {"f": "x\n"}) == {"f": "y\n"}


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ("", "first line of the patch must be"),
        ("*** Begin Patch\n", "last line of the patch must be"),
        ("*** Update File: f\n-x\n*** End Patch\n", "first line of the patch must be"),
        ("*** Begin Patch\n*** Frobnicate File: f\n*** End Patch\n", "is not a file header"),
        ("*** Begin Patch\n*** Add File: \n*** End Patch\n", "names no path"),
        ("*** Begin Patch\n*** Update File: f\n*** End Patch\n", "has no hunks"),
        ("*** Begin Patch\n*** Update File: f\n@@\n*** End Patch\n", "the hunk has no lines"),
        ("*** Begin Patch\n*** Update File: f\n@@\n?x\n*** End Patch\n", "unexpected line '\\?x'"),
        (
            "*** Begin Patch\n*** Update File: f\n*** Move to: \n@@\n-x\n*** End Patch\n",
            "names no path",
        ),
    ],
)
def test_malformed_patches_say_what_is_wrong(patch: str, message: str) -> None:
    with pytest.raises(PatchError, match=message):
        parse_patch(patch)


def test_bounds_on_patch_size_file_count_and_result_size() -> None:
    with pytest.raises(PatchError, match="over the 100 this check reads"):
        parse_patch(envelope("*** Add File: f", "+" + "x" * 200), max_chars=100)
    many = envelope(*(f"*** Add File: f{i}" for i in range(5)))
    with pytest.raises(PatchError, match="more than 4 files"):
        parse_patch(many, max_files=4)
    with pytest.raises(PatchError, match="would have 11 characters, over the 10"):
        run(envelope("*** Add File: f", "+" + "x" * 10), {}, max_result_chars=10)


def test_select_reads_only_the_files_wanted() -> None:
    read: list[str] = []
    files = {"a": "1\n", "b": "2\n", "c": "3\n"}

    def reader(path: str) -> str | None:
        read.append(path)
        return files.get(path)

    patch = envelope(
        "*** Update File: a",
        "-1",
        "+one",
        "*** Update File: b",
        "*** Move to: ckpt",
        "-2",
        "+two",
        "*** Delete File: c",
    )
    assert apply_patch(patch, reader, select=lambda p: p == "ckpt") == {"b": None, "ckpt": "two\n"}
    assert read == ["b"]


def test_patch_paths_lists_sources_and_targets_cheaply() -> None:
    patch = envelope(
        "*** Add File: x", "+1", "*** Update File: y", "*** Move to: z", "-a", "*** Delete File: w"
    )
    assert patch_paths(patch) == ["x", "y", "z", "w"]
    assert patch_paths("ls -la") == []


# -- properties against a reference ---------------------------------------------------


@st.composite
def files_and_edits(draw):
    """A file of distinct lines and non-overlapping edits: (start, length, new lines)."""
    size = draw(st.integers(min_value=1, max_value=30))
    lines = [f"line {i}" for i in range(size)]
    edits, at = [], 0
    while at < size and len(edits) < 5:
        start = draw(st.integers(min_value=at, max_value=size - 1))
        length = draw(st.integers(min_value=1, max_value=min(3, size - start)))
        new = draw(
            st.lists(st.text(alphabet="abc xyz", max_size=8).map(lambda s: "new " + s), max_size=3)
        )
        edits.append((start, length, new))
        at = start + length + 1  # keep one untouched line between edits
        if draw(st.booleans()):
            break
    return lines, edits


def reference(lines: list[str], edits) -> str:
    out = list(lines)
    for start, length, new in reversed(edits):
        out[start : start + length] = new
    return "".join(line + "\n" for line in out)


@settings(max_examples=150, deadline=None)
@given(files_and_edits(), st.booleans())
def test_update_hunks_agree_with_the_reference(case, with_context: bool) -> None:
    lines, edits = case
    body = ["*** Update File: f"]
    for start, length, new in edits:
        body.append("@@")
        if with_context and start > 0:
            body.append(" " + lines[start - 1])
        body += ["-" + line for line in lines[start : start + length]]
        body += ["+" + line for line in new]
    result = run(envelope(*body), {"f": "".join(line + "\n" for line in lines)})
    assert result == {"f": reference(lines, edits)}


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.text(alphabet=st.characters(blacklist_characters="\n\r"), max_size=20), max_size=10)
)
def test_add_file_round_trips_any_lines(lines: list[str]) -> None:
    patch = envelope("*** Add File: f", *("+" + line for line in lines))
    assert run(patch, {}) == {"f": "".join(line + "\n" for line in lines)}


PIECES = ["*** ", "Begin Patch", "End Patch", "Update File: f", "@@", "\n", "-", "+", " ", "x"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_is_a_result_or_a_patch_error(text: str) -> None:
    try:
        result = run(text, {"f": "x\n"})
    except PatchError as exc:
        assert exc.message
    else:
        assert all(
            value is None or value.endswith("\n") or value == "" for value in result.values()
        )


def test_long_hunks_are_found_where_a_line_by_line_search_finds_them() -> None:
    """Hunks longer than a few lines are matched by hash first: on files of a few
    repeated lines (every place a candidate), the place found is the plain search's."""
    import random

    from asimov_hooks.agent.agents.patch_lines import _NORMS, _Lines

    def plain(lines: list[str], pattern: list[str], start: int) -> int | None:
        for norm in _NORMS:
            have = lines if norm is None else [norm(x) for x in lines]
            want = pattern if norm is None else [norm(x) for x in pattern]
            for at in range(start, len(lines) - len(pattern) + 1):
                if have[at : at + len(pattern)] == want:
                    return at
        return None

    rng = random.Random(5)
    words = ["a", "a ", " a", "b", "b\u2019", "b'", ""]
    for _ in range(400):
        lines = [rng.choice(words) for _ in range(rng.randint(0, 60))]
        size = rng.randint(9, 14)
        if len(lines) >= size and rng.random() < 0.7:
            at = rng.randint(0, len(lines) - size)
            pattern = lines[at : at + size]
            pattern[rng.randrange(size)] = rng.choice(words)
        else:
            pattern = [rng.choice(words) for _ in range(size)]
        start = rng.randint(0, max(0, len(lines) - 1))
        found = _Lines(lines).seek(pattern, start, False)
        assert found == plain(lines, pattern, start), (lines, pattern, start)
