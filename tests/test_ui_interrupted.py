"""The TUI after and during interrupted work: pending extraction at start, a message that got no
reply, quitting while memories are being written."""

from __future__ import annotations

import time

import pytest
from test_ui_chat import make_app, notifications, replied, send, type_text, wait_until

from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.pipeline.factory import build_services
from memchat.ui.app import MemchatApp
from memchat.ui.prompt_input import PromptInput
from memchat.ui.status_line import StatusLine


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    return load_settings(overrides={"db": str(tmp_path / "t.db")})


def _left_behind(settings, session: str, texts: list[str]) -> None:
    """What a memchat killed mid-turn leaves: user messages stored, never extracted, never answered."""
    services = build_services(settings, engine=FakeEngine(), embedder=FakeEmbedder())
    session_id = services.sessions.open(session).id
    for text in texts:
        services.sessions.add_message(session_id, "user", text)
    services.db.close()


class SlowEmbedder(FakeEmbedder):
    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay

    def embed(self, texts):
        time.sleep(self.delay)
        return super().embed(texts)


async def test_messages_left_unextracted_are_extracted_at_start_and_shown_meanwhile(settings):
    _left_behind(settings, "yesterday", ["I live in Porto.", "My cat is called Miso."])
    app = MemchatApp.from_settings(settings, engine=FakeEngine(), embedder=SlowEmbedder(1.0), session="today")
    async with app.run_test(size=(140, 40)) as pilot:
        status = app.chat.query_one(StatusLine)  # each message takes ≥ 1 s: the notice is up meanwhile
        assert status.pending >= 1
        assert "pending extraction" in str(status.render())
        await wait_until(pilot, lambda: status.pending == 0, timeout=30)
        assert app.conversation.pending_extraction() == 0
        contents = " ".join(m.content for m in app.services.memories.list_items())
        assert "Porto" in contents and "Miso" in contents


async def test_a_message_that_got_no_reply_is_back_in_the_box_with_a_notice(settings):
    _left_behind(settings, "daily", ["What is the tallest mountain in Africa?"])
    app = make_app(settings, ("Kilimanjaro.",), session="daily")
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        prompt = app.chat.query_one(PromptInput)
        assert prompt.text == "What is the tallest mountain in Africa?"
        assert any("no reply" in n for n in notifications(app))
        await pilot.press("enter")
        await wait_until(pilot, lambda: replied(app))
        users = [m for m in app.conversation.history() if m.role == "user"]
        assert len(users) == 1  # sent again, not stored twice


async def test_quit_while_memories_are_saved_says_so_and_a_second_press_quits_at_once(settings):
    app = MemchatApp.from_settings(settings, engine=FakeEngine(("Noted.",)), embedder=SlowEmbedder(2.0))
    # the embedder is slow enough that the saving cannot end while the keys are pressed, on a loaded machine too
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "My sister Ana lives in Porto and I work as a nurse.")
        await wait_until(pilot, lambda: app.conversation.extracting)
        await pilot.press("ctrl+q")
        await pilot.pause()
        status = app.chat.query_one(StatusLine)
        assert app.is_running and status.saving
        assert "saving memories" in str(status.render())
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running and app.quit_now
    assert app.finish_background_work(timeout=0.05) is False  # run_app ends the process without waiting
    services = build_services(app.services.settings, engine=FakeEngine(), embedder=FakeEmbedder())
    assert services.sessions.pending_count() == 1  # not lost: queued for the next start


async def test_quit_while_saving_closes_by_itself_when_the_memories_are_written(settings):
    app = MemchatApp.from_settings(settings, engine=FakeEngine(("Noted.",)), embedder=SlowEmbedder(0.2))
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "I play the cello.")
        await wait_until(pilot, lambda: app.conversation.extracting)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not app.is_running, timeout=15)
    assert app.conversation.pending_extraction() == 0
    assert any("cello" in m.content for m in app.services.memories.list_items())


async def test_queued_messages_and_the_box_survive_quitting_and_come_back_at_the_next_start(settings):
    long_reply = " ".join(f"word{i}" for i in range(200))
    # a reply long enough (a minute) to be streaming still at the quit on a loaded machine: a reply that ended
    # would have sent the queued message as a turn of its own (saved, but not as a draft)
    app = make_app(settings, (long_reply,), delay=0.3, session="evening")
    async with app.run_test(size=(140, 40)) as pilot:
        await send(pilot, "tell me a long story")
        await wait_until(pilot, lambda: app.chat.pane.busy)
        await send(pilot, "and make it about boats")  # queued behind the streaming reply
        await wait_until(pilot, lambda: app.chat.pane.queued == 1)
        await type_text(pilot, "also my PIN is 4471")  # typed, not sent
        assert app.chat.pane.busy and app.chat.pane.queued == 1, "the reply ended before the quit: nothing was queued"
        await pilot.press("ctrl+q")
    stored = app.services.db.scalar("SELECT text FROM drafts")
    assert "boats" in stored and "4471" not in stored  # kept, and redacted like every stored text

    again = make_app(settings, ("Sure.",))  # a plain start: a new session
    async with again.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        text = again.chat.query_one(PromptInput).text
        assert text.startswith("and make it about boats\nalso my PIN is"), text
        assert any("session evening" in n for n in notifications(again))
    assert again.services.db.scalar("SELECT COUNT(*) FROM drafts") == 0  # handed back once
