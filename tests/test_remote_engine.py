"""The OpenAI-compatible engine against a scripted server: counting, streaming, stopping, JSON
modes, and every way a server can fail (refused, silent, slow, 500, garbage, dying mid-reply)."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
from fake_openai_server import FRAME_BASE, FRAME_ROLE, FakeOpenAIServer, words

from memchat.engine.openai_compat import OpenAIChatEngine
from memchat.engine.protocol import Sampling
from memchat.engine.remote_embed import RemoteEmbedder
from memchat.types import ChatMessage, MemchatError

PROMPT = [ChatMessage("system", "You are memchat."), ChatMessage("user", "Tell me something nice.")]
SCHEMA = {"type": "object", "properties": {"items": {"type": "array"}}, "required": ["items"]}


def engine_for(server: FakeOpenAIServer, **kwargs) -> OpenAIChatEngine:
    return OpenAIChatEngine(server.url, timeout=kwargs.pop("timeout", 5.0), connect_timeout=1.0, **kwargs)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def reply_of(engine: OpenAIChatEngine, should_stop=lambda: False) -> str:
    return "".join(engine.stream(PROMPT, max_tokens=64, sampling=Sampling(), should_stop=should_stop))


# ---- what the server is ---------------------------------------------------------------------
def test_llama_server_counts_exactly_with_its_context_and_template_frames():
    with FakeOpenAIServer(tokenizer="llama-server", n_ctx=8192) as server:
        engine = engine_for(server).wait_until_loaded()
        assert engine.exact and engine.n_ctx == 8192 and engine.model == "fake-model"
        assert engine.count("one two three") == 3
        expected = FRAME_BASE + sum(FRAME_ROLE[m.role] + words(m.content) for m in PROMPT)
        assert engine.count_messages(PROMPT) == expected
        assert engine.framing is not None and engine.framing.roles == FRAME_ROLE


def test_configured_context_is_capped_by_the_servers():
    with FakeOpenAIServer(tokenizer="llama-server", n_ctx=2048) as server:
        assert engine_for(server, n_ctx=8192).wait_until_loaded().n_ctx == 2048
        assert engine_for(server, n_ctx=1024).wait_until_loaded().n_ctx == 1024


def test_llama_cpp_python_tokenises_but_does_not_say_its_context():
    with FakeOpenAIServer(tokenizer="llama-cpp-python", n_ctx=None) as server:
        engine = engine_for(server).wait_until_loaded()
        assert engine.info is not None and engine.info.kind == "llama-cpp-python"
        assert engine.exact and engine.n_ctx == 2048 and "assumed" in engine.n_ctx_source
        assert engine_for(server, n_ctx=3000).wait_until_loaded().n_ctx == 3000


def test_a_server_without_tokenisation_gives_estimates_marked_inexact():
    with FakeOpenAIServer(tokenizer=None, n_ctx=None) as server:
        engine = engine_for(server).wait_until_loaded()
        assert not engine.exact
        asked = len(server.requests)
        assert engine.count("one two three") > 0 and engine.count_messages(PROMPT) > engine.count(PROMPT[1].content)
        assert len(server.requests) == asked  # estimates: the server is not asked
        assert reply_of(engine).startswith("Hello there")


def test_a_server_that_reports_no_usage_is_counted_but_not_called_exact():
    with FakeOpenAIServer(tokenizer="llama-server", usage=False) as server:
        engine = engine_for(server).wait_until_loaded()
        assert not engine.exact and engine.count("a b") == 2


# ---- streaming and stopping ---------------------------------------------------------------------
def test_stream_yields_pieces_and_sends_the_sampler():
    with FakeOpenAIServer() as server:
        engine = engine_for(server)
        pieces = list(engine.stream(PROMPT, max_tokens=64, sampling=Sampling(temperature=0.7, seed=7),
                                    should_stop=lambda: False))
        assert len(pieces) > 3 and "".join(pieces).strip() == server.reply
        body = server.chats()[-1]
        assert body["stream"] and body["temperature"] == 0.7 and body["seed"] == 7 and body["model"] == "fake-model"
        assert body["max_tokens"] == 64
        assert engine.prompt_cache() == (0, FRAME_BASE + sum(FRAME_ROLE[m.role] + words(m.content) for m in PROMPT))
        assert engine.open_streams == 0


def test_stop_while_the_server_is_silent_closes_the_request_at_once():
    def silent(handler, body):
        handler.start_events()
        for _ in range(100):  # a long prompt being read: nothing but keep-alive comments for 10 s
            time.sleep(0.1)
            try:
                handler.wfile.write(b": ping\n\n")
                handler.wfile.flush()
            except OSError:
                server.client_left.set()
                return

    with FakeOpenAIServer() as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = silent
        stop = threading.Event()
        threading.Timer(0.3, stop.set).start()
        started = time.monotonic()
        assert reply_of(engine, stop.is_set) == ""
        assert time.monotonic() - started < 1.5
        assert server.client_left.wait(2.0), "the server never saw the request closed"
        assert engine.open_streams == 0


def test_stop_mid_reply_keeps_what_came_and_closes_the_request():
    with FakeOpenAIServer(reply=" ".join(f"w{i}" for i in range(200)), piece_delay=0.02) as server:
        engine = engine_for(server).wait_until_loaded()
        got: list[str] = []
        for piece in engine.stream(PROMPT, max_tokens=300, sampling=Sampling(), should_stop=lambda: len(got) >= 5):
            got.append(piece)  # noqa: PERF402 - should_stop reads it while streaming
        assert 5 <= len(got) < 20
        assert server.client_left.wait(3.0)


# ---- failures: one line, a fix, no hang ------------------------------------------------------------
def test_refused_connection_is_one_line_with_a_fix():
    engine = OpenAIChatEngine(f"http://127.0.0.1:{free_port()}/v1", timeout=2, connect_timeout=1)
    with pytest.raises(MemchatError) as caught:
        reply_of(engine)
    assert "connection refused" in caught.value.message and "base_url" in caught.value.hint
    assert "\n" not in str(caught.value)


def test_a_server_that_never_answers_times_out():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)  # accepts connections, never reads or answers
    try:
        engine = OpenAIChatEngine(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=0.5, connect_timeout=1)
        started = time.monotonic()
        with pytest.raises(MemchatError, match="sent nothing for 0.5 s") as caught:
            reply_of(engine)
        assert time.monotonic() - started < 3 and "engine.timeout" in caught.value.hint
    finally:
        listener.close()


def test_a_stream_that_stalls_mid_reply_times_out():
    def stalls(handler, body):
        handler.start_events()
        handler.event({"choices": [{"delta": {"content": "Hel"}}]})
        time.sleep(3)

    with FakeOpenAIServer() as server:
        engine = engine_for(server, timeout=0.5).wait_until_loaded()
        server.routes["/v1/chat/completions"] = stalls
        got: list[str] = []
        with pytest.raises(MemchatError, match="sent nothing"):
            for piece in engine.stream(PROMPT, max_tokens=8, sampling=Sampling()):
                got.append(piece)  # noqa: PERF402 - should_stop reads it while streaming
        assert got == ["Hel"] and engine.open_streams == 0


def test_a_500_says_what_the_server_said():
    with FakeOpenAIServer() as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = lambda h, b: h.send_json(
            {"error": {"message": "CUDA out of memory\n  at line 3", "type": "server_error"}}, 500)
        with pytest.raises(MemchatError) as caught:
            reply_of(engine)
        assert caught.value.message == "the model server failed (500): CUDA out of memory at line 3"
        assert "again" in caught.value.hint


@pytest.mark.parametrize("garbage", [
    (b"<html>502 Bad Gateway</html>", "text/html"),
    (b"\x00\xff\xfe garbage", "application/octet-stream"),
    (b'{"choices": 7}', "application/json"),
])
def test_garbage_instead_of_a_stream_is_a_clear_error(garbage):
    raw, content_type = garbage
    with FakeOpenAIServer() as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = lambda h, b: h.send_raw(raw, content_type)
        with pytest.raises(MemchatError, match="model server") as caught:
            reply_of(engine)
        assert "\n" not in caught.value.message


def test_garbage_inside_a_stream_is_a_clear_error():
    def bad_events(handler, body):
        handler.start_events()
        handler.event({"choices": [{"delta": {"content": "ok "}}]})
        handler.event("this is not json")

    with FakeOpenAIServer() as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = bad_events
        with pytest.raises(MemchatError, match="not JSON"):
            reply_of(engine)


def test_an_error_event_in_the_stream_is_the_servers_error():
    def error_event(handler, body):
        handler.start_events()
        handler.event({"choices": [{"delta": {"content": "Hi "}}]})
        handler.wfile.write(b'error: {"message": "slot unavailable", "code": 503}\n\n')
        handler.wfile.flush()

    with FakeOpenAIServer() as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = error_event
        with pytest.raises(MemchatError, match="slot unavailable"):
            reply_of(engine)


def test_a_stream_that_ends_without_done_after_a_finish_reason_is_complete():
    def no_done(handler, body):
        handler.start_events()
        handler.event({"choices": [{"delta": {"content": "All "}}]})
        handler.event({"choices": [{"delta": {"content": "done."}, "finish_reason": "stop"}]})

    with FakeOpenAIServer() as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = no_done
        assert reply_of(engine) == "All done."


def test_a_stream_cut_off_mid_reply_is_a_lost_connection():
    def dies(handler, body):
        handler.start_events()
        handler.event({"choices": [{"delta": {"content": "Hello "}}]})
        handler.connection.shutdown(socket.SHUT_RDWR)

    with FakeOpenAIServer() as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = dies
        with pytest.raises(MemchatError, match="lost mid-reply") as caught:
            reply_of(engine)
        assert "still running" in caught.value.hint


def test_a_garbage_models_list_is_refused_at_the_probe():
    with FakeOpenAIServer() as server:
        server.routes["/v1/models"] = lambda h, b: h.send_raw(b"hello", "text/plain")
        with pytest.raises(MemchatError, match="not JSON"):
            engine_for(server).wait_until_loaded()


def test_a_context_overflow_teaches_the_engine_the_servers_context():
    with FakeOpenAIServer(tokenizer="llama-cpp-python", n_ctx=None) as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = lambda h, b: h.send_json(
            {"error": {"message": "Requested tokens (3000) exceed context window of 1024"}}, 400)
        with pytest.raises(MemchatError) as caught:
            reply_of(engine)
        assert engine.n_ctx == 1024 and "1024" in caught.value.message and "engine.n_ctx = 1024" in caught.value.hint


def test_a_stream_dropped_before_its_first_event_is_asked_why():
    def drops_streams(handler, body):  # llama_cpp.server: a too-long prompt fails after the 200
        if body.get("stream"):
            handler.start_events()
            handler.connection.shutdown(socket.SHUT_RDWR)
        else:
            handler.send_json({"error": {"message": "Requested tokens (3000) exceed context window of 1024"}}, 400)

    with FakeOpenAIServer(tokenizer="llama-cpp-python", n_ctx=None) as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = drops_streams
        with pytest.raises(MemchatError, match="1024-token context"):
            reply_of(engine)
        assert server.chats()[-1]["max_tokens"] == 1 and not server.chats()[-1]["stream"]


def test_a_server_refusing_llama_cpp_fields_is_asked_again_without_them():
    def strict(handler, body):
        if "repeat_penalty" in body or "stream_options" in body:
            handler.send_json({"error": {"message": "Unrecognized request argument supplied: repeat_penalty"}}, 400)
        else:
            server.chat(handler, body)

    with FakeOpenAIServer() as server:
        engine = engine_for(server).wait_until_loaded()
        server.routes["/v1/chat/completions"] = strict
        assert reply_of(engine).strip() == server.reply
        assert "repeat_penalty" not in server.chats()[-1]


# ---- JSON --------------------------------------------------------------------------------------
def test_json_schema_goes_through_response_format():
    with FakeOpenAIServer(json_modes=("json_schema",)) as server:
        out = engine_for(server).complete_json(PROMPT, SCHEMA, max_tokens=50)
        assert json.loads(out) == {"items": []}
        assert server.chats()[-1]["response_format"]["json_schema"]["schema"] == SCHEMA


def test_json_falls_back_to_json_object_then_to_a_plain_call():
    with FakeOpenAIServer(json_modes=("json_object",)) as server:  # llama_cpp.server
        engine = engine_for(server)
        assert json.loads(engine.complete_json(PROMPT, SCHEMA, max_tokens=50)) == {"items": []}
        assert server.chats()[-1]["response_format"] == {"type": "json_object", "schema": SCHEMA}
        engine.complete_json(PROMPT, SCHEMA, max_tokens=50)
        modes = [b.get("response_format", {}).get("type") for b in server.chats() if b.get("max_tokens", 0) > 1]
        assert modes == ["json_schema", "json_object", "json_object"]  # the refusal is remembered
    with FakeOpenAIServer(json_modes=(), reply='Sure! ```json\n{"items": [1]}\n``` hope it helps') as server:
        engine = engine_for(server)
        assert engine.complete_json(PROMPT, SCHEMA, max_tokens=50) == '{"items": [1]}'
        assert "JSON schema" in server.chats()[-1]["messages"][-1]["content"]
    with FakeOpenAIServer(json_modes=(), reply="no json here") as server:
        assert engine_for(server).complete_json(PROMPT, SCHEMA, max_tokens=50) == "no json here"  # caller records it


def test_a_model_label_failure_on_a_plain_server_is_recorded_as_with_the_local_engine(tmp_path):
    from memchat.memory.extract import label_with_model
    from memchat.types import MemoryDraft

    with FakeOpenAIServer(json_modes=(), reply="I think it is a fact.") as server:
        labels = label_with_model(engine_for(server), ["I live in Lisbon."],
                                  [MemoryDraft(kind="fact", content="The user lives in Lisbon.")])
        assert labels.failure is not None and labels.failure.raw_output == "I think it is a fact."


# ---- the API key -------------------------------------------------------------------------------
def test_the_api_key_goes_in_the_header_only(monkeypatch, tmp_path):
    key = "sk-test-1234567890abcdefSECRET"
    monkeypatch.setenv("MY_SERVER_KEY", key)
    with FakeOpenAIServer() as server:
        engine = engine_for(server, api_key_env="MY_SERVER_KEY")
        reply_of(engine)
        assert all(headers.get("Authorization") == f"Bearer {key}" for _, _, _, headers in server.requests)
        assert key not in repr(vars(engine)) and key not in engine.name
        monkeypatch.delenv("MY_SERVER_KEY")
        with pytest.raises(MemchatError, match="MY_SERVER_KEY") as caught:
            engine_for(server, api_key_env="MY_SERVER_KEY").wait_until_loaded()
        assert key not in str(caught.value)


def test_a_key_put_where_its_variable_name_belongs_is_refused_without_echoing_it():
    with pytest.raises(MemchatError, match="NAME of an environment variable") as caught:
        OpenAIChatEngine("http://127.0.0.1:1", api_key_env="sk-abc123/xyz+secret")
    assert "sk-abc123" not in str(caught.value)


def test_a_server_url_with_credentials_is_shown_without_them():
    engine = OpenAIChatEngine("http://user:hunter2@127.0.0.1:1/v1?key=abc")
    assert "hunter2" not in engine.name and "key=abc" not in engine.name and "127.0.0.1:1" in engine.name


# ---- remote embeddings --------------------------------------------------------------------------
def test_remote_embeddings_are_normalised_and_checked():
    with FakeOpenAIServer() as server:
        embedder = RemoteEmbedder(server.url, timeout=5, connect_timeout=1)
        vectors = embedder.embed(["a", "abc"])
        assert embedder.dim == 3 and all(abs(sum(x * x for x in v) - 1) < 1e-6 for v in vectors)
        server.routes["/v1/embeddings"] = lambda h, b: h.send_json({"data": [{"embedding": [1.0]}]})
        with pytest.raises(MemchatError, match="1 embeddings for 2 texts"):
            embedder.embed(["a", "b"])
