"""The remote engine against a real OpenAI-compatible server: `python -m llama_cpp.server` (the
`server` extra of llama-cpp-python, in the test extra) on loopback with the default chat model.

Behaviour only, never the model's wording (greedy output of a 135M model differs between CPUs).
Every server started here is stopped at teardown, also when a test fails.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from memchat.config import load_settings
from memchat.engine.llama import LlamaEmbedder
from memchat.engine.openai_compat import OpenAIChatEngine
from memchat.engine.protocol import Sampling
from memchat.pipeline.factory import build_services, open_conversation
from memchat.types import ChatMessage, MemchatError, PromptAssembled, TokenStreamed

pytestmark = pytest.mark.real

N_CTX = 2048
PROMPT = [ChatMessage("system", "You are memchat, a helpful assistant. Answer briefly."),
          ChatMessage("user", "Tell me three facts about the moon.")]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LlamaCppServer:
    """`python -m llama_cpp.server` in its own process group, stopped by `stop()` (idempotent)."""

    def __init__(self, model: Path, log: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._log = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
             "--port", str(self.port), "--n_ctx", str(N_CTX), "--n_threads", "2"],
            stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        self._wait_until_ready(log)

    def _wait_until_ready(self, log: Path, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"llama_cpp.server exited: {log.read_text(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/models", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.25)
        self.stop()
        raise RuntimeError("llama_cpp.server did not answer within 120 s")

    def kill(self) -> None:
        """Kill -9, as a crash would."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


@pytest.fixture(scope="session")
def llama_server(real_model_paths, tmp_path_factory):
    pytest.importorskip("uvicorn", reason='the server extra: pip install -e ".[test]"')
    server = LlamaCppServer(real_model_paths["chat"], tmp_path_factory.mktemp("server") / "server.log")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def remote(llama_server) -> OpenAIChatEngine:
    return OpenAIChatEngine(llama_server.url, timeout=60, connect_timeout=5).wait_until_loaded()


@pytest.fixture(scope="session")
def embedder(real_model_paths) -> LlamaEmbedder:
    return LlamaEmbedder(real_model_paths["embed"], n_threads=2)


def services_for(tmp_path, engine, embedder, **budget):
    settings = load_settings(tmp_path / "none.toml", {"db": str(tmp_path / "remote.db"),
                                                      "budget": {"reserved_output": 96, **budget}}, environ={})
    return build_services(settings, engine=engine, embedder=embedder)


def server_prompt_tokens(url: str, messages: list[ChatMessage]) -> int:
    """The server's own count of a prompt: usage.prompt_tokens of a one-token completion."""
    body = json.dumps({"messages": [{"role": m.role, "content": m.content} for m in messages], "max_tokens": 1})
    request = urllib.request.Request(f"{url}/chat/completions", body.encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)["usage"]["prompt_tokens"]


# ---- the engine on its own ----------------------------------------------------------------------------
def test_the_server_is_understood_and_counts_are_exact(remote, llama_server):
    assert remote.info is not None and remote.info.kind == "llama-cpp-python"
    assert remote.info.tokenizer == "llama-cpp-python" and remote.exact
    assert remote.model.endswith(".gguf") and remote.name.startswith("smollm2-135m-instruct via http://127.0.0.1:")
    long = [*PROMPT, ChatMessage("assistant", "The moon is made of rock.\nIt has no air."),
            ChatMessage("system", "Notes:\n- the user likes short answers\n[fact] lives in Lisbon"),
            ChatMessage("user", "Und auf Deutsch? 月亮 🌕 — with emoji.")]
    for messages in (PROMPT, long):
        assert remote.count_messages(messages) == server_prompt_tokens(llama_server.url, messages)


def test_a_reply_streams_in_pieces(remote):
    pieces: list[str] = []
    arrivals: list[float] = []
    for piece in remote.stream(PROMPT, max_tokens=48, sampling=Sampling(), should_stop=lambda: False):
        pieces.append(piece)
        arrivals.append(time.monotonic())
    assert len(pieces) >= 5 and "".join(pieces).strip()
    assert arrivals[-1] - arrivals[0] > 0  # pieces arrive over time, not as one block
    assert remote.open_streams == 0
    assert remote.prompt_cache() == (0, remote.count_messages(PROMPT))


