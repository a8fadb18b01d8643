"""The text of each family's files: realistic protocol files drawn from one random stream.

Each generator takes the file's own `random.Random` and its variant (valid, oversized,
schema, syntax, foreign) and returns the whole text; `corpus.py` picks the variant,
names the file and lays the corpus out.
"""

from __future__ import annotations

import json
import random

_VERBS = (
    "Add", "Fix", "Refactor", "Document", "Test", "Remove", "Rename", "Benchmark",
    "Cache", "Validate", "Migrate", "Review", "Split", "Trim", "Wire up", "Harden",
)  # fmt: skip
_OBJECTS = (
    "the auth middleware", "session refresh", "the CLI parser", "rate limiting",
    "checkpoint trimming", "the merge driver", "YAML loader errors", "the schema cache",
    "CI caching", "the release script", "token estimates", "the config loader",
    "error messages", "the sprint board", "database migrations", "the webhook handler",
    "pagination", "retry back-off", "the docs index", "structured logging",
)  # fmt: skip
_DETAILS = (
    "", "", "", " (see ADR-007)", " for large repos", " behind a flag", " with tests",
    " after review feedback", " on Windows too", " - blocked on upstream release",
)  # fmt: skip
_SKILLS = (
    "oc-app-architect", "oc-code-auditor", "oc-reverse-spec", "oc-deploy-ops",
    "oc-git-ops", "oc-test-writer",
)  # fmt: skip
_ASIMOV_STATUS = ("planned", "in_progress", "in_progress", "in_progress", "blocked", "done")
_OC_STATUS = ("in_progress", "in_progress", "in_progress", "blocked", "complete", "failed")
_ROW_STATUS = ("not_started", "in_progress", "blocked", "complete", "failed")


def file_name(family: str, rng: random.Random | None = None) -> str:
    """Path of a family's file inside its own directory."""
    if family == "asimov":
        return ".claude_checkpoint.yaml"
    if family == "claude-md":
        return "CLAUDE.md"
    if family == "warmup":
        return "warmup.yaml"
    skill = rng.choice(_SKILLS) if rng is not None else _SKILLS[0]
    return f".checkpoints/{skill}.checkpoint.json"


def _task(rng: random.Random, n: int | None = None) -> str:
    prefix = f"Task {n}: " if n is not None else ""
    return f"{prefix}{rng.choice(_VERBS)} {rng.choice(_OBJECTS)}{rng.choice(_DETAILS)}"


def _stamp(rng: random.Random, year: int = 2025) -> str:
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    hour, minute, second = rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
    return f"{year}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def _yaml_str(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid double-quoted YAML scalar


# --------------------------------------------------------------- .claude_checkpoint.yaml
def asimov_checkpoint(rng: random.Random, variant: str) -> str:
    """An ADR-007 checkpoint: ~10-20 lines normally, 30-90 when it has bloated."""
    if variant == "foreign":
        return _foreign_yaml(rng)
    done = rng.randint(1, 5)
    todo = rng.randint(1, 5)
    if variant == "oversized":  # a long session that never trimmed
        done, todo = rng.randint(12, 60), rng.randint(6, 20)
    first = rng.randint(1, 40)
    lines = []
    if rng.random() < 0.3:
        lines.append("# Session checkpoint - overwritten, not appended (ADR-007)")
    lines += [
        f"timestamp: {_yaml_str(_stamp(rng))}",
        f"tool_calls: {rng.randint(0, 400)}",
        f"milestone: {_yaml_str(_task(rng))}",
        f"status: {rng.choice(_ASIMOV_STATUS)}",
        "completed:",
    ]
    lines += [f"  - {_yaml_str(_task(rng, first + i))}" for i in range(done)]
    lines.append(f"in_progress: {_yaml_str(_task(rng, first + done))}")
    lines.append("next_steps:")
    lines += [f"  - {_yaml_str(_task(rng, first + done + 1 + i))}" for i in range(todo)]
    if variant == "oversized" or rng.random() < 0.2:
        lines.append("notes:")
        lines += [f"  - {_yaml_str(_task(rng))}" for _ in range(rng.randint(1, 6))]
    lines.append('on_confusion: "cat warmup.yaml"')
    if variant == "schema":
        bad = rng.choice(("status", "tool_calls", "stray", "milestone"))
        if bad == "status":
            lines = [ln if not ln.startswith("status:") else "status: wip" for ln in lines]
        elif bad == "tool_calls":
            lines = [ln if not ln.startswith("tool_calls:") else "tool_calls: -3" for ln in lines]
        elif bad == "stray":
            lines.insert(3, f"sprint_history: {_yaml_str(_task(rng))}")
        else:
            lines = [ln for ln in lines if not ln.startswith("milestone:")]
    text = "\n".join(lines) + "\n"
    return _break_yaml(rng, text) if variant == "syntax" else text


