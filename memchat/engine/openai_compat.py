"""The chat engine for a model on an OpenAI-compatible server (llama-server, llama_cpp.server,
Ollama's /v1, vLLM, LM Studio). Embeddings on the same server: `memchat.engine.remote_embed`.

It keeps the ChatEngine contract the local engine keeps: replies stream piece by piece and
stop at once (the HTTP request is closed); JSON calls are schema-constrained where the server
can (`response_format` json_schema, then llama.cpp's json_object + schema) and plain calls
otherwise, validated by the caller as before; token counts are the server's own tokenizer's
where it has a tokenise endpoint (`exact`), tiktoken estimates otherwise (shown as `~`).
Nothing here touches the disk: the key stays in its environment variable.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from pathlib import PurePosixPath
from typing import Any

from memchat.engine import server_probe
from memchat.engine.estimate import EstimatingCounter
from memchat.engine.http_client import ConnectionLost, HttpClient, ServerError, one_line
from memchat.engine.protocol import Sampling
from memchat.engine.server_probe import ChatFraming, ServerInfo
from memchat.types import ChatMessage, MemchatError

DEFAULT_CTX = 2048
"""Context assumed when neither the server nor engine.n_ctx says (llama_cpp.server's and Ollama's default)."""
CHAT = "/v1/chat/completions"
JSON_MODES = ("json_schema", "json_object", "plain")
_CONTEXT_LIMIT = re.compile(r"(?:context (?:window|length|size)|n_ctx)\D{0,40}?(\d{3,7})", re.IGNORECASE)
_EXTRAS = ("repeat_penalty", "stream_options")
"""Fields beyond OpenAI's own: llama.cpp reads repeat_penalty; usage in streams needs stream_options."""


def short_model(model: str) -> str:
    """A served model's name for display: llama.cpp servers name a model by its file path."""
    return PurePosixPath(model).stem if model.endswith(".gguf") else model