def test_stop_mid_stream_closes_the_request(remote, llama_server):
    got: list[str] = []
    started = time.monotonic()
    for piece in remote.stream(PROMPT, max_tokens=400, sampling=Sampling(), should_stop=lambda: len(got) >= 3):
        got.append(piece)  # noqa: PERF402 - should_stop reads it while streaming
    assert len(got) == 3 and remote.open_streams == 0
    assert time.monotonic() - started < 30
    # the server gave up the stopped generation: a new request is answered at once, not after 400 tokens
    asked = time.monotonic()
    assert server_prompt_tokens(llama_server.url, PROMPT) > 0
    assert time.monotonic() - asked < 5


def test_a_json_schema_call_returns_valid_json(remote):
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "stars": {"type": "integer"}},
              "required": ["city", "stars"]}
    messages = [ChatMessage("system", "Reply in JSON."), ChatMessage("user", "Name a city and rate it 1 to 5.")]
    data = json.loads(remote.complete_json(messages, schema, max_tokens=60))
    assert isinstance(data["city"], str) and isinstance(data["stars"], int)
    assert remote._json_mode == 1  # llama_cpp.server refuses json_schema; json_object + schema is a grammar


def test_a_prompt_beyond_the_servers_context_teaches_the_engine_its_size(llama_server):
    engine = OpenAIChatEngine(llama_server.url, timeout=60, connect_timeout=5, n_ctx=4096).wait_until_loaded()
    assert engine.n_ctx == 4096  # llama_cpp.server does not say its context: the configured one is believed
    messages = [ChatMessage("system", "Notes. " + "The pear tree by the wall is old. " * 300),
                ChatMessage("user", "Summarise.")]
    assert N_CTX < engine.count_messages(messages) < 4096
    with pytest.raises(MemchatError) as caught:
        "".join(engine.stream(messages, max_tokens=16, sampling=Sampling()))
    assert engine.n_ctx == N_CTX and f"{N_CTX}-token context" in caught.value.message
    assert f"engine.n_ctx = {N_CTX}" in caught.value.hint


# ---- whole turns --------------------------------------------------------------------------------------
def test_a_full_turn_with_the_real_embedder_remembers_and_recalls(tmp_path, remote, embedder):
    services = services_for(tmp_path, remote, embedder)
    conversation = open_conversation(services, "remote")
    first = conversation.run_turn("Hi! I live in Lisbon and my dog is called Pixel.")
    conversation.wait()
    assert first.reply and not first.cancelled
    stored = [m.content for m in services.memories.list_items()]
    assert any("Lisbon" in c for c in stored) and any("Pixel" in c for c in stored)
    events: list = []
    second = conversation.run_turn("What is the name of my dog?", events.append)
    conversation.wait()
    assert second.reply
    assert any("Pixel" in c.memory.content for c in conversation.last_recall.selected)
    report = next(e.budget for e in events if isinstance(e, PromptAssembled))
    assert report.exact and report.n_ctx == N_CTX
    record = json.loads(services.db.scalar("SELECT snapshot FROM turns WHERE turn = 2"))
    assert record["model"]["sha256"] == "" and "http://127.0.0.1:" in record["model"]["name"]
    assert record["timings_ms"]["prompt_evaluated"] > 0


def test_cancel_mid_turn_records_a_cancelled_reply(tmp_path, remote, embedder):
    services = services_for(tmp_path, remote, embedder, reserved_output=400)
    conversation = open_conversation(services, "cancel")
    streamed: list[str] = []

    def emit(event) -> None:
        if isinstance(event, TokenStreamed):
            streamed.append(event.text)

    finished = conversation.run_turn("Write a long story about a lighthouse keeper.", emit,
                                      should_stop=lambda: len(streamed) >= 4)
    assert finished.cancelled and finished.reply.strip()
    stored = conversation.history()[-1]
    assert stored.role == "assistant" and stored.cancelled and remote.open_streams == 0