def _foreign_yaml(rng: random.Random) -> str:
    """A file that only shares the protocol file's name: a Kubernetes manifest."""
    name = rng.choice(("warmup", "cache-warmer", "prewarm"))
    return (
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n"
        f"  name: {name}-{rng.randint(1, 999)}\nspec:\n  template:\n    spec:\n"
        "      containers:\n        - name: warm\n"
        f"          image: registry.example.com/{name}:{rng.randint(1, 40)}.0\n"
        '          args: ["--concurrency", "4"]\n      restartPolicy: Never\n'
    )


def _break_yaml(rng: random.Random, text: str) -> str:
    lines = text.splitlines(keepends=True)
    if rng.random() < 0.6:  # what a hosted merge button leaves behind
        at = rng.randint(0, max(0, len(lines) - 2))
        conflict = [
            "<<<<<<< HEAD\n",
            f"tool_calls: {rng.randint(0, 400)}\n",
            "=======\n",
            f"tool_calls: {rng.randint(0, 400)}\n",
            ">>>>>>> feature/branch\n",
        ]
        lines[at:at] = conflict
    else:  # a hand edit with a broken indent and an unclosed quote
        at = rng.randint(1, max(1, len(lines) - 1))
        lines.insert(at, '   broken: "unclosed\n')
    return "".join(lines)


# --------------------------------------------------------------------------- CLAUDE.md
def claude_md(rng: random.Random, variant: str) -> str:
    """The always-loaded instruction file: 3-10 short lines, or a grown manual."""
    lines = ["# CLAUDE.md", ""]
    lines.append("On start and after every compaction: `cat warmup.yaml .claude_checkpoint.yaml`.")
    rules = [
        "Tests: `make test`. Never push without green tests.",
        "Lint: `make lint` before every commit.",
        "Keep the checkpoint under 20 lines (ADR-007).",
        "Ask before deleting files outside `src/`.",
        "Prefer small commits with clear messages.",
        "Run `asimov-validate` after editing protocol files.",
    ]
    count = rng.randint(1, 5)
    if variant == "oversized":
        count = rng.randint(14, 60)
    for i in range(count):
        if i < len(rules) and rng.random() < 0.7:
            lines.append(rules[i])
        else:
            lines.append(f"- {_task(rng)}; {_task(rng).lower()}.")
    if variant in ("schema", "syntax", "foreign"):  # no schema: these are over the token cap
        lines.append(" ".join(_task(rng) for _ in range(rng.randint(40, 80))))
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------------- warmup.yaml
def warmup(rng: random.Random, variant: str) -> str:
    """A warmup file: 40-190 lines normally, 250-700 when it was never modularised."""
    if variant == "foreign":
        return _foreign_yaml(rng)
    target = rng.randint(40, 190) if variant != "oversized" else rng.randint(250, 700)
    project = f"{rng.choice(('demo', 'gtrack', 'forge', 'ledger', 'relay'))}-{rng.randint(1, 99)}"
    out = [
        "# Core warmup: identity, the session loop and where the rest lives.",
        "identity:",
        f"  project: {_yaml_str(project)}",
        f"  tagline: {_yaml_str(_task(rng))}",
        f'  version: "{rng.randint(0, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"',
        "",
        "mission:",
        f"  problem: {_yaml_str(_task(rng))}",
        f"  solution: {_yaml_str(_task(rng))}",
        "  principles:",
    ]
    out += [f"    - {_yaml_str(_task(rng))}" for _ in range(rng.randint(2, 5))]
    out += [
        "",
        "session:",
        "  start:",
        '    - "Read warmup.yaml and .claude_checkpoint.yaml"',
        '    - "Run the tests"',
        "  during:",
        '    - "Checkpoint every 15 tool calls"',
        "  end:",
        '    - "Update the checkpoint and sprint.yaml"',
        "",
        "self_healing:",
        '  checkpoint_file: ".claude_checkpoint.yaml"',
        '  on_confusion: "cat warmup.yaml"',
        "",
        "quality:",
        '  test: "make test"',
        '  lint: "make lint"',
        "",
        "files:",
    ]
    section = 0
    while len(out) < target:
        section += 1
        group = rng.choice(("source", "config", "tests", "docs", "scripts"))
        out.append(f"  {group}_{section}:")
        for _ in range(rng.randint(3, 12)):
            path = f"{group}/{rng.choice(_OBJECTS).replace(' ', '_')}_{rng.randint(1, 999)}.py"
            out.append(f"    - {_yaml_str(path)}  # {_task(rng).lower()}")
    if variant == "schema":
        bad = rng.choice(("identity", "session"))
        if bad == "identity":  # identity without project or name
            out[2] = f"  owner: {_yaml_str(project)}"
        else:
            at = out.index("session:")
            out[at + 1 : at + 1] = ["  start: 3"]
            del out[at + 2 : at + 5]
    text = "\n".join(out) + "\n"
    return _break_yaml(rng, text) if variant == "syntax" else text


