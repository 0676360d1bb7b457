"""The remote engine wired in: turns, settings and flags, `memchat ask` and `doctor`, the TUI — all
against the scripted server. What a failing server leaves: a one-line error, the message kept
(back in the box in the TUI), and sending again as the retry."""

from __future__ import annotations

import glob
import socket
import time

import pytest
from fake_openai_server import FakeOpenAIServer

from memchat import paths
from memchat.cli.main import main
from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder
from memchat.engine.openai_compat import OpenAIChatEngine
from memchat.engine.remote_embed import RemoteEmbedder
from memchat.pipeline.factory import build_services, load_engines, open_conversation
from memchat.types import MemchatError, PromptAssembled
from memchat.ui.app import MemchatApp
from memchat.ui.prompt_input import PromptInput


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def settings(tmp_path):
    return load_settings(overrides={"db": str(tmp_path / "t.db")})


def conversation_on(settings, url: str, **engine_options):
    engine = OpenAIChatEngine(url, timeout=5, connect_timeout=1, **engine_options)
    services = build_services(settings, engine=engine, embedder=FakeEmbedder())
    return open_conversation(services)


def dies_after_one_piece(handler, body):
    handler.start_events()
    handler.event({"choices": [{"delta": {"content": "Hello "}}]})
    handler.connection.shutdown(socket.SHUT_RDWR)


# ---- turns ---------------------------------------------------------------------------------------
def test_a_turn_through_the_server_is_recorded_with_exact_counts_and_the_servers_name(settings):
    with FakeOpenAIServer(tokenizer="llama-server", n_ctx=4096) as server:
        conversation = conversation_on(settings, server.url)
        events = []
        finished = conversation.run_turn("My name is Ana and I live in Lisbon.", events.append)
        conversation.wait()
        assert finished.reply.strip() == server.reply and not finished.cancelled
        report = next(e.budget for e in events if isinstance(e, PromptAssembled))
        assert report.exact and report.n_ctx == 4096
        assert report.prompt_tokens == finished.tokens_in
        sent = server.chats()[-1]
        assert sent["max_tokens"] <= 4096 - report.prompt_tokens
        stored = conversation.services.db.scalar("SELECT snapshot FROM turns")
        assert "fake-model via http://127.0.0.1:" in stored


def test_a_server_without_tokenisation_budgets_with_estimates(settings):
    with FakeOpenAIServer(tokenizer=None, n_ctx=None) as server:
        conversation = conversation_on(settings, server.url)
        events = []
        conversation.run_turn("hello there", events.append)
        report = next(e.budget for e in events if isinstance(e, PromptAssembled))
        assert not report.exact and report.n_ctx == 2048


def test_a_server_that_is_down_keeps_nothing_and_says_so(settings):
    conversation = conversation_on(settings, f"http://127.0.0.1:{free_port()}")
    with pytest.raises(MemchatError, match="connection refused"):
        conversation.run_turn("hello there")
    assert conversation.history() == []  # nothing half-stored: the text goes back to the person


def test_a_server_dying_mid_reply_keeps_the_message_and_sending_again_is_the_retry(settings):
    with FakeOpenAIServer() as server:
        conversation = conversation_on(settings, server.url)
        server.routes["/v1/chat/completions"] = dies_after_one_piece
        started = time.monotonic()
        with pytest.raises(MemchatError, match="lost mid-reply"):
            conversation.run_turn("Where is Lisbon?")
        assert time.monotonic() - started < 3
        unanswered = conversation.unanswered()
        assert unanswered is not None and unanswered.content == "Where is Lisbon?"
        del server.routes["/v1/chat/completions"]
        finished = conversation.run_turn("Where is Lisbon?")
        assert finished.reply.strip() == server.reply
        assert [m.role for m in conversation.history()] == ["user", "assistant"]  # the message is not stored twice


def test_the_api_key_never_reaches_the_database_or_a_snapshot(settings, monkeypatch, capsys, tmp_path):
    key = "sk-live-0123456789abcdefghijKLMNOP"
    monkeypatch.setenv("MEMCHAT_TEST_KEY", key)
    with FakeOpenAIServer() as server:
        base = ["--db", str(tmp_path / "k.db"), "--base-url", server.url]
        monkeypatch.setenv("MEMCHAT_ENGINE_API_KEY_ENV", "MEMCHAT_TEST_KEY")
        monkeypatch.setenv("MEMCHAT_ENGINE_EMBEDDINGS", "remote")
        code, out, err = run(capsys, *base, "ask", "I live in Lisbon.")
        assert code == 0, err
        code, out, err = run(capsys, *base, "snapshot")
        assert code == 0, err
        assert all(h.get("Authorization") == f"Bearer {key}" for _, _, _, h in server.requests)
        code, out, err = run(capsys, *base, "doctor", "--settings")
        assert "MEMCHAT_TEST_KEY" in out and "$MEMCHAT_TEST_KEY set" in out
    written = [tmp_path / "k.db", *map(__import__("pathlib").Path, glob.glob(str(paths.data_dir() / "**"), recursive=True))]
    for path in written:
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path
    assert key not in out + err


