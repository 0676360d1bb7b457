"""How long a turn's inspector refresh takes with 10,000 memories in the store.

    python benchmarks/bench_inspector.py [--memories 10000] [--turns 20]

Runs the real TUI headless (Textual's test driver) on a database holding N
synthetic memories, with the real embedding model and a scripted chat engine
(so model generation time is not part of what is measured), sends messages and
reports, per turn:
- recall: hybrid recall inside the turn (embedding the message, KNN, FTS, scoring);
- total: message sent (Enter) → the inspector's table has been rebuilt with this turn's
  candidates; the difference is the UI's share (worker hand-off, message, table rebuild).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_recall  # noqa: E402

from memchat.config import load_settings  # noqa: E402
from memchat.engine.fake import FakeEngine  # noqa: E402
from memchat.engine.llama import LlamaEmbedder  # noqa: E402
from memchat.memory.store import Database  # noqa: E402
from memchat.pipeline.factory import resolve_model  # noqa: E402
from memchat.ui.app import MemchatApp  # noqa: E402
from memchat.ui.chat_screen import ChatScreen  # noqa: E402
from memchat.ui.inspector import Inspector  # noqa: E402
from memchat.ui.prompt_input import PromptInput  # noqa: E402

MESSAGES = ["What do I like to drink?", "Tell me about my friend Rui", "Which sports do I do on weekends?",
            "Do I have cats or dogs?", "What did I buy in March?"]


async def drive(app: MemchatApp, turns: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {"recall": [], "total": []}
    async with app.run_test(size=(160, 45)) as pilot:
        screen = app.screen
        assert isinstance(screen, ChatScreen)
        inspector = screen.query_one(Inspector)
        shown: list[float] = []
        show = inspector.show_candidates

        def timed_show(*args: object, **kwargs: object) -> None:  # stamp when the table holds the turn's rows
            show(*args, **kwargs)  # type: ignore[arg-type]
            shown.append(time.perf_counter())

        inspector.show_candidates = timed_show  # type: ignore[method-assign]
        app.conversation.services.engine.enqueue(*["Sure." for _ in range(turns)])
        for turn in range(turns):
            prompt = screen.query_one(PromptInput)
            prompt.text = MESSAGES[turn % len(MESSAGES)]
            count = len(shown)
            started = time.perf_counter()
            await pilot.press("enter")
            while len(shown) == count and time.perf_counter() - started < 10:
                await asyncio.sleep(0.005)
            updated = shown[-1]
            record = app.conversation.last_recall
            samples["recall"].append(record.embed_ms + record.search_ms)
            samples["total"].append((updated - started) * 1000)
            await pilot.pause()
            app.conversation.wait()
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args(argv)
    embed_path, _ = resolve_model("all-minilm-l6-v2", progress=True)
    embedder = LlamaEmbedder(embed_path, n_threads=2)
    with tempfile.TemporaryDirectory(prefix="memchat-inspector-") as tmp:
        db_path = Path(tmp) / "inspector.db"
        db = Database(db_path)
        db.ensure_vectors(embedder.dim, embedder.name)
        bench_recall.fill(db, args.memories, embedder.dim, random.Random(3))
        db.close()
        settings = load_settings(Path(tmp) / "none.toml", {"db": str(db_path)}, environ={})
        app = MemchatApp.from_settings(settings, session="bench", engine=FakeEngine(n_ctx=4096), embedder=embedder)
        direct = []
        for turn in range(args.turns):  # the same recall outside the UI, as the yardstick of this run
            started = time.perf_counter()
            app.services.recaller.recall(MESSAGES[turn % len(MESSAGES)], token_limit=400,
                                         count_tokens=app.services.engine.count, touch=False)
            direct.append((time.perf_counter() - started) * 1000)
        samples = asyncio.run(drive(app, args.turns))
    bare = statistics.median(direct)
    recall, total = statistics.median(samples["recall"]), statistics.median(samples["total"])
    print(f"{args.memories} memories, {args.turns} turns (median ms): recall alone {bare:.1f}; in the app: "
          f"recall {recall:.1f}, message sent → inspector updated {total:.1f} ({total / bare:.1f}× recall alone)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