# ---------------------------------------------------------- .checkpoints/*.checkpoint.json
def oc_checkpoint(rng: random.Random, variant: str, skill: str) -> str:
    """An OC Protocol checkpoint: 1-6 KB of JSON, 33-60 KB when telemetry piled up."""
    if variant == "foreign":  # a stray archive written where a checkpoint belongs
        return json.dumps({"rotated_at": _stamp(rng, 2026), "entries": []}, indent=2) + "\n"
    status = rng.choice(_OC_STATUS)
    rows = rng.randint(2, 10)
    doc: dict[str, object] = {
        "protocol_version": rng.choice(("1.0", "1.1")),
        "skill": skill,
        "project": f"project-{rng.randint(1, 500)}",
        "project_dir": f"/home/dev/project-{rng.randint(1, 500)}",
        "created_at": _stamp(rng, 2026),
        "updated_at": _stamp(rng, 2026),
        "phase": rng.choice(("planning", "build-loop", "review", "deploy")),
        "step": f"sprint-{rng.randint(1, 9)}-eval-round-{rng.randint(1, 3)}",
        "status": status,
        "progress_summary": " ".join(_task(rng) + "." for _ in range(rng.randint(1, 4))),
        "progress_table": [
            {"id": f"sprint-{i}", "label": _task(rng), "status": rng.choice(_ROW_STATUS)}
            for i in range(rows)
        ],
        "context_primer": {
            "key_decisions": [_task(rng) for _ in range(rng.randint(2, 12))],
            "generated_files": ["spec.md"],
            "user_preferences": ["Direct, concise communication"],
        },
        "next_actions": [_task(rng) for _ in range(rng.randint(1, 3))]
        + [{"text": _task(rng), "done_when": "npm test"}],
        "skill_state": {"current_sprint": rng.randint(1, 9), "iteration": rng.randint(1, 3)},
    }
    if rng.random() < 0.3:
        doc["blockers"] = [
            {
                "id": "b1",
                "description": _task(rng),
                "blocking": "sprint-1",
                "needs": "user_decision",
            }
        ]
    if variant == "oversized":  # telemetry never rotated into .checkpoints/history/
        doc["skill_state"] = {
            "telemetry": [
                {"at": _stamp(rng, 2026), "tool": rng.choice(_VERBS), "note": _task(rng)}
                for _ in range(rng.randint(380, 700))
            ]
        }
    if variant == "schema":
        bad = rng.choice(("status", "summary", "pm_refs"))
        if bad == "status":
            doc["status"] = "done"
        elif bad == "summary":
            del doc["progress_summary"]
        else:
            doc["pm_refs"] = [{"provider": "linear", "role": "parent"}]
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if variant == "syntax":
        if rng.random() < 0.5:
            text = _break_yaml(rng, text)  # conflict markers
        else:
            text = text.replace('"step"', '"step",', 1)  # not JSON any more
    return text
