"""A scripted OpenAI-compatible server (stdlib http.server in a thread) for fast remote-engine tests.

Its tokenizer makes one token per whitespace-separated word, and its chat template adds
FRAME_BASE tokens per prompt and FRAME_ROLE per message, so a test knows the exact count
a prompt should have. `routes` replaces any endpoint with a function for a misbehaviour
(garbage, errors, slowness, dying mid-stream).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

FRAME_BASE = 3
FRAME_ROLE = {"system": 4, "user": 4, "assistant": 5}


def words(text: str) -> int:
    return len(text.split())


def prompt_size(messages: list[dict[str, str]]) -> int:
    return FRAME_BASE + sum(FRAME_ROLE[m["role"]] + words(m["content"]) for m in messages)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # headers and body: no 40 ms stall

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def send_json(self, data: Any, status: int = 200) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def send_raw(self, raw: bytes, content_type: str, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def start_events(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def event(self, data: Any) -> None:
        """One SSE event; notes on the server when the client has gone away."""
        try:
            self.wfile.write(f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n".encode())
            self.wfile.flush()
        except OSError:
            self.server.fake.client_left.set()
            raise

    def do_GET(self) -> None:
        self.handle_route("GET", None)

    def do_POST(self) -> None:
        self.handle_route("POST", self.body())

    def handle_route(self, method: str, body: dict[str, Any] | None) -> None:
        fake = self.server.fake
        fake.requests.append((method, self.path, body, dict(self.headers)))
        route = fake.routes.get(self.path)
        try:
            if route is not None:
                route(self, body)
            else:
                fake.default(self, method, body)
        except OSError:
            pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeOpenAIServer


class FakeOpenAIServer:
    def __init__(self, *, tokenizer: str | None = "llama-server", n_ctx: int | None = 4096,
                 reply: str = "Hello there, nice to meet you.", json_modes: tuple[str, ...] = ("json_schema",),
                 usage: bool = True, piece_delay: float = 0.0) -> None:
        self.tokenizer = tokenizer
        self.n_ctx = n_ctx
        self.reply = reply
        self.json_modes = json_modes
        self.usage = usage
        self.piece_delay = piece_delay
        self.routes: dict[str, Callable[[Handler, dict[str, Any] | None], None]] = {}
        self.requests: list[tuple[str, str, dict[str, Any] | None, dict[str, str]]] = []
        self.client_left = threading.Event()
        self._server = _Server(("127.0.0.1", 0), Handler)
        self._server.fake = self
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def chats(self) -> list[dict[str, Any]]:
        return [body for method, path, body, _ in self.requests if path == "/v1/chat/completions" and body]

    # ---- the well-behaved server ------------------------------------------------
    def default(self, handler: Handler, method: str, body: dict[str, Any] | None) -> None:
        path = handler.path
        if path == "/v1/models":
            handler.send_json({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        elif path == "/props" and self.tokenizer == "llama-server":
            handler.send_json({"default_generation_settings": {"n_ctx": self.n_ctx}, "total_slots": 1})
        elif path == "/tokenize" and self.tokenizer == "llama-server" and body is not None:
            handler.send_json({"tokens": list(range(words(body["content"])))})
        elif path == "/extras/tokenize" and self.tokenizer == "llama-cpp-python" and body is not None:
            handler.send_json({"tokens": list(range(words(body["input"])))})
        elif path == "/v1/chat/completions" and body is not None:
            self.chat(handler, body)
        elif path == "/v1/embeddings" and body is not None:
            vectors = [[float(len(text)), 1.0, 0.0] for text in body["input"]]
            handler.send_json({"data": [{"index": i, "embedding": v} for i, v in enumerate(vectors)]})
        else:
            handler.send_json({"detail": "Not Found"}, status=404)

    def chat(self, handler: Handler, body: dict[str, Any]) -> None:
        format_type = (body.get("response_format") or {}).get("type")
        if format_type and format_type not in self.json_modes:
            handler.send_json({"error": {"message": f"response_format type {format_type} is not supported"}}, 500)
            return
        reply = '{"items": []}' if format_type else self.reply
        usage = {"prompt_tokens": prompt_size(body["messages"]), "completion_tokens": words(reply)}
        if not body.get("stream"):
            answer: dict[str, Any] = {"choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                                                   "finish_reason": "stop"}]}
            if self.usage:
                answer["usage"] = usage
            handler.send_json(answer)
            return
        handler.start_events()
        for piece in reply.split(" "):
            if self.piece_delay:
                time.sleep(self.piece_delay)
            handler.event({"choices": [{"index": 0, "delta": {"content": piece + " "}, "finish_reason": None}]})
        handler.event({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                       **({"usage": usage} if self.usage else {})})
        handler.event("[DONE]")
