"""Property tests of the trimmer over generated checkpoints with comments.

The generator writes checkpoints the way people and agents do (block and flow lists,
three quoting styles, block scalars, comments above items, end-of-line comments,
header and trailer comments, blank lines, CRLF, BOM, no final newline) and records
which comment belongs to which item, so the properties can check ownership too:

- the output parses, and holds exactly the expected window of each list, in order;
- kept + archived == the original items; removed fields are archived verbatim;
- the file is within the hard limit, or the error says it is not;
- only deletions happened (the output is a subsequence of the input), BOM, line
  endings and the final newline are as before;
- comments of kept items stay, comments of removed items go to the archive;
- trimming twice == trimming once.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from asimov_hooks.config.config import Config, default_data
from asimov_hooks.measure import count_lines
from asimov_hooks.readers.loaders import load_yaml
from asimov_hooks.trim.order import AUTO, keep_for
from asimov_hooks.trim.settings import Settings
from asimov_hooks.trim.trimmer import fix_file

CP = ".claude_checkpoint.yaml"
ARCHIVE = ".claude_checkpoint.archive.yaml"
PLAIN = "abcdefghijklmnopqrstuvwxyz0123456789 -_."
QUOTED = PLAIN + "#:,'\"[]{}é✓\\"
CAPS = {"completed": ("last", 5, 3), "next_steps": ("first", 5, 3)}
OPTIONAL = ("notes", "context", "history")
SOFT, HARD = 20, 30


@dataclass
class ListMeta:
    values: list[str] = field(default_factory=list)
    above: list[list[str]] = field(default_factory=list)  # comments each item owns
    eol: list[str | None] = field(default_factory=list)
    kept_comments: list[str] = field(default_factory=list)  # header/trailer/key line


@dataclass
class Generated:
    text: str
    raw: bytes
    lists: dict[str, ListMeta]
    optional_comments: dict[str, list[str]]


class Tokens:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, kind: str) -> str:
        self.n += 1
        return f"# {kind}{self.n}."


def scalar(draw: st.DrawFn, value_id: int, flow: bool = False) -> tuple[str, str]:
    """(YAML text, value) of one list item."""
    style = draw(st.sampled_from(["plain", "single", "double"]))
    alphabet = PLAIN if style == "plain" else QUOTED
    value = f"t{value_id}" + draw(st.text(alphabet, max_size=10)).rstrip()
    if style == "plain":
        return value, value
    if style == "single":
        return "'" + value.replace("'", "''") + "'", value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"', value


@st.composite
def checkpoints(draw: st.DrawFn) -> Generated:
    token = Tokens()
    ids = iter(range(10_000))
    lists: dict[str, ListMeta] = {}
    optional_comments: dict[str, list[str]] = {}
    blocks: list[tuple[str, list[str]]] = []

    def block_list(name: str) -> list[str]:
        meta = ListMeta()
        lists[name] = meta
        count = draw(st.one_of(st.integers(0, 12), st.integers(6, 9)))
        if count == 0:
            return [f"{name}:" if draw(st.booleans()) else f"{name}: []"]
        flow = draw(st.integers(0, 3)) == 0
        key_comment = token("k") if draw(st.booleans()) else None
        if key_comment:
            meta.kept_comments.append(key_comment)
        if flow:
            parts = [scalar(draw, next(ids), flow=True) for _ in range(count)]
            meta.values = [v for _, v in parts]
            meta.above = [[] for _ in parts]
            meta.eol = [None] * count
            eol = f"  {key_comment}" if key_comment else ""
            if draw(st.booleans()):
                return [f"{name}: [" + ", ".join(t for t, _ in parts) + "]" + eol]
            comma = "," if draw(st.booleans()) else ""
            body = [f"  {t}," for t, _ in parts[:-1]] + [f"  {parts[-1][0]}{comma}"]
            return [f"{name}: [{eol}", *body, "]"]
        indent = draw(st.sampled_from([0, 2, 4]))
        pad = " " * indent
        out = [f"{name}:" + (f"  {key_comment}" if key_comment else "")]
        for _ in range(draw(st.integers(0, 2))):
            meta.kept_comments.append(token("h"))
            out.append(pad + meta.kept_comments[-1])
        for index in range(count):
            above: list[str] = []
            if index and draw(st.integers(0, 3)) == 0:
                out.append("")
            if index:
                for _ in range(draw(st.integers(0, 2))):
                    above.append(token("c"))
                    out.append(" " * draw(st.sampled_from([0, indent])) + above[-1])
            if draw(st.integers(0, 5)) == 0:
                value = f"t{next(ids)} block"
                out += [f"{pad}- |", f"{pad}  {value}"]
                meta.values.append(value + "\n")
                meta.eol.append(None)
            else:
                text, value = scalar(draw, next(ids))
                eol = token("e") if draw(st.integers(0, 3)) == 0 else None
                out.append(f"{pad}- {text}" + (f"  {eol}" if eol else ""))
                meta.values.append(value)
                meta.eol.append(eol)
            meta.above.append(above)
        if indent:
            for _ in range(draw(st.integers(0, 2))):
                meta.kept_comments.append(token("tr"))
                out.append(pad + meta.kept_comments[-1])
        return out

    def optional(name: str) -> list[str]:
        kind = draw(st.sampled_from(["plain", "block", "list", "map"]))
        size = draw(st.integers(1, 4))
        if kind == "plain":
            return [f"{name}: note {next(ids)}"]
        if kind == "block":
            return [f"{name}: |"] + [f"  line {next(ids)}" for _ in range(size)]
        if kind == "list":
            return [f"{name}:"] + [f"  - entry {next(ids)}" for _ in range(size)]
        return [f"{name}:"] + [f"  k{i}: v{next(ids)}" for i in range(size)]

    names = [
        "milestone",
        *draw(
            st.lists(
                st.sampled_from(
                    [
                        "timestamp",
                        "tool_calls",
                        "status",
                        "in_progress",
                        "on_confusion",
                        "blockers",
                        "completed",
                        "next_steps",
                        *OPTIONAL,
                    ]
                ),
                unique=True,
            )
        ),
    ]
    names = draw(st.permutations(names))
    for name in names:
        if name in CAPS:
            body = block_list(name)
        elif name in OPTIONAL:
            body = optional(name)
        elif name == "tool_calls":
            body = [f"tool_calls: {draw(st.integers(0, 500))}"]
        elif name == "blockers":
            body = ["blockers:"] + [
                f"  - blocker {next(ids)}" for _ in range(draw(st.integers(1, 3)))
            ]
        elif name == "timestamp":
            body = ['timestamp: "2025-01-15T10:30:00Z"']
        else:
            body = [f"{name}: value {next(ids)}"]
        lead: list[str] = []
        if blocks and draw(st.booleans()):
            lead.append("")
        if blocks:
            for _ in range(draw(st.integers(0, 1))):
                lead.append(token("f"))
        if name in OPTIONAL:
            optional_comments[name] = [c for c in lead if c]
        blocks.append((name, lead + body))

    lines = [token("doc")] if draw(st.booleans()) else []
    for _, body in blocks:
        lines += body
    if draw(st.booleans()):
        lines += ["", token("end")]
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(lines) + (newline if draw(st.booleans()) else "")
    bom = b"\xef\xbb\xbf" if draw(st.integers(0, 4)) == 0 else b""
    return Generated(text, bom + text.encode(), lists, optional_comments)


def is_subsequence(small: str, big: str) -> bool:
    it = iter(big)
    return all(ch in it for ch in small)


def config_for(base: str, soft: bool = True) -> Config:
    """The shipped configuration, as load_config has it (its nested parts are the cached
    rule packs, read only); `soft=False` turns max-lines-soft off in copies of the parts
    on the way to it, never in the packs."""
    data = default_data()
    if not soft:
        kinds = dict(data["kinds"])
        kind = kinds["asimov-checkpoint"] = dict(kinds["asimov-checkpoint"])
        kind["rules"] = {**kind["rules"], "max-lines-soft": {"level": "off"}}
        data = {**data, "kinds": kinds}
    return Config(data, None, base)


def safe_load(text: str) -> object:
    return YAML(typ="safe", pure=True).load(text)


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints())
def test_trim_properties(cp: Generated) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, ".git"))
        path = os.path.join(tmp, CP)
        with open(path, "wb") as fh:
            fh.write(cp.raw)
        original = safe_load(cp.text)
        # oracle for the step decision: the caps-only result, with the soft limit off
        caps_only = config_for(tmp, soft=False)
        no_archive = Settings.from_config(caps_only).overridden(no_archive=True)
        step1 = fix_file(path, caps_only, settings=no_archive, dry_run=True)
        assert step1.error is None or "hard limit" in step1.error, step1.error
        step1_lines = count_lines(step1.after if step1.after is not None else cp.text)
        soft_trim = step1_lines > SOFT

        config = config_for(tmp)
        outcome = fix_file(path, config)
        assert outcome.error is None or "hard limit" in outcome.error, outcome.error
        with open(path, "rb") as fh:
            raw = fh.read()
        bom = raw.startswith(b"\xef\xbb\xbf")
        assert bom == cp.raw.startswith(b"\xef\xbb\xbf")
        text = raw[3:].decode() if bom else raw.decode()

        # only deletions; line endings and the final newline as before
        assert is_subsequence(text, cp.text)
        if text.endswith("\n") != cp.text.endswith("\n"):
            # only when dropping it would change a `|` block scalar that is now last
            assert safe_load(text.rstrip("\r\n")) != safe_load(text)
        if "\r\n" in cp.text:
            assert text.count("\n") == text.count("\r\n")

        # it parses, with our loader as well
        data = safe_load(text)
        load_yaml(text)
        archived = {}
        comments: list[str] = []
        if outcome.changed:
            with open(os.path.join(tmp, ARCHIVE), encoding="utf-8") as fh:
                entries = safe_load(fh.read())
            assert isinstance(entries, list) and len(entries) == 1
            archived = entries[0]["removed"]
            comments = entries[0].get("comments", [])
            assert entries[0]["source"] == CP
        else:
            assert raw == cp.raw and not os.path.exists(os.path.join(tmp, ARCHIVE))

        # windows, order, and kept + archived == original
        for name, (keep, cap, window) in CAPS.items():
            if name not in original:
                assert name not in data
                continue
            before = original[name] or []
            size = min(cap, window) if soft_trim else cap
            # the newest end of a history list: the items may show an order (dates,
            # `#12` task numbers) that turns it around (trim/order, tested on its own)
            keep = keep_for(keep, AUTO, before)
            expected = before[-size:] if keep == "last" and size else before[:size]
            assert (data[name] or []) == expected
            gone = archived.get(name, [])
            if keep == "last":
                assert gone + (data[name] or []) == before
            else:
                assert (data[name] or []) + gone == before
            meta = cp.lists[name]
            for comment in meta.kept_comments:
                assert comment in text
            total = len(before)
            kept_range = range(total - size, total) if keep == "last" else range(min(size, total))
            for index in range(total):
                kept = index in kept_range
                for comment in [*meta.above[index], meta.eol[index]]:
                    if comment:
                        assert (comment in text) == kept, (comment, kept)
                        assert (comment in comments) == (not kept), (comment, comments)

        # optional fields: removed (and archived verbatim) exactly when over the soft limit
        for name in OPTIONAL:
            if name in original:
                assert (name in data) == (not soft_trim)
                if soft_trim:
                    assert archived[name] == original[name]
                    for comment in cp.optional_comments[name]:
                        assert comment not in text and comment in comments
        for name, value in original.items():
            if name not in CAPS and name not in OPTIONAL:
                assert data[name] == value

        # within the hard limit, or the error says so
        lines = count_lines(text)
        assert lines <= HARD or (outcome.error and f"still {lines} lines" in outcome.error)

        # trimming twice == trimming once
        again = fix_file(path, config)
        assert not again.changed
        with open(path, "rb") as fh:
            assert fh.read() == raw


# ---------------------------------------------------------------- robustness
FUZZ_BASE = (
    "# header\ntimestamp: \"2025-01-15T10:30:00Z\"\nmilestone: 'M'\ncompleted:\n  # h\n"
    '  - a  # e\n  - "b"\n  # about c\n  - |\n    c\n  - d\n  - e\n  - f\n  # trailer\n'
    "next_steps: [n1, n2,\n  n3, n4, n5, n6]\nnotes:\n  k: [1, 2]\ncontext: [c1, c2]\n"
    "on_confusion: cat\n" + "".join(f"k{i}: v\n" for i in range(8))
)
FUZZ_TOKENS = [
    "\n",
    " ",
    "  ",
    "-",
    "- ",
    ":",
    ": ",
    "#",
    " #",
    "[",
    "]",
    "{",
    "}",
    ",",
    "'",
    '"',
    "|",
    ">",
    "&a",
    "*a",
    "!!str ",
    "\r\n",
    "\r",
    "\t",
    "---\n",
    "...\n",
    "<<: ",
    "? ",
    "\ufeff",
    "\x85",
    "é",
    "0",
    "null",
]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = FUZZ_BASE
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 6))
        insert = draw(st.sampled_from(["", *FUZZ_TOKENS]))
        text = text[:pos] + insert + text[pos + cut :]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_any_input_is_trimmed_validly_or_left_alone(text: str) -> None:
    """Mangled checkpoints: never an exception, never an invalid write, always idempotent."""
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, ".git"))
        path = os.path.join(tmp, CP)
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        outcome = fix_file(path, config_for(tmp))
        with open(path, encoding="utf-8", newline="") as fh:
            after = fh.read()
        if not outcome.changed:
            assert after == text
            return
        assert outcome.error is None or "hard limit" in outcome.error
        load_yaml(after)  # valid to validate (libyaml reads what only the pure scanner refuses)
        assert not fix_file(path, config_for(tmp)).changed


def _trims(text: str, soft: int | None) -> tuple[bool, bool]:
    """(what removes_anything says from the data, whether trim_text changes the text);
    the second is None where the trimmer refuses the file."""
    from asimov_hooks.readers.loaders import YAMLProblem
    from asimov_hooks.trim.algorithm import removes_anything, trim_text
    from asimov_hooks.trim.layout import Refused

    trim = Settings.from_config(config_for("/"))
    try:
        data = load_yaml(text).data
    except YAMLProblem:
        data = None
    said = removes_anything(data, trim, count_lines(text), soft)
    try:
        changed = trim_text(text, trim, soft, HARD).text != text
    except Refused:
        changed = None
    return said, changed


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(checkpoints(), st.sampled_from([None, 5, SOFT, 60]))
def test_the_data_says_what_the_trimmer_would_remove(cp: Generated, soft: int | None) -> None:
    """validate's line-limit advice asks the data (removes_anything) instead of a trial
    trim: on every checkpoint the trimmer accepts, the two answers are the same."""
    said, changed = _trims(cp.text.lstrip("\ufeff"), soft)
    if changed is not None:
        assert said == changed


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_the_data_agrees_on_mangled_checkpoints(text: str) -> None:
    said, changed = _trims(text, SOFT)
    if changed is not None:
        assert said == changed
