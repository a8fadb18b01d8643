"""Install the real agents the end-to-end suite drives, at the versions pinned in
tests/e2e/agents/package-lock.json, into the git-ignored cache `.e2e/agents/`.

    python tests/e2e/install_agents.py        # prints where each agent is

`npm ci --ignore-scripts` installs exactly the lockfile: Claude Code, Codex, Gemini CLI and
GitHub Copilot CLI and, through their optionalDependencies, the platform package that holds
each native binary for this machine (linux-x64 here). No install script runs (the binaries
are used from their platform packages directly, so nothing is downloaded outside the npm
registry). Copilot CLI's binary unpacks its runtime (about 235 MB) into its cache directory
on its first start: every test run shares one, `.e2e/copilot-cache/`, unpacked here once
(`copilot --version`) so that parallel tests do not race to unpack it.

Qwen Code cannot be in that lockfile: its package lists optional platform packages that
were never published (`@teddyzhu/clipboard-darwin-arm64@0.0.5` and others answer 404), and
`npm ci` refuses every lockfile that holds it ("Missing: … from lock file"). It has no
dependencies of its own (one bundled `cli.js`), so `tarballs.json` pins its version and
the sha512 integrity the registry publishes; `npm pack` fetches that tarball, and it is
checked against the pin and unpacked into the same tree. (Its `engines` asks for Node.js
22 since 0.21; the pinned 0.24.4 nonetheless runs headless on Node.js 20, where the suite
runs, and passes every test there: nothing it needs is missing from Node.js 20.)

A second call is free while the pins are unchanged: their hash is kept next to the
installed tree. When npm itself is missing, `install()` says so (Unavailable) and the suite
skips, or fails where ASIMOV_HOOKS_E2E_REQUIRED is set (as `.ci/run` sets it).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import NoReturn

REPO = Path(__file__).resolve().parents[2]
LOCK_DIR = REPO / "tests" / "e2e" / "agents"
CACHE = REPO / ".e2e"
PREFIX = CACHE / "agents"
STAMP = PREFIX / ".lock-sha256"
COPILOT_CACHE = CACHE / "copilot-cache"  # XDG_CACHE_HOME of every Copilot CLI run
INSTALL_TIMEOUT = 900  # seconds; the four agents are about 1 GB unpacked

_NODE_ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}


REQUIRED = "ASIMOV_HOOKS_E2E_REQUIRED"  # set (as .ci/run does): unavailable agents fail


class Unavailable(Exception):
    """The agents cannot be installed here (the reason is the message)."""


def unavailable(why: object) -> NoReturn:
    """A test that needs the real agents, which this machine cannot have: skipped, or
    failed where ASIMOV_HOOKS_E2E_REQUIRED is set, so that CI cannot pass without them."""
    import pytest

    if os.environ.get(REQUIRED):
        pytest.fail(f"real agents unavailable, and {REQUIRED} is set: {why}", pytrace=False)
    pytest.skip(f"real agents unavailable: {why}")


def _lock_hash() -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json", "tarballs.json"):
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
    qwen = modules / "@qwen-code" / "qwen-code" / "cli.js"
    copilot = modules / "@github" / f"copilot-{plat}" / "copilot"
    node = shutil.which("node")
    found = {
        "claude": [str(claude)],
        "codex": [str(codex)],
        "gemini": [node or "node", str(gemini)],
        "qwen": [node or "node", str(qwen)],
        "copilot": [str(copilot)],
    }
    named = {"claude": claude, "codex": codex, "gemini": gemini, "qwen": qwen, "copilot": copilot}
    for name, path in named.items():
        if not path.is_file():
            raise Unavailable(f"{name}: {path} is missing after npm ci")
    if node is None:
        raise Unavailable("node is not on PATH (Gemini CLI and Qwen Code run on Node.js)")
    return found


@contextlib.contextmanager
def _one_installer():
    """Parallel test workers each call install(): one runs npm ci, the others wait for it."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "install.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def install() -> dict[str, list[str]]:
    """Run `npm ci` when the lockfile changed since the last install; return binaries()."""
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not installed: the real agents come from the npm registry")
    _platform()
    with _one_installer():
        found = _install(npm)
        _unpack_copilot(found["copilot"])
        return found


def _unpack_copilot(command: list[str]) -> None:
    """Copilot CLI's first start unpacks its runtime into the cache (a no-op afterwards)."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(COPILOT_CACHE),
        "XDG_CACHE_HOME": str(COPILOT_CACHE),
        "COPILOT_AUTO_UPDATE": "false",
    }
    done = subprocess.run(
        [*command, "--version"], capture_output=True, text=True, timeout=300, env=env
    )
    if done.returncode != 0:
        raise RuntimeError(f"copilot --version failed: {(done.stderr or done.stdout)[-500:]}")


def _install(npm: str) -> dict[str, list[str]]:
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
    pins = json.loads((LOCK_DIR / "tarballs.json").read_text(encoding="utf-8"))
    for package, pin in pins.items():
        _unpack(npm, package, pin["version"], pin["integrity"])
    try:
        found = binaries()
    except Unavailable as why:  # npm ran but an agent is not there: an error, not a skip
        raise RuntimeError(f"npm ci of the pinned agents: {why}") from None
    STAMP.write_text(want + "\n")
    return found


def _unpack(npm: str, package: str, version: str, integrity: str) -> None:
    """`npm pack` the pinned tarball, check its sha512 against the pin, and unpack it as
    node_modules/<package> (only regular files and folders under `package/`)."""
    with tempfile.TemporaryDirectory(dir=CACHE) as scratch:
        done = subprocess.run(
            [npm, "pack", f"{package}@{version}", "--json", "--pack-destination", scratch],
            cwd=scratch,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            env=dict(os.environ, npm_config_update_notifier="false"),
        )
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
            raise RuntimeError(f"npm pack {package}@{version} failed:\n" + "\n".join(tail))
        tarball = Path(scratch) / json.loads(done.stdout)[0]["filename"]
        got = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
        if got != integrity:
            raise RuntimeError(f"{package}@{version}: integrity {got}, pinned {integrity}")
        target = PREFIX / "node_modules" / package
        shutil.rmtree(target, ignore_errors=True)
        with tarfile.open(tarball) as archive:
            for member in archive.getmembers():
                parts = Path(member.name).parts
                if len(parts) < 2 or parts[0] != "package" or ".." in parts:
                    continue
                if not (member.isfile() or member.isdir()):
                    continue
                out = target.joinpath(*parts[1:])
                if member.isdir():
                    out.mkdir(parents=True, exist_ok=True)
                    continue
                out.parent.mkdir(parents=True, exist_ok=True)
                source = archive.extractfile(member)
                assert source is not None
                out.write_bytes(source.read())
                out.chmod(0o755 if member.mode & 0o111 else 0o644)


def main() -> int:
    try:
        found = install()
    except Unavailable as why:
        print(f"agents not installed: {why}", file=sys.stderr)
        return 1 if os.environ.get(REQUIRED) else 0
    for name, command in found.items():
        print(f"{name}: {' '.join(command)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
