"""The smaller readers of repository and payload text grow linearly with it, as
tests/test_linear_time.py measures them (the cost at 4n against the cost at n, never a
time): the OC toolkit's gate words (`oc next`) and its colour splitting, the re-read
budget's cut, the recognition of our own hook entries in an agent's settings, the look
at the files git would open before it runs, and the config checker's "did you mean".
Each through the function the command calls, with hostile text: long lines, long runs
of spaces, separators repeated, long words, a pattern repeated deep.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from test_linear_time import _call, _merge, _repo, assert_linear

CASES: dict[str, tuple[Callable[[int], Callable[[], object]], int]] = {}


def _one_text_cases(title: str, target: str, shapes: dict, start: int) -> None:
    """A doubling case per shape, for a function of one text (`module:function`)."""
    CASES.update(
        {f"{title}, {k}": (_call(target, lambda n, f=f: (f(n),)), start) for k, f in shapes.items()}
    )


GATE_WORDS = ["gate", "approval", "approve", "review", "sign-off", "signoff", "checkpoint-review"]


# -- oc next: the gate words in a checkpoint's step, phase and progress rows ----------
def _gate(data: Callable[[int], dict], words: Callable[[int], list[str]] = lambda n: GATE_WORDS):
    def case(n: int) -> Callable[[], object]:
        import datetime

        from asimov_hooks.oc.priority import rank
        from asimov_hooks.oc.summary import Record
        from asimov_hooks.oc.wholewords import whole_words

        now = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
        record = Record.of("s", "s.checkpoint.json", data(n), now, 7.0)
        listed = words(n)

        def run() -> object:
            whole_words.cache_clear()  # the words' automaton is built in every run
            return rank(record, listed)

        return run

    return case


def _step(text: Callable[[int], str]) -> Callable[[int], dict]:
    return lambda n: {"status": "in_progress", "step": text(n), "phase": text(n)}


GATE_SHAPES: dict[str, Callable[[int], dict]] = {
    "blanks": _step(lambda n: "a" + " " * n + "b"),
    "word prefixes": _step(lambda n: "sign-" * n + "x"),
    "words run together": _step(lambda n: "gatex" * n),
    "words after letters": _step(lambda n: "xgate" * n),
    "dashes": _step(lambda n: "-" * n),
    "long word": _step(lambda n: "a" * n),
    "near words": _step(lambda n: "approv " * n),
    "rows": lambda n: {
        "status": "in_progress",
        "progress_table": [
            {"id": f"r{i}", "label": "approv sign", "status": "in_progress"} for i in range(n)
        ],
    },
}
CASES.update({f"oc next: gate words, {k}": (_gate(f), 64) for k, f in GATE_SHAPES.items()})
CASES["oc next: gate words, many words"] = (
    _gate(_step(lambda n: "word " * 64), lambda n: [f"w{i}x" for i in range(n)]),
    64,
)
CASES["oc next: gate words, a long word against its prefixes"] = (
    _gate(_step(lambda n: "a " * n), lambda n: ["a " * (n // 2) + "b"]),
    64,
)
CASES["oc next: gate words, words with spaces"] = (
    _gate(_step(lambda n: " " * n), lambda n: [" " * (n // 2) + "x"]),
    64,
)


# -- the agent's re-read: which generated files belong to the current step -----------
def _resume(data: Callable[[int], dict]):
    def case(n: int) -> Callable[[], object]:
        from asimov_hooks.agent.runtime.resume import section, skills
        from asimov_hooks.oc.wholewords import whole_words

        loaded = [(".checkpoints/s.checkpoint.json", data(n))]

        def run() -> object:
            whole_words.cache_clear()
            found = skills(loaded, "/nonexistent/project", 7.0, GATE_WORDS)
            return [skill.brief() for skill in found], section(found, 10**9, 10**9)

        return run

    return case


def _primed(rows: Callable[[int], list], files: Callable[[int], list], step: Callable[[int], str]):
    return lambda n: {
        "status": "in_progress",
        "step": step(n),
        "progress_table": rows(n),
        "context_primer": {"generated_files": files(n)},
    }


RESUME_SHAPES: dict[str, Callable[[int], dict]] = {
    "rows and files": _primed(
        lambda n: [{"id": f"sprint-{i}", "status": "complete"} for i in range(n)],
        lambda n: [f"docs/part-{i}.md" for i in range(n)],
        lambda n: "sprint-1",
    ),
    "rows named in a long step": _primed(
        lambda n: [{"id": f"s{i}", "status": "complete"} for i in range(n)],
        lambda n: ["a.md"],
        lambda n: " ".join(f"s{i}x" for i in range(n)),
    ),
    "ids that are each other's suffixes": _primed(
        lambda n: [{"id": "-".join(["s"] * i), "status": "complete"} for i in range(1, 40)],
        lambda n: ["s-" * n + "x.md"],
        lambda n: "s-" * n,
    ),
}
CASES.update({f"re-read: {k}": (_resume(f), 64) for k, f in RESUME_SHAPES.items()})


# -- oc's printing: our colour codes kept, everything else made visible ---------------
def _painted(text: Callable[[int], str]):
    def case(n: int) -> Callable[[], object]:
        from asimov_hooks.oc.output import Out

        line = text(n)

        def run() -> object:
            out = Out(io.StringIO(), color="always")
            out.line(line)
            return out.stream.getvalue()

        return run

    return case


COLOUR_SHAPES: dict[str, Callable[[int], str]] = {
    "open codes": lambda n: "\033[" * n,
    "almost codes": lambda n: "\033[3" * n + "\033[31",
    "our codes": lambda n: "\033[31mx\033[0m" * n,
    "escapes": lambda n: "\033" * n + "\x07",
    "controls and blanks": lambda n: "\t \r" * n,
    "long line": lambda n: "x" * n + "\033[1m",
}
CASES.update({f"oc colour: {k}": (_painted(f), 64) for k, f in COLOUR_SHAPES.items()})


def _wrapped(text: Callable[[int], str]):
    def case(n: int) -> Callable[[], object]:
        from asimov_hooks.oc.output import Out

        out, value = Out(io.StringIO(), color="never"), text(n)
        return lambda: (out.wrap(value, 4), out.fit(value, 4))

    return case


WRAP_SHAPES: dict[str, Callable[[int], str]] = {
    "a long word": lambda n: "x" * n,
    "short words": lambda n: "ab " * n,
    "dashes": lambda n: "a-" * n,
    "blanks": lambda n: "a" + " " * n + "b",
    "breaks and tabs": lambda n: "a\r\n\t" * n,
}
CASES.update({f"oc wrap: {k}": (_wrapped(f), 64) for k, f in WRAP_SHAPES.items()})


# -- the re-read budget: a checkpoint cut at a line end -------------------------------
def _fit(text: Callable[[int], str]):
    def case(n: int) -> Callable[[], object]:
        from asimov_hooks.agent.runtime.reread import _Budget

        body = text(n)

        def run() -> object:
            return _Budget(len(body) // 2).fit(body, "; run `asimov-hooks trim`")

        return run

    return case


FIT_SHAPES: dict[str, Callable[[int], str]] = {
    "one long line": lambda n: "x" * n,
    "blank lines": lambda n: "\n" * n,
    "short lines": lambda n: "a: 1\n" * n,
    "long line, then lines": lambda n: "k: " + "v" * n + "\n" + "a\n" * n,
    "spaces": lambda n: " " * n + "\n",
}
CASES.update({f"re-read budget: {k}": (_fit(f), 256) for k, f in FIT_SHAPES.items()})


# -- an agent's settings: which hook entries are ours ---------------------------------
def _guard(inner: str) -> str:
    from asimov_hooks.agent.install.guard import guarded

    return guarded(inner, "claude")


OURS_SHAPES: dict[str, Callable[[int], str]] = {
    "blanks": lambda n: "asimov-hooks" + " " * n + "agent-event --agent claude",
    "open quotes": lambda n: "asimov-hooks agent-event" + ' "' * n,
    "escapes": lambda n: "asimov-hooks agent-event " + "\\" * n,
    "many events": lambda n: "asimov-hooks " + "agent-event " * n,
    "long path": lambda n: "/" + "a/" * n + "asimov-hooks agent-event --agent x",
    "guarded, long": lambda n: _guard("asimov-hooks agent-event --agent " + "c" * n),
    "guard-like": lambda n: _guard("") + "' >&2; exit 1; }; exec " * n + "agent-event",
    "quoted words": lambda n: "asimov-hooks agent-event " + "'a' " * n,
}
_one_text_cases("agent settings: ours", "agent.install.hookedit:ours", OURS_SHAPES, 64)


# -- before git runs: the files it would open ---------------------------------------------
def _would_block(args: Callable[[int], tuple], stdin: Callable[[int], str | None]):
    def case(n: int) -> Callable[[], object]:
        from asimov_hooks.gitutil import would_block

        repo = _repo()
        listed, given = args(n), stdin(n)
        return lambda: would_block(listed, repo, given)

    return case


def _no_stdin(n: int) -> None:
    return None


CASES.update(
    {
        "git: a deep path": (
            _would_block(lambda n: ("check-ignore", "-q", "--", "a/" * n + "x"), _no_stdin),
            4096,  # the square shows only past a few thousand levels
        ),
        "git: a deep path, repeated": (
            _would_block(
                lambda n: ("check-attr", "merge", "--", *(["d/" * 64 + "x"] * n)), _no_stdin
            ),
            16,
        ),
        "git: many paths on stdin": (
            _would_block(
                lambda n: ("check-ignore", "-z", "--stdin"),
                lambda n: "\0".join(f"b/c/x{i}" for i in range(n)),
            ),
            64,
        ),
        "git: separators on stdin": (
            _would_block(lambda n: ("check-attr", "--stdin", "merge"), lambda n: "\n" * n),
            64,
        ),
        "git: a long name on stdin": (
            _would_block(lambda n: ("check-ignore", "--stdin"), lambda n: "/" * n + "x" * n),
            64,
        ),
        "git: many arguments": (
            _would_block(lambda n: ("ls-files", *(["--cached"] * n), "--", "x"), _no_stdin),
            64,
        ),
    }
)
INCLUDE_SHAPES: dict[str, Callable[[int], str]] = {
    "open sections": lambda n: "[" * n + "\n",
    "includes": lambda n: "[include]\n" + "\tpath = a.inc ; x\n" * n,
    "quotes": lambda n: '[include]\npath = "' + '"' * n + "\n",
    "comment marks": lambda n: "[includeIf]\npath = a" + " #" * n + "\n",
    "long section": lambda n: '[includeIf "' + "x" * n + '"]\npath = b\n',
}
CASES.update(
    {
        f"git: a config's includes, {k}": (
            _call("gitfiles:_includes", lambda n, f=f: ("/c/config", f(n))),
            64,
        )
        for k, f in INCLUDE_SHAPES.items()
    }
)


# -- adoption: our install types added to a .pre-commit-config.yaml's flow list -------
def _adopt(text: Callable[[int], str]):
    return _call(
        "adoption.precommit:extend",
        lambda n: (
            text(n),
            "https://example.invalid/hooks",
            "v1",
            [{"id": "asimov-validate"}],
            ("pre-merge-commit",),
        ),
    )


ADOPT_SHAPES: dict[str, Callable[[int], str]] = {
    "blanks, the list closed on the next line": lambda n: (
        "repos: []\ndefault_install_hook_types: [pre-commit" + " " * n + "\n  ]\n"
    ),
    "blanks after a comma": lambda n: (
        "repos: []\ndefault_install_hook_types: [pre-commit," + " " * n + "\n  ]\n"
    ),
    "blanks, then a comment": lambda n: (
        "repos: []\ndefault_install_hook_types: [pre-commit" + " " * n + "]" + " " * n + "# x\n"
    ),
}
# the square shows past a few thousand blanks
CASES.update({f"adoption: install types, {k}": (_adopt(f), 4096) for k, f in ADOPT_SHAPES.items()})


# -- drift: the PRs and tickets a next action names, and what the history merged ---------
REF_SHAPES: dict[str, Callable[[int], str]] = {
    "blanks after PR": lambda n: "PR" + " " * n + "x",
    "digits that run on": lambda n: "#" + "1" * n + "a",
    "hashes": lambda n: "#" * n + "1",
    "ticket-like words": lambda n: "AB-" * n + "1",
    "a ticket's digits that run on": lambda n: "AB-" + "1" * n + "x",
    "closing words": lambda n: "fixes " * n + "#",
    "blanks after a closing word": lambda n: "closes" + " " * n + "x",
    "squash marks": lambda n: "(#1)" * n + " " * n + "x",
}
_one_text_cases("drift: a next action's refs", "checks.drift:_action_refs", REF_SHAPES, 64)


def _merged(message: Callable[[int], str]):
    """merged_refs over one commit whose message is hostile (git log read whole)."""

    def case(n: int) -> Callable[[], object]:
        import subprocess
        import tempfile

        from conftest import git_init

        from asimov_hooks.checks.drift import merged_refs

        top = git_init(tempfile.mkdtemp(prefix="linear-log-"))
        subprocess.run(
            ["git", "commit", "-q", "--allow-empty", "--cleanup=verbatim", "-F", "-"],
            cwd=top,
            input="Merge pull request #1 " + message(n),
            text=True,
            check=True,
        )

        def run() -> object:
            merged_refs.cache_clear()
            return merged_refs(top)

        return run

    return case


CASES.update({f"drift: merged refs, {k}": (_merged(f), 1024) for k, f in REF_SHAPES.items()})


# -- the merge driver: an archive's header of comments (see test_archive_header_merge) ---
def _archives(header: Callable[[int], str]) -> Callable[[int], tuple[str, str, str]]:
    def sides(n: int) -> tuple[str, str, str]:
        base = header(n) + "- source: a\n  reason: r\n"
        return base, base + "- source: b\n", base + "- source: c\n"

    return sides


HEADER_SHAPES: dict[str, Callable[[int], str]] = {
    "comment lines": lambda n: "# x\n" * n,
    "comment lines ending in CR": lambda n: "#\r\n" * n,
    "blank lines with blanks": lambda n: " \t\n" * n,
    "a long comment": lambda n: "#" + " #" * n + "\n",
}
CASES.update(
    {
        f"merge: an archive's header, {k}": (
            _merge(".claude_checkpoint.archive.yaml", _archives(f)),
            64,
        )
        for k, f in HEADER_SHAPES.items()
    }
)


# -- a committed checkpoint request: the files its text names ------------------------
def _stray(text: Callable[[int], str]):
    def case(n: int) -> Callable[[], object]:
        from asimov_hooks.agent.runtime.request_files import protocol_patterns, stray

        patterns, said = protocol_patterns(), text(n)
        return lambda: stray(said, patterns, None)

    return case


REQUEST_SHAPES: dict[str, Callable[[int], str]] = {
    "names in angles": lambda n: ".checkpoints/" + "<skill>" * n + ".checkpoint.json",
    "angles left open": lambda n: "a/" + "<" * n + ">",
    "closing angles": lambda n: "a/" + ">" * n + "<",
    "many paths": lambda n: ".checkpoints/<skill>.checkpoint.json " * n,
    "dots": lambda n: "a" + "." * n + "txt",
    "edges": lambda n: "(" * n + "a/b" + ")" * n,
}
CASES.update({f"request files: {k}": (_stray(f), 64) for k, f in REQUEST_SHAPES.items()})


# -- the YAML merge keeps the file's indentation: guessed from its lines ----------------
INDENT_SHAPES: dict[str, Callable[[int], str]] = {
    "colons in a key": lambda n: "a" + " :" * n + "\n  b: 1\n",
    "blanks before a dash": lambda n: " " * n + "- a:\n" + " " * (n + 2) + "b: 1\n",
    "dashes": lambda n: "- " * n + "a:\n    b: 1\n",
    "open quotes": lambda n: '"' + "a" * n + ":\n  b: 1\n",
    "keys": lambda n: "a: 1\n" * n + "b:\n  c: 1\n",
    "comments": lambda n: "a: b" + " #" * n + "\n  c: 1\n",
}
_one_text_cases("merge: indentation", "merge.yaml_merge:guess_indent", INDENT_SHAPES, 64)


# -- a config's mistakes: the closest known key ---------------------------------------
def _config(data: Callable[[int], dict]):
    return _call("config.check:validate_config", lambda n: (".asimov-hooks.yaml", data(n)))


CONFIG_SHAPES: dict[str, Callable[[int], dict]] = {
    "unknown keys": lambda n: {f"selct{i}": 1 for i in range(n)},
    "a long key": lambda n: {"s" * n: 1},
    "a key of quotes": lambda n: {"'" * n: 1},
    "a key of spaces": lambda n: {"select" + " " * n: 1},
    "misspelt rule ids": lambda n: {"select": [f"max-byte-hard{i}" for i in range(n)]},
    "a long rule id": lambda n: {"ignore": ["max-bytes-hard" * n]},
    "unknown section keys": lambda n: {"oc": {f"gate-word{i}": 1 for i in range(n)}},
    "new kinds": lambda n: {"kinds": {f"claude-m{i}": {} for i in range(n)}},
}
CASES.update({f"config: did you mean, {k}": (_config(f), 16) for k, f in CONFIG_SHAPES.items()})
# the shipped schema's own patterns over a committed value (the square shows past thousands)
PATTERN_SHAPES: dict[str, Callable[[int], dict]] = {
    "reset-archive of {skill}": lambda n: {"oc": {"reset-archive": "{skill}" * n}},
    "reset-archive of {time}": lambda n: {"oc": {"reset-archive": "{time}" * n}},
    "reset-archive lines": lambda n: {"oc": {"reset-archive": "{skill}\n{time}" * n}},
    "history without {skill}": lambda n: {"oc": {"history": "{skil}" * n}},
    "a long health-url": lambda n: {"oc": {"health-url": "http:" * n}},
}
CASES.update({f"config: patterns, {k}": (_config(f), 2048) for k, f in PATTERN_SHAPES.items()})


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("history/{skill}.{time}.json", True),
        ("{time}-{skill}", True),
        ("a\n{skill}/{time}", True),
        ("{skill}.json", False),
        ("{skill}\n{time}", False),
    ],
)
def test_reset_archive_names_skill_and_time_on_one_line(value: str, valid: bool) -> None:
    from asimov_hooks.config.check import validate_config
    from asimov_hooks.config.packs import ConfigError

    if valid:
        validate_config("c.yaml", {"oc": {"reset-archive": value}})
    else:
        with pytest.raises(ConfigError, match="reset-archive"):
            validate_config("c.yaml", {"oc": {"reset-archive": value}})


@pytest.mark.parametrize("name", sorted(CASES))
def test_grows_linearly(name: str) -> None:
    case, n = CASES[name]
    assert_linear(case, n)


@pytest.mark.parametrize(
    ("text", "words", "found"),
    [
        ("sign-off pending", ["sign-off"], True),
        ("signoffs", ["signoff"], False),
        ("pre-review", ["review"], True),
        ("review2", ["review"], False),
        ("Waiting for APPROVAL.", ["approval"], True),
        ("x a b", ["a b", "b"], True),
        ("xa b", ["a b", "b"], True),  # "a b" after x is not whole, "b" is
        ("xa bc", ["a b"], False),
        ("gate", ["g", "ga", "gat"], False),
        ("a  b", [""], True),
        ("ab", [""], False),
    ],
)
def test_gate_words_are_whole_words(text: str, words: list[str], found: bool) -> None:
    """The words' automaton finds what the whole-word expression found."""
    import re

    from asimov_hooks.oc.wholewords import WholeWords

    pattern = r"(?<![a-z0-9])(?:" + "|".join(re.escape(w) for w in words) + r")(?![a-z0-9])"
    assert bool(re.search(pattern, text.lower())) is found
    assert WholeWords(tuple(words)).search(text.lower()) is found
