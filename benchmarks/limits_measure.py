"""The limits study's measuring of a repository: every distinct version (git blob) of
every studied protocol file in a clone's whole history, as numbers only, saved into
tests/data/limits-study/public-measurements.json (`limits_study.py --measure`)."""

from __future__ import annotations

import json
import os
import subprocess

from limits_study import MEASUREMENTS, _config, kind_of, measure_text


def measure_git(gitdir: str, repo: str, licence: str) -> dict:  # type: ignore[type-arg]
    """Every distinct version (blob) of every studied file in the history of `gitdir`."""
    config = _config()

    def git(*args: str, data: bytes | None = None) -> bytes:
        return subprocess.run(
            ["git", "--git-dir", gitdir, *args], input=data, capture_output=True, check=True
        ).stdout

    head = git("rev-parse", "HEAD").decode().strip()
    at_head = {
        line.split(b"\t", 1)[1].decode(): line.split()[2].decode()
        for line in git("ls-tree", "-r", "HEAD").splitlines()
    }
    links = {  # a symbolic link's blob holds its target, not a file's text
        field
        for line in git(
            "log", "--all", "--raw", "--no-abbrev", "--no-renames", "--format="
        ).splitlines()
        if line.startswith(b":")
        for field in [line.split()[3].decode()]
        if line.split()[1] == b"120000"
    }
    links |= {blob for path, blob in at_head.items() if blob in links}
    at_head = {path: blob for path, blob in at_head.items() if blob not in links}
    wanted: dict[str, tuple[str, str]] = {}  # blob -> (path, kind), first path seen
    for line in (
        git("rev-list", "--all", "--objects", "--missing=allow-any")
        .decode("utf-8", "replace")
        .splitlines()
    ):
        blob, _, path = line.partition(" ")
        if not path or blob in wanted or blob in links:
            continue
        kind = kind_of(config, path)
        if kind is not None:
            wanted[blob] = (path, kind)
    blobs = sorted(wanted)
    checked = git("cat-file", "--batch-check", data="\n".join(blobs).encode()).decode()
    present = {line.split()[0] for line in checked.splitlines() if " blob " in line}
    blobs = [b for b in blobs if b in present]  # a snapshot may lack its largest files
    files = []
    for blob in blobs:
        path, kind = wanted[blob]
        raw = git("cat-file", "blob", blob)
        row = {"path": path, "kind": kind, "blob": blob, "head": at_head.get(path) == blob}
        files.append({**row, **measure_text(raw)})
    files.sort(key=lambda r: (r["kind"], r["path"], r["blob"]))
    return {"repo": repo, "licence": licence, "commit": head, "files": files}


def save_measurement(entry: dict) -> None:  # type: ignore[type-arg]
    data = {"sources": []}
    if os.path.isfile(MEASUREMENTS):
        with open(MEASUREMENTS, encoding="utf-8") as fh:
            data = json.load(fh)
    sources = [s for s in data["sources"] if s["repo"] != entry["repo"]] + [entry]
    data["sources"] = sorted(sources, key=lambda s: s["repo"])
    os.makedirs(os.path.dirname(MEASUREMENTS), exist_ok=True)
    tmp = MEASUREMENTS + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
        fh.write("\n")
    os.replace(tmp, MEASUREMENTS)
