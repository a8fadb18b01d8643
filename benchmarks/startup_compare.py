"""Start-up of two or more installed builds side by side, as CPU time.

    python benchmarks/startup_compare.py LABEL=VENV [LABEL=VENV ...] --corpus DIR

Each VENV is a virtual environment with asimov-hooks installed from a commit (not
editable: `pip install './src[bench]'`, bytecode compiled on first run) and
check-jsonschema. Every command runs 31 times on one file of each family; the figure is
the child's user+system CPU time (min / median), which a busy machine disturbs less than
wall time. Ratios use the minimum. Used for benchmarks/startup-before-after.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = {"asimov": "asimov-checkpoint", "oc": "oc-checkpoint"}
NAMES = {"asimov": ".claude_checkpoint.yaml", "oc": ".checkpoint.json"}


def find(corpus: str, suffix: str) -> str:
    for root, _dirs, files in sorted(os.walk(corpus)):
        for name in sorted(files):
            if name.endswith(suffix):
                return os.path.join(root, name)
    raise SystemExit(f"no *{suffix} under {corpus} (run benchmarks/run.py --quick first)")


def cpu(argv: list[str], runs: int) -> tuple[float, float]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("builds", nargs="+", help="LABEL=VENV")
    parser.add_argument("--corpus", default=os.path.join(ROOT, "benchmarks", ".corpus"))
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args()
    print(
        "| family | build | python -c pass | asimov-check-size | × python | asimov-validate "
        "| check-jsonschema | validate × check-jsonschema |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for family, suffix in NAMES.items():
        path = find(args.corpus, suffix)
        schema = os.path.join(ROOT, "rules", "schemas", f"{SCHEMAS[family]}.schema.json")
        for label, venv in (b.split("=", 1) for b in args.builds):
            bin_ = os.path.join(venv, "bin")
            py = cpu([os.path.join(bin_, "python"), "-c", "pass"], args.runs)
            size = cpu([os.path.join(bin_, "asimov-check-size"), path], args.runs)
            val = cpu([os.path.join(bin_, "asimov-validate"), path], args.runs)
            cjs = cpu([os.path.join(bin_, "check-jsonschema"), "--schemafile", schema, path], 7)

            def ms(pair: tuple[float, float]) -> str:
                return f"{pair[0] * 1000:.1f} / {pair[1] * 1000:.1f} ms"

            print(
                f"| {family} | {label} | {ms(py)} | {ms(size)} | {size[0] / py[0]:.2f}× "
                f"| {ms(val)} | {ms(cjs)} | {val[0] / cjs[0]:.2f}× |"
            )


if __name__ == "__main__":
    main()
