"""TUI v1: streaming chat, Esc cancel, input keys, history, errors, help, themes, narrow layout."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.pipeline.factory import build_services, open_conversation
from memchat.types import MemchatError
from memchat.ui import keys, themes
from memchat.ui.app import MemchatApp
from memchat.ui.budget_bar import BudgetBar
from memchat.ui.chat_view import AssistantMessage, ChatView, UserMessage
from memchat.ui.help_screen import HelpScreen
from memchat.ui.inspector import Inspector
from memchat.ui.prompt_input import PromptInput
from memchat.ui.status_line import StatusLine

LONG_REPLY = " ".join(f"word{i}" for i in range(200))


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    return load_settings(overrides={"db": str(tmp_path / "t.db")})


def make_app(settings, replies=(), *, delay=0.0, engine=None, **kwargs) -> MemchatApp:
    engine = engine or FakeEngine(replies, delay=delay)
    return MemchatApp.from_settings(settings, engine=engine, embedder=FakeEmbedder(), **kwargs)


def replied(app) -> bool:
    """The last stored message is the assistant's (the turn has been recorded)."""
    history = app.conversation.history()
    return bool(history) and history[-1].role == "assistant"


async def wait_until(pilot, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)


async def type_text(pilot, text: str) -> None:
    await pilot.press(*[{" ": "space", "?": "question_mark", ".": "full_stop", ",": "comma"}.get(c, c) for c in text])


async def send(pilot, text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


def notifications(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_reply_streams_into_the_chat_pane(settings):
    app = make_app(settings, ["Hello! **Nice** to meet you."])
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "hi there")
        chat = app.chat.query_one(ChatView)
        await wait_until(pilot, lambda: chat.replies and not app.chat.pane.streaming)
        assert [m.text for m in chat.query(UserMessage)] == ["hi there"]
        reply = chat.replies[-1]
        assert reply.source == "Hello! **Nice** to meet you."
        assert not reply.cancelled
        assert app.chat.query_one(PromptInput).text == ""
        assert app.chat.query_one(StatusLine).tokens_per_second is not None
        stored = app.conversation.history()
        assert [m.role for m in stored] == ["user", "assistant"]


async def test_escape_stops_the_reply_and_keeps_it_marked(settings):
    app = make_app(settings, [LONG_REPLY], delay=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "tell me a long story")
        chat = app.chat.query_one(ChatView)
        await wait_until(pilot, lambda: chat.replies and len(chat.replies[-1].source.split()) >= 3)
        prompt = app.chat.query_one(PromptInput)
        assert not prompt.read_only and prompt.has_class("-busy")  # typing ahead is allowed
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.chat.pane.streaming, timeout=2.0)
        reply = chat.replies[-1]
        assert reply.cancelled and reply.has_class("-stopped")
        assert "(stopped)" in str(reply.query_one(".reply-status").render())
        stored = app.conversation.history()[-1]
        assert stored.cancelled and stored.role == "assistant"
        assert 3 <= len(stored.content.split()) < 200
        assert reply.source == stored.content
        assert not prompt.read_only


async def test_ctrl_j_inserts_a_newline_and_enter_sends_both_lines(settings):
    app = make_app(settings, ["ok"])
    async with app.run_test(size=(120, 40)) as pilot:
        await type_text(pilot, "line one")
        await pilot.press("ctrl+j")
        await type_text(pilot, "line two")
        assert app.chat.query_one(PromptInput).text == "line one\nline two"
        assert not app.chat.query_one(ChatView).replies
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.chat.pane.streaming and app.conversation.history())
        assert app.conversation.history()[0].content == "line one\nline two"


