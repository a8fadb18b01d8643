"""The limits study: how big real protocol files are, against the shipped limits.

    python benchmarks/limits_study.py            # -> benchmarks/limits-study.md
    python benchmarks/limits_study.py --check    # exit 1 when the page is out of date
    python benchmarks/limits_study.py --measure GITDIR --repo OWNER/NAME --licence ID
        # (re)measure every version of every protocol file in a repository's history
        # into tests/data/limits-study/public-measurements.json (numbers only)

What is measured:
- the files under `tests/data/author-corpus/` (the protocol author's shapes, texts new);
- `tests/data/limits-study/public-measurements.json`: the sizes (lines, characters,
  UTF-8 bytes, words; never a byte of text) of every distinct version of every protocol
  file in the history of a few public repositories, with the commit each snapshot was
  taken at, so anyone can check a figure against the repository itself.

The limits and the token estimator come from the shipped rule packs (`rules/kinds.json`
through the product's own config loader, the same `TokenEstimator` the checks use):
nothing here names a number of its own. The output is deterministic: the same inputs
give the same page, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
REPO = os.path.dirname(HERE)
DATA = os.path.join(REPO, "tests", "data")
CORPUS = os.path.join(DATA, "author-corpus")
MEASUREMENTS = os.path.join(DATA, "limits-study", "public-measurements.json")
PAGE = os.path.join(HERE, "limits-study.md")
# the kinds an agent re-reads or always loads; archives and OC history are not re-read
STUDIED = (
    "asimov-checkpoint",
    "claude-md",
    "agents-md",
    "gemini-md",
    "asimov-warmup",
    "asimov-sprint",
    "asimov-roadmap",
    "asimov-project",
)
LIMIT_RULES = ("max-lines-soft", "max-lines-hard", "max-tokens", "max-chars")


def _config():  # type: ignore[no-untyped-def]
    from asimov_hooks.config.config import Config
    from asimov_hooks.config.packs import default_data

    return Config(default_data(), None, REPO)


def measure_text(raw: bytes) -> dict[str, int]:
    """The numbers kept for one file version: never its text."""
    from asimov_hooks.measure import count_lines

    text = raw.decode("utf-8", "replace")
    return {
        "lines": count_lines(text),
        "chars": len(text),
        "bytes": len(raw),
        "words": len(text.split()),
    }


def kind_of(config, path: str) -> str | None:  # type: ignore[no-untyped-def]
    """The studied kind of a path in a repository; a nested `.asimov/` or agent file
    (`cli/.asimov/warmup.yaml`, `docs/CLAUDE.md`) counts as its kind too."""
    parts = path.split("/")
    for start in range(len(parts)):
        kind = config.kind_for("/".join(parts[start:]))
        if kind is not None:
            return kind if kind in STUDIED else None
    return None


# ------------------------------------------------------------------ the samples
class Sample:
    """One file version: where it comes from, its kind and its sizes."""

    __slots__ = ("bytes", "chars", "group", "head", "kind", "lines", "path", "repo", "words")

    def __init__(self, group: str, repo: str, kind: str, row: dict, head: bool) -> None:  # type: ignore[type-arg]
        self.group, self.repo, self.kind, self.head = group, repo, kind, head
        self.path = row.get("path", "")
        self.lines, self.chars = row["lines"], row["chars"]
        self.bytes, self.words = row["bytes"], row["words"]

    def tokens(self, estimator) -> int:  # type: ignore[no-untyped-def]
        amount = {"chars": self.chars, "bytes": self.bytes, "words": self.words}[estimator.method]
        quotient = amount / estimator.divisor
        return int(quotient) if int(quotient) == quotient else int(quotient) + 1


def samples(config) -> list[Sample]:  # type: ignore[no-untyped-def]
    out = []
    for repo in sorted(os.listdir(CORPUS)):
        top = os.path.join(CORPUS, repo)
        if not os.path.isdir(top):
            continue
        for folder, dirs, names in os.walk(top):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, top).replace(os.sep, "/")
                kind = kind_of(config, rel)
                if kind is not None:
                    with open(path, "rb") as fh:
                        row = {"path": rel, **measure_text(fh.read())}
                    out.append(Sample("shapes", f"author-corpus/{repo}", kind, row, True))
    with open(MEASUREMENTS, encoding="utf-8") as fh:
        data = json.load(fh)
    for source in data["sources"]:
        group = "author" if source["repo"].startswith("royalbit/") else "public"
        for row in source["files"]:
            out.append(Sample(group, source["repo"], row["kind"], row, row["head"]))
    return out


# ------------------------------------------------------------------ the page
def percentile(values: list[int], share: float) -> int:
    """The nearest-rank percentile (a value that occurs; no interpolation)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))
    return ordered[int(rank) - 1]


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "-"


