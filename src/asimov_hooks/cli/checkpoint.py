"""`asimov-hooks checkpoint [WORDS]`: what the `/checkpoint` command of every agent runs.

One command for both checkpoint protocols. Which ones a repository uses is the agent
hooks' decision (agent protocols.used: the Asimov protocol where a protocol file in the
work tree, git-ignored or not, has the protocol's content; the OC protocol where
`.checkpoints/` files exist), so
`/checkpoint` shows what the turn timer asks the agent to write, and nothing else.

- Asimov: the checkpoint (`.claude_checkpoint.yaml`, or `.asimov/checkpoint.yaml`): whether
  git ignores it, when it was written, its current state (milestone, status, in_progress,
  the first next step), its size against the kind's limits, what validate finds in it
  and what `asimov-hooks trim` would cut (a dry run: nothing is written).
- OC: `asimov-hooks oc WORDS` (`oc status` with no words), as the OC Checkpoint Protocol's
  `/checkpoint` names them.
- Both: the Asimov part first, then the OC part.

The words are the protocol's: status (the default), next, doctor, show [SKILL],
reset SKILL, list; and `stats`, the text form of `asimov-hooks stats`. Words that only
mean something for OC skills (`reset`, `show SKILL`)
in a repository without OC checkpoints are a usage error. Exit status: the highest of
the parts (0 fine; 1 an error in the Asimov checkpoint, or what the oc command says;
2 a usage error or an unusable config).
"""

from __future__ import annotations

import os
import sys

import click

from ..fs.access import show
from ..options.clickopts import CONTEXT

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

    from ..config.config import Config

PROG = "asimov-hooks checkpoint"
WORDS = ("status", "next", "doctor", "show", "reset", "list", "stats")
USAGE = "status (the default), next, doctor, show [SKILL], reset SKILL, list, stats"
FIELDS = ("milestone", "status", "in_progress")
WIDTH = 160  # a value longer than this is cut, with "..."
EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _fail(message: str, code: int = EXIT_USAGE) -> None:
    sys.stderr.write(f"{PROG}: error: {show(message)}\n")
    sys.exit(code)


@click.command(
    "checkpoint",
    context_settings={**CONTEXT, "ignore_unknown_options": True},
    short_help="Show and check this repository's checkpoints: the Asimov checkpoint and the "
    "OC skill checkpoints (what the /checkpoint command of every agent runs).",
)
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[WORDS]...")
def command(words: tuple[str, ...]) -> None:
    """Show and check this repository's checkpoints: the Asimov checkpoint and the OC
    skill checkpoints (what the /checkpoint command of every agent runs).

    Asimov checkpoint: whether git ignores it, when it was written, its current state,
    its size against the limits, what validate finds and what `asimov-hooks trim` would
    cut (nothing is written). OC checkpoints: `asimov-hooks oc WORDS`. WORDS: status
    (the default), next, doctor, show [SKILL], reset SKILL, list, stats (what the agent
    hooks recorded: `asimov-hooks stats`). Exit 1 when the Asimov
    checkpoint has an error (or the oc command says so), 2 on a usage error.
    """
    sys.exit(run(list(words)))


def run(words: list[str]) -> int:
    from ..gitutil import find_toplevel

    top = find_toplevel(os.getcwd()) or os.getcwd()
    os.chdir(top)  # the oc commands and the config lookup start from the top, as the agent's do
    config, settings = _load(top)
    verb = words[0] if words else "status"
    if verb not in WORDS:
        from ..options.clickopts import did_you_mean

        _fail(f"unknown word {verb!r}{did_you_mean(verb, WORDS)}: use {USAGE}")
    if verb == "stats":  # what the agent hooks recorded, whichever protocol is used
        from ..stats.command import text_report

        sys.stdout.write(text_report(top) or "asimov-hooks stats: nothing recorded yet.\n")
        return EXIT_OK
    from ..agent.runtime import protocols

    used = protocols.used(config, settings, top)
    skill_only = verb == "reset" or (verb == "show" and len(words) > 1)
    if not used:
        return _neither(config, settings, top)
    if "oc" not in used and skill_only:
        _fail(
            f"`{' '.join(words)}` is for OC skill checkpoints (.checkpoints/<skill>"
            ".checkpoint.json) and this repository has none; `asimov-hooks oc init` starts them"
        )
    code = EXIT_OK
    if "asimov" in used and not skill_only:
        rel = protocols.asimov_path(config, settings, top)
        code = asimov(config, top, rel, verb, sys.stdout)
    if "oc" in used:
        if "asimov" in used and not skill_only:
            sys.stdout.write(f"\nOC skill checkpoints (asimov-hooks oc {show(verb)}):\n")
        sys.stdout.flush()
        code = max(code, _oc(words or ["status"]))
    return code