class OpenAIChatEngine:
    """ChatEngine over HTTP. Ask the server what it is on first real use (`wait_until_loaded`)."""

    file_sha256 = ""
    """No model file here: snapshots record the model's served name and the server's address instead."""

    def __init__(self, base_url: str, *, model: str = "", api_key_env: str = "", timeout: float = 120.0,
                 connect_timeout: float = 5.0, n_ctx: int = 0) -> None:
        self._client = HttpClient(base_url, timeout=timeout, connect_timeout=connect_timeout, api_key_env=api_key_env)
        self._configured_ctx = n_ctx
        self.model = model
        self.n_ctx = n_ctx or DEFAULT_CTX
        self.n_ctx_source = "engine.n_ctx" if n_ctx else "assumed: the server does not say; set engine.n_ctx"
        self.info: ServerInfo | None = None
        self.framing: ChatFraming | None = None
        self._probe_lock = threading.Lock()
        self._counts: OrderedDict[str, int] = OrderedDict()
        self._counts_lock = threading.Lock()
        self._estimate = EstimatingCounter()
        self._last_cache = (0, 0)
        self._extras = True
        self._json_mode = 0
        self.open_streams = 0
        """Streams whose HTTP request is still open (0 once a reply ended, was stopped or failed)."""
        self._set_name()

    def _set_name(self) -> None:
        self.name = f"{short_model(self.model) or 'model'} via {self._client.display}"

    @property
    def server(self) -> str:
        return self._client.display

    # ---- what the server is ---------------------------------------------------
    def describe(self) -> ServerInfo:
        """Ask the server for its models, context size and tokeniser (cached once it answered)."""
        with self._probe_lock:
            if self.info is None:
                info = server_probe.probe(self._client, self.model)
                if not self.model and info.models:
                    self.model = info.models[0]
                    self._set_name()
                if info.n_ctx:
                    configured = self._configured_ctx
                    self.n_ctx = min(configured, info.n_ctx) if configured else info.n_ctx
                    self.n_ctx_source = "engine.n_ctx" if configured and configured < info.n_ctx else "the server"
                self.info = info
            return self.info

    def wait_until_loaded(self) -> OpenAIChatEngine:
        """Probe the server, and measure its chat template's frames when it can tokenise (once)."""
        info = self.describe()
        with self._probe_lock:
            if self.framing is None:
                self.framing = (server_probe.calibrate(self._prompt_size, self.count) if info.tokenizer
                                else server_probe.GUESS)
        return self

    @property
    def exact(self) -> bool:
        return bool(self.info and self.info.tokenizer and self.framing and self.framing.exact)

    def utility(self) -> OpenAIChatEngine:
        """The server keeps its own caches and slots: background work shares this engine."""
        return self

    # ---- counting -------------------------------------------------------------
    def count(self, text: str) -> int:
        if not text:
            return 0
        info = self.info
        if info is None or info.tokenizer is None:
            return self._estimate.count(text)
        with self._counts_lock:
            if text in self._counts:
                self._counts.move_to_end(text)
                return self._counts[text]
        size = server_probe.tokens(self._client, info.tokenizer, self.model, text) - self._bos(info)
        with self._counts_lock:
            self._counts[text] = size
            if len(self._counts) > 8192:
                self._counts.popitem(last=False)
        return size

    def _bos(self, info: ServerInfo) -> int:
        """llama_cpp.server's tokenise endpoint always adds BOS (when the model has one): counted once."""
        if info.tokenizer != "llama-cpp-python":
            return 0
        bos = self._counts.get("")
        if bos is None:
            bos = self._counts[""] = server_probe.tokens(self._client, info.tokenizer, self.model, "")
        return bos

    def render(self, messages: Sequence[ChatMessage]) -> str:
        """A ChatML rendering, for estimates only: the server applies the model's own template."""
        return "".join(f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in messages) + "<|im_start|>assistant\n"

    def count_messages(self, messages: Sequence[ChatMessage]) -> int:
        if self.info is None or self.info.tokenizer is None:
            return self._estimate.count(self.render(messages))
        return (self.framing or server_probe.GUESS).count(messages, self.count)

    def _prompt_size(self, messages: list[ChatMessage]) -> int | None:
        """The server's own count of a prompt (usage.prompt_tokens of a one-token call), None if not said."""
        try:
            answer = self._client.request("POST", CHAT, self._body(messages, 1, Sampling(temperature=0.0)))
        except MemchatError:
            return None
        usage = answer.get("usage") if isinstance(answer, dict) else None
        size = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        return size if isinstance(size, int) and size > 0 else None

    # ---- generation -----------------------------------------------------------
    def _body(self, messages: Sequence[ChatMessage], max_tokens: int, sampling: Sampling, *,
              stream: bool = False) -> dict[str, Any]:
        body: dict[str, Any] = {
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "max_tokens": max_tokens,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "presence_penalty": sampling.presence_penalty,
            "frequency_penalty": sampling.frequency_penalty,
            "stream": stream,
        }
        if self.model:
            body["model"] = self.model
        if sampling.seed >= 0:
            body["seed"] = sampling.seed
        if self._extras:
            body["repeat_penalty"] = sampling.repeat_penalty
            if stream:
                body["stream_options"] = {"include_usage": True}
        return body

    def _fit(self, messages: Sequence[ChatMessage], max_tokens: int) -> int:
        """Tokens the reply may take: what is asked, within what the context leaves after the prompt."""
        prompt = self.count_messages(messages)
        if prompt + 1 > self.n_ctx:
            raise MemchatError(f"prompt of {prompt} tokens does not fit the {self.n_ctx}-token context",
                               "shorten the message, or raise engine.n_ctx (and the server's context)")
        return max(1, min(max_tokens, self.n_ctx - prompt))

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        sampling: Sampling,
        should_stop: Callable[[], bool] = lambda: False,
    ) -> Iterator[str]:
        """Reply pieces from the server's SSE stream; `sampling.avoid` has no server-side equivalent."""
        self.wait_until_loaded()
        budget = self._fit(messages, max_tokens)
        self._last_cache = (0, self.count_messages(messages))  # unless the server reports its cache use
        self.open_streams += 1
        try:
            for event in self._events(lambda: self._body(messages, budget, sampling, stream=True), should_stop):
                self._note_cache(event)
                choices = event.get("choices")
                if not isinstance(choices, list):
                    raise MemchatError(f"the model server's stream holds {one_line(json.dumps(event), 60)!r}",
                                       "check that engine.base_url points at an OpenAI-compatible server")
                text = _piece(choices[0]) if choices else None
                if text:
                    yield text
                if should_stop():
                    return
        finally:
            self.open_streams -= 1

    def _events(self, body: Callable[[], dict[str, Any]], should_stop: Callable[[], bool]) -> Iterator[dict[str, Any]]:
        """The stream's events; a server that refuses llama.cpp's extra fields is asked again without them."""
        events = self._client.stream(CHAT, body(), should_stop)
        try:
            first = next(events, None)
        except ConnectionLost as lost:
            raise self._why(lost, body()) from lost
        except ServerError as error:
            events.close()
            if not (self._extras and error.status in (400, 422) and
                    any(word in error.detail.lower() for word in (*_EXTRAS, "unrecognized", "extra"))):
                raise self._explained(error) from error
            self._extras = False
            events = self._client.stream(CHAT, body(), should_stop)
            first = next(events, None)
        if first is None:
            return
        yield first
        try:
            yield from events
        except ServerError as error:
            raise self._explained(error) from error
        finally:
            events.close()

    def _why(self, lost: ConnectionLost, body: dict[str, Any]) -> MemchatError:
        """A stream dropped before its first event: llama_cpp.server fails a prompt longer than its context
        that way, after its 200. The same request without streaming, for one token, gets the reason said."""
        body = {key: value for key, value in body.items() if key != "stream_options"}
        try:
            self._client.request("POST", CHAT, {**body, "stream": False, "max_tokens": 1})
        except ServerError as error:
            return self._explained(error)
        except MemchatError as error:
            return error  # e.g. the server is gone now: "cannot reach" says more than "lost"
        return lost

    def _explained(self, error: ServerError) -> MemchatError:
        """A context overflow says the server's real context size: budget for it from now on."""
        found = _CONTEXT_LIMIT.search(error.detail)
        if not found or int(found.group(1)) >= self.n_ctx:
            return error
        self.n_ctx = int(found.group(1))
        self.n_ctx_source = "the server (from its error)"
        return MemchatError(f"the prompt did not fit the server's {self.n_ctx}-token context",
                            f"memchat budgets for {self.n_ctx} tokens from now on: send the message again "
                            f"(set engine.n_ctx = {self.n_ctx} to keep it)")

    def _note_cache(self, event: dict[str, Any]) -> None:
        """(reused, evaluated) prompt tokens from what the server reports: llama-server's timings, or
        OpenAI's usage with cached_tokens."""
        timings, usage = event.get("timings"), event.get("usage")
        if isinstance(timings, dict) and isinstance(timings.get("prompt_n"), int):
            self._last_cache = (int(timings.get("cache_n") or 0), timings["prompt_n"])
        elif isinstance(usage, dict) and isinstance(usage.get("prompt_tokens"), int):
            details = usage.get("prompt_tokens_details")
            cached = details.get("cached_tokens") if isinstance(details, dict) else 0
            cached = cached if isinstance(cached, int) else 0
            self._last_cache = (cached, usage["prompt_tokens"] - cached)

    def prompt_cache(self) -> tuple[int, int]:
        return self._last_cache

    def prewarm(self, messages: Sequence[ChatMessage], should_stop: Callable[[], bool] = lambda: False, *,
                whole: bool = False) -> int:
        """Nothing to do: the server keeps its own prompt cache (llama-server reuses a slot's prefix)."""
        return 0

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int) -> str:
        """JSON constrained by `schema` where the server can; the caller validates and records failures."""
        self.wait_until_loaded()
        while True:
            mode = JSON_MODES[self._json_mode]
            asked = list(messages) if mode != "plain" else [*messages, ChatMessage(
                "system", f"Answer with JSON only, matching this JSON schema: {json.dumps(schema)}")]
            body = self._body(asked, self._fit(asked, max(16, max_tokens)), Sampling(temperature=0.0))
            if mode == "json_schema":
                body["response_format"] = {"type": "json_schema",
                                           "json_schema": {"name": "memchat", "schema": schema, "strict": True}}
            elif mode == "json_object":
                body["response_format"] = {"type": "json_object", "schema": schema}
            try:
                answer = self._client.request("POST", CHAT, body)
            except ServerError as error:
                if mode != "plain" and _rejects_format(error):
                    self._json_mode += 1
                    continue
                raise self._explained(error) from error
            text = _message_text(answer)
            return text if mode != "plain" else _json_part(text)


def _piece(choice: Any) -> str | None:
    """The text of one streamed choice (`delta`), or of a whole answer from a server that ignored stream."""
    if not isinstance(choice, dict):
        return None
    delta = choice.get("delta") or choice.get("message")
    text = delta.get("content") if isinstance(delta, dict) else None
    return text if isinstance(text, str) else None


def _rejects_format(error: ServerError) -> bool:
    detail = error.detail.lower()
    return error.status in (400, 404, 415, 422, 500, 501) and any(
        word in detail for word in ("response_format", "json_schema", "json_object", "schema", "grammar"))


def _message_text(answer: Any) -> str:
    try:
        text = answer["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise MemchatError(f"the model server's answer is not a chat completion ({one_line(str(answer), 60)!r})",
                           "check that engine.base_url points at an OpenAI-compatible server") from exc
    return text if isinstance(text, str) else ""


def _json_part(text: str) -> str:
    """The JSON value inside a plain reply (code fences and chatter around it dropped), else the reply."""
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        return text
    try:
        value, _ = json.JSONDecoder().raw_decode(text[start:])
    except ValueError:
        return text
    return json.dumps(value, ensure_ascii=False)