async def test_a_resumed_session_shows_its_messages(settings):
    services = build_services(settings, engine=FakeEngine(["First answer.", LONG_REPLY]), embedder=FakeEmbedder())
    conversation = open_conversation(services, "daily")
    conversation.run_turn("first question")
    started: list[object] = []
    conversation.run_turn("second question", emit=started.append, should_stop=lambda: len(started) > 5)
    conversation.wait()
    app = MemchatApp(services, open_conversation(services, "daily"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        chat = app.chat.query_one(ChatView)
        assert [m.text for m in chat.query(UserMessage)] == ["first question", "second question"]
        replies = list(chat.query(AssistantMessage))
        assert replies[0].source == "First answer."
        assert replies[1].cancelled
        assert app.chat.query_one(StatusLine).session == "daily"


class FailingEngine(FakeEngine):
    def stream(self, messages, **kwargs):
        raise MemchatError("the model crashed", "restart memchat")
        yield ""  # pragma: no cover - makes this a generator


async def test_a_failed_turn_shows_the_hint_and_gives_the_text_back(settings):
    app = make_app(settings, engine=FailingEngine())
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "hello")
        prompt = app.chat.query_one(PromptInput)
        await wait_until(pilot, lambda: prompt.text == "hello")
        assert not app.chat.pane.streaming and not prompt.read_only
        assert any("the model crashed" in n and "restart memchat" in n for n in notifications(app))
        assert not app.chat.query_one(ChatView).replies


async def test_help_lists_every_key_with_remapping(settings):
    settings.ui.keys = {"pin": "ctrl+t"}
    app = make_app(settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one("#help-keys")
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        headings = [action for key, action in rows if not key]
        assert headings == list(dict.fromkeys(keys.GROUP_TITLES[spec.group] for spec in keys.KEYMAP))
        assert len(rows) == len(keys.KEYMAP) + len(headings)
        pin = next(r for r in rows if r[1] == "Pin/unpin")
        assert pin[0] == "^t"
        assert table.virtual_size.width <= table.size.width  # no sideways scrolling
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


def test_unknown_key_action_is_a_clear_error(settings):
    settings.ui.keys = {"pinn": "ctrl+t"}
    with pytest.raises(MemchatError) as caught:
        make_app(settings)
    assert "pinn" in caught.value.message and "pin" in caught.value.hint


def test_themes_load_from_the_themes_folder():
    own = themes.load_themes()
    assert {"memchat-dark", "memchat-light"} <= set(own)
    assert own["memchat-dark"].dark and not own["memchat-light"].dark
    assert "budget-window" in own["memchat-light"].variables


def test_unknown_theme_lists_the_available_ones(settings):
    settings.ui.theme = "solarised-nope"
    with pytest.raises(MemchatError) as caught:
        make_app(settings)
    assert "solarised-nope" in caught.value.message
    assert "memchat-dark" in caught.value.hint and "memchat-light" in caught.value.hint


async def test_light_theme_and_builtin_themes_render(settings):
    settings.ui.theme = "memchat-light"
    app = make_app(settings)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.theme == "memchat-light"
        app.theme = "nord"  # a theme without memchat's variables falls back to its own colours
        await pilot.pause()
        assert app.chat.query_one("BudgetBar").render()


async def test_narrow_terminal_hides_the_inspector_and_f2_shows_it(settings):
    app = make_app(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        inspector = app.chat.query_one(Inspector)
        assert not inspector.display
        await pilot.press("f2")
        assert inspector.display
        await pilot.press("f2")
        assert not inspector.display


async def test_wide_terminal_shows_the_inspector_and_it_can_be_resized(settings):
    app = make_app(settings)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        inspector = app.chat.query_one(Inspector)
        assert inspector.display
        width = inspector.size.width
        await pilot.press("alt+right")
        await pilot.pause()
        assert inspector.size.width == width + 8
        await pilot.press("alt+left", "alt+left")
        await pilot.pause()
        assert inspector.size.width == width - 8


async def test_quitting_mid_reply_keeps_the_partial_reply(settings):
    app = make_app(settings, [LONG_REPLY], delay=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "go on")
        chat = app.chat.query_one(ChatView)
        await wait_until(pilot, lambda: chat.replies and len(chat.replies[-1].source.split()) >= 2)
        await pilot.press("ctrl+q")
    app.finish_background_work(timeout=5)
    last = app.conversation.history()[-1]
    assert last.role == "assistant" and last.cancelled and len(last.content.split()) < 200


async def test_question_mark_opens_help_unless_typing(settings):
    app = make_app(settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        assert app.chat.query_one(PromptInput).text == "?"
        app.chat.query_one("#candidates").focus()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)


async def test_inspector_collapses_when_the_terminal_shrinks(settings):
    app = make_app(settings)
    async with app.run_test(size=(160, 45)) as pilot:
        inspector = app.chat.query_one(Inspector)
        assert inspector.display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not inspector.display
        await pilot.resize_terminal(150, 40)
        await pilot.pause()
        assert inspector.display


def test_run_app_rejects_a_bad_theme_before_loading_models(settings, monkeypatch):
    from memchat.ui import app as app_module

    monkeypatch.setattr(app_module, "build_services", lambda *a, **k: pytest.fail("models were loaded"))
    settings.ui.theme = "nope"
    with pytest.raises(MemchatError):
        app_module.run_app(settings)


def test_themes_are_found_in_a_wheel_install(tmp_path, monkeypatch):
    import memchat

    package = tmp_path / "site-packages" / "memchat"
    (package / "themes").mkdir(parents=True)
    monkeypatch.setattr(memchat, "__file__", str(package / "__init__.py"))
    assert themes.themes_dir() == package / "themes"


async def test_streamed_tokens_are_flushed_in_batches(settings, monkeypatch):
    from textual.widgets import Markdown

    flushes: list[str] = []
    append = Markdown.append

    def counting(self, text):
        flushes.append(text)
        return append(self, text)

    monkeypatch.setattr(Markdown, "append", counting)
    app = make_app(settings, [LONG_REPLY], delay=0.005)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "stream please")
        await wait_until(pilot, lambda: replied(app), timeout=10)
        await wait_until(pilot, lambda: not app.chat.pane.streaming)
        assert app.chat.query_one(ChatView).replies[-1].source == LONG_REPLY
    assert 0 < len(flushes) < 60  # 200 tokens, at most ~15 redraws a second


def post_keys(app, text: str, *extra: str) -> None:
    """Queue keys the way a terminal delivers a paste without bracketed-paste mode: all at once."""
    from textual import events

    names = {" ": "space", ".": "full_stop", ",": "comma", "?": "question_mark"}
    for character in text:
        app.post_message(events.Key(names.get(character, character), character))
    for key in extra:
        app.post_message(events.Key(key, None))


async def test_a_burst_of_keys_is_inserted_in_a_few_edits_and_enter_still_comes_last(settings, monkeypatch):
    edits: list[str] = []
    replace = PromptInput.replace

    def counting(self, text, *args, **kwargs):
        edits.append(text)
        return replace(self, text, *args, **kwargs)

    monkeypatch.setattr(PromptInput, "replace", counting)
    app = make_app(settings, ["ok"])
    pasted = ("a long pasted paragraph about Lisbon " * 140)[:5000]
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = app.chat.query_one(PromptInput)
        started = time.monotonic()
        post_keys(app, pasted)
        await wait_until(pilot, lambda: prompt.text == pasted, timeout=30)
        assert len(edits) < 50  # one edit per key re-wraps the whole line each time: minutes for 20,000 keys
        assert time.monotonic() - started < 10
        prompt.clear()
        post_keys(app, "hi there", "enter")
        await wait_until(pilot, lambda: replied(app))
        assert app.conversation.history()[0].content == "hi there"
        assert prompt.text == ""


async def test_budget_previews_never_overlap_and_the_newest_draft_wins(settings, monkeypatch):
    import threading

    app = make_app(settings)
    running, overlaps, counted = [0], [0], []
    lock, release = threading.Lock(), threading.Event()
    preview = app.conversation.preview

    def slow_preview(draft):
        with lock:
            running[0] += 1
            overlaps[0] = max(overlaps[0], running[0])
        release.wait(5)  # a long draft being tokenized
        counted.append(draft)
        with lock:
            running[0] -= 1
        return preview(draft)

    def counting() -> bool:
        return any(w.group == "preview" and w.is_running for w in app.workers)

    async with app.run_test(size=(120, 40)) as pilot:
        bar = app.chat.query_one(BudgetBar)
        await wait_until(pilot, lambda: bar.report is not None and not counting())
        monkeypatch.setattr(app.conversation, "preview", slow_preview)
        prompt = app.chat.query_one(PromptInput)
        for draft in ("one", "one two", "one two three", "one two three four"):
            prompt.load_text(draft)
            app.chat.pane.refresh_budget()
            await pilot.pause(0.05)
        assert counted == [] and overlaps[0] == 1
        release.set()
        expected = preview("one two three four")
        await wait_until(pilot, lambda: bar.report.prompt_tokens == expected.prompt_tokens and not counting())
        assert overlaps[0] == 1
        assert counted[:2] == ["one", "one two three four"] and "one two" not in counted  # none in between


async def test_a_message_cut_to_fit_is_marked_in_the_chat(settings):
    engine = FakeEngine(["ok"], n_ctx=512)
    app = make_app(settings, engine=engine)
    async with app.run_test(size=(120, 40)) as pilot:
        app.chat.query_one(PromptInput).load_text("word " * 400)
        await pilot.press("enter")
        await wait_until(pilot, lambda: replied(app))
        [bubble] = app.chat.query(UserMessage)
        assert bubble.has_class("-cut")
        assert "input cut to" in bubble.cut
        shown = str(bubble.render())
        assert "✂" in shown and "to fit the context" in shown
        assert bubble.text == "word " * 400  # the bubble keeps what was typed


async def test_at_80_columns_the_header_keeps_the_session_and_the_footer_quit_and_help(settings):
    from textual.widgets._footer import FooterKey

    app = make_app(settings, ["ok, noted, thanks"], delay=0.01, session="a-rather-long-session-name")
    async with app.run_test(size=(80, 24)) as pilot:
        await send(pilot, "hi")
        await wait_until(pilot, lambda: replied(app) and app.chat.query_one(StatusLine).tokens_per_second)
        await pilot.pause()
        header = str(app.chat.query_one(StatusLine).render())
        assert "session a-rather-long-session-name" in header and len(header) <= 80
        shown = {key.description for key in app.chat.query(FooterKey) if key.region.right <= 80}
        assert {"Quit", "Help"} <= shown
