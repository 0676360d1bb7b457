"""HTTP to an OpenAI-compatible model server: JSON calls and SSE streams, stdlib only.

Every failure leaves here as a MemchatError — one line saying what went wrong with the
server and one saying what to do — never a socket traceback, and never after an unbounded
wait: connecting is bounded by `connect_timeout`, every later read by `timeout`.
A stream can be stopped at any moment: a watcher shuts the socket down as soon as
`should_stop()` turns true, so a reply waiting on a slow server stops at once and the
server sees the request closed. The API key is read from the environment per request and
only ever put in the Authorization header: never in a message, a name or a repr.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import ssl
import threading
from collections.abc import Callable, Generator, Iterator
from typing import Any
from urllib.parse import urlsplit

from memchat.types import MemchatError

MAX_BODY = 64 << 20
"""Largest JSON answer read (a runaway server cannot fill the memory)."""
STOP_POLL = 0.02
"""Seconds between two looks at should_stop while a stream waits for the server."""
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOST = (ConnectionResetError, ConnectionAbortedError, BrokenPipeError, http.client.RemoteDisconnected,
         http.client.IncompleteRead)


class ServerError(MemchatError):
    """The server answered with an HTTP error; `detail` is its own one-line explanation."""

    def __init__(self, message: str, hint: str, *, status: int, detail: str) -> None:
        super().__init__(message, hint)
        self.status = status
        self.detail = detail


class ConnectionLost(MemchatError):
    """The server stopped answering or closed the connection before the answer was complete."""


def one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _server_detail(raw: bytes) -> str:
    """The message inside an error body ({"error": {"message": …}}, {"detail": …}, or text)."""
    text = raw.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        return one_line(text)
    if isinstance(data, dict):
        error = data.get("error", data.get("detail", data.get("message", data)))
        if isinstance(error, dict):
            error = error.get("message", error)
        return one_line(str(error))
    return one_line(text)


class HttpClient:
    """JSON requests and SSE streams to one server. Thread-safe: each thread keeps its own connection."""

    def __init__(self, base_url: str, *, timeout: float, connect_timeout: float, api_key_env: str = "") -> None:
        parts = urlsplit(base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise MemchatError(f"engine.base_url {one_line(base_url, 80)!r} is not an http(s) URL",
                               "set it like http://127.0.0.1:8080/v1 (config [engine] base_url, or --base-url)")
        if api_key_env and not _ENV_NAME.fullmatch(api_key_env):  # never echo it: it may be the key itself
            raise MemchatError("engine.api_key_env must be the NAME of an environment variable, not the key",
                               "e.g. api_key_env = \"OPENAI_API_KEY\", then export OPENAI_API_KEY=… before memchat")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        try:
            self._port = parts.port or (443 if self._https else 80)
        except ValueError as exc:
            raise MemchatError(f"engine.base_url has a bad port: {exc}", "e.g. http://127.0.0.1:8080/v1") from exc
        self._prefix = parts.path.rstrip("/").removesuffix("/v1")
        host = f"[{self._host}]" if ":" in self._host else self._host
        self.display = f"{parts.scheme}://{host}:{self._port}{self._prefix}"
        """The server's address without user, password or query: safe to show and to record."""
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.api_key_env = api_key_env
        self._local = threading.local()

    # ---- connections ----------------------------------------------------------
    def _connect(self) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        conn = kind(self._host, self._port, timeout=self.connect_timeout)
        try:
            conn.connect()
        except TimeoutError as exc:
            conn.close()
            raise MemchatError(f"the model server at {self.display} did not accept a connection within "
                               f"{self.connect_timeout:g} s", self._reach_hint()) from exc
        except OSError as exc:
            conn.close()
            raise self._unreachable(exc) from exc
        assert conn.sock is not None
        conn.sock.settimeout(self.timeout)
        conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # small requests go out at once
        return conn

    def _reach_hint(self) -> str:
        return "start the server (see the README's \"Using a model on a server\"), or fix engine.base_url / --base-url"

    def _unreachable(self, exc: OSError) -> MemchatError:
        if isinstance(exc, ConnectionRefusedError):
            why = "connection refused"
        elif isinstance(exc, socket.gaierror):
            why = f"unknown host {self._host}"
        elif isinstance(exc, ssl.SSLError):
            why = f"TLS failed ({exc.reason or exc})"
        else:
            why = exc.strerror or str(exc) or type(exc).__name__
        return MemchatError(f"cannot reach the model server at {self.display}: {why}", self._reach_hint())

    def _lost(self, exc: BaseException, doing: str) -> ConnectionLost:
        if isinstance(exc, (TimeoutError, socket.timeout)):
            return ConnectionLost(f"the model server at {self.display} sent nothing for {self.timeout:g} s {doing}",
                                "the server may be overloaded or still loading the model: check it, or raise "
                                "engine.timeout; then send the message again")
        return ConnectionLost(f"the connection to the model server at {self.display} was lost {doing}",
                            "check that the server is still running, then send the message again")

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.api_key_env:
            key = os.environ.get(self.api_key_env, "")
            if not key:
                raise MemchatError(f"the environment variable {self.api_key_env} (engine.api_key_env) is empty",
                                   f"export {self.api_key_env}=<your key> before starting memchat")
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _open(self, conn: http.client.HTTPConnection, method: str, path: str,
              body: dict[str, Any] | None) -> http.client.HTTPResponse:
        data = None if body is None else json.dumps(body).encode("utf-8")
        conn.request(method, self._prefix + path, body=data, headers=self._headers())
        return conn.getresponse()

    # ---- JSON -----------------------------------------------------------------
    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One JSON call on this thread's kept-alive connection (reopened once if the server dropped it)."""
        for attempt in (0, 1):
            conn = getattr(self._local, "conn", None)
            reused = conn is not None
            if conn is None:
                conn = self._local.conn = self._connect()
            try:
                response = self._open(conn, method, path, body)
                raw = response.read(MAX_BODY + 1)
            except BaseException as exc:
                conn.close()
                self._local.conn = None
                if reused and attempt == 0 and isinstance(exc, _LOST):
                    continue  # an idle keep-alive connection the server had closed
                if isinstance(exc, (OSError, http.client.HTTPException)):
                    raise self._lost(exc, f"answering {path}") from exc
                raise
            if response.will_close:
                conn.close()
                self._local.conn = None
            return self._json(response.status, raw, path)
        raise AssertionError("unreachable")

    def _json(self, status: int, raw: bytes, path: str) -> Any:
        if status >= 400:
            raise self.http_error(status, raw, path)
        if len(raw) > MAX_BODY:
            raise MemchatError(f"the model server's answer to {path} is larger than {MAX_BODY >> 20} MB",
                               "check engine.base_url points at an OpenAI-compatible server")
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise MemchatError(f"the model server at {self.display} answered {path} with something that is not "
                               f"JSON ({one_line(raw.decode('utf-8', 'replace'), 60)!r})",
                               "check that engine.base_url points at an OpenAI-compatible server") from exc

    def http_error(self, status: int, raw: bytes, path: str) -> ServerError:
        detail = _server_detail(raw)
        if status in (401, 403):
            hint = (f"check the key in ${self.api_key_env}" if self.api_key_env else
                    "set engine.api_key_env to the name of the environment variable holding the key")
            return ServerError(f"the model server refused the request ({status}: {detail})", hint,
                               status=status, detail=detail)
        if status == 404:
            return ServerError(f"the model server at {self.display} has no {path} ({detail})",
                               "check engine.base_url (e.g. http://127.0.0.1:8080/v1) and engine.model",
                               status=status, detail=detail)
        return ServerError(f"the model server failed ({status}): {detail}",
                           "check the server's log; send the message again to retry", status=status, detail=detail)

    # ---- SSE ------------------------------------------------------------------
    def stream(self, path: str, body: dict[str, Any],
               should_stop: Callable[[], bool]) -> Generator[dict[str, Any], None, None]:
        """The JSON events of a server-sent-event stream, on a connection of its own that is closed
        as soon as `should_stop()` is true, the caller stops iterating, or the stream ends."""
        conn = self._connect()
        watcher = _StopWatcher(conn.sock, should_stop)
        try:
            try:
                response = self._open(conn, "POST", path, body)
            except (OSError, http.client.HTTPException) as exc:
                if watcher.fired:
                    return
                raise self._lost(exc, "before replying") from exc
            if response.status >= 400:
                raise self.http_error(response.status, response.read(MAX_BODY), path)
            if "text/event-stream" not in (response.getheader("Content-Type") or ""):
                yield self._json(response.status, response.read(MAX_BODY + 1), path)  # a server that ignored stream
                return
            yield from self._events(response, watcher)
        finally:
            watcher.finish()
            conn.close()

    def _events(self, response: http.client.HTTPResponse, watcher: _StopWatcher) -> Iterator[dict[str, Any]]:
        data: list[str] = []
        kind = ""  # "error" for an `error:` line or `event: error`
        finished = False  # a choice said why it ended: the end of the stream is no loss, even without [DONE]
        while True:
            try:
                line = response.readline(MAX_BODY)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                if watcher.fired:
                    return
                raise self._lost(exc, "mid-reply") from exc
            if not line:
                if watcher.fired or finished:
                    return
                raise self._lost(ConnectionResetError(), "mid-reply")
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            if text.startswith(":"):
                continue  # a comment (keep-alive ping)
            if text:
                name, _, value = text.partition(":")
                value = value.removeprefix(" ")
                if name in ("data", "error"):
                    data.append(value)
                if name == "error" or (name == "event" and value.strip() == "error"):
                    kind = "error"
                continue
            if not data:
                continue
            payload, is_error = "\n".join(data), kind == "error"
            data, kind = [], ""
            if payload.strip() == "[DONE]":
                return
            event = self._event(payload, is_error)
            choices = event.get("choices")
            finished = isinstance(choices, list) and any(isinstance(c, dict) and c.get("finish_reason")
                                                         for c in choices)
            yield event

    def _event(self, payload: str, is_error: bool) -> dict[str, Any]:
        if is_error:
            raise self.http_error(500, payload.encode("utf-8"), "the stream")
        try:
            event = json.loads(payload)
        except ValueError as exc:
            raise MemchatError(f"the model server's stream holds something that is not JSON "
                               f"({one_line(payload, 60)!r})", "check that engine.base_url points at an "
                               "OpenAI-compatible server; send the message again") from exc
        if isinstance(event, dict) and "error" in event:
            raise self.http_error(500, payload.encode("utf-8"), "the stream")
        if not isinstance(event, dict):
            raise MemchatError(f"the model server's stream holds {one_line(payload, 60)!r}, not an event",
                               "check that engine.base_url points at an OpenAI-compatible server")
        return event


class _StopWatcher:
    """Shuts a stream's socket down the moment `should_stop()` is true: a blocked read returns at once."""

    def __init__(self, sock: socket.socket | None, should_stop: Callable[[], bool]) -> None:
        self.fired = False
        self._sock = sock
        """Held here: http.client lets go of a connection's socket once a response says it will close."""
        self._should_stop = should_stop
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="memchat-stream-stop", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.wait(STOP_POLL):
            if self._should_stop():
                self.fired = True
                try:
                    if self._sock is not None:
                        self._sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return

    def finish(self) -> None:
        self._done.set()
        self._thread.join()
