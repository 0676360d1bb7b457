"""Typing, then pausing, pre-warms the next prompt for the draft: its recalled memories and the draft itself."""

from __future__ import annotations

import pytest
from ui_helpers import seed, wait_until

from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.ui.app import MemchatApp
from memchat.ui.prompt_input import SETTLE_SECONDS, PromptInput


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    settings = load_settings(overrides={"db": str(tmp_path / "t.db")})
    return MemchatApp.from_settings(settings, engine=FakeEngine(), embedder=FakeEmbedder())


def warmed_with(engine: FakeEngine, word: str) -> bool:
    return any(word in message.content for warm in engine.prewarmed for message in warm)


async def test_typing_then_pausing_prewarms_the_drafts_recalled_memories(app):
    engine = app.services.engine
    async with app.run_test(size=(120, 40)) as pilot:
        seed(app)
        await pilot.press(*"what", "space", *"tea", "space", *"do", "space", "I", "space", *"prefer")
        assert app.chat.query_one(PromptInput).text == "what tea do I prefer"
        assert not warmed_with(engine, "green tea")  # nothing before the pause
        await pilot.pause(SETTLE_SECONDS + 0.2)
        await wait_until(pilot, lambda: warmed_with(engine, "green tea"))
        warmed = engine.prewarmed[-1]
        assert warmed[-2].role == "system" and "green tea" in warmed[-2].content  # the recalled memories
        assert (warmed[-1].role, warmed[-1].content) == ("user", "what tea do I prefer")  # then the draft