# ---- settings, flags, wiring ----------------------------------------------------------------------------
def test_flags_choose_the_engine_and_the_address(tmp_path, capsys, monkeypatch):
    from memchat.cli.main import build_parser, settings_from

    args = build_parser().parse_args(["--base-url", "http://gpu-box:8000/v1", "sessions"])
    assert settings_from(args).engine.kind == "openai" and settings_from(args).engine.base_url == "http://gpu-box:8000/v1"
    args = build_parser().parse_args(["sessions", "--engine", "openai"])
    assert settings_from(args).engine.kind == "openai"
    assert settings_from(build_parser().parse_args(["sessions"])).engine.kind == "local"
    monkeypatch.setenv("MEMCHAT_ENGINE_KIND", "cloud")
    code, _, err = run(capsys, "--db", str(tmp_path / "x.db"), "sessions")
    assert code == 2 and "engine.kind = 'cloud' is not one of local, openai" in err
    monkeypatch.setenv("MEMCHAT_ENGINE_KIND", "openai")
    monkeypatch.setenv("MEMCHAT_ENGINE_N_CTX", "100")
    code, _, err = run(capsys, "--db", str(tmp_path / "x.db"), "sessions")
    assert code == 2 and "engine.n_ctx" in err


def test_load_engines_keeps_embeddings_local_unless_asked(tmp_path, monkeypatch):
    with FakeOpenAIServer() as server:
        remote = load_settings(overrides={"engine": {"kind": "openai", "base_url": server.url, "embeddings": "remote"}})
        engine, embedder = load_engines(remote, progress=False)
        assert isinstance(engine, OpenAIChatEngine) and isinstance(embedder, RemoteEmbedder)
        assert engine.n_ctx == 4096  # described at once, for the status line
        local = load_settings(overrides={"engine": {"kind": "openai", "base_url": server.url}})
        called = []
        monkeypatch.setattr("memchat.pipeline.factory.resolve_model", lambda value, progress: called.append(value) or
                            (_ for _ in ()).throw(MemchatError("stop here")))
        with pytest.raises(MemchatError, match="stop here"):
            load_engines(local, progress=False)
        assert called == [local.model.embed]  # only the embedder is local: the chat model is never pulled


def test_ask_prints_the_reply_and_a_down_server_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MEMCHAT_ENGINE_EMBEDDINGS", "remote")
    with FakeOpenAIServer() as server:
        code, out, err = run(capsys, "--db", str(tmp_path / "a.db"), "--base-url", server.url, "ask", "hello")
        assert code == 0 and out.strip() == server.reply, err
    monkeypatch.setenv("MEMCHAT_ENGINE_EMBEDDINGS", "local")
    monkeypatch.setattr("memchat.pipeline.factory.resolve_model", lambda value, progress: (tmp_path / "no.gguf", ""))
    monkeypatch.setattr("memchat.engine.llama.LlamaEmbedder", lambda *a, **k: FakeEmbedder())
    code, out, err = run(capsys, "--db", str(tmp_path / "b.db"), "--base-url", f"http://127.0.0.1:{free_port()}",
                         "ask", "hello again")
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[0].startswith("memchat: error: cannot reach the model server") and "fix:" in err


def test_doctor_checks_the_server(tmp_path, capsys):
    with FakeOpenAIServer(tokenizer="llama-server", n_ctx=8192) as server:
        code, out, err = run(capsys, "--db", str(tmp_path / "d.db"), "--base-url", server.url, "doctor")
        assert "reachable (llama-server), serves fake-model" in out
        assert "context       8192 tokens (the server)" in out and "tokenise      yes" in out
        assert "chat  model" not in out and "embed model" in out  # the server holds the chat model
    with FakeOpenAIServer(tokenizer=None, n_ctx=None) as server:
        settings_file = tmp_path / "c.toml"
        settings_file.write_text(f'[engine]\nkind = "openai"\nbase_url = "{server.url}"\nmodel = "llama3.2"\n')
        code, out, err = run(capsys, "--db", str(tmp_path / "d.db"), "--config", str(settings_file), "doctor")
        assert code == 1 and "tokenise      no" in out and "2048 tokens (assumed" in out
        assert "does not list the model 'llama3.2'" in out
    code, out, err = run(capsys, "--db", str(tmp_path / "d.db"), "--base-url", f"http://127.0.0.1:{free_port()}", "doctor")
    assert code == 1 and "cannot reach the model server" in out and "Traceback" not in out + err


# ---- the TUI ----------------------------------------------------------------------------------------
async def test_tui_a_failing_server_gives_the_text_back_and_enter_retries(settings):
    from test_ui_chat import notifications, send, wait_until

    with FakeOpenAIServer() as server:
        server.routes["/v1/chat/completions"] = lambda h, b: h.send_json({"error": {"message": "model is loading"}}, 503)
        engine = OpenAIChatEngine(server.url, timeout=5, connect_timeout=1)
        app = MemchatApp.from_settings(settings, engine=engine, embedder=FakeEmbedder())
        async with app.run_test(size=(120, 40)) as pilot:
            await send(pilot, "hello")
            prompt = app.chat.query_one(PromptInput)
            await wait_until(pilot, lambda: prompt.text == "hello")
            assert any("model server failed (503): model is loading" in n for n in notifications(app))
            assert app.conversation.history() == []
            del server.routes["/v1/chat/completions"]
            await pilot.press("enter")  # the retry: the same text, sent again
            await wait_until(pilot, lambda: len(app.conversation.history()) == 2)
            assert app.conversation.history()[1].content.strip() == server.reply
            assert prompt.text == ""


async def test_tui_starts_with_the_server_down_says_so_and_keeps_what_is_typed(settings):
    from test_ui_chat import notifications, send, wait_until

    engine = OpenAIChatEngine(f"http://127.0.0.1:{free_port()}/v1", timeout=5, connect_timeout=1)
    app = MemchatApp.from_settings(settings, engine=engine, embedder=FakeEmbedder())
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: any("cannot reach the model server" in n for n in notifications(app)))
        await send(pilot, "hello")
        prompt = app.chat.query_one(PromptInput)
        await wait_until(pilot, lambda: prompt.text == "hello" and not app.chat.pane.streaming)
        assert app.conversation.history() == [] and app.is_running
