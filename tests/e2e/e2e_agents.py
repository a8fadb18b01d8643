"""The real agents, driven headless against a scripted model server on 127.0.0.1.

One class per agent knows how to start it (isolated HOME and configuration, loopback base
URL, telemetry and updates off, every proxy variable pointing at a refusing sink on
127.0.0.1), how its write and shell tools are called, how it resumes a session, and how to
read back the tool results and hook messages the model was told.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

from e2e_chat import ChatServer
from e2e_servers import AnthropicServer, GeminiServer, ResponsesServer, ScriptedServer, Turn, call
from install_agents import CACHE, COPILOT_CACHE

TIMEOUT = 120  # seconds, for every agent process
SCRIPTS = os.path.dirname(sys.executable)  # where asimov-hooks is installed
HOMES = CACHE / "homes"  # not under /tmp: Codex refuses its helper binaries there


# Switching a hook off, to see a test fail without it: ASIMOV_E2E_OFF names events
# (comma-separated: pre, post, stop, prompt, start, compact, or all); every agent run then finds,
# first on its PATH, an `asimov-hooks` that answers those events with nothing (exit 0, no
# output, as if the hook were not installed) and hands every other call to the real one.
# `command` (not an event) removes the /checkpoint command `agent install` wrote.
OFF_VARIABLE = "ASIMOV_E2E_OFF"
OFF_EVENTS = {
    "pre": ("PreToolUse", "BeforeTool", "preToolUse"),
    "post": ("PostToolUse", "AfterTool", "postToolUse"),
    "stop": ("Stop", "AfterAgent", "agentStop"),
    "prompt": ("UserPromptSubmit", "BeforeAgent", "userPromptSubmitted"),
    "start": ("SessionStart", "sessionStart"),
    "compact": ("PreCompact", "PreCompress", "preCompact"),
}
SHIM = """\
import json, subprocess, sys
OFF = {off!r}
REAL = {real!r}
args = sys.argv[1:]
if args[:1] != ["agent-event"]:
    sys.exit(subprocess.call([REAL, *args]))
raw = sys.stdin.buffer.read()
try:
    payload = json.loads(raw)
    name = payload.get("hook_event_name") or payload.get("hookEventName")
    if not name and "copilot" in args:
        from asimov_hooks.agent.agents.copilot import event_name
        name = event_name(payload)
except Exception:
    name = None
if name in OFF:
    sys.exit(0)
done = subprocess.run([REAL, *args], input=raw)
sys.exit(done.returncode)
"""


def switched_off() -> tuple[str, ...]:
    """The agents' own names of the events ASIMOV_E2E_OFF switches off."""
    wanted = [w.strip() for w in os.environ.get(OFF_VARIABLE, "").split(",") if w.strip()]
    if "all" in wanted:
        wanted = list(OFF_EVENTS)
    unknown = [w for w in wanted if w not in OFF_EVENTS and w != "command"]
    if unknown:
        raise ValueError(
            f"{OFF_VARIABLE}: unknown event {unknown[0]!r} (known: {list(OFF_EVENTS)}, all)"
        )
    return tuple(name for w in wanted for name in OFF_EVENTS.get(w, ()))


def command_off() -> bool:
    """ASIMOV_E2E_OFF names `command`: the installed /checkpoint command is removed."""
    return "command" in [w.strip() for w in os.environ.get(OFF_VARIABLE, "").split(",")]


def shim_dir(home: str) -> str | None:
    """A directory holding the switching `asimov-hooks`, or None when nothing is off."""
    off = switched_off()
    if not off:
        return None
    where = os.path.join(home, "switched-off-bin")
    os.makedirs(where, exist_ok=True)
    shim = os.path.join(where, "asimov-hooks")
    real = os.path.join(SCRIPTS, "asimov-hooks")
    with open(shim, "w", encoding="utf-8") as fh:
        fh.write(f"#!{sys.executable}\n" + SHIM.format(off=off, real=real))
    os.chmod(shim, 0o755)
    return where


