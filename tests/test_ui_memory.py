"""Memory keys (forget/undo, purge, edit, add, source), the browser, summary & notes, snapshot export."""

from __future__ import annotations

import json

import pytest
from ui_helpers import chat, seed, wait_until

from memchat import paths
from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.types import MemoryDraft
from memchat.ui.app import MemchatApp
from memchat.ui.browser import BrowserScreen
from memchat.ui.dialogs import AddMemoryDialog, ConfirmDialog, ForgetOfferDialog, TextDialog
from memchat.ui.inspector import Inspector
from memchat.ui.notes_screen import NotesScreen
from memchat.ui.prompt_input import PromptInput
from memchat.ui.transcript_screen import TranscriptScreen


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    return load_settings(overrides={"db": str(tmp_path / "t.db")})


@pytest.fixture
def app(settings) -> MemchatApp:
    return MemchatApp.from_settings(settings, engine=FakeEngine(), embedder=FakeEmbedder())


async def select_candidate(pilot, app: MemchatApp, memory_id: int) -> None:
    app.chat.inspector_width = 100  # wide enough that no content cell is clipped
    await pilot.pause()
    table = app.chat.query_one("#candidates")
    table.focus()
    table.move_cursor(row=table.get_row_index(str(memory_id)))
    await pilot.pause()


def content_cell(app: MemchatApp, memory_id: int) -> str:
    return str(app.chat.query_one("#candidates").get_cell(str(memory_id), "content"))


async def replace_dialog_text(pilot, app: MemchatApp, text: str) -> None:
    area = app.screen.query_one("#dialog-text")
    area.load_text(text)
    await pilot.press("ctrl+s")