def limits_of(config, kind: str) -> list[tuple[str, str, int]]:  # type: ignore[no-untyped-def]
    """(rule, level, max) for each size limit the kind has by default."""
    rules = config.kinds[kind].get("rules", {})
    return [
        (rule, rules[rule].get("level", "error"), rules[rule]["max"])
        for rule in LIMIT_RULES
        if rule in rules and rules[rule].get("level", "error") != "off"
    ]


def _measure(rule: str, sample: Sample, estimator) -> int:  # type: ignore[no-untyped-def]
    if rule.startswith("max-lines"):
        return sample.lines
    if rule == "max-tokens":
        return sample.tokens(estimator)
    return sample.chars


def _table(config, kind: str, rows: list[Sample]) -> list[str]:  # type: ignore[no-untyped-def]
    estimator = config.estimator_for(kind)
    limits = limits_of(config, kind)
    heads = [f"over {r} {m:,} ({lvl})" for r, lvl, m in limits]
    out = [
        "| files | versions | lines: median / p90 / max | est. tokens: median / p90 / max | "
        + " | ".join(heads)
        + (" |" if heads else "")
    ]
    out[0] = "| sample " + out[0]
    out.append("|" + "---|" * (6 + len(heads) - 1))
    for label, group in _groups(rows):
        lines = [s.lines for s in group]
        tokens = [s.tokens(estimator) for s in group]
        cells = [
            label,
            str(len({(s.repo, s.path) for s in group})),
            str(len(group)),
            f"{percentile(lines, 0.5):,} / {percentile(lines, 0.9):,} / {max(lines):,}",
            f"{percentile(tokens, 0.5):,} / {percentile(tokens, 0.9):,} / {max(tokens):,}",
        ]
        for rule, _level, most in limits:
            over = sum(1 for s in group if _measure(rule, s, estimator) > most)
            cells.append(f"{_pct(over, len(group))} ({over})")
        out.append("| " + " | ".join(cells) + " |")
    return out


def _groups(rows: list[Sample]) -> list[tuple[str, list[Sample]]]:
    named = {
        "author": "author's repositories, every version",
        "public": "other public repositories, every version",
        "shapes": "author-corpus shapes (tests/data)",
    }
    out = []
    for key in ("author", "public", "shapes"):
        group = [s for s in rows if s.group == key]
        if group:
            out.append((named[key], group))
            head = [s for s in group if s.head]
            if key != "shapes" and head and len(head) != len(group):
                out.append((named[key].replace("every version", "current version"), head))
    return out