def _load(top: str) -> tuple[Config, dict[str, Any]]:
    from ..agent.runtime.common import agent_settings, work_tree_scope
    from ..config.config import ConfigError, load_config
    from ..config.packs import error_lines

    try:
        config = work_tree_scope(load_config(None, start=top))
        return config, agent_settings(config)
    except ConfigError as exc:
        sys.stderr.write(error_lines(PROG, exc))
        sys.exit(EXIT_USAGE)


def _oc(words: list[str]) -> int:
    """`asimov-hooks oc WORDS` in this process; its exit status."""
    from ..oc.cli import group

    try:
        group.main(args=words, prog_name="asimov-hooks oc", standalone_mode=True)
    except SystemExit as done:
        from .guard import broken_pipe, reader_gone

        if reader_gone():  # click met a closed stdout (`... | head`)
            return broken_pipe()
        code = done.code
        return code if isinstance(code, int) else (EXIT_OK if code is None else EXIT_USAGE)
    return EXIT_OK


def _neither(config: Config, settings: dict[str, Any], top: str) -> int:
    """No protocol in use: say how to start one, and why a checkpoint file that exists
    does not count (it holds no checkpoint: the one decision reads its content)."""
    from ..agent.runtime import protocols

    rel = protocols.asimov_path(config, settings, top)
    out = sys.stdout
    out.write(
        "This repository uses no checkpoint protocol yet: no Asimov protocol file "
        "(warmup.yaml, .asimov/, .claude_checkpoint.yaml with the protocol's content) "
        "and no OC checkpoints (.checkpoints/<skill>.checkpoint.json).\n"
    )
    if os.path.lexists(os.path.join(top, rel)):
        out.write(
            f"{show(rel)} is here, but holds no checkpoint (no top-level keys such as "
            "milestone and status), or cannot be read: it does not show that the repository "
            "follows the Asimov protocol. Write one, or add warmup.yaml.\n"
        )
    out.write(
        "Asimov protocol: add warmup.yaml; the agent then keeps .claude_checkpoint.yaml "
        "(git-ignored, at most 20 lines). OC protocol: `asimov-hooks oc init`, then "
        "`asimov-hooks oc new SKILL`.\n"
    )
    return EXIT_OK


# ------------------------------------------------------------------ the Asimov checkpoint
def asimov(config: Config, top: str, rel: str, verb: str, out: Any) -> int:
    """The Asimov part of `/checkpoint VERB` for the checkpoint at `rel`; its exit status."""
    from ..fs.access import FileProblem, read_bytes

    path = os.path.join(top, rel)
    kind = config.kind_for(rel)
    rules = config.rules_for(kind, rel) if kind else {}
    out.write(f"Asimov checkpoint: {show(rel)}\n")
    if not os.path.lexists(path):
        out.write(
            "  none yet: the agent writes it when a turn of work ends (current state only: "
            "milestone, status, in_progress, the last completed items, the next steps)\n"
        )
        return EXIT_OK
    cap = rules.get("max-bytes-hard", {}).get("max", 262144)
    try:
        raw = read_bytes(path, cap, root=top)
    except FileProblem as problem:
        out.write(f"  error: cannot be read: {show(problem.message)}\n")
        return EXIT_FAIL
    text = raw.decode("utf-8", "replace")
    data = _data(text, config)
    if verb == "list":
        out.write(f"  {_state_line(data)}\n")
        return EXIT_OK
    if verb == "next":
        steps = data.get("next_steps") if isinstance(data, dict) else None
        first = steps[0] if isinstance(steps, list) and steps else None
        out.write(f"  next: {_one_line(first) if first is not None else '(no next_steps)'}\n")
        return EXIT_OK
    out.write(f"  file: {_where(top, rel, path)}\n")
    _state(data, out)
    out.write(f"  size: {_size(config, kind, rules, text, raw)}\n")
    code = _check(config, path, raw, rel, out)
    _trim(config, path, out)
    if verb == "show":
        out.write("  content:\n")
        for line in text.splitlines():
            out.write(f"    {show(line, line_start=False)}\n")
    return code


def _data(text: str, config: Config) -> Any:
    from ..readers.loaders import YAMLProblem, load_yaml

    try:
        return load_yaml(text, 100_000, config.limits).data
    except YAMLProblem:
        return None  # the check below says what is wrong