def test_the_prompt_never_exceeds_the_context_minus_the_reply(tmp_path, embedder, llama_server):
    remote = OpenAIChatEngine(llama_server.url, timeout=60, connect_timeout=5, n_ctx=1024).wait_until_loaded()
    assert remote.n_ctx == 1024  # engine.n_ctx below the server's 2048: prompts read faster on 2 cores
    services = services_for(tmp_path, remote, embedder)
    conversation = open_conversation(services, "budget")
    session = conversation.session.id
    paragraph = "I keep notes about my garden, the tomatoes, the basil and the old pear tree by the wall. "
    for i in range(40):  # far more history than 2048 tokens hold
        services.sessions.add_message(session, "user", f"Day {i}: {paragraph * 3}")
        services.sessions.add_message(session, "assistant", f"Noted day {i}.")
    services.db.execute("UPDATE messages SET extracted = 1")
    limit = remote.n_ctx - services.limits.reserved_output
    for text in ("What grows by the wall?", "Here is my whole diary: " + paragraph * 200):
        events: list = []
        conversation.run_turn(text, events.append)
        conversation.wait()
        assembled = next(e for e in events if isinstance(e, PromptAssembled))
        assert assembled.budget.prompt_tokens <= limit
        assert server_prompt_tokens(llama_server.url, assembled.messages) == assembled.budget.prompt_tokens


async def test_tui_streams_counts_exactly_and_esc_stops(tmp_path, remote, embedder):
    from test_ui_chat import wait_until

    from memchat.ui.app import MemchatApp
    from memchat.ui.budget_bar import BudgetBar
    from memchat.ui.chat_view import ChatView
    from memchat.ui.prompt_input import PromptInput

    settings = load_settings(tmp_path / "none.toml", {"db": str(tmp_path / "tui.db"),
                                                      "budget": {"reserved_output": 300}}, environ={})
    app = MemchatApp.from_settings(settings, engine=remote, embedder=embedder)
    async with app.run_test(size=(120, 40)) as pilot:
        app.chat.query_one(PromptInput).load_text("Write a long story about a lighthouse keeper.")
        await pilot.press("enter")
        chat = app.chat.query_one(ChatView)
        await wait_until(pilot, lambda: chat.replies and len(chat.replies[-1].source.split()) >= 3, timeout=60)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.chat.pane.streaming, timeout=10)
        assert chat.replies[-1].cancelled
        stored = app.conversation.history()[-1]
        assert stored.role == "assistant" and stored.cancelled and stored.content.strip()
        bar = app.chat.query_one(BudgetBar)
        assert bar.report is not None and bar.report.exact and bar.report.n_ctx == N_CTX
        assert remote.open_streams == 0
        app.conversation.wait()


# ---- a server that dies ---------------------------------------------------------------------------------
def test_server_killed_mid_stream_is_a_clear_error_and_the_message_is_kept(tmp_path, real_model_paths, embedder):
    server = LlamaCppServer(real_model_paths["chat"], tmp_path / "dying.log")
    try:
        engine = OpenAIChatEngine(server.url, timeout=30, connect_timeout=2).wait_until_loaded()
        services = services_for(tmp_path, engine, embedder, reserved_output=400)
        conversation = open_conversation(services, "dies")

        def emit(event) -> None:
            if isinstance(event, TokenStreamed):
                server.kill()

        started = time.monotonic()
        with pytest.raises(MemchatError) as caught:
            conversation.run_turn("Write a long story about a lighthouse keeper.", emit)
        assert time.monotonic() - started < 30
        assert "lost mid-reply" in caught.value.message and "still running" in caught.value.hint
        kept = conversation.unanswered()
        assert kept is not None and kept.content.startswith("Write a long story")
        assert engine.open_streams == 0
        with pytest.raises(MemchatError, match="connection refused"):  # sending again while it is down
            conversation.run_turn("Write a long story about a lighthouse keeper.")
        assert conversation.unanswered() is not None and len(conversation.history()) == 1
    finally:
        server.stop()
