"""The message box is always typeable: Enter queues while a reply streams, ↑ takes a queued message
back, Esc stops only the reply, nothing typed vanishes, and keys typed during start-up are kept
(with Enter still meaning Send)."""

from __future__ import annotations

import os
import termios
import threading
import time

import pytest
from ui_helpers import replied, wait_until

from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.types import MemchatError
from memchat.ui.app import MemchatApp
from memchat.ui.chat_view import ChatView, UserMessage
from memchat.ui.help_screen import HelpScreen
from memchat.ui.prompt_input import PromptInput
from memchat.ui.status_line import StatusLine
from memchat.ui.terminal import TypeAhead, typed_text

LONG_REPLY = " ".join(f"word{i}" for i in range(120))


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    return load_settings(overrides={"db": str(tmp_path / "t.db")})


def make_app(settings, replies=(), *, delay=0.0, engine=None) -> MemchatApp:
    engine = engine or FakeEngine(replies, delay=delay)
    return MemchatApp.from_settings(settings, engine=engine, embedder=FakeEmbedder())


KEY_NAMES = {" ": "space", "?": "question_mark", ".": "full_stop", ",": "comma"}


async def type_text(pilot, text: str) -> None:
    """Keys as fast as a terminal delivers quick typing (pilot.press waits after each key)."""
    from textual import events

    prompt = pilot.app.chat.query_one(PromptInput)
    before = prompt.text
    for character in text:
        pilot.app.post_message(events.Key(KEY_NAMES.get(character, character), character))
    await wait_until(pilot, lambda: prompt.text != before or not prompt.has_focus)
    await pilot.pause()


def stored(app) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in app.conversation.history()]


async def streaming_reply(pilot, app, text: str = "tell me a long story") -> None:
    """Send `text` and wait until its reply has started streaming."""
    await type_text(pilot, text)
    await pilot.press("enter")
    chat = app.chat.query_one(ChatView)
    await wait_until(pilot, lambda: chat.replies and len(chat.replies[-1].source.split()) >= 2)


def bubbles(app) -> list[tuple[str, bool]]:
    return [(m.text, m.queued) for m in app.chat.query(UserMessage)]


async def test_enter_while_a_reply_streams_queues_the_message_and_sends_it_after(settings):
    # the reply streams for ~5 s: typing must land while it runs, even when a background pre-warm or a
    # loaded machine slows the event loop
    app = make_app(settings, [LONG_REPLY, "Second answer."], delay=0.04)
    async with app.run_test(size=(120, 40)) as pilot:
        await streaming_reply(pilot, app)
        prompt = app.chat.query_one(PromptInput)
        assert not prompt.read_only
        await type_text(pilot, "and then?")
        assert prompt.text == "and then?"
        await pilot.press("enter")
        assert prompt.text == ""
        assert bubbles(app) == [("tell me a long story", False), ("and then?", True)]
        assert app.chat.query_one(StatusLine).queued == 1
        assert "1 queued" in str(app.chat.query_one(StatusLine).render())
        assert stored(app)[-1] == ("user", "tell me a long story")  # not sent yet
        await wait_until(pilot, lambda: len(stored(app)) == 4 and not app.chat.pane.busy, timeout=15)
        assert stored(app) == [("user", "tell me a long story"), ("assistant", LONG_REPLY),
                               ("user", "and then?"), ("assistant", "Second answer.")]
        assert bubbles(app) == [("tell me a long story", False), ("and then?", False)]
        assert app.chat.query_one(StatusLine).queued == 0
        replies = app.chat.query_one(ChatView).replies
        assert [r.source for r in replies] == [LONG_REPLY, "Second answer."]
        chat_order = [type(w).__name__ for w in app.chat.query_one(ChatView).children]
        assert chat_order == ["UserMessage", "AssistantMessage", "UserMessage", "AssistantMessage"]


async def test_escape_stops_only_the_reply_and_the_queued_message_follows(settings):
    app = make_app(settings, [LONG_REPLY, "Short one."], delay=0.03)
    async with app.run_test(size=(120, 40)) as pilot:
        await streaming_reply(pilot, app)
        await type_text(pilot, "shorter please")
        await pilot.press("enter", "escape")
        await wait_until(pilot, lambda: len(stored(app)) == 4 and not app.chat.pane.busy, timeout=10)
        history = app.conversation.history()
        assert history[1].cancelled and len(history[1].content.split()) < 120
        assert (history[2].content, history[3].content) == ("shorter please", "Short one.")


async def test_up_in_the_empty_box_takes_the_queued_message_back(settings):
    app = make_app(settings, [LONG_REPLY], delay=0.05)  # long enough to queue two messages on a slow machine
    async with app.run_test(size=(120, 40)) as pilot:
        await streaming_reply(pilot, app)
        await type_text(pilot, "first thought")
        await pilot.press("enter")
        await type_text(pilot, "second thought")
        await pilot.press("enter")
        assert app.chat.pane.queued == 2
        prompt = app.chat.query_one(PromptInput)
        await pilot.press("up")
        assert prompt.text == "second thought"
        assert bubbles(app)[-1] == ("first thought", True)
        await pilot.press("up")  # the box is not empty: ↑ moves the cursor, the queue stays
        assert prompt.text == "second thought" and app.chat.pane.queued == 1
        await pilot.press("escape")
        await wait_until(pilot, lambda: len(stored(app)) == 4 and not app.chat.pane.busy, timeout=10)
        assert [c for r, c in stored(app) if r == "user"] == ["tell me a long story", "first thought"]
        assert prompt.text == "second thought"  # taken back, never sent, still there


