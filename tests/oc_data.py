"""Realistic multi-skill `.checkpoints/` directories for the `asimov-hooks oc` tests.

Six skills in every state the toolkit ranks (a blocker that needs a decision, failed,
at a gate, stale in progress, complete with queued work, blocked on an external
dependency), a history directory, telemetry in skill_state, non-ASCII text and a
hand-written `6.0`. Fresh files are stamped relative to now; stale ones are months old.
"""

from __future__ import annotations

import datetime
import json
import os

ISO = "%Y-%m-%dT%H:%M:%SZ"


def oc(cwd: os.PathLike | str, *args: str, **env: str):
    """`asimov-hooks oc ARGS` as a whole process; never a traceback."""
    from conftest import run_script

    proc = run_script("asimov-hooks", "oc", *args, cwd=cwd, **env)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


def read(path: os.PathLike | str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def rewrite(path: os.PathLike | str, change) -> None:
    """Edit a checkpoint as the protocol's own writer would save it."""
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    change(doc)
    with open(path, "wb") as fh:
        fh.write(serialise(doc))


def ago(**delta: float) -> str:
    when = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(**delta)
    return when.strftime(ISO)


def _header(skill: str, root: str, created: str, updated: str) -> dict:
    return {
        "protocol_version": "1.0",
        "skill": skill,
        "project": "gtrack",
        "project_dir": root,
        "created_at": created,
        "updated_at": updated,
    }


def checkpoints(root: str) -> dict[str, dict]:
    """skill -> checkpoint document for a project at `root`."""
    arch = {
        **_header("oc-app-architect", root, ago(days=20), ago(hours=2)),
        "phase": "build-loop",
        "step": "sprint-2-eval-round-1",
        "status": "in_progress",
        "progress_summary": "Sprint 1 passed (8.2/10). Sprint 2 generator built, evaluator running.",
        "progress_table": [
            {"id": "planning", "label": "Planner", "status": "complete"},
            {"id": "sprint-1", "label": "Sprint 1: Auth", "status": "complete"},
            {"id": "sprint-2", "label": "Sprint 2: CRUD", "status": "in_progress"},
            {"id": "sprint-3", "label": "Sprint 3: UI", "status": "not_started"},
        ],
        "context_primer": {
            "key_decisions": [
                "Stack: Hono + D1 + Workers. Auth: WebAuthn passkeys.",
                "Two users: Aidan (admin), Dan (viewer) \u2014 r\u00f4les in D1.",
            ],
            "generated_files": ["spec.md", "src/auth/passkey.ts"],
            "user_preferences": ["Prefers table-based layouts"],
        },
        "blockers": [
            {
                "id": "b1",
                "description": "Evaluator flagged missing rate limiting on auth endpoints",
                "blocking": "sprint-2",
                "needs": "user_decision",
                "proposed_resolution": "Add rate-limit middleware in sprint 2 scope",
            },
            {
                "id": "b0",
                "description": "Old question about the session store",
                "needs": "user_decision",
                "resolved": True,
            },
        ],
        "next_actions": [
            "Read evaluator report: sprints/sprint-2/eval-round-1.md",
            {"text": "Re-run evaluator on sprint 2", "done_when": "npm test"},
        ],
        "pm_refs": [
            {"provider": "linear", "id": "PLAT-4471", "role": "source"},
            {"provider": "linear", "id": "PLAT-4472", "role": "child"},
            {"provider": "linear", "id": "PLAT-4473", "role": "child"},
        ],
        "skill_state": {"current_sprint": 2, "pass_threshold": 6.0},
    }
    git_ops = {
        **_header("oc-git-ops", root, "2026-01-02T09:00:00Z", "2026-01-05T17:30:00Z"),
        "phase": "sync",
        "step": "reconcile-main",
        "status": "in_progress",
        "progress_summary": "Reconciling merged PRs with the sprint plan.",
        "progress_table": [{"id": "sync", "label": "Sync", "status": "in_progress"}],
        "next_actions": ["Merge PR #12 once CI is green", "Tag release v0.3"],
        "skill_state": {
            "merged_prs": [{"pr": n, "title": f"Change {n}"} for n in range(1, 41)],
            "reconciliation_log": ["2026-01-03: 10 PRs matched", "2026-01-05: 30 PRs matched"],
            "branch": "main",
        },
    }
    deploy = {
        **_header("oc-deploy-ops", root, ago(days=3), ago(days=1)),
        "phase": "deploy",
        "step": "staging",
        "status": "failed",
        "progress_summary": "Staging deploy failed: D1 migration 0004 rejected.",
        "next_actions": ["Roll back migration 0004 on staging"],
    }
    auditor = {
        **_header("oc-code-auditor", root, ago(days=9), ago(days=2)),
        "phase": "report",
        "step": "final",
        "status": "complete",
        "progress_summary": "Audit done: 2 medium findings.",
        "next_actions": ["File tickets for the 2 medium findings"],
        "recently_done": [{"action": "Write the audit report", "at": ago(days=2)}],
    }
    spec = {
        **_header("oc-reverse-spec", root, ago(days=5), ago(hours=6)),
        "phase": "analysis",
        "step": "spec-approval-gate",
        "status": "in_progress",
        "progress_summary": "Spec drafted; waiting at the approval gate.",
        "progress_table": [
            {"id": "scan", "label": "Scan", "status": "complete"},
            {"id": "approval", "label": "User approval", "status": "in_progress"},
        ],
        "next_actions": ["Walk the user through spec.md for approval"],
    }
    forge = {
        **_header("oc-stack-forge", root, ago(days=4), ago(days=3)),
        "phase": "provision",
        "step": "dns",
        "status": "blocked",
        "progress_summary": "Waiting for the registrar to delegate the zone.",
        "blockers": [
            {
                "id": "x1",
                "description": "Registrar has not delegated gtrack.dev",
                "needs": "external_dep",
            }
        ],
    }
    return {
        "oc-app-architect": arch,
        "oc-git-ops": git_ops,
        "oc-deploy-ops": deploy,
        "oc-code-auditor": auditor,
        "oc-reverse-spec": spec,
        "oc-stack-forge": forge,
    }


def serialise(doc: dict) -> bytes:
    """What the protocol's Node writer writes (`JSON.stringify(doc, null, 2) + "\\n"`)."""
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def make_project(root: os.PathLike | str) -> dict[str, str]:
    """Write the project (checkpoints, history, the generated files that exist);
    returns skill -> checkpoint path."""
    root = os.fspath(root)
    cdir = os.path.join(root, ".checkpoints")
    os.makedirs(os.path.join(cdir, "history"), exist_ok=True)
    paths = {}
    for skill, doc in checkpoints(root).items():
        path = os.path.join(cdir, f"{skill}.checkpoint.json")
        with open(path, "wb") as fh:
            fh.write(serialise(doc))
        paths[skill] = path
    with open(os.path.join(cdir, "history", "oc-git-ops.2025-12-01.json"), "wb") as fh:
        fh.write(serialise({"skill": "oc-git-ops", "merged_prs": [{"pr": 0, "title": "Init"}]}))
    with open(os.path.join(cdir, "README.md"), "w", encoding="utf-8") as fh:
        fh.write("# Checkpoints\n")
    os.makedirs(os.path.join(root, "src", "auth"), exist_ok=True)
    with open(os.path.join(root, "spec.md"), "w", encoding="utf-8") as fh:
        fh.write("# Spec\n")
    return paths