def render() -> str:
    config = _config()
    rows = samples(config)
    with open(MEASUREMENTS, encoding="utf-8") as fh:
        sources = json.load(fh)["sources"]
    out = [
        "# The limits study: real protocol files against the default limits",
        "",
        "<!-- generated by benchmarks/limits_study.py; do not edit by hand -->",
        "",
        "How big do the files an agent re-reads really get, and what would the default",
        "limits (`rules/kinds.json`) say about them? This page measures what is public.",
        "It changes no default: the defaults stay those of the Asimov Protocol's size",
        "decision until a team's own record says otherwise (`asimov-hooks stats`).",
        "",
        "## How it was made",
        "",
        "`python benchmarks/limits_study.py` writes this page from two inputs, both in",
        "this repository:",
        "",
        "- `tests/data/author-corpus/`: small files with the *shapes* the protocol's author",
        "  used (their texts are new, so their sizes say little; they are listed apart);",
        "- `tests/data/limits-study/public-measurements.json`: the sizes of every distinct",
        "  version of every protocol file in the whole history of the repositories below",
        "  (lines, characters, UTF-8 bytes and words of each git blob, and whether it is the",
        "  current version; never a byte of text). `--measure GITDIR --repo NAME --licence ID`",
        "  re-measures a clone.",
        "",
        "| repository | licence | history up to commit | file versions |",
        "|---|---|---|---|",
    ]
    for source in sources:
        out.append(
            f"| {source['repo']} | {source['licence']} | `{source['commit']}` | "
            f"{len(source['files'])} |"
        )
    out += [
        "",
        "Lines are counted as the checks count them (a final newline opens no line);",
        "tokens are the product's estimate for each kind, named in each section. A share",
        'is of the versions in that row; "current version" rows count each file once.',
        'Every version of a file counts in the "every version" rows: a file edited often',
        "weighs more, as it does for an agent that re-reads it after each edit.",
        "",
    ]
    for kind in STUDIED:
        group = [s for s in rows if s.kind == kind]
        estimator = config.estimator_for(kind)
        out += [f"## {config.kinds[kind].get('description', kind)} (`{kind}`)", ""]
        files = ", ".join(f"`{f}`" for f in config.kinds[kind].get("files", []))
        limits = limits_of(config, kind)
        said = "; ".join(f"{r} {m:,} ({lvl})" for r, lvl, m in limits) or "no size limit"
        out += [f"Files: {files}. Default limits: {said}. Tokens: {estimator.name}.", ""]
        if not group:
            out += ["No public file of this kind was found: there is nothing to measure.", ""]
            continue
        out += [*_table(config, kind, group), ""]
    out += _findings(config, rows)
    return "\n".join(out).rstrip() + "\n"


def _share(config, rows: list[Sample], kind: str, rule: str, group: str) -> str:  # type: ignore[no-untyped-def]
    chosen = [s for s in rows if s.kind == kind and s.group == group]
    most = dict((r, m) for r, _lvl, m in limits_of(config, kind)).get(rule)
    if not chosen or most is None:
        return "no data"
    estimator = config.estimator_for(kind)
    over = sum(1 for s in chosen if _measure(rule, s, estimator) > most)
    lines = [s.lines for s in chosen]
    return (
        f"{_pct(over, len(chosen))} of {len(chosen)} versions over {most:,} "
        f"(median {percentile(lines, 0.5):,} lines, largest {max(lines):,})"
    )