def _one_line(value: Any) -> str:
    if isinstance(value, (dict, list)):
        import json

        value = json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(str(value).split())
    return show(text if len(text) <= WIDTH else text[: WIDTH - 3] + "...", line_start=False)


def _state_line(data: Any) -> str:
    if not isinstance(data, dict):
        return "(not a YAML mapping: see `asimov-hooks checkpoint`)"
    parts = [f"{key}: {_one_line(data[key])}" for key in FIELDS if key in data]
    return "; ".join(parts) or "(no milestone, status or in_progress)"


def _state(data: Any, out: Any) -> None:
    if not isinstance(data, dict):
        return
    for key in FIELDS:
        if key in data:
            out.write(f"  {key}: {_one_line(data[key])}\n")
    for key, which in (("completed", "last"), ("next_steps", "first")):
        items = data.get(key)
        if isinstance(items, list) and items:
            item = items[-1] if which == "last" else items[0]
            out.write(f"  {key}: {len(items)} item(s), the {which}: {_one_line(item)}\n")


def _where(top: str, rel: str, path: str) -> str:
    """Whether git tracks or ignores it, and when it was last written."""
    import time

    from ..gitutil import GitError, git

    try:
        tracked = bool(git("ls-files", "-z", "--", rel, cwd=top).stdout)
        ignored = not tracked and git("check-ignore", "-q", "--", rel, cwd=top, check=False)
        if tracked:
            state = "committed (ADR-007 keeps it out of git: add it to .gitignore)"
        elif ignored and ignored.returncode == 0:
            state = "git-ignored, as ADR-007 wants"
        else:
            state = "untracked and not ignored (add it to .gitignore: it is ephemeral)"
    except GitError:
        state = "not in a git work tree"
    try:
        age = max(0, int(time.time() - os.lstat(path).st_mtime))
    except OSError:
        return state
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(time.time() - age))
    return f"{state}; last written {when} ({_ago(age)})"


def _ago(seconds: int) -> str:
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''} ago"
    return "just now"


def _size(config: Config, kind: str | None, rules: dict, text: str, raw: bytes) -> str:
    from ..measure import count_lines

    lines = count_lines(text)
    limits = [
        f"{which} limit {rules[f'max-lines-{which}']['max']}"
        for which in ("soft", "hard")
        if f"max-lines-{which}" in rules
    ]
    said = f"{lines} lines" + (f" ({', '.join(limits)})" if limits else "")
    if kind and "max-tokens" in rules:
        tokens = config.estimator_for(kind).estimate(text)
        said += f", ~{tokens:,} tokens (limit {rules['max-tokens']['max']:,})"
    return said + f", {len(raw):,} bytes"


def _check(config: Config, path: str, raw: bytes, rel: str, out: Any) -> int:
    """What validate finds in the bytes just read; exit 1 for an error."""
    from ..validation.engine import Checker

    result = Checker(config).check(path, content=raw)
    problems = [f for f in result.findings if f.level in ("error", "warning")]
    if not problems:
        out.write("  check: no problems (asimov-validate)\n")
        return EXIT_OK
    out.write("  check (asimov-validate):\n")
    for f in problems:
        out.write(f"    {show(rel)}:{f.line}:{f.col}: {f.level} {f.rule} {show(f.message)}\n")
        if f.suggestion:
            out.write(f"      suggestion: {show(f.suggestion)}\n")
    return EXIT_FAIL if any(f.level == "error" for f in problems) else EXIT_OK


def _trim(config: Config, path: str, out: Any) -> None:
    """What `asimov-hooks trim` would cut (a dry run)."""
    from ..config.config import ConfigError
    from ..trim.trimmer import fix_file

    try:
        outcome = fix_file(path, config, dry_run=True)
    except ConfigError as exc:
        out.write(f"  trim: not run: {show(str(exc))}\n")
        return
    if outcome.skipped:
        out.write(f"  trim: not trimmed here ({show(outcome.skipped)})\n")
    elif outcome.error:
        out.write(f"  trim: {show(outcome.error)}\n")
    elif outcome.changed:
        out.write("  trim would (`asimov-hooks trim` does it, archiving what it removes):\n")
        for message in outcome.messages:
            out.write(f"    {show(message)}\n")
    else:
        out.write("  trim: nothing to cut\n")
    if outcome.warning:
        out.write(f"  trim: {show(outcome.warning)}\n")
