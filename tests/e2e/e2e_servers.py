"""Scripted model servers on 127.0.0.1 for the end-to-end suite.

Each server speaks one model API as the real agents call it: the Anthropic Messages API
(streamed SSE), the OpenAI Responses API (streamed SSE) and the Gemini
generateContent / streamGenerateContent API. Every request of the agent's main loop is
answered with the next scripted turn (text, or a tool call the real agent then runs);
side requests (token counting, routing, title generation, model listing) get a sensible
answer and consume nothing. Every request is recorded, so a test can assert what the
model was told. The servers bind 127.0.0.1 only.
"""

from __future__ import annotations

import json
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

LIVE: set[int] = set()  # the ports of the scripted servers running now (all on 127.0.0.1)


def _pipe(a: socket.socket, b: socket.socket) -> None:
    """Copy bytes both ways between two sockets until either side closes."""
    with selectors.DefaultSelector() as sel:
        sel.register(a, selectors.EVENT_READ, b)
        sel.register(b, selectors.EVENT_READ, a)
        while True:
            for key, _ in sel.select(timeout=120):
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                if not data:
                    return
                key.data.sendall(data)


@dataclass
class Turn:
    """One scripted answer: `text`, or a tool call `tool` with `args` (a dict, or a
    string for a free-form tool such as Codex's apply_patch). `before` runs just before
    the answer is sent (a test's fake clock), then `delay` seconds pass."""

    text: str = ""
    tool: str = ""
    args: Any = None
    delay: float = 0.0
    before: Callable[[], None] | None = None
    tokens: int = 0  # the prompt size the answer reports (0: a small one)
    first: list[tuple[str, Any]] = field(default_factory=list)  # calls made before `tool`


def say(text: str, delay: float = 0.0, before: Callable[[], None] | None = None) -> Turn:
    return Turn(text=text, delay=delay, before=before)


def call(
    tool: str, args: Any, delay: float = 0.0, before: Callable[[], None] | None = None
) -> Turn:
    return Turn(tool=tool, args=args, delay=delay, before=before)


