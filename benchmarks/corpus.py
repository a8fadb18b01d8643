"""Deterministic benchmark corpora: realistic protocol files, laid out like repositories.

Every file is derived from its own random stream, seeded from (seed, family, index), so
file 42 is the same bytes whether 100 or 10,000 files are generated: the corpus for a
small size is a prefix of the corpus for a large one, and one generation at the largest
size serves every size. Each file sits in its own directory, as in a real repository
(`asimov/00042/.claude_checkpoint.yaml`), so names that must repeat can repeat.

Most files are ordinary and valid; some are oversized (over the ADR-007 line, token or
byte limits), some break the schema, some do not parse (conflict markers left by a
hosted merge, a stray indent) and a few only share a protocol file's name (a Kubernetes
manifest called warmup.yaml). Tools therefore pay for the error paths too.

Usage: python benchmarks/corpus.py [--count N] [--seed S] [--out DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # also when loaded by path (tests), not run as a script
    sys.path.insert(0, HERE)

from corpus_files import (  # noqa: E402  (a sibling module, not an installed package)
    asimov_checkpoint,
    claude_md,
    file_name,
    oc_checkpoint,
    warmup,
)

__all__ = [
    "DEFAULT_ROOT",
    "DEFAULT_SEED",
    "FAMILIES",
    "GENERATOR_VERSION",
    "SCHEMAS",
    "VARIANTS",
    "YAML_FAMILIES",
    "asimov_checkpoint",
    "claude_md",
    "file_name",
    "generate",
    "load_manifest",
    "main",
    "manifest_key",
    "oc_checkpoint",
    "render",
    "warmup",
]

GENERATOR_VERSION = 1
DEFAULT_SEED = 20251127  # ADR-007's date; any integer works
DEFAULT_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".corpus")

# family -> path of the file inside its directory (the OC skill name varies per file)
FAMILIES = ("asimov", "claude-md", "warmup", "oc")
SCHEMAS = {
    "asimov": "asimov-checkpoint.schema.json",
    "warmup": "asimov-warmup.schema.json",
    "oc": "oc-checkpoint.schema.json",
}
YAML_FAMILIES = ("asimov", "warmup")

# Share of each variant per family; the rest are ordinary valid files.
VARIANTS = (("oversized", 0.10), ("schema", 0.05), ("syntax", 0.03), ("foreign", 0.02))


def _variant(rng: random.Random, index: int) -> str:
    if index == 0:  # the one-file benchmarks use file 0: keep it an ordinary valid file
        return "valid"
    roll = rng.random()
    for name, share in VARIANTS:
        if roll < share:
            return name
        roll -= share
    return "valid"


# ----------------------------------------------------------------------------- layout
def render(family: str, seed: int, index: int) -> tuple[str, str, str]:
    """(path inside the family's directory, text, variant) for one file."""
    rng = random.Random(f"{seed}:{family}:{index}")  # str seeds hash with sha512: stable
    variant = _variant(rng, index)
    name = file_name(family, rng)
    if family == "asimov":
        text = asimov_checkpoint(rng, variant)
    elif family == "claude-md":
        text = claude_md(rng, variant)
    elif family == "warmup":
        text = warmup(rng, variant)
    else:
        text = oc_checkpoint(rng, variant, os.path.basename(name).split(".")[0])
    return f"{family}/{index:05d}/{name}", text, variant


def manifest_key(seed: int, count: int) -> dict[str, int]:
    return {"generator": GENERATOR_VERSION, "seed": seed, "count": count}


def generate(
    root: str,
    count: int,
    seed: int = DEFAULT_SEED,
    families: Iterable[str] = FAMILIES,
    progress: Callable[[str], None] | None = None,
) -> dict[str, object]:
    """Write `count` files of each family under `root` (a git work tree); return the manifest.

    The root is made a git repository because the hooks always run inside one: drift
    checks ask git, and the configuration search stops at the repository root.
    Reuses an existing corpus generated with the same seed, version and at least `count`.
    """
    families = tuple(families)
    manifest_path = os.path.join(root, "manifest.json")
    existing = load_manifest(root)
    if (
        existing
        and existing["generator"] == GENERATOR_VERSION
        and existing["seed"] == seed
        and existing["count"] >= count
        and set(families) <= set(existing["files"])
    ):
        return existing
    if os.path.isdir(root):
        shutil.rmtree(root)
    os.makedirs(root)
    files: dict[str, list[str]] = {}
    variants: dict[str, dict[str, int]] = {}
    digest = hashlib.sha256()
    for family in families:
        if progress:
            progress(f"corpus: writing {count:,} {family} files")
        paths = files[family] = []
        tally = variants[family] = {}
        for index in range(count):
            rel, text, variant = render(family, seed, index)
            full = os.path.join(root, rel)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            data = text.encode("utf-8")
            with open(full, "wb") as fh:
                fh.write(data)
            if family == "oc":  # the file its context_primer.generated_files names
                with open(os.path.join(root, family, f"{index:05d}", "spec.md"), "wb") as fh:
                    fh.write(b"# spec\n")
            digest.update(rel.encode() + b"\0" + data)
            paths.append(rel)
            tally[variant] = tally.get(variant, 0) + 1
    _git_init(root)
    manifest = {
        **manifest_key(seed, count),
        "sha256": digest.hexdigest(),
        "files": files,
        "variants": variants,
    }
    with open(manifest_path, "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=1)
    return manifest


def load_manifest(root: str) -> dict[str, object] | None:
    try:
        with open(os.path.join(root, "manifest.json"), encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def _git_init(root: str) -> None:
    try:
        subprocess.run(["git", "init", "-q", root], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return  # no git: the hooks still run, drift checks that need git are skipped
    with open(os.path.join(root, ".gitignore"), "w", encoding="utf-8") as fh:
        fh.write("manifest.json\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="files per family")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", default=os.path.join(DEFAULT_ROOT, "manual"))
    args = parser.parse_args(argv)
    manifest = generate(args.out, args.count, args.seed, progress=print)
    print(f"{args.out}: sha256 {manifest['sha256']}; variants {manifest['variants']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
