"""Install the real agents the end-to-end suite drives, at the versions pinned in
tests/e2e/agents/package-lock.json, into the git-ignored cache `.e2e/agents/`.

    python tests/e2e/install_agents.py        # prints where each agent is

`npm ci --ignore-scripts` installs exactly the lockfile: the three agents and, through
their optionalDependencies, the platform package that holds each native binary for this
machine (linux-x64 here). No install script runs (the binaries are used from their
platform packages directly, so nothing is downloaded outside the npm registry). A second
call is free while the lockfile is unchanged: the lockfile's hash is kept next to the
installed tree. When npm itself is missing, `find()` says so and the suite skips.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LOCK_DIR = REPO / "tests" / "e2e" / "agents"
CACHE = REPO / ".e2e"
PREFIX = CACHE / "agents"
STAMP = PREFIX / ".lock-sha256"
INSTALL_TIMEOUT = 900  # seconds; the three agents are about 900 MB unpacked

_NODE_ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}


class Unavailable(Exception):
    """The agents cannot be installed here (the reason is the message)."""


def _lock_hash() -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        digest.update((LOCK_DIR / name).read_bytes())
    return digest.hexdigest()


def _platform() -> str:
    machine = platform.machine().lower()
    arch = _NODE_ARCH.get(machine)
    if sys.platform != "linux" or arch is None:
        raise Unavailable(
            f"the end-to-end suite runs on linux x64/arm64, not {sys.platform} {machine}"
        )
    return f"linux-{arch}"


def binaries() -> dict[str, list[str]]:
    """The command that starts each agent, from the installed tree."""
    plat = _platform()
    modules = PREFIX / "node_modules"
    triple = {
        "linux-x64": "x86_64-unknown-linux-musl",
        "linux-arm64": "aarch64-unknown-linux-musl",
    }[plat]
    claude = modules / "@anthropic-ai" / f"claude-code-{plat}" / "claude"
    codex = modules / "@openai" / f"codex-{plat}" / "vendor" / triple / "bin" / "codex"
    gemini = modules / "@google" / "gemini-cli" / "bundle" / "gemini.js"
    node = shutil.which("node")
    found = {
        "claude": [str(claude)],
        "codex": [str(codex)],
        "gemini": [node or "node", str(gemini)],
    }
    for name, path in (("claude", claude), ("codex", codex), ("gemini", gemini)):
        if not path.is_file():
            raise Unavailable(f"{name}: {path} is missing after npm ci")
    if node is None:
        raise Unavailable("node is not on PATH (Gemini CLI runs on Node.js)")
    return found


def install() -> dict[str, list[str]]:
    """Run `npm ci` when the lockfile changed since the last install; return binaries()."""
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed: the real agents come from the npm registry")
    _platform()
    want = _lock_hash()
    if STAMP.is_file() and STAMP.read_text().strip() == want:
        try:
            return binaries()
        except Unavailable:
            pass  # a file of the installed tree is gone: install again
    PREFIX.mkdir(parents=True, exist_ok=True)
    if STAMP.exists():
        STAMP.unlink()
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(LOCK_DIR / name, PREFIX / name)
    done = subprocess.run(
        [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=PREFIX,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
        env=dict(os.environ, npm_config_update_notifier="false"),
    )
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise RuntimeError("npm ci of the pinned agents failed:\n" + "\n".join(tail))
    try:
        found = binaries()
    except Unavailable as why:  # npm ran but an agent is not there: an error, not a skip
        raise RuntimeError(f"npm ci of the pinned agents: {why}") from None
    STAMP.write_text(want + "\n")
    return found


def main() -> int:
    try:
        found = install()
    except Unavailable as why:
        print(f"agents not installed: {why}", file=sys.stderr)
        return 0
    for name, command in found.items():
        print(f"{name}: {' '.join(command)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
