"""The memory browser exports what it lists (issue 12): F6 Markdown, F7 JSONL, and the palette."""

from __future__ import annotations

import json
import stat

import pytest
from ui_helpers import seed, wait_until

from memchat import paths
from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.ui.app import MemchatApp
from memchat.ui.browser import BrowserScreen
from memchat.ui.palette import commands


@pytest.fixture
def app(tmp_path, monkeypatch) -> MemchatApp:
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    settings = load_settings(overrides={"db": str(tmp_path / "t.db")})
    return MemchatApp.from_settings(settings, engine=FakeEngine(), embedder=FakeEmbedder())


async def test_the_browser_exports_the_filtered_list_and_names_the_file(app):
    ids = seed(app)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f3")
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        table = browser.query_one("#memories")
        browser.query_one("#kind").value = "relation"
        await wait_until(pilot, lambda: table.row_count == 1)
        await pilot.press("f7")
        [path] = paths.exports_dir().glob("memories-*.jsonl")
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert lines[0]["scope"] == "selection" and [r["id"] for r in lines[1:]] == [ids["dog"]]
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert any(str(path) in str(n.message) for n in app._notifications)

        browser.query_one("#kind").value = ""
        await wait_until(pilot, lambda: table.row_count == 3)
        titles = [c.title for c in commands(app, browser)]
        assert "Export the listed memories as Markdown" in titles
        await pilot.press("f6")
        [markdown] = paths.exports_dir().glob("memories-*.md")
        text = markdown.read_text(encoding="utf-8")
        assert "the memories listed in the memory browser" in text and "Rex" in text and "Lisbon" in text
