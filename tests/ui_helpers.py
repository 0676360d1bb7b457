"""Pilot helpers shared by the inspector and memory-key UI tests."""

from __future__ import annotations

import time

from memchat.types import MemoryDraft
from memchat.ui.app import MemchatApp
from memchat.ui.prompt_input import PromptInput


def seed(app: MemchatApp) -> dict[str, int]:
    drafts = {
        "lisbon": MemoryDraft(kind="fact", content="The user lives in Lisbon.", attribute="home_city"),
        "tea": MemoryDraft(kind="preference", content="The user prefers green tea.", attribute="drink"),
        "dog": MemoryDraft(kind="relation", content="The user has a dog named Rex.", attribute="dog"),
    }
    return {name: app.services.writer.apply(d).memory_id for name, d in drafts.items()}


def replied(app) -> bool:
    """The last stored message is the assistant's (the turn has been recorded)."""
    history = app.conversation.history()
    return bool(history) and history[-1].role == "assistant"


async def wait_until(pilot, predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)


async def chat(pilot, app: MemchatApp, text: str) -> None:
    app.chat.query_one(PromptInput).load_text(text)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not app.chat.pane.streaming and replied(app))
    app.conversation.wait()
    await wait_until(pilot, lambda: not app.chat.query_one("#status").extracting)
