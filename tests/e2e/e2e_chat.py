"""A scripted OpenAI-compatible Chat Completions server on 127.0.0.1 (`POST
/v1/chat/completions`, streamed or not), as Qwen Code calls any OpenAI-compatible base
URL, and as GitHub Copilot CLI calls its own model provider. The main loop's requests carry the agent's tools and get the next scripted turn;
helper requests (the next-speaker check, titles) get one JSON text that satisfies each
helper's schema and consume nothing; a compaction gets SUMMARY."""

from __future__ import annotations

import json
import time
from typing import Any

from e2e_servers import ScriptedServer, Turn, last_of

# the tools the main loop of Qwen Code and of Copilot CLI always offers (their helpers
# offer none)
MAIN_TOOLS = {"write_file", "run_shell_command", "edit", "read_file", "create", "bash"}


class ChatServer(ScriptedServer):
    name = "chat"
    size = 0  # the largest prompt size an answer reported (0: the small default)

    def is_main(self, path: str, body: Any) -> bool:
        if not path.endswith("/chat/completions") or not isinstance(body, dict):
            return False
        names = {
            (t.get("function") or {}).get("name")
            for t in body.get("tools") or []
            if isinstance(t, dict)
        }
        return bool(names & MAIN_TOOLS)

    def is_compaction(self, body: Any) -> bool:
        # Qwen Code's chat compression: no tools, and a request for a <state_snapshot>
        if not isinstance(body, dict) or body.get("tools"):
            return False
        return "state_snapshot" in last_of(body, "messages") + texts_of(body, "system")

    def _message(self, turn: Turn) -> tuple[dict, str]:
        if turn.tool:
            calls = [
                {
                    "id": self._id("call"),
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args)},
                }
                for name, args in [*turn.first, (turn.tool, turn.args)]
            ]
            return {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"
        return {"role": "assistant", "content": turn.text}, "stop"

    def _send(self, handler, body: Any, turn: Turn) -> None:
        message, finish = self._message(turn)
        model = body.get("model", "model") if isinstance(body, dict) else "model"
        prompt = turn.tokens or 100
        usage = {"prompt_tokens": prompt, "completion_tokens": 20, "total_tokens": prompt + 20}
        head = {
            "id": self._id("chatcmpl"),
            "created": int(time.time()),
            "model": model,
        }
        if not (isinstance(body, dict) and body.get("stream")):
            choice = {"index": 0, "message": message, "finish_reason": finish}
            payload = dict(head, object="chat.completion", choices=[choice], usage=usage)
            self.send_json(handler, 200, payload)
            return
        delta = dict(message)
        if "tool_calls" in delta:
            delta["tool_calls"] = [dict(c, index=i) for i, c in enumerate(delta["tool_calls"])]
        chunk = dict(head, object="chat.completion.chunk")
        events = [
            dict(chunk, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
            dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]),
            dict(chunk, choices=[], usage=usage),
        ]
        data = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
        raw = data.encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Content-Length", str(len(raw)))
        handler.end_headers()
        handler.wfile.write(raw)

    def answer_main(self, handler, path, body, turn) -> None:
        if self.is_compaction(body):
            # the summary request carries the whole conversation: it reports the size the
            # conversation last had (Qwen Code takes a summary whose input looks smaller
            # than the conversation for a compression that made it grow, and drops it)
            turn = Turn(text=f"<state_snapshot>{turn.text}</state_snapshot>", tokens=self.size)
        self.size = max(self.size, turn.tokens)
        self._send(handler, body, turn)

    def answer_side(self, handler, method, path, body) -> None:
        bare = path.split("?")[0]
        if method == "POST" and bare.endswith("/chat/completions"):
            answer = {
                "reasoning": "A simple task.",
                "next_speaker": "user",
                "title": "Session",
            }
            self._send(handler, body, Turn(text=json.dumps(answer)))
        elif bare.endswith("/models"):
            self.send_json(handler, 200, {"object": "list", "data": []})
        else:
            self.send_json(handler, 404, {"error": {"message": "not here", "type": "not_found"}})


def texts_of(body: Any, role: str) -> str:
    """The texts of every message of `role` in a chat request."""
    messages = body.get("messages") if isinstance(body, dict) else None
    out = []
    for message in messages if isinstance(messages, list) else []:
        if isinstance(message, dict) and message.get("role") == role:
            content = message.get("content")
            out.append(content if isinstance(content, str) else json.dumps(content))
    return "\n".join(out)