def strings(value: Any) -> list[str]:
    """Every string inside a JSON value (the texts a request carries)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


class Agent:
    name = ""
    server_class: type[ScriptedServer] = ScriptedServer
    settings = ""  # the project settings file `agent install` edits

    def __init__(self, command: list[str], project: str) -> None:
        self.command = command
        self.project = project
        HOMES.mkdir(parents=True, exist_ok=True)
        self.home = tempfile.mkdtemp(prefix=f"{self.name}-", dir=HOMES)
        self.session: str | None = None
        self.sink_url = ""
        self.trusted = [project]  # directories the agent is told to trust

    def cleanup(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)

    # -- what the scripted model sends
    def write(self, path: str, content: str, base: str | None = None) -> Turn:
        """The agent's file-writing tool call leaving `content` at `path` (relative to
        `base`, default the project, which is where the agent runs)."""
        raise NotImplementedError

    def shell(self, command: str) -> Turn:
        raise NotImplementedError

    # -- what the model was told
    def tool_results(self, server: ScriptedServer) -> list[str]:
        """The result text of every tool call, in order, as the model last saw them."""
        raise NotImplementedError

    def told(self, server: ScriptedServer, index: int = -1) -> str:
        """Every text in one main-loop request (default: the last)."""
        return "\n".join(strings(server.main_requests()[index].body))

    # -- running
    def base_env(self) -> dict[str, str]:
        proxy = self.sink_url
        shim = shim_dir(self.home)
        return {
            "PATH": os.pathsep.join(
                [*([shim] if shim else []), SCRIPTS, "/usr/local/bin", "/usr/bin", "/bin"]
            ),
            "HOME": self.home,
            "USER": "e2e",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "TMPDIR": tempfile.gettempdir(),
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "HTTP_PROXY": proxy,
            "HTTPS_PROXY": proxy,
            "ALL_PROXY": proxy,
            "http_proxy": proxy,
            "https_proxy": proxy,
            "all_proxy": proxy,
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "GIT_CONFIG_NOSYSTEM": "1",
        }

    def prepare(self, server: ScriptedServer) -> None:
        """Write the agent's user configuration for `server` into the isolated HOME."""

    def env(self, server: ScriptedServer) -> dict[str, str]:
        raise NotImplementedError

    def argv(self, prompt: str, resume: bool) -> list[str]:
        raise NotImplementedError

    def run(
        self, server: ScriptedServer, prompt: str, *, resume: bool = False, cwd: str | None = None
    ) -> subprocess.CompletedProcess:
        self.prepare(server)
        done = subprocess.run(
            self.argv(prompt, resume),
            cwd=cwd or self.project,
            env=self.env(server),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
        self.after(done)
        return done

    def after(self, done: subprocess.CompletedProcess) -> None:
        """Note what a resume needs (the session id) from the agent's output."""


# ---------------------------------------------------------------------- Claude Code
class Claude(Agent):
    name = "claude"
    server_class = AnthropicServer
    settings = ".claude/settings.json"

    def write(self, path: str, content: str, base: str | None = None) -> Turn:
        target = os.path.join(base or self.project, path)
        return call("Write", {"file_path": target, "content": content})

    def shell(self, command: str) -> Turn:
        return call("Bash", {"command": command, "description": "run a command"})

    def tool_results(self, server: ScriptedServer) -> list[str]:
        last = server.main_requests()[-1].body
        out = []
        for message in last.get("messages", []):
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    out.append("\n".join(strings(block.get("content"))))
        return out

    def env(self, server: ScriptedServer) -> dict[str, str]:
        return dict(
            self.base_env(),
            ANTHROPIC_BASE_URL=server.url,
            ANTHROPIC_API_KEY="sk-e2e-scripted",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_AUTOUPDATER="1",
            DISABLE_TELEMETRY="1",
            DISABLE_ERROR_REPORTING="1",
            CLAUDE_CONFIG_DIR=os.path.join(self.home, ".claude"),
        )

    def argv(self, prompt: str, resume: bool) -> list[str]:
        argv = [
            *self.command,
            "-p",
            prompt,
            "--permission-mode",
            "acceptEdits",  # file edits are accepted; the scripted commands allowed:
            "--allowedTools",
            "Bash",
            "--output-format",
            "json",
        ]
        if resume:
            assert self.session, "no session to resume"
            argv += ["--resume", self.session]
        return argv

    def after(self, done: subprocess.CompletedProcess) -> None:
        with contextlib.suppress(ValueError):
            self.session = json.loads(done.stdout).get("session_id") or self.session


# ---------------------------------------------------------------------- Codex CLI
# A model Codex knows nothing about gets fallback metadata and only `exec_command`; this
# catalog entry gives the scripted model the metadata of Codex's own models, so it is
# offered the `apply_patch` tool (a free-form tool, as for OpenAI's models).
CODEX_MODEL = {
    "slug": "scripted-model",
    "display_name": "scripted-model",
    "description": "scripted",
    "default_reasoning_level": "low",
    "supported_reasoning_levels": [{"effort": "low", "description": "low"}],
    "shell_type": "shell_command",
    "visibility": "list",
    "supported_in_api": True,
    "priority": 1,
    "availability_nux": None,
    "upgrade": None,
    "base_instructions": "You are a scripted test model.",
    "model_messages": None,
    "supports_reasoning_summaries": False,
    "default_reasoning_summary": "none",
    "support_verbosity": False,
    "default_verbosity": None,
    "apply_patch_tool_type": "freeform",
    "truncation_policy": {"mode": "bytes", "limit": 10000},
    "supports_parallel_tool_calls": False,
    "supports_image_detail_original": False,
    "context_window": 200000,
    "auto_compact_token_limit": None,
    "effective_context_window_percent": 95,
    "experimental_supported_tools": [],
    "input_modalities": ["text"],
    "supports_search_tool": False,
}


def toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def patch_text(path: str, content: str, old: str | None) -> str:
    """An apply_patch envelope that turns `old` (None: no file) at `path` into `content`."""
    body = "".join(f"+{line}\n" for line in content.splitlines())
    if old is None:
        return f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"
    gone = "".join(f"-{line}\n" for line in old.splitlines())
    return f"*** Begin Patch\n*** Update File: {path}\n@@\n{gone}{body}*** End Patch\n"


class Codex(Agent):
    name = "codex"
    server_class = ResponsesServer
    settings = ".codex/hooks.json"
    model = "scripted-model"
    # (another name: a model Codex has no metadata for, offered only `exec_command`)

    def __init__(self, command: list[str], project: str) -> None:
        super().__init__(command, project)
        self.codex_home = os.path.join(self.home, ".codex")
        os.makedirs(self.codex_home, exist_ok=True)
        # how the user reviewed our hooks in `/hooks`: "reported" trusts each under the
        # hash asimov-hooks computes (what `agent install` and `doctor` check against);
        # "none" trusts none; "stale" records another hash for each
        self.hook_trust = "reported"

    def write(self, path: str, content: str, base: str | None = None) -> Turn:
        target = os.path.join(base or self.project, path)
        old = None
        if os.path.exists(target):
            with open(target, encoding="utf-8") as fh:
                old = fh.read()
        return call("apply_patch", patch_text(path, content, old))

    def shell(self, command: str) -> Turn:
        return call("exec_command", {"cmd": command})

    def tool_results(self, server: ScriptedServer) -> list[str]:
        last = server.main_requests()[-1].body
        return [
            "\n".join(strings(item.get("output")))
            for item in last.get("input", [])
            if isinstance(item, dict) and item.get("type", "").endswith("call_output")
        ]

    def prepare(self, server: ScriptedServer) -> None:
        catalog = os.path.join(self.codex_home, "models.json")
        with open(catalog, "w", encoding="utf-8") as fh:
            json.dump({"models": [CODEX_MODEL]}, fh)
        trust = "".join(
            f'\n[projects.{toml_string(os.path.realpath(p))}]\ntrust_level = "trusted"\n'
            for p in self.trusted
        )
        trust += "".join(self.hook_states())
        config = f"""\
model = {toml_string(self.model)}
model_provider = "scripted"
model_catalog_json = {toml_string(catalog)}
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.scripted]
name = "scripted"
base_url = {toml_string(server.url + "/v1")}
wire_api = "responses"
env_key = "SCRIPTED_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
hooks = true
plugins = false
remote_plugin = false

[analytics]
enabled = false

[otel]
exporter = "none"
{trust}"""
        with open(os.path.join(self.codex_home, "config.toml"), "w", encoding="utf-8") as fh:
            fh.write(config)

    def hook_states(self) -> list[str]:
        """The `[hooks.state."<hooks.json>:<event>:<group>:<hook>"] trusted_hash` tables
        Codex writes when the user trusts a hook in `/hooks`: one for each asimov-hooks
        entry of each trusted project's .codex/hooks.json, under the hash asimov-hooks
        reports (so a hash Codex computes otherwise leaves our hooks skipped)."""
        from asimov_hooks.agent.install.codextrust import LABELS, our_hooks

        out = []
        for project in self.trusted if self.hook_trust != "none" else []:
            hooks = os.path.join(os.path.realpath(project), ".codex", "hooks.json")
            if not os.path.isfile(hooks):
                continue
            with open(hooks, encoding="utf-8") as fh:
                entries = our_hooks(json.load(fh))
            for event, group, index, digest in entries:
                if self.hook_trust == "stale":
                    digest = "sha256:" + "0" * 64
                key = f"{hooks}:{LABELS[event]}:{group}:{index}"
                out.append(
                    f"\n[hooks.state.{toml_string(key)}]\ntrusted_hash = {toml_string(digest)}\n"
                )
        return out

    def env(self, server: ScriptedServer) -> dict[str, str]:
        return dict(
            self.base_env(),
            CODEX_HOME=self.codex_home,
            SCRIPTED_API_KEY="sk-e2e-scripted",
            RUST_LOG="error",
        )

    def argv(self, prompt: str, resume: bool) -> list[str]:
        # no --dangerously-bypass-hook-trust: our hooks run because they are trusted
        flags = ["--skip-git-repo-check", "--json"]
        if resume:
            return [*self.command, "exec", "resume", "--last", *flags, prompt]
        return [*self.command, "exec", *flags, prompt]


# ---------------------------------------------------------------------- Gemini CLI
class Gemini(Agent):
    name = "gemini"
    server_class = GeminiServer
    settings = ".gemini/settings.json"

    def write(self, path: str, content: str, base: str | None = None) -> Turn:
        target = os.path.join(base or self.project, path)
        return call("write_file", {"file_path": target, "content": content})

    def shell(self, command: str) -> Turn:
        return call("run_shell_command", {"command": command, "description": "run a command"})

    def tool_results(self, server: ScriptedServer) -> list[str]:
        last = server.main_requests()[-1].body
        out = []
        for content in last.get("contents", []):
            for part in content.get("parts", []) if isinstance(content, dict) else []:
                if isinstance(part, dict) and "functionResponse" in part:
                    out.append("\n".join(strings(part["functionResponse"].get("response"))))
        return out

    def prepare(self, server: ScriptedServer) -> None:
        os.makedirs(os.path.join(self.home, ".gemini"), exist_ok=True)
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        }
        with open(os.path.join(self.home, ".gemini", "settings.json"), "w", encoding="utf-8") as fh:
            json.dump(settings, fh)

    def env(self, server: ScriptedServer) -> dict[str, str]:
        return dict(
            self.base_env(),
            GOOGLE_GEMINI_BASE_URL=server.url,
            GEMINI_API_KEY="e2e-scripted",
            GEMINI_CLI_TRUST_WORKSPACE="true",
            GEMINI_TELEMETRY_ENABLED="false",
        )

    def argv(self, prompt: str, resume: bool) -> list[str]:
        argv = [*self.command, "-p", prompt, "--yolo", "--output-format", "json"]
        if resume:
            argv += ["--resume", "latest"]
        return argv