async def test_text_typed_while_stopping_stays_in_the_box(settings):
    app = make_app(settings, [LONG_REPLY], delay=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await streaming_reply(pilot, app)
        await pilot.press("escape")
        await type_text(pilot, "never mind, what is 2+2?")
        await wait_until(pilot, lambda: replied(app) and not app.chat.pane.busy, timeout=5)
        await pilot.pause(0.1)
        prompt = app.chat.query_one(PromptInput)
        assert prompt.text == "never mind, what is 2+2?"
        assert not isinstance(app.screen, HelpScreen)  # `?` was a character, not Help
        assert [c for r, c in stored(app) if r == "user"] == ["tell me a long story"]


async def test_question_mark_while_streaming_is_text_in_the_box_and_help_elsewhere(settings):
    app = make_app(settings, [LONG_REPLY], delay=0.02)
    async with app.run_test(size=(120, 40)) as pilot:
        await streaming_reply(pilot, app)
        await pilot.press("question_mark")
        assert app.chat.query_one(PromptInput).text == "?"
        assert not isinstance(app.screen, HelpScreen)
        app.chat.query_one("#candidates").focus()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)


class FailingEngine(FakeEngine):
    """Fails once `release` is set, so the test decides what was typed meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def stream(self, messages, **kwargs):
        self.release.wait(10)
        raise MemchatError("the model crashed", "restart memchat")
        yield ""  # pragma: no cover - makes this a generator


async def test_a_failed_turn_puts_it_and_the_queue_back_before_the_draft(settings):
    engine = FailingEngine()
    app = make_app(settings, engine=engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_text(pilot, "hello")
        await pilot.press("enter")
        await type_text(pilot, "queued one")
        await pilot.press("enter")
        await type_text(pilot, "draft")
        prompt = app.chat.query_one(PromptInput)
        assert app.chat.pane.queued == 1
        engine.release.set()
        await wait_until(pilot, lambda: not app.chat.pane.busy and "hello" in prompt.text, timeout=5)
        assert prompt.text == "hello\nqueued one\ndraft"
        assert bubbles(app) == [] and app.chat.pane.queued == 0


async def test_keys_typed_during_start_up_are_replayed_and_enter_sends(settings):
    app = make_app(settings, ["First.", "Second."], delay=0.01)
    app.chat.type_ahead = typed_text("hi there\nwhat about", cooked=True) + typed_text(" you\rand a dr", cooked=False)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = app.chat.query_one(PromptInput)
        await wait_until(pilot, lambda: len(stored(app)) == 4 and not app.chat.pane.busy, timeout=10)
        assert [c for r, c in stored(app) if r == "user"] == ["hi there", "what about you"]
        assert prompt.text == "and a dr" and prompt.has_focus


def test_typed_text_keeps_text_and_enter_and_drops_other_keys():
    assert typed_text("ab\ncd", cooked=True) == "ab\rcd"  # the terminal had turned Enter into a line feed
    assert typed_text("ab\ncd\r", cooked=False) == "ab\ncd\r"  # raw: Ctrl+J is a new line, CR is Enter
    assert typed_text("caf\x7fé\x1b[A\x1bOP\x01!", cooked=False) == "caé!"  # arrows, F1, Ctrl+A dropped
    assert typed_text("你好\x08\x08x", cooked=False) == "x"


def test_type_ahead_switches_a_real_terminal_and_restores_it():
    main, side = os.openpty()
    terminal = os.fdopen(side, "r")
    try:
        os.write(main, "héllo\r".encode())  # typed in cooked mode: the line discipline makes CR a line feed
        time.sleep(0.05)
        held = TypeAhead(terminal).start()
        flags = termios.tcgetattr(side)
        assert not flags[3] & (termios.ECHO | termios.ICANON) and not flags[0] & termios.ICRNL
        os.write(main, b"x\ry")  # typed while the models load: Enter stays a CR
        time.sleep(0.05)
        assert held.collect() == "héllo\rx\ry"
        held.restore()
        flags = termios.tcgetattr(side)
        assert flags[3] & termios.ECHO and flags[3] & termios.ICANON and flags[0] & termios.ICRNL
    finally:
        terminal.close()
        os.close(main)


def test_type_ahead_does_nothing_without_a_terminal(tmp_path):
    with open(tmp_path / "not-a-tty", "w+") as stream:
        held = TypeAhead(stream).start()
        assert held.collect() == ""
        held.restore()


async def test_esc_and_a_key_merged_into_alt_key_still_stop_the_reply_and_type(settings):
    from textual import events

    app = make_app(settings, [LONG_REPLY], delay=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await streaming_reply(pilot, app)
        app.post_message(events.Key("alt+n", "n"))  # what tmux sends for Esc then "n" within its escape-time
        await type_text(pilot, "ever mind")
        await wait_until(pilot, lambda: replied(app) and not app.chat.pane.busy, timeout=5)
        assert app.conversation.history()[-1].cancelled
        assert app.chat.query_one(PromptInput).text == "never mind"