def _findings(config, rows: list[Sample]) -> list[str]:  # type: ignore[no-untyped-def]
    checkpoints = [s for s in rows if s.kind == "asimov-checkpoint" and s.group != "shapes"]
    return [
        "## What the evidence says",
        "",
        "**Checkpoints: no public evidence either way.** The checkpoint is git-ignored in",
        "every public repository of the protocol (the size decision calls it ephemeral), so",
        f"no history holds one: {len(checkpoints)} committed checkpoint versions were found.",
        "The 20/30-line limits can only be checked where the checkpoints are written:",
        "`asimov-hooks stats` reads the record the agent hooks keep of every write and trim,",
        "and says, for a repository's own writes, how often each limit fired and what a",
        "different limit would have done.",
        "",
        "**warmup.yaml: the evidence agrees with the decision's own observation.** The",
        "decision noted its own warmup at 690 lines, 3.5 times the 200-line soft limit. In",
        "the author's histories: "
        + _share(config, rows, "asimov-warmup", "max-lines-soft", "author")
        + "; against the 500-line hard limit: "
        + _share(config, rows, "asimov-warmup", "max-lines-hard", "author")
        + ". The defaults would catch most of the author's own warmup versions: the",
        "modular `.asimov/` layout the decision deferred is what brings them under.",
        "",
        "**CLAUDE.md: the soft limit sits below the author's own files.** In the",
        "author's repositories CLAUDE.md is a short pointer, yet against the 10-line soft",
        "limit: "
        + _share(config, rows, "claude-md", "max-lines-soft", "author")
        + "; against the 15-line hard limit: "
        + _share(config, rows, "claude-md", "max-lines-hard", "author")
        + ". Here the evidence does not agree with the decision: its own author's files",
        "nearly always draw the warning, so the warning says little. In other public",
        "repositories CLAUDE.md is a project guide: "
        + _share(config, rows, "claude-md", "max-lines-hard", "public")
        + ". This is why the 10/15-line and 250-token limits apply only under the",
        "`asimov` profile (a repository that follows the protocol); elsewhere the",
        "`generic` profile turns them off and only the agents' own published limits",
        "(Claude Code's 40,000-character warning) apply.",
        "",
        "**Tokens per line: the decision's estimates are well above the",
        "product's.** The decision put its 690-line warmup at ~17,000 tokens (about 25",
        "a line) and a 20-line checkpoint at ~500. Measured with the product's estimate",
        "(characters / 4), the author's warmup versions hold "
        + _per_line(config, rows, "asimov-warmup")
        + " tokens a line (median), so the 750-token checkpoint cap fires only on",
        "checkpoints whose lines are unusually long: the line limits are the ones that",
        "bind. A team whose model counts differently sets `token-estimator` in its config.",
        "",
        "**AGENTS.md: well under the agents' byte budget.** Codex CLI reads at most",
        "32 KiB of AGENTS.md files on a path; " + _agents_share(rows) + ".",
        "",
        "**What the defaults would catch, unchanged:** every warmup past 200 lines (a",
        "warning) and past 500 (an error); every Asimov-profile CLAUDE.md past 10 and 15",
        "lines or 250 tokens; every checkpoint past 20 and 30 lines or 750 tokens, which",
        "the trim brings back under 20 in the common case (long completed and next_steps",
        "lists). No default changes on the strength of this page: the numbers the",
        "decision calls assumptions are checkpoint limits, and public data has no",
        "checkpoints.",
        "",
    ]


def _per_line(config, rows: list[Sample], kind: str) -> str:  # type: ignore[no-untyped-def]
    estimator = config.estimator_for(kind)
    chosen = [s for s in rows if s.kind == kind and s.group == "author" and s.lines]
    if not chosen:
        return "no"
    ratios = sorted(s.tokens(estimator) / s.lines for s in chosen)
    return f"{ratios[(len(ratios) - 1) // 2]:.1f}"


def _agents_share(rows: list[Sample]) -> str:
    chosen = [s for s in rows if s.kind == "agents-md"]
    if not chosen:
        return "no public AGENTS.md was measured"
    largest = max(s.bytes for s in chosen)
    over = sum(1 for s in chosen if s.bytes > 32768)
    return (
        f"of {len(chosen)} versions measured, {over} is over it alone"
        if over == 1
        else f"of {len(chosen)} versions measured, {over} are over it alone"
    ) + f" (the largest holds {largest:,} bytes)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    parser.add_argument("--measure", metavar="GITDIR", help="a clone's git directory")
    parser.add_argument("--repo", help="OWNER/NAME of the measured clone")
    parser.add_argument("--licence", default="unknown", help="its licence (SPDX id)")
    args = parser.parse_args(argv)
    if args.measure:
        if not args.repo:
            parser.error("--measure needs --repo OWNER/NAME")
        from limits_measure import measure_git, save_measurement

        save_measurement(measure_git(args.measure, args.repo, args.licence))
    page = render()
    if args.check:
        with open(PAGE, encoding="utf-8") as fh:
            if fh.read() != page:
                print(f"{PAGE} is out of date: run python benchmarks/limits_study.py")
                return 1
        return 0
    with open(PAGE + ".tmp", "w", encoding="utf-8") as fh:
        fh.write(page)
    os.replace(PAGE + ".tmp", PAGE)
    print(f"wrote {os.path.relpath(PAGE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