# ---------------------------------------------------------------------- Qwen Code
class Qwen(Agent):
    name = "qwen"
    server_class = ChatServer
    settings = ".qwen/settings.json"
    model = "scripted-model"

    def write(self, path: str, content: str, base: str | None = None) -> Turn:
        """Qwen Code overwrites only a file read in the session: a `read_file` of an
        existing file comes first, in the same answer (Qwen Code runs it first)."""
        target = os.path.join(base or self.project, path)
        turn = call("write_file", {"file_path": target, "content": content})
        if os.path.exists(target):
            turn.first = [("read_file", {"file_path": target})]
        return turn

    def shell(self, command: str) -> Turn:
        return call(
            "run_shell_command",
            {"command": command, "is_background": False, "description": "run a command"},
        )

    def tool_results(self, server: ScriptedServer) -> list[str]:
        """(the result of each `read_file` made before a write is left out)"""
        messages = [m for m in server.main_requests()[-1].body.get("messages", []) if m]
        reads = {
            c.get("id")
            for m in messages
            for c in m.get("tool_calls") or []
            if (c.get("function") or {}).get("name") == "read_file"
        }
        return [
            "\n".join(strings(m.get("content")))
            for m in messages
            if m.get("role") == "tool" and m.get("tool_call_id") not in reads
        ]

    def prepare(self, server: ScriptedServer) -> None:
        qwen = os.path.join(self.home, ".qwen")
        os.makedirs(qwen, exist_ok=True)
        settings = {
            "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": True}},
            "model": {"name": self.model},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
            # no background memory extraction: its subagent calls the model with the same
            # tools as the main loop, at a time of its own
            "memory": {"enableManagedAutoMemory": False},
        }
        with open(os.path.join(qwen, "settings.json"), "w", encoding="utf-8") as fh:
            json.dump(settings, fh)
        # folder trust on, as a user has it: the project is trusted, as the trust dialog
        # records it (project hooks load only in a trusted folder)
        trusted = {os.path.realpath(p): "TRUST_FOLDER" for p in self.trusted}
        with open(os.path.join(qwen, "trustedFolders.json"), "w", encoding="utf-8") as fh:
            json.dump(trusted, fh)

    def env(self, server: ScriptedServer) -> dict[str, str]:
        return dict(
            self.base_env(),
            OPENAI_BASE_URL=server.url + "/v1",
            OPENAI_API_KEY="sk-e2e-scripted",
            OPENAI_MODEL=self.model,
        )

    def argv(self, prompt: str, resume: bool) -> list[str]:
        argv = [*self.command, "-p", prompt, "--yolo", "--output-format", "json"]
        if resume:
            argv += ["--continue"]
        return argv


