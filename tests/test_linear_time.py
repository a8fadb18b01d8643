"""Every regular expression and position search that reads repository or payload text
grows linearly with it: a hostile input (a committed file, an agent's tool call) costs
time in proportion to its size, never its square.

Each case builds an input of size n whose shape is the worst one known for its
expression (runs of blank lines, openings that never close, separators repeated) and
runs the code that reads it at n and at 4n. The ratio of the two costs (CPU time of
this process, the best of a few runs) must stay near 4: a quadratic path gives 16.
Nothing here asserts an absolute time; a ratio that misses is measured again, at a
larger n, before it fails.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

FACTOR = 4
LIMIT = FACTOR * 2.2  # linear: about 4; n log n: under 5; quadratic: 16
FLOOR = 0.004  # seconds: n doubles until the small run costs this much, so noise is small
TRIES = 3


def cost(run: Callable[[], object], reps: int = 3) -> float:
    """The CPU time of `run`, the best of `reps`, the collector held off (a collection
    that falls in one run and not the other is no property of the code)."""
    import gc

    best = float("inf")
    gc.disable()
    try:
        for _ in range(reps):
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
            if best > 0.25:
                break  # long enough to be measured once
    finally:
        gc.enable()
    return best


def ratio_at(case: Callable[[int], Callable[[], object]], n: int) -> tuple[int, float]:
    """(the n used, cost at FACTOR * n / cost at n), n doubled until its run is measurable."""
    small = cost(case(n))
    while small < FLOOR and n < 1 << 13:
        n *= 2
        small = cost(case(n))
    big = cost(case(n * FACTOR), reps=2)
    # a call too cheap to time at thousands of repeats is linear by any measure that
    # matters: its cost is measured against the floor, not the clock's noise (and the
    # inputs stay within a few hundred kilobytes, where `re`'s own stack of repeats
    # does not yet fall out of the processor's caches)
    return n, big / max(small, FLOOR)


def assert_linear(case: Callable[[int], Callable[[], object]], n: int) -> None:
    seen = []
    for _ in range(TRIES):
        n, ratio = ratio_at(case, n)
        seen.append((n, round(ratio, 1)))
        if ratio < LIMIT:
            return
        if ratio > 1.5 * LIMIT:
            break  # no noise makes this much: the square shows
        n *= 2  # measured again a little larger: start-up costs weigh less
    pytest.fail(f"cost grows faster than the input: (n, cost(4n)/cost(n)) = {seen}")


# -- the cases: name -> (build(n) -> the call to time, a starting n) ------------------


def _shell_patches(text: Callable[[int], str]) -> Callable[[int], Callable[[], object]]:
    from asimov_hooks.agent.runtime.shellcmd import patches

    def case(n: int) -> Callable[[], object]:
        command = text(n)
        return lambda: patches(command)

    return case


def _patched(line: str, context: str, last: str) -> Callable[[int], Callable[[], object]]:
    """A hunk of n/2 context lines found at every one of the file's n places, whose
    last line is the file's last: the hunk fits only at the end."""

    def case(n: int) -> Callable[[], object]:
        from asimov_hooks.agent.agents.apply_patch import apply_patch
        from asimov_hooks.agent.agents.patch_lines import PatchError

        original = line * n + last
        patch = "*** Begin Patch\n*** Update File: c.yaml\n@@\n" + context * (n // 2)
        patch += "-  - y\n+  - z\n*** End Patch\n"

        def run() -> object:
            try:
                return apply_patch(patch, lambda path: original)
            except PatchError as error:  # pragma: no cover - the hunk fits
                raise AssertionError(error) from error

        return run

    return case


def _blank_comments(text: Callable[[int], str]) -> Callable[[int], Callable[[], object]]:
    from asimov_hooks.agent.install.jsonedit import blank_comments

    def case(n: int) -> Callable[[], object]:
        settings = text(n)
        return lambda: blank_comments(settings)

    return case


_REPO: list[str] = []


def _repo() -> str:
    """One git repository for the cases that run a whole hook (made on first use)."""
    if not _REPO:
        import tempfile

        from conftest import git_init, write

        repo = git_init(tempfile.mkdtemp(prefix="linear-"))
        write(repo, "warmup.yaml", "identity:\n  project: demo\n")
        _REPO.append(repo)
    return _REPO[0]


def _codex_hook(tool: str, command: Callable[[int], str], post: bool = False):
    """Codex's PreToolUse (PostToolUse) hook, a whole `agent-event` run in this process."""
    import json

    from conftest import call_script

    def case(n: int) -> Callable[[], object]:
        repo = _repo()
        payload = json.dumps({
            "session_id": "019a4f2e-7c3b-7d10-9a41-2b8e5c6d7f80",
            "cwd": repo,
            "hook_event_name": "PostToolUse" if post else "PreToolUse",
            "turn_id": "turn-1",
            "tool_use_id": "call_1",
            "tool_name": tool,
            "tool_input": {"command": command(n)},
        })  # fmt: skip

        def run() -> None:
            proc = call_script("asimov-hooks", "agent-event", "--agent", "codex", cwd=repo,
                               stdin=payload)  # fmt: skip
            assert proc.returncode == 0, proc.stderr

        return run

    return case


def _codex_event(tool: str, command: Callable[[int], str]):
    """What Codex's adapter reads of a PreToolUse event: the files each patch names."""
    from asimov_hooks.agent.agents import codex

    def case(n: int) -> Callable[[], object]:
        payload = {
            "session_id": "019a4f2e-7c3b-7d10-9a41-2b8e5c6d7f80",
            "cwd": _repo(),
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": {"command": command(n)},
        }
        return lambda: codex.normalize(payload)

    return case


def _sections(n: int) -> str:
    return (
        "*** Begin Patch\n"
        + "".join(f"*** Add File: d/f{i}.txt\n+x\n" for i in range(n))
        + "*** End Patch\n"
    )


HEREDOC = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: f{i}.txt\n+x\n*** End Patch\nEOF\n"

CASES: dict[str, tuple[Callable[[int], Callable[[], object]], int]] = {
    # Codex's shell commands (agent/runtime/shellcmd.py)
    "heredoc of blank lines": (_shell_patches(lambda n: "apply_patch <<'EOF'\n" + "\n" * n), 64),
    "heredoc of blank lines, closed": (
        _shell_patches(lambda n: "apply_patch <<'EOF'\n" + "\n" * n + "EOF\n"),
        64,
    ),
    "blank lines, no heredoc": (_shell_patches(lambda n: "echo\n" + "\n \t" * n + "x"), 64),
    "many heredocs": (
        _shell_patches(lambda n: "".join(HEREDOC.format(i=i) for i in range(n))),
        64,
    ),
    "heredoc operators on one line": (
        _shell_patches(lambda n: "apply_patch <<EOF;" * n),
        64,
    ),
    "unclosed quoted cd": (_shell_patches(lambda n: ';cd "x' * n + "\n"), 64),
    "a patch as one argument": (
        _shell_patches(lambda n: "cd /a && apply_patch '*** Begin Patch\n" + "+x\n" * n + "'"),
        32768,  # shlex's square shows only past tens of kilobytes
    ),
    "a patch as one argument, double-quoted": (
        _shell_patches(lambda n: 'apply_patch "*** Begin Patch\n' + '+\\"x\\\\\n' * n + '"'),
        32768,  # shlex's square shows only past tens of kilobytes
    ),
    "codex adapter: patch sections": (_codex_event("apply_patch", _sections), 4096),
    "codex apply_patch: a long hunk in a file of one repeated line": (
        _patched("  - x\n", "   - x\n", "  - y\n"),
        1024,
    ),
    "codex apply_patch: the same, matched ignoring trailing blanks": (
        _patched("  - x \n", "   - x\n", "  - y \n"),
        1024,
    ),
    "codex adapter: heredocs": (
        _codex_event("Bash", lambda n: "".join(HEREDOC.format(i=i) for i in range(n))),
        1024,
    ),
    "codex PreToolUse: heredocs": (
        _codex_hook("Bash", lambda n: "".join(HEREDOC.format(i=i) for i in range(n))),
        64,
    ),
    "codex PostToolUse: heredocs": (
        _codex_hook("Bash", lambda n: "".join(HEREDOC.format(i=i) for i in range(n)), True),
        64,
    ),
    "codex PreToolUse: blank heredoc": (
        _codex_hook("Bash", lambda n: "apply_patch <<'EOF'\n" + "\n" * n + "EOF\n"),
        64,
    ),
    # a committed .gemini/settings.json (agent/install/jsonedit.py)
    "settings: comments that never close": (_blank_comments(lambda n: "{/* " * n), 64),
    "settings: strings that never close": (_blank_comments(lambda n: '/"' + '\\"' * n), 64),
    "settings: comments and strings": (
        _blank_comments(lambda n: '{"a": "//", /* b */ "c": 1} // d\n' * n),
        64,
    ),
}


def _call(target: str, make: Callable[[int], tuple], catch: bool = True):
    """`module:function` called on the arguments `make(n)` builds (what it raises, on
    hostile text, is the function's answer too)."""
    import importlib

    module, _, name = target.partition(":")

    def case(n: int) -> Callable[[], object]:
        func = getattr(importlib.import_module(f"asimov_hooks.{module}"), name)
        args = make(n)

        def run() -> object:
            try:
                return func(*args)
            except Exception:
                if not catch:
                    raise
                return None

        return run

    return case


def _texts(target: str, shapes: dict[str, Callable[[int], str]], *extra: object):
    return {
        f"{target} {shape}": (_call(target, lambda n, f=f: (f(n), *extra)), 64)
        for shape, f in shapes.items()
    }


# shapes that make a backtracking expression or a repeated search do its worst
YAML_SHAPES: dict[str, Callable[[int], str]] = {
    "blank lines": lambda n: "a: 1\n" + "\n" * n + "b: 2\n",
    "blanks": lambda n: "a:" + " " * n + "\n",
    "open double quotes": lambda n: 'a: "\\' * n,
    "open single quotes": lambda n: "a: '" * n,
    "quote pairs": lambda n: 'a: "x"' * n + "\n",
    "indicators": lambda n: "- ? : " * n + "x\n",
    "dashes": lambda n: "- " * n + "x\n",
    "comments": lambda n: "a: b" + " #" * n + "\n",
    "tags": lambda n: "a: " + "! " * n + "\n",
    "anchors": lambda n: "a: " + "&x " * n + "\n",
    "block headers": lambda n: "a: |" + "-+0" * n + " # x\n",
    "keys": lambda n: "key: value\n" * n,
    "items": lambda n: "a:\n" + "  - item\n" * n,
    "colons": lambda n: "a" + ":" * n + "\n",
    "brackets": lambda n: "a: " + "[" * n,
    "closers": lambda n: "a: " + "]" * n,
    "carriage returns": lambda n: "a: b" + "\r" * n,
    "indents": lambda n: "".join(" " * i + "k:\n" for i in range(50)) * (n // 50 + 1),
    "spaces before a comment": lambda n: "a: b" + " " * n + "#c\n",
    "a line of spaces before a comment": lambda n: "a: 1\n" + " " * n + "#\nb: 2\n",
    "archive items": lambda n: "- a: 1\n  b:\n    - x\n" * n,
}
JSON_SHAPES: dict[str, Callable[[int], str]] = {
    "open strings": lambda n: '{"a": "' + '\\"' * n,
    "brackets": lambda n: "[" * n,
    "strings": lambda n: "[" + ",".join('"x\\"y"' for _ in range(n)) + "]",
    "keys": lambda n: "{" + ",".join(f'"k{i}": {i}' for i in range(n)) + "}",
    "blanks": lambda n: '{"a":' + " " * n + "1}",
}
MARKDOWN_SHAPES: dict[str, Callable[[int], str]] = {
    "open directive comments": lambda n: "<!-- asimov-hooks: disable-line " * n + "\n",
    "directive comments": lambda n: "<!-- asimov-hooks: disable-line x -->" * n + "\n",
    "directive marks": lambda n: "# asimov-hooks: disable-line x " * n + "\n",
    "conflict-like lines": lambda n: "<<<<<<<\n=======\n" * n + "x",
    "lines": lambda n: "# T\n" + "line\n" * n,
    "long line": lambda n: "<" * n + " " + "=" * n,
}

CASES.update(_texts("readers.guards:check_depth", YAML_SHAPES, "yaml", 10**9))
CASES.update(_texts("readers.guards:check_depth", JSON_SHAPES, "json", 10**9))
CASES.update(_texts("readers.guards:check_tags", YAML_SHAPES))
CASES.update(_texts("config.identify:top_level_keys", YAML_SHAPES))
CASES.update(_texts("conflict_markers:find_conflict_marker", MARKDOWN_SHAPES, True))
CASES.update(_texts("conflict_markers:find_conflict_marker", YAML_SHAPES))
CASES.update(_texts("readers.fast_yaml:_needs_round_trip", YAML_SHAPES))
CASES.update(_texts("readers.yamlio:_leading_blanks_fit", YAML_SHAPES))
CASES.update(_texts("readers.plain_yaml:plain_data", YAML_SHAPES))
CASES.update(
    {
        f"{name} (batch)": case
        for name, case in _texts("readers.plain_yaml:plain_data", YAML_SHAPES, True).items()
    }
)
CASES.update(_texts("readers.plain_yaml:stop_line", YAML_SHAPES))
CASES.update(_texts("merge.archive_merge:_split", YAML_SHAPES))
CASES.update(_texts("merge.archive_merge:_bodies", YAML_SHAPES))
CASES.update(_texts("trim.archive:_last_entry", YAML_SHAPES))
CASES.update(_texts("checks.suppress:_directive", MARKDOWN_SHAPES, "<!--"))
CASES.update(_texts("readers.fastjson:token_position", JSON_SHAPES, r"\]"))
CASES.update(_texts("readers.fastjson:depth_past", JSON_SHAPES, 1))
CASES.update(_texts("agent.install.jsonedit:blank_comments", JSON_SHAPES))
CASES.update(_texts("validation.hooktypes:_uncomment", YAML_SHAPES))
NOTE_SHAPES: dict[str, Callable[[int], str]] = {
    "dashes": lambda n: " -" * n + "\nx",
    "blanks": lambda n: "a" + " " * n + "b",
    "notes": lambda n: "a" + " (x)" * n,
    "dash lines": lambda n: "a -\n" * n,
    "em dashes": lambda n: "a" + " — b" * n,
}
CASES.update(_texts("checks.drift:entry_path", NOTE_SHAPES, "/nonexistent"))
ITEM_SHAPES: dict[str, Callable[[int], list[str]]] = {
    "task and blanks": lambda n: ["task" + " " * n + "x", "b"],
    "tasks": lambda n: ["task #" * n, "step 2"],
    "dates": lambda n: ["2026-01-01 " * n, "x"],
    "hashes": lambda n: ["#" * n, "# 1"],
}
CASES.update(_texts("trim.order:detect", ITEM_SHAPES))
FORMAT_SHAPES: dict[str, Callable[[int], str]] = {
    "uri": lambda n: "http://a/" + "a%" * n,
    "json-pointer": lambda n: "/a~" * n + "~2",
    "email": lambda n: "a." * n + "@",
    "date-time": lambda n: "2026-01-01T00:00:00." + "1" * n + "X",
    "duration": lambda n: "P" + "1D" * n,
    "ipv6": lambda n: "1:" * n,
    "hostname": lambda n: "a-" * n,
}
CASES.update(
    {
        f"minischema.formats:conforms {name}": (
            _call("minischema.formats:conforms", lambda n, f=f, k=name: (k, f(n))),
            64,
        )
        for name, f in FORMAT_SHAPES.items()
    }
)


_BIG_REPO: list[str] = []
_RAISED = (
    "{rules: {max-bytes-hard: {max: 100000000}, max-bytes-soft: {max: 100000000},"
    " max-lines-hard: {max: 100000000}, max-lines-soft: {max: 100000000}}}"
)


def _validate(rel: str, text: Callable[[int], str]):
    """validate's check of one file, its size limits raised so that every reader and
    rule reads the whole hostile text (a config may raise them as far)."""

    def case(n: int) -> Callable[[], object]:
        import os

        from asimov_hooks.config.config import load_config
        from asimov_hooks.validation.engine import Checker

        if not _BIG_REPO:
            import tempfile

            from conftest import git_init, write

            repo = git_init(tempfile.mkdtemp(prefix="linear-big-"))
            kinds = (
                "asimov-checkpoint",
                "asimov-warmup",
                "oc-checkpoint",
                "claude-md",
                "agents-md",
            )
            write(
                repo,
                ".asimov-hooks.yaml",
                "kinds:\n" + "".join(f"  {k}: {_RAISED}\n" for k in kinds),
            )
            _BIG_REPO.append(repo)
        repo = _BIG_REPO[0]
        config = load_config(None, start=repo)
        data = text(n).encode("utf-8", "surrogatepass")
        path = os.path.join(repo, rel)
        return lambda: Checker(config, None, set()).check(path, data)

    return case


for _rel, _shapes in (
    (".claude_checkpoint.yaml", YAML_SHAPES),
    ("warmup.yaml", YAML_SHAPES),
    (".checkpoints/s.checkpoint.json", JSON_SHAPES),
    ("CLAUDE.md", MARKDOWN_SHAPES),
):
    CASES.update({f"validate {_rel} {k}": (_validate(_rel, f), 64) for k, f in _shapes.items()})
CASES.update(
    {f"validate AGENTS.md {k}": (_validate("AGENTS.md", f), 64) for k, f in MARKDOWN_SHAPES.items()}
)
CASES["validate .checkpoints/s.checkpoint.json a late duplicate key"] = (
    _validate(".checkpoints/s.checkpoint.json", lambda n: '{"a": [' + "1," * n + '1], "a": 2}'),
    64,
)
CASES["validate .claude_checkpoint.yaml unknown keys"] = (
    _validate(".claude_checkpoint.yaml", lambda n: "".join(f"k{i}: v\n" for i in range(n))),
    64,
)


def _merge(path: str, sides: Callable[[int], tuple[str, str, str]]):
    """The merge driver's merge of three versions of a protocol file (merge_support)."""

    def case(n: int) -> Callable[[], object]:
        from merge_support import merge

        base, ours, theirs = sides(n)
        return lambda: merge(base, ours, theirs, path)

    return case


def _json_keys(n: int) -> tuple[str, str, str]:
    ours = "".join(f', "o{i}": {i}' for i in range(n))
    theirs = "".join(f', "t{i}": {i}' for i in range(n))
    return '{"a": 1}', '{"a": 1' + ours + "}", '{"a": 1' + theirs + "}"


def _yaml_keys(n: int) -> tuple[str, str, str]:
    ours = "".join(f"o{i}: {i}\n" for i in range(n))
    theirs = "".join(f"t{i}: {i}\n" for i in range(n))
    return "a: 1\n", "a: 1\n" + ours, "a: 1\n" + theirs


def _yaml_apply(n: int) -> Callable[[], object]:
    """The YAML side of a merge putting theirs' n added keys between ours' n keys (in
    the document read from ours, whose comments and layout it keeps)."""
    from ruamel.yaml.comments import CommentedMap

    from asimov_hooks.merge.yaml_merge import _apply_map

    merged = {"a": 1, **{f"t{i}": i for i in range(n)}, **{f"o{i}": i for i in range(n)}}

    def run() -> None:
        doc = CommentedMap([("a", 1), *((f"o{i}", i) for i in range(n))])
        _apply_map(doc, merged, (), lambda *args: None)
        assert list(doc) == list(merged)

    return run


CASES["merge: keys both sides add (json)"] = (
    _merge(".checkpoints/x.checkpoint.json", _json_keys),
    2048,
)
CASES["merge: keys both sides add (yaml)"] = (_merge(".claude_checkpoint.yaml", _yaml_keys), 16)
CASES["merge: the added keys put in place (yaml)"] = (_yaml_apply, 1024)


def _repeated_lines(n: int) -> tuple[str, str, str]:
    """Both sides change one text into runs of the same two lines, each its own way:
    the conflict's two versions share only repeated lines to anchor a diff on."""
    ours = "".join("  x\n" if i % 3 else "  y\n" for i in range(n))
    theirs = "".join("  y\n" if i % 3 else "  x\n" for i in range(n))
    return "notes: |\n  base\n", "notes: |\n" + ours, "notes: |\n" + theirs


CASES["merge: a conflict between runs of repeated lines"] = (
    _merge(".claude_checkpoint.yaml", _repeated_lines),
    256,
)


def _around_shared(n: int) -> tuple[str, str, str]:
    """Two versions that differ in their first and last lines only, the n lines between
    shuffled from a hundred values (each in under 1% of the lines: none is left out)."""
    import random

    values = [f"v{i % 101}\n" for i in range(n)]
    random.Random(n).shuffle(values)
    shared = "".join(values)
    return "b\n" + shared + "b\n", "o\n" + shared + "o\n", "t\n" + shared + "t\n"


def _line_merges(n: int) -> Callable[[], object]:
    from asimov_hooks.merge.text_merge import merge3, with_markers

    base, ours, theirs = _around_shared(n)
    return lambda: (merge3(base, ours, theirs), with_markers(ours, theirs, 7, ("o", "t")))


CASES["merge: line merges around a long shared part"] = (_line_merges, 32768)


def _finding(message: str) -> tuple:
    from asimov_hooks.findings import Finding

    return (Finding("x.yaml", 1, 1, "error", "schema", message),)


MESSAGE_SHAPES: dict[str, Callable[[int], str]] = {
    "digits and dots": lambda n: "1." * n + "x",
    "digits and commas": lambda n: "~1," * n,
    "decimals": lambda n: "1.1.1." * n,
}
for _shape, _f in MESSAGE_SHAPES.items():
    for _target in ("agent.runtime.verdict:_key", "agent.runtime.verdict:_measure"):
        CASES[f"{_target} {_shape}"] = (_call(_target, lambda n, f=_f: _finding(f(n))), 64)
    CASES[f"output.sarif:_fingerprint {_shape}"] = (
        _call("output.sarif:_fingerprint", lambda n, f=_f: ("schema", "x.yaml", f(n), {})),
        64,
    )
CASES["agent.runtime.resume:_names near misses"] = (
    _call("agent.runtime.resume:_names", lambda n: ("sprint-10 " * n, "sprint-1")),
    64,
)
CASES["timestamps:parse_timestamp digits"] = (
    _call("timestamps:parse_timestamp", lambda n: ("2026-01-01T00:00:00." + "1" * n + "Z",)),
    64,
)
CASES["config.globs:match_any stars"] = (
    _call("config.globs:match_any", lambda n: ("a" * n, ["*a*a*a*a*a*a*a*a*b"])),
    64,
)
CASES["config.globs:match_any deep"] = (
    _call("config.globs:match_any", lambda n: ("a/" * n + "c", ["**/a/**/a/**/b"])),
    64,
)


def _config_ids(text: Callable[[int], str]):
    """doctor's reading of our hook ids in a committed .pre-commit-config.yaml."""

    def case(n: int) -> Callable[[], object]:
        import os
        import tempfile

        from asimov_hooks.doctor.diagnosis import _config_ids

        top = tempfile.mkdtemp(prefix="linear-ids-")
        with open(os.path.join(top, ".pre-commit-config.yaml"), "w", encoding="utf-8") as fh:
            fh.write(text(n))
        return lambda: _config_ids(top)

    return case


CASES["doctor: hook ids, blanks after id:"] = (_config_ids(lambda n: "id:" + " " * n), 64)
CASES["doctor: hook ids, many"] = (_config_ids(lambda n: "- id: asimov-x\n" * n), 64)
CASES.update(
    _texts(
        "adoption.precommit:extend",
        {
            "blanks in the types": lambda n: (
                "repos: []\ndefault_install_hook_types: [pre-commit" + " " * n + "]\n"
            ),
            "many repos": lambda n: "repos:\n" + "- repo: local\n  hooks: []\n" * n,
        },
        "https://example.invalid/hooks",
        "v1",
        [{"id": "asimov-validate"}],
        ("pre-merge-commit",),
    )
)
CASES.update(
    {
        f"oc.jsonfmt:load_bytes {k}": (
            _call("oc.jsonfmt:load_bytes", lambda n, f=f: (f(n).encode(),)),
            64,
        )
        for k, f in {
            **JSON_SHAPES,
            "indents": lambda n: '{"a": [\n' + " " * n + "1]}",
            "escapes": lambda n: '{"a": "' + "\\ud800" * n + '"}',
        }.items()
    }
)


def _trim(shape: Callable[[int], str]):
    """The trim of a hostile checkpoint, its limits raised (the trim hook, validate
    --fix and the agent's trim-before-write all come here)."""

    def case(n: int) -> Callable[[], object]:
        from asimov_hooks.config.config import load_config
        from asimov_hooks.trim.algorithm import trim_kind_text
        from asimov_hooks.trim.settings import Settings

        _validate(".claude_checkpoint.yaml", shape)(1)  # the repository with raised limits
        config = load_config(None, start=_BIG_REPO[0])
        settings = Settings.from_config(config)
        text = "milestone: m\nstatus: in_progress\n" + shape(n)

        def run() -> object:
            try:
                return trim_kind_text(
                    text, config, "asimov-checkpoint", ".claude_checkpoint.yaml", settings
                )
            except Exception:
                return None

        return run

    return case


TRIM_SHAPES: dict[str, Callable[[int], str]] = {
    "items": lambda n: "completed:\n" + "  - done\n" * n,
    "commented items": lambda n: "completed:\n" + "  - done  # note\n  # x\n" * n,
    "block items": lambda n: "completed:\n" + "  - |\n    a\n" * n,
    "blank lines": lambda n: "completed:\n  - a\n" + "\n" * n + "  - b\n",
    "odd breaks": lambda n: "completed:\n  - a\r" * n,
    "tags": lambda n: "completed: !!seq\n" + "  - !!str a\n" * n,
}
CASES.update({f"trim {k}": (_trim(f), 16) for k, f in TRIM_SHAPES.items()})


@pytest.mark.parametrize("name", sorted(CASES))
def test_grows_linearly(name: str) -> None:
    case, n = CASES[name]
    assert_linear(case, n)