def texts(value: Any) -> str:
    """Every string inside a JSON value, one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(texts(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(texts(v) for v in value)
    return ""


def last_of(body: Any, key: str) -> str:
    """The texts of the last item of `body[key]` (the message the agent sent last)."""
    items = body.get(key) if isinstance(body, dict) else None
    return texts(items[-1]) if isinstance(items, list) and items else ""


@dataclass
class Recorded:
    method: str
    path: str
    body: Any
    main: bool
    turn: int | None = None  # index of the scripted turn this request got
    compaction: bool = False  # the agent asked for a summary of the conversation


# what every scripted server answers when the agent compacts its conversation
SUMMARY = "E2E-SUMMARY: the user asked for work; a command ran; nothing else happened."


@dataclass
class Script:
    turns: list[Turn] = field(default_factory=list)
    fallback: str = "Done."  # after the script runs out: plain text, the agent ends


class ScriptedServer:
    """Base: the HTTP plumbing, the script, the record. Subclasses speak an API."""

    name = "model"

    def __init__(self, script: list[Turn] | None = None) -> None:
        self.script = Script(list(script or []))
        self.requests: list[Recorded] = []
        self.lock = threading.Lock()
        self.next_turn = 0
        self.serial = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # quiet
                return

            def do_GET(self) -> None:
                server._handle(self, "GET")

            def do_POST(self) -> None:
                server._handle(self, "POST")

            def do_HEAD(self) -> None:
                server._handle(self, "HEAD")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    # -- life cycle
    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        LIVE.add(self.port)
        return self

    def __exit__(self, *exc: object) -> None:
        LIVE.discard(self.port)
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def load(self, turns: list[Turn]) -> None:
        """Replace the script (a second run of the agent in the same test)."""
        with self.lock:
            self.script = Script(list(turns))
            self.next_turn = 0

    # -- what the model was told
    def main_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.main]

    def told(self) -> str:
        """Everything the agent sent in its main-loop requests, as one JSON text."""
        return "\n".join(json.dumps(r.body, ensure_ascii=False) for r in self.main_requests())

    def turns_used(self) -> int:
        return self.next_turn

    # -- plumbing
    def _take(self) -> tuple[int | None, Turn]:
        with self.lock:
            index = self.next_turn
            if index < len(self.script.turns):
                self.next_turn += 1
                return index, self.script.turns[index]
            self.next_turn += 1
            return None, Turn(text=self.script.fallback)

    def _id(self, prefix: str) -> str:
        with self.lock:
            self.serial += 1
            return f"{prefix}_{self.serial:04d}"

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        if handler.headers.get("Content-Encoding", "") in ("zstd", "gzip", "br"):
            raw = self._decode(raw, handler.headers["Content-Encoding"])
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        path = handler.path
        compaction = method == "POST" and self.is_compaction(body)
        main = not compaction and method == "POST" and self.is_main(urlsplit(path).path, body)
        record = Recorded(method, path, body, main, compaction=compaction)
        with self.lock:
            self.requests.append(record)
        if compaction:
            self.answer_main(handler, path, body, Turn(text=self.summary()))
        elif main:
            record.turn, turn = self._take()
            if turn.before is not None:
                turn.before()
            if turn.delay:
                time.sleep(turn.delay)
            self.answer_main(handler, path, body, turn)
        else:
            self.answer_side(handler, method, path, body)

    @staticmethod
    def _decode(raw: bytes, encoding: str) -> bytes:
        if encoding == "gzip":
            import gzip

            return gzip.decompress(raw)
        if encoding == "zstd":
            try:
                import zstandard  # type: ignore[import-not-found]

                return zstandard.ZstdDecompressor().decompress(raw)
            except ImportError:
                return raw
        return raw

    # -- responses
    @staticmethod
    def send_json(handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    @staticmethod
    def send_sse(handler: BaseHTTPRequestHandler, events: list[tuple[str | None, Any]]) -> None:
        chunks = []
        for name, data in events:
            head = f"event: {name}\n" if name else ""
            chunks.append(f"{head}data: {json.dumps(data)}\n\n")
        payload = "".join(chunks).encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)

    # -- for subclasses
    def is_main(self, path: str, body: Any) -> bool:
        raise NotImplementedError

    def is_compaction(self, body: Any) -> bool:
        """The agent's request for a summary of the conversation (its compaction), told
        by the instruction the agent puts last: answered with SUMMARY, never a turn."""
        return False

    def summary(self) -> str:
        return SUMMARY

    def answer_main(
        self, handler: BaseHTTPRequestHandler, path: str, body: Any, turn: Turn
    ) -> None:
        raise NotImplementedError

    def answer_side(
        self, handler: BaseHTTPRequestHandler, method: str, path: str, body: Any
    ) -> None:
        self.send_json(handler, 200, {})


class AnthropicServer(ScriptedServer):
    """The Anthropic Messages API (`POST /v1/messages`, streamed)."""

    name = "anthropic"

    def is_main(self, path: str, body: Any) -> bool:
        if not path.endswith("/v1/messages") or not isinstance(body, dict):
            return False
        names = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
        return "Write" in names or "Bash" in names

    def is_compaction(self, body: Any) -> bool:
        # Claude Code's compaction: the conversation, then "Respond with TEXT ONLY …
        # an <analysis> block followed by a <summary> block"
        last = last_of(body, "messages")
        return "TEXT ONLY" in last and "<summary>" in last

    def summary(self) -> str:
        return f"<analysis>Scripted.</analysis>\n<summary>{SUMMARY}</summary>"

    def _message(self, body: Any, blocks: list[dict], stop: str, tokens: int = 0) -> dict:
        model = body.get("model", "claude") if isinstance(body, dict) else "claude"
        return {
            "id": self._id("msg"),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": tokens or 100, "output_tokens": 20},
        }

    def _blocks(self, turn: Turn) -> tuple[list[dict], str]:
        if turn.tool:
            block = {
                "type": "tool_use",
                "id": self._id("toolu"),
                "name": turn.tool,
                "input": turn.args,
            }
            return [block], "tool_use"
        return [{"type": "text", "text": turn.text}], "end_turn"

    def answer_main(self, handler, path, body, turn) -> None:
        blocks, stop = self._blocks(turn)
        self._answer(handler, body, blocks, stop, turn.tokens)

    def _answer(self, handler, body, blocks, stop, tokens: int = 0) -> None:
        message = self._message(body, blocks, stop, tokens)
        if not (isinstance(body, dict) and body.get("stream")):
            self.send_json(handler, 200, message)
            return
        head = dict(message, content=[], stop_reason=None)
        events: list[tuple[str | None, Any]] = [
            ("message_start", {"type": "message_start", "message": head})
        ]
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                start = {"type": "text", "text": ""}
                delta = {"type": "text_delta", "text": block["text"]}
            else:
                start = dict(block, input={})
                delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
            events += [
                (
                    "content_block_start",
                    {"type": "content_block_start", "index": index, "content_block": start},
                ),
                (
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": delta},
                ),
                ("content_block_stop", {"type": "content_block_stop", "index": index}),
            ]
        events += [
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 20},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        self.send_sse(handler, events)

    def answer_side(self, handler, method, path, body) -> None:
        if path.split("?")[0].endswith("/count_tokens"):
            self.send_json(handler, 200, {"input_tokens": 100})
        elif method == "POST" and path.split("?")[0].endswith("/v1/messages"):
            self._answer(handler, body, [{"type": "text", "text": "Session"}], "end_turn")
        elif method == "GET" and "/models" in path:
            self.send_json(handler, 200, {"data": [], "has_more": False})
        else:
            self.send_json(
                handler,
                404,
                {"type": "error", "error": {"type": "not_found_error", "message": "not here"}},
            )


class ResponsesServer(ScriptedServer):
    """The OpenAI Responses API (`POST /v1/responses`, streamed), as Codex calls it."""

    name = "responses"

    def is_main(self, path: str, body: Any) -> bool:
        return path.endswith("/responses") and isinstance(body, dict) and bool(body.get("tools"))

    def is_compaction(self, body: Any) -> bool:
        # Codex's local compaction: the conversation, then "You are performing a CONTEXT
        # CHECKPOINT COMPACTION …", with no tools
        return "CONTEXT CHECKPOINT COMPACTION" in last_of(body, "input")

    def _item(self, turn: Turn) -> dict:
        if turn.tool and isinstance(turn.args, str):  # a free-form (custom) tool: apply_patch
            return {
                "type": "custom_tool_call",
                "id": self._id("ctc"),
                "status": "completed",
                "call_id": self._id("call"),
                "name": turn.tool,
                "input": turn.args,
            }
        if turn.tool:
            return {
                "type": "function_call",
                "id": self._id("fc"),
                "status": "completed",
                "call_id": self._id("call"),
                "name": turn.tool,
                "arguments": json.dumps(turn.args),
            }
        return {
            "type": "message",
            "id": self._id("msg"),
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
        }

    def _stream(self, handler, body, item: dict, tokens: int = 0) -> None:
        rid = self._id("resp")
        model = body.get("model", "model") if isinstance(body, dict) else "model"
        head = {
            "id": rid,
            "object": "response",
            "created_at": int(time.time()),
            "status": "in_progress",
            "model": model,
            "output": [],
        }
        usage = {
            "input_tokens": tokens or 100,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 20,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": (tokens or 100) + 20,
        }
        events: list[tuple[str | None, Any]] = [
            ("response.created", {"type": "response.created", "response": head}),
            (
                "response.output_item.added",
                {
                    "type": "response.output_item.added",
                    "output_index": 0,
                    "item": dict(item, status="in_progress"),
                },
            ),
        ]
        if item["type"] == "message":
            text = item["content"][0]["text"]
            events.append(
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": text,
                    },
                )
            )
        events += [
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            (
                "response.completed",
                {
                    "type": "response.completed",
                    "response": dict(head, status="completed", output=[item], usage=usage),
                },
            ),
        ]
        self.send_sse(handler, events)

    def answer_main(self, handler, path, body, turn) -> None:
        self._stream(handler, body, self._item(turn), turn.tokens)

    def answer_side(self, handler, method, path, body) -> None:
        bare = path.split("?")[0]
        if method == "POST" and bare.endswith("/responses"):
            self._stream(handler, body, self._item(Turn(text="Session")))
        elif bare.endswith("/models"):
            self.send_json(handler, 200, {"object": "list", "data": [], "models": []})
        else:
            self.send_json(handler, 404, {"error": {"message": "not here", "type": "not_found"}})


class GeminiServer(ScriptedServer):
    """The Gemini API (`…:streamGenerateContent?alt=sse`, `…:generateContent`), as Gemini
    CLI calls it: the main loop streams and carries `functionDeclarations`; the router
    and other helpers ask `generateContent` for a JSON answer."""

    name = "gemini"

    def is_main(self, path: str, body: Any) -> bool:
        if ":streamGenerateContent" not in path and ":generateContent" not in path:
            return False
        tools = body.get("tools") if isinstance(body, dict) else None
        return any(isinstance(t, dict) and t.get("functionDeclarations") for t in tools or [])

    @staticmethod
    def _candidate(parts: list[dict]) -> dict:
        return {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 100,
                "candidatesTokenCount": 20,
                "totalTokenCount": 120,
            },
            "modelVersion": "gemini-2.5-flash",
        }

    def _reply(self, handler, path: str, parts: list[dict]) -> None:
        payload = self._candidate(parts)
        if ":streamGenerateContent" in path:
            self.send_sse(handler, [(None, payload)])
        else:
            self.send_json(handler, 200, payload)

    def answer_main(self, handler, path, body, turn) -> None:
        if turn.tool:
            parts = [{"functionCall": {"name": turn.tool, "args": turn.args}}]
        else:
            parts = [{"text": turn.text}]
        self._reply(handler, path, parts)

    def answer_side(self, handler, method, path, body) -> None:
        bare = path.split("?")[0]
        if bare.endswith(":countTokens"):
            self.send_json(handler, 200, {"totalTokens": 100})
        elif ":generateContent" in bare or ":streamGenerateContent" in bare:
            # one JSON answer that satisfies every helper's schema (router, classifier,
            # next-speaker check): extra keys are ignored by each
            answer = {
                "reasoning": "A simple task.",
                "model_choice": "flash",
                "complexity_reasoning": "A simple task.",
                "complexity_score": 10,
                "next_speaker": "user",
            }
            self._reply(handler, path, [{"text": json.dumps(answer)}])
        elif method == "GET" and "/models" in bare:
            self.send_json(handler, 200, {"models": []})
        else:
            self.send_json(handler, 404, {"error": {"code": 404, "message": "not here"}})


class Sink:
    """Where every proxy variable of an agent points: a request that is not for the
    scripted model (the agent tried to reach another host) lands here, is recorded and
    refused, so nothing leaves 127.0.0.1. An agent that sends even its loopback calls
    through the proxy (Qwen Code ignores NO_PROXY) gets a tunnel to a running scripted
    server on 127.0.0.1, and to nothing else."""

    def __init__(self) -> None:
        self.attempts: list[str] = []
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return

            def _refuse(self) -> None:
                sink.attempts.append(f"{self.command} {self.path}")
                self.send_response(403)
                self.send_header("Content-Length", "0")
                self.send_header("Connection", "close")
                self.end_headers()

            def do_CONNECT(self) -> None:
                host, _, port = self.path.rpartition(":")
                if host != "127.0.0.1" or not port.isdigit() or int(port) not in LIVE:
                    self._refuse()
                    return
                with socket.create_connection(("127.0.0.1", int(port)), timeout=60) as up:
                    self.send_response(200, "Connection established")
                    self.end_headers()
                    _pipe(self.connection, up)
                self.close_connection = True

            do_GET = do_POST = do_HEAD = do_PUT = _refuse

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> Sink:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