async def test_forget_then_undo_restores_the_status(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        await select_candidate(pilot, app, ids["lisbon"])
        await pilot.press("f")
        assert app.services.memories.get(ids["lisbon"]).status == "deleted"
        assert content_cell(app, ids["lisbon"]).startswith("[deleted]")
        assert any("press u to undo" in n.message for n in app._notifications)
        await pilot.press("u")
        assert app.services.memories.get(ids["lisbon"]).status == "active"
        assert content_cell(app, ids["lisbon"]) == "The user lives in Lisbon."


async def test_purge_asks_first_and_then_erases(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        await select_candidate(pilot, app, ids["lisbon"])
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")
        assert app.services.memories.get(ids["lisbon"]) is not None
        await pilot.press("x")
        await pilot.press("y")
        assert app.services.memories.get(ids["lisbon"]) is None
        assert content_cell(app, ids["lisbon"]) == "[purged]"
        assert app.services.memories.check_integrity() == []


async def test_edit_in_place_rewrites_the_memory(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        await select_candidate(pilot, app, ids["lisbon"])
        await pilot.press("e")
        assert isinstance(app.screen, TextDialog)
        assert app.screen.query_one("#dialog-text").text == "The user lives in Lisbon."
        await replace_dialog_text(pilot, app, "The user lives in Porto.")
        await wait_until(pilot, lambda: app.services.memories.get(ids["lisbon"]).content == "The user lives in Porto.")
        await wait_until(pilot, lambda: content_cell(app, ids["lisbon"]) == "The user lives in Porto.")
        assert [i for i, _ in app.services.memories.keyword("Porto", 5)] == [ids["lisbon"]]


async def test_add_a_memory_by_hand(app):
    async with app.run_test(size=(160, 45)) as pilot:
        app.chat.query_one("#candidates").focus()
        await pilot.press("a")
        assert isinstance(app.screen, AddMemoryDialog)
        app.screen.query_one("#kind").value = "preference"
        await replace_dialog_text(pilot, app, "The user is vegetarian.")
        await wait_until(pilot, lambda: app.services.memories.list_items())
        [memory] = app.services.memories.list_items()
        assert (memory.content, memory.kind) == ("The user is vegetarian.", "preference")


async def test_browser_searches_filters_and_reflects_changes(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f3")
        assert isinstance(app.screen, BrowserScreen)
        browser = app.screen
        table = browser.query_one("#memories")
        assert table.row_count == 3
        browser.query_one("#search").value = "green tea"
        await wait_until(pilot, lambda: table.row_count and table.get_row_at(0)[0] == f"#{ids['tea']}")
        browser.query_one("#search").value = ""
        await wait_until(pilot, lambda: table.row_count == 3)
        browser.query_one("#kind").value = "relation"
        await wait_until(pilot, lambda: table.row_count == 1)
        assert table.get_row_at(0)[0] == f"#{ids['dog']}"
        table.focus()
        await pilot.press("p")
        assert app.services.memories.get(ids["dog"]).pinned
        assert table.get_row_at(0)[1] == "●"
        await pilot.press("f")
        assert app.services.memories.get(ids["dog"]).status == "deleted"
        await wait_until(pilot, lambda: table.row_count == 0)
        browser.query_one("#status").value = "deleted"
        await wait_until(pilot, lambda: table.row_count == 1)
        await pilot.press("u")
        assert app.services.memories.get(ids["dog"]).status == "active"
        await pilot.press("escape")
        assert not isinstance(app.screen, BrowserScreen)


async def test_browser_detail_shows_history_and_jumps_to_the_source(app):
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "I live in Porto.")
        await chat(pilot, app, "I live in Lisbon now.")
        await pilot.press("f3")
        browser = app.screen
        table = browser.query_one("#memories")
        newest = max(m.id for m in app.services.memories.list_items())
        table.move_cursor(row=table.get_row_index(str(newest)))
        await pilot.pause()
        detail = str(browser.query_one("#detail").render())
        assert "History" in detail and "superseded" in detail and "Porto" in detail
        source = app.services.memories.get(newest).source_message
        await pilot.press("g")
        assert isinstance(app.screen, TranscriptScreen)
        assert app.screen.query_one(f"#message-{source}").has_class("-source")
        await pilot.press("escape")
        assert app.screen is browser


async def test_export_snapshot_writes_files_that_parse(app):
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f6")
        assert any(n.severity == "error" for n in app._notifications)  # no turn yet: a hint, no crash
        await chat(pilot, app, "I live in Lisbon.")
        await pilot.press("f6")
        await pilot.press("f7")
        folder = paths.snapshots_dir()
        markdown = next(folder.glob("*.md")).read_text(encoding="utf-8")
        assert markdown.startswith("# memchat turn 1")
        data = json.loads(next(folder.glob("*.json")).read_text(encoding="utf-8"))
        assert data["turn"] == 1 and data["reply"]


async def test_summary_and_notes_can_be_edited(app):
    session_id = app.conversation.session.id
    sessions = app.services.sessions
    sessions.add_note(session_id, "Answer in French.")
    sessions.add_note(session_id, "Never mention football.")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f5")
        assert isinstance(app.screen, NotesScreen)
        await pilot.press("s")
        await replace_dialog_text(pilot, app, "We talked about Lisbon.")
        assert sessions.get(session_id).summary == "We talked about Lisbon."
        assert "We talked about Lisbon." in str(app.screen.query_one("#summary").render())
        await pilot.press("e")
        await replace_dialog_text(pilot, app, "Answer in Portuguese.")
        assert [n.text for n in sessions.notes(session_id)] == ["Answer in Portuguese.", "Never mention football."]
        await pilot.press("down", "enter")
        await replace_dialog_text(pilot, app, "")
        assert [n.text for n in sessions.notes(session_id)] == ["Answer in Portuguese."]
        await pilot.press("escape")
        bar = app.chat.query_one("BudgetBar")
        await wait_until(pilot, lambda: bar.report and bar.report.block("summary").tokens > 0)


async def test_memory_keys_need_a_memory_table_focused(app):
    seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("p")  # typed into the message box, not a pin
        assert app.chat.query_one(PromptInput).text == "p"
        assert not any(m.pinned for m in app.services.memories.list_items())
        assert app.chat.query_one(Inspector).selected_memory_id is None


async def test_cancelled_dialogs_change_nothing(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        await select_candidate(pilot, app, ids["lisbon"])
        await pilot.press("e")
        app.screen.query_one("#dialog-text").load_text("something else")
        await pilot.press("escape")
        await pilot.press("a")
        app.screen.query_one("#dialog-text").load_text("The user likes jazz.")
        await pilot.press("escape")
        await pilot.pause()
        assert app.services.memories.get(ids["lisbon"]).content == "The user lives in Lisbon."
        assert len(app.services.memories.list_items()) == 3


def post_keys(app, text: str, *extra: str) -> None:
    """Queue keys the way a terminal delivers fast typing: all at once, without waiting for each."""
    from textual import events

    names = {" ": "space", ".": "full_stop", ",": "comma"}
    for character in text:
        app.post_message(events.Key(names.get(character, character), character))
    for key in extra:
        app.post_message(events.Key(key, None))


async def test_ctrl_s_right_after_typing_saves_what_was_typed(app):
    async with app.run_test(size=(160, 45)) as pilot:
        app.chat.query_one("#candidates").focus()
        await pilot.press("a")
        assert isinstance(app.screen, AddMemoryDialog)
        post_keys(app, "The user loves jazz.", "ctrl+s")
        await wait_until(pilot, lambda: app.services.memories.list_items())
        assert [m.content for m in app.services.memories.list_items()] == ["The user loves jazz."]
        await wait_until(pilot, lambda: not isinstance(app.screen, AddMemoryDialog))


async def test_a_failed_save_keeps_the_dialog_open_with_the_text_and_the_error(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        await select_candidate(pilot, app, ids["lisbon"])
        await pilot.press("e")
        dialog = app.screen
        await replace_dialog_text(pilot, app, "   ")
        error = dialog.query_one("#dialog-status")
        await wait_until(pilot, lambda: "needs some text" in str(error.render()))
        assert app.screen is dialog and error.display
        assert dialog.query_one("#dialog-text").text == "   "
        await replace_dialog_text(pilot, app, "The user lives in Porto.")
        await wait_until(pilot, lambda: app.screen is not dialog)
        assert app.services.memories.get(ids["lisbon"]).content == "The user lives in Porto."


@pytest.mark.parametrize("overlay", ["f3", "f1", "f4", "f5"])
async def test_after_an_overlay_closes_typing_goes_to_the_message_box(app, overlay):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        await select_candidate(pilot, app, ids["lisbon"])
        await pilot.press("f")  # a forget that a stray `u` would undo
        await pilot.press(overlay)
        assert app.screen is not app.chat
        await pilot.press("escape")
        post_keys(app, "Actually, I moved to Porto")  # as fast as a terminal delivers it
        prompt = app.chat.query_one(PromptInput)
        await wait_until(pilot, lambda: prompt.text == "Actually, I moved to Porto")
        assert prompt.has_focus
        assert app.screen is app.chat  # no add dialog
        assert app.services.memories.get(ids["lisbon"]).status == "deleted"


async def test_letters_that_are_no_memory_key_go_to_the_text_box(app):
    seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        table = app.chat.query_one("#candidates")
        table.focus()
        await pilot.press("h", "i")
        prompt = app.chat.query_one(PromptInput)
        assert prompt.text.endswith("hi") and prompt.has_focus
        await pilot.press("f3")
        app.screen.query_one("#memories").focus()
        await pilot.press("t")
        search = app.screen.query_one("#search")
        assert search.value == "t" and search.has_focus


async def test_browser_explains_the_order_before_a_search_and_shows_keys_plainly(app):
    ids = seed(app)
    app.services.writer.apply(MemoryDraft(kind="fact", content="The user is learning the cello."))
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f3")
        browser = app.screen
        title = str(browser.query_one("#browser-title").render())
        assert "most recent first" in title and "search" in title
        assert browser.query_one("#sort").value == "recency"  # the sort box says the same
        table = browser.query_one("#memories")
        assert {str(table.get_row_at(i)[5]) for i in range(table.row_count)} == {"—"}
        newest = max(m.id for m in app.services.memories.list_items())
        table.move_cursor(row=table.get_row_index(str(newest)))
        await pilot.pause()
        detail = str(browser.query_one("#detail").render())
        assert "user (no attribute)" in detail and "user.\n" not in detail
        table.move_cursor(row=table.get_row_index(str(ids["lisbon"])))
        await pilot.pause()
        assert "user.home_city" in str(browser.query_one("#detail").render())


async def test_a_forget_request_that_matched_nothing_lets_the_user_pick_what_was_meant(app):
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "My sister Clara just got engaged to a guy called Pete.")
        await chat(pilot, app, "Please forget what I told you about Clara's wedding plans.")
        await wait_until(pilot, lambda: isinstance(app.screen, ForgetOfferDialog))
        offers = app.screen.query_one("#forget-offers")
        assert "wedding plans" in str(app.screen.query_one(".dialog-title").render())
        engaged = next(i for i in range(offers.option_count) if "engaged" in str(offers.get_option_at_index(i).prompt))
        memory_id = offers.get_option_at_index(engaged).value
        await pilot.press("ctrl+s")  # nothing ticked: nothing goes, the dialog says so and stays
        assert isinstance(app.screen, ForgetOfferDialog)
        assert app.services.memories.require(memory_id).status == "active"
        offers.highlighted = engaged
        await pilot.press("space", "ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, ForgetOfferDialog))
        assert app.services.memories.require(memory_id).status == "deleted"
        active = app.services.memories.list_items(statuses=("active",), episodes=True)
        assert not any("engaged" in m.content for m in active)  # nor the message that said it
        app.chat.query_one("#candidates").focus()
        await pilot.press("u")
        assert app.services.memories.require(memory_id).status == "active"


async def test_a_forget_request_with_nothing_close_says_nothing_was_forgotten(app):
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Please forget what I told you about my dentist.")
        await wait_until(pilot, lambda: any("nothing was forgotten" in n.message for n in app._notifications))
        assert not isinstance(app.screen, ForgetOfferDialog)


async def test_forgetting_a_fact_by_key_takes_the_words_that_said_it_and_undo_brings_them_back(app):
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "My sister Clara just got engaged to a guy called Pete. I start my new job at Ocado on Monday.")
        memories = app.services.memories
        engaged = next(m for m in memories.list_items() if "engaged" in m.content)
        active = lambda: [m.content for m in memories.list_items(statuses=("active",), episodes=True)]  # noqa: E731
        await chat(pilot, app, "Who did Clara get engaged to?")
        await select_candidate(pilot, app, engaged.id)
        await pilot.press("f")
        assert not any("engaged" in text for text in active())
        assert any("Ocado" in text for text in active())
        assert any("words of yours that said it" in n.message for n in app._notifications)
        await pilot.press("u")
        assert any("engaged" in text and not text.startswith("The user") for text in active())  # the words are back
        assert memories.require(engaged.id).status == "active"
