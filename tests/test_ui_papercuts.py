"""Issue 10's papercuts: restoring a highlighted forgotten memory, inspector columns that stay
readable (Chinese too), a browser sort label that tells the truth, no ✔ beside [superseded],
select-all and clear in the edit dialog, memchat's actions in the command palette, and tables
that never grow a sideways scrollbar (the stray ▊▌▉ glyphs) at 80×24."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.command import CommandPalette
from textual.widgets import DataTable
from ui_helpers import chat, seed, wait_until

from memchat import paths
from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.types import Candidate, MemoryDraft, Signals
from memchat.ui.app import MemchatApp
from memchat.ui.browser import BrowserScreen
from memchat.ui.dialogs import TextDialog
from memchat.ui.inspector import Inspector
from memchat.ui.tables import share_widths

CHINESE = "用户住在里斯本的一间老公寓里，靠近河边，养了一只猫，还有很多很多的书和一架旧钢琴。"
LONG = "The user lives in Lisbon, in an old flat near the river, with a cat and a great many books."


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    return load_settings(overrides={"db": str(tmp_path / "t.db")})


@pytest.fixture
def app(settings) -> MemchatApp:
    return MemchatApp.from_settings(settings, engine=FakeEngine(), embedder=FakeEmbedder())


def rows(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def column(table: DataTable, name: str) -> list[str]:
    index = list(table.columns).index(name)
    return [row[index] for row in rows(table)]


async def open_browser(pilot, status: str = "active") -> BrowserScreen:
    await pilot.press("f3")
    browser = pilot.app.screen
    browser.query_one("#status").value = status
    await pilot.pause()
    return browser


async def highlight(pilot, table: DataTable, memory_id: int) -> None:
    table.focus()
    table.move_cursor(row=table.get_row_index(str(memory_id)))
    await pilot.pause()


# ---- u restores the highlighted forgotten memory ----------------------------------------------------------
async def test_u_in_the_browser_restores_the_highlighted_memory_forgotten_in_an_earlier_run(app):
    ids = seed(app)
    app.services.memories.set_status(ids["tea"], "deleted")  # forgotten before this run: not in its undo log
    async with app.run_test(size=(160, 45)) as pilot:
        browser = await open_browser(pilot, "deleted")
        table = browser.query_one("#memories")
        await wait_until(pilot, lambda: table.row_count == 1)
        await highlight(pilot, table, ids["tea"])
        await pilot.press("u")
        assert app.services.memories.get(ids["tea"]).status == "active"
        await wait_until(pilot, lambda: table.row_count == 0)  # it left the "deleted" list


async def test_u_restores_the_highlighted_memory_not_the_last_forgotten(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        browser = await open_browser(pilot)
        table = browser.query_one("#memories")
        for name in ("lisbon", "dog"):  # forget Lisbon, then the dog
            await highlight(pilot, table, ids[name])
            await pilot.press("f")
        browser.query_one("#status").value = "deleted"
        await wait_until(pilot, lambda: table.row_count == 2)
        await highlight(pilot, table, ids["lisbon"])
        await pilot.press("u")
        statuses = {name: app.services.memories.get(ids[name]).status for name in ("lisbon", "dog")}
        assert statuses == {"lisbon": "active", "dog": "deleted"}
        browser.query_one("#status").value = "active"
        await wait_until(pilot, lambda: table.row_count == 2)
        await pilot.press("u")  # nothing forgotten is highlighted: undo this run's last forget
        assert app.services.memories.get(ids["dog"]).status == "active"


# ---- the inspector's columns ---------------------------------------------------------------------------------
def test_flexible_columns_share_the_room_and_a_short_one_gives_the_rest_away():
    assert share_widths({"reason": 11, "content": 80}, {"reason": 1, "content": 1}, 50) == {"reason": 11, "content": 39}
    assert share_widths({"reason": 30, "content": 80}, {"reason": 1, "content": 1}, 50) == {"reason": 25, "content": 25}
    assert share_widths({"content": 10}, {"content": 1}, 50) == {"content": 10}


async def test_inspector_reason_and_content_are_readable_at_160_columns_in_chinese_too(app):
    memories = app.services.memories
    english = memories.add(MemoryDraft(kind="fact", content=LONG, attribute="home_city"))
    chinese = memories.add(MemoryDraft(kind="fact", content=CHINESE, attribute="home_detail"))
    reasons = {english.id: "above high threshold", chinese.id: "below floor (0.294 < 0.52)"}
    candidates = [Candidate(m, Signals(similarity=0.5), 0.5, ("vector",), m.id == english.id, reasons[m.id])
                  for m in (english, chinese)]
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        inspector = app.chat.query_one(Inspector)
        inspector.show_candidates(1, candidates)
        await pilot.pause()
        table = app.chat.query_one("#candidates")
        assert table.virtual_size.width <= table.size.width  # nothing hidden off to the side
        assert column(table, "reason") == ["above high threshold", "below floor"]  # whole, figures in the detail line
        contents = column(table, "content")
        assert all(cell_len(text) >= 30 for text in contents), contents  # a readable part of each memory
        assert contents[1].startswith(CHINESE[:12]) and contents[1].endswith("…")
        width = table.columns["content"].get_render_width(table) - 2 * table.cell_padding
        assert all(cell_len(text) <= width for text in contents)  # clipped by cells: 用 is two of them
        await highlight(pilot, table, chinese.id)
        shown = str(app.chat.query_one("#candidate-detail").render())
        assert CHINESE in shown and "below floor (0.294 < 0.52)" in shown


async def test_a_recall_table_filled_before_its_first_layout_is_laid_out_again_for_its_width(app):
    """Filled before its width is known (the first turn can land before the pane's first layout), the
    reason and content columns are laid out again once it is — not left at their narrowest until the
    terminal is resized."""
    memories = app.services.memories
    stored = [memories.add(MemoryDraft(kind="fact", content=LONG, attribute="home_city"))]
    candidates = [Candidate(m, Signals(similarity=0.5), 0.5, ("vector",), True, "above high threshold") for m in stored]
    async with app.run_test(size=(160, 45)) as pilot:
        app.chat.query_one(Inspector).show_candidates(1, candidates)  # no pause: before the first layout
        await pilot.pause()
        await pilot.pause()
        table = app.chat.query_one("#candidates")
        assert column(table, "reason") == ["above high threshold"]
        drawn = {name: table.columns[name].width for name in ("reason", "content")}  # what the row is drawn in
        assert drawn["reason"] >= len("above high threshold") and drawn["content"] >= 30, drawn


# ---- the browser's sort label ----------------------------------------------------------------------------
async def test_the_browser_sort_box_and_title_say_the_order_actually_used(app):
    ids = seed(app)
    app.services.memories.update_scores(ids["lisbon"], importance=0.95, confidence=0.9)
    async with app.run_test(size=(160, 45)) as pilot:
        browser = await open_browser(pilot)
        table, sort = browser.query_one("#memories"), browser.query_one("#sort")
        title = lambda: str(browser.query_one("#browser-title").render())

        newest_first = [f"#{m.id}" for m in sorted(app.services.memories.list_items(),
                                                   key=lambda m: (-max(m.updated_at, m.last_access_at), -m.id))]
        assert sort.value == "recency" and "most recent first" in title()
        assert column(table, "id") == newest_first
        browser.query_one("#search").value = "green tea"
        await wait_until(pilot, lambda: "matching" in title())
        assert sort.value == "score" and "best match first" in title()
        scores = [float(s) for s in column(table, "score") if s]
        assert scores == sorted(scores, reverse=True) and column(table, "id")[0] == f"#{ids['tea']}"
        browser.query_one("#search").value = ""
        await wait_until(pilot, lambda: "matching" not in title())
        assert sort.value == "recency" and "most recent first" in title()
        sort.value = "importance"
        await wait_until(pilot, lambda: "most important first" in title())
        assert column(table, "id")[0] == f"#{ids['lisbon']}"
        browser.query_one("#search").value = "tea"  # a chosen order stays chosen
        await wait_until(pilot, lambda: "matching" in title())
        assert sort.value == "importance" and "most important first" in title()


# ---- no ✔ beside [superseded] -------------------------------------------------------------------------------
async def test_a_memory_superseded_since_recall_is_not_ticked_as_selected(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        table = app.chat.query_one("#candidates")
        key = str(ids["lisbon"])
        assert table.get_cell(key, "✔") == "✔"
        app.services.memories.set_status(ids["lisbon"], "superseded")
        app.chat.reload_memories()
        await pilot.pause()
        assert str(table.get_cell(key, "content")).startswith("[superseded]")
        assert table.get_cell(key, "✔") == ""
        await highlight(pilot, table, ids["lisbon"])
        assert "was selected for this turn, now superseded" in str(app.chat.query_one("#candidate-detail").render())


# ---- select all and clear in the edit dialog ----------------------------------------------------------------
async def test_the_edit_dialog_selects_all_and_clears_and_says_so(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        await highlight(pilot, app.chat.query_one("#candidates"), ids["lisbon"])
        await pilot.press("e")
        assert isinstance(app.screen, TextDialog)
        area = app.screen.query_one("#dialog-text")
        hint = " ".join(str(s.render()) for s in app.screen.query(".dialog-hint"))
        assert "Ctrl+A selects all" in hint and "Ctrl+L clears" in hint
        await pilot.press("ctrl+a")
        assert area.selected_text == "The user lives in Lisbon."
        await pilot.press("P", "o", "r", "t", "o")  # typing replaces the selection
        assert area.text == "Porto"
        await pilot.press("ctrl+l")
        assert area.text == ""
        await pilot.press("ctrl+z")  # clearing is one undoable edit
        assert area.text == "Porto"
        await pilot.press("escape")
        assert app.services.memories.get(ids["lisbon"]).content == "The user lives in Lisbon."


# ---- the command palette ------------------------------------------------------------------------------------
async def run_from_palette(pilot, words: str) -> None:
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CommandPalette))
    for character in words:
        await pilot.press("space" if character == " " else character)
    palette = pilot.app.screen
    await wait_until(pilot, lambda: palette.query_one("CommandList").option_count > 0)
    await pilot.pause(0.3)  # every provider has answered
    await pilot.press("enter")
    await wait_until(pilot, lambda: not isinstance(pilot.app.screen, CommandPalette))


async def test_the_command_palette_offers_memchats_actions(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live?")
        await highlight(pilot, app.chat.query_one("#candidates"), ids["lisbon"])
        titles = [command.title for command in app.get_system_commands(app.chat)]
        for expected in ("Memory browser", "Budget ledger", "Summary and notes", "Export snapshot as Markdown",
                         "Export snapshot as JSON", "Help: every key", "Add a memory",
                         f"Pin #{ids['lisbon']} “The user lives in Lisbon.”",
                         f"Forget #{ids['lisbon']} “The user lives in Lisbon.”"):
            assert expected in titles
        assert "Quit the application" in titles or any("Quit" in t for t in titles)  # Textual's own stay
        app.chat.query_one("#prompt").focus()  # the palette acts on the highlighted row whatever has the focus
        await run_from_palette(pilot, f"pin #{ids['lisbon']}")
        assert app.services.memories.get(ids["lisbon"]).pinned
        await run_from_palette(pilot, "export snapshot as markdown")
        assert next(paths.snapshots_dir().glob("*.md")).read_text(encoding="utf-8").startswith("# memchat turn 1")
        await run_from_palette(pilot, "memory browser")
        assert isinstance(app.screen, BrowserScreen)
        browser_titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Memory browser" not in browser_titles and any(t.startswith("Forget #") for t in browser_titles)


# ---- no sideways scrollbars at 80×24 --------------------------------------------------------------------------
def sideways(app: MemchatApp) -> list[str]:
    """Tables on the screen that would draw a horizontal scrollbar (its thumb ends are the stray ▊▌▉)."""
    return [table.id or "?" for table in app.screen.query(DataTable)
            if table.display and (table.show_horizontal_scrollbar or table.virtual_size.width > table.size.width)]


async def test_no_table_scrolls_sideways_at_80_by_24(app):
    ids = seed(app)
    app.services.memories.edit(ids["dog"], LONG)
    app.services.sessions.add_note(app.conversation.session.id, "Always answer in the style of a 19th-century "
                                                                 "naturalist's field notebook, with dates.")
    async with app.run_test(size=(80, 24)) as pilot:
        await chat(pilot, app, "Where in Lisbon do I live? " * 3)
        for key in ("f1", "f3", "f4", "f5"):
            await pilot.press(key)
            await pilot.pause(0.2)
            assert app.screen is not app.chat
            assert sideways(app) == [], key
            await pilot.press("escape")
        await pilot.press("f2")  # the inspector, opened on a narrow terminal
        await pilot.pause(0.2)
        assert sideways(app) == []