# ---------------------------------------------------------------------- GitHub Copilot CLI
class Copilot(Agent):
    """Copilot CLI with its own model provider ("bring your own key"): the scripted
    OpenAI-compatible server, `COPILOT_OFFLINE=true` (no GitHub sign-in, telemetry,
    web tools, GitHub MCP server or update check), and the project trusted as the trust
    dialog records it (`trustedFolders`: a project's hooks load only in a trusted folder)."""

    name = "copilot"
    server_class = ChatServer
    settings = ".github/hooks/asimov-hooks.json"
    model = "scripted-model"

    def write(self, path: str, content: str, base: str | None = None) -> Turn:
        """`create` makes a new file only; an existing one is edited as a whole."""
        target = os.path.join(base or self.project, path)
        if not os.path.exists(target):
            return call("create", {"path": target, "file_text": content})
        with open(target, encoding="utf-8") as fh:
            old = fh.read()
        return call("edit", {"path": target, "old_str": old, "new_str": content})

    def shell(self, command: str) -> Turn:
        return call("bash", {"command": command, "description": "run a command", "mode": "sync"})

    def tool_results(self, server: ScriptedServer) -> list[str]:
        messages = [m for m in server.main_requests()[-1].body.get("messages", []) if m]
        return ["\n".join(strings(m.get("content"))) for m in messages if m.get("role") == "tool"]

    def prepare(self, server: ScriptedServer) -> None:
        copilot = os.path.join(self.home, ".copilot")
        os.makedirs(copilot, exist_ok=True)
        config = {"trustedFolders": [os.path.realpath(p) for p in self.trusted]}
        with open(os.path.join(copilot, "config.json"), "w", encoding="utf-8") as fh:
            json.dump(config, fh)

    def env(self, server: ScriptedServer) -> dict[str, str]:
        return dict(
            self.base_env(),
            COPILOT_PROVIDER_BASE_URL=server.url + "/v1",
            COPILOT_MODEL=self.model,
            COPILOT_OFFLINE="true",
            COPILOT_AUTO_UPDATE="false",
            # its unpacked runtime (235 MB) is shared by every run, not unpacked per HOME
            XDG_CACHE_HOME=str(COPILOT_CACHE),
        )

    def argv(self, prompt: str, resume: bool) -> list[str]:
        argv = [
            *self.command,
            "-p",
            prompt,
            "--allow-all-tools",
            "--allow-all-paths",  # the scripted commands name files outside the project
            "--no-auto-update",
            "--disable-client-telemetry",
        ]
        if resume:
            argv += ["--continue"]
        return argv


AGENTS: dict[str, type[Agent]] = {
    "claude": Claude,
    "codex": Codex,
    "gemini": Gemini,
    "qwen": Qwen,
    "copilot": Copilot,
}
