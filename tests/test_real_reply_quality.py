"""Issue 10 on the real default models: behaviour only, never the model's wording (greedy output
differs between CPUs and thread counts)."""

import pytest

from memchat.config import load_settings
from memchat.memory.faithful import ends_complete, traceability
from memchat.pipeline.factory import build_services, open_conversation
from memchat.pipeline.reply_guard import words
from memchat.pipeline.snapshot import load
from memchat.types import ReplyRestarted

pytestmark = pytest.mark.real


def services_for(tmp_path, real_engines, **budget):
    engine, embedder = real_engines
    settings = load_settings(tmp_path / "none.toml", {"db": str(tmp_path / "q.db"),
                                                      "budget": {"reserved_output": 96, **budget}}, environ={})
    return build_services(settings, engine=engine, embedder=embedder)


def test_no_reply_is_a_word_for_word_copy_of_an_earlier_one(tmp_path, real_engines):
    conv = open_conversation(services_for(tmp_path, real_engines), "guard")
    replies, restarts = [], []
    for text in ("Hi, my name is Priya and I live in Leeds.", "What's my name?", "How many legs does a spider have?",
                 "Where do I live?", "What is the capital of Japan?", "thanks!"):
        finished = conv.run_turn(text, lambda e: restarts.append(e) if isinstance(e, ReplyRestarted) else None)
        conv.wait()
        replies.append(words(finished.reply))
    assert all(reply for reply in replies)
    assert len({tuple(r) for r in replies}) == len(replies)
    stored = [m.content for m in conv.history() if m.role == "assistant"]
    assert len(stored) == len(replies)  # one reply per turn, whatever was regenerated


def test_the_summary_of_a_long_chat_traces_to_what_was_said_and_forgets(tmp_path, real_engines):
    services = services_for(tmp_path, real_engines)
    services.engine.n_ctx, original = 768, services.engine.n_ctx
    try:
        conv = open_conversation(services, "long")
        for text in ("My brother Tom lives in Berlin and my sister Mei is a teacher.",
                     "I have a dog called Bolt. He loves the beach.",
                     "Can you check this for me? " + "The meeting on Tuesday approved the 2024 budget. " * 80,
                     "I started learning the cello in 2019.", "We are flying to Tokyo in April.",
                     "My daughter Ana is seven and loves swimming."):
            conv.run_turn(text)
        conv.wait()
        said = [m.content for m in conv.history()]
        assert conv.summary and traceability(conv.summary, said) == 1.0 and ends_complete(conv.summary)
        conv.run_turn("Please forget about my dog Bolt.")
        conv.wait()
        assert "Bolt" not in conv.summary and traceability(conv.summary, said) == 1.0
    finally:
        services.engine.n_ctx = original


def test_a_huge_paste_leaves_the_earlier_turns_in_the_next_prompt(tmp_path, real_engines):
    services = services_for(tmp_path, real_engines)
    conv = open_conversation(services, "paste")
    conv.run_turn("My name is Ana and I live in Porto.")
    conv.run_turn("Summarise this: " + "The quick brown fox jumps over the lazy dog. " * 1200)
    finished = conv.run_turn("What is my name?")
    conv.wait()
    record = load(services.db, conv.session.id, finished.turn)
    sent = [m["content"] for m in record["messages"]]
    assert "My name is Ana and I live in Porto." in sent
    paste = next(c for c in sent if c.startswith("Summarise this:"))
    window = next(b for b in record["budget"]["blocks"] if b["name"] == "window")
    assert services.engine.count(paste) <= 0.4 * window["limit"] and "left out here" in paste
    assert len(next(m.content for m in conv.history() if m.content.startswith("Summarise this:"))) > 50000
