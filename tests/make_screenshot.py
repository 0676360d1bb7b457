"""Render the README screenshot: `python tests/make_screenshot.py [OUT.svg]` (default: themes/screenshot.svg).

The app is built exactly as the UI tests build it — `MemchatApp.from_settings` on
the scripted fake engine and the hashed bag-of-words embedder, in a throwaway
MEMCHAT_HOME — and a short conversation is typed through Textual's pilot, so the
memories, the recall table with its scores, the budget bar and the inspector are
all real output of the pipeline. No model and no network; the picture is the same
on every run except the measured tok/s in the status line.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "themes" / "screenshot.svg"
SIZE = (140, 40)

# (what the user types, the scripted reply, the model's labels for the extracted statements)
TURNS: list[tuple[str, str, dict | None]] = [
    (
        "Hi! I live in Lisbon and my dog is called Pixel.",
        ("Nice to meet you — and Pixel! Lisbon is a lovely city for dog walks along the river. "
         "What can I help you with today?"),
        {"items": [{"index": 1, "kind": "fact", "importance": 3}, {"index": 2, "kind": "relation", "importance": 4}]},
    ),
    (
        "I'm allergic to peanuts. From now on, answer in bullet points.",
        "Got it:\n\n- I'll keep **peanuts** out of any recipe or snack idea.\n- From now on I answer in bullet points.",
        {"items": [{"index": 1, "kind": "preference", "importance": 5}, {"index": 2, "kind": "preference", "importance": 3}]},
    ),
    (
        "What is my dog called?",
        "- Your dog is called **Pixel**.\n- You told me in your first message — it is in my memory as #2.",
        None,
    ),
]


async def shoot(out: Path) -> Path:
    from memchat.config import load_settings
    from memchat.engine.fake import FakeEmbedder, FakeEngine
    from memchat.ui.app import MemchatApp
    from memchat.ui.inspector import Inspector
    from memchat.ui.prompt_input import PromptInput

    settings = load_settings(overrides={"db": str(Path(os.environ["MEMCHAT_HOME"]) / "screenshot.db")})
    # ~60 tokens/s, like the default model on a laptop; a delay also lets each reply mount before it streams
    engine = FakeEngine([reply for _, reply, _ in TURNS], n_ctx=4096, delay=1 / 90)
    for _, _, labels in TURNS:
        if labels is not None:
            engine.enqueue_json(labels)
    app = MemchatApp.from_settings(settings, session="demo", engine=engine, embedder=FakeEmbedder())
    engine.name = "smollm2-135m-instruct"  # what the status line would say with the default model

    async def wait_until(pilot, predicate, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                history = [(m.role, m.content[:30]) for m in app.conversation.history()]
                raise RuntimeError(f"the app did not get there in time: history {history}, "
                                   f"streaming {app.chat.pane.streaming}, notifications "
                                   f"{[n.message for n in app._notifications]}")
            await pilot.pause(0.02)

    async with app.run_test(size=SIZE) as pilot:
        inspector = app.chat.query_one(Inspector)
        for turn, (text, _, _) in enumerate(TURNS, start=1):
            app.chat.query_one(PromptInput).load_text(text)
            await pilot.press("enter")
            # the turn is recorded (user + reply stored), its extraction is done and the inspector shows both
            await wait_until(pilot, lambda turn=turn: len(app.conversation.history()) == 2 * turn
                             and app.conversation.history()[-1].role == "assistant" and not app.chat.pane.streaming)
            app.conversation.wait()
            await wait_until(pilot, lambda turn=turn: not app.chat.query_one("#status").extracting
                             and f"turn {turn}" in str(inspector.query_one("#writes-title").render()))
        table = inspector.query_one("#candidates")
        await wait_until(pilot, lambda: table.row_count > 0)
        await pilot.press("tab")  # focus the recall table: its cursor row (the best candidate) is highlighted
        await pilot.pause(0.3)
        app.clear_notifications()
        await pilot.pause(0.3)
        out.parent.mkdir(parents=True, exist_ok=True)
        app.save_screenshot(filename=out.name, path=str(out.parent))
    return out


def main() -> None:
    out = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else DEFAULT_OUT
    with tempfile.TemporaryDirectory() as home:
        os.environ["MEMCHAT_HOME"] = home
        for name in ("MEMCHAT_DB", "MEMCHAT_THEME"):
            os.environ.pop(name, None)
        print(asyncio.run(shoot(out)))


if __name__ == "__main__":
    main()
