"""The KV-stable prompt with the real engine: after a pre-warm a reply reads only its new tail, and after a
pre-warm of the draft being typed nothing at all: its first token is sampled from the pre-warm's logits."""

import pytest

from memchat.config import load_settings
from memchat.pipeline.factory import build_services, open_conversation
from memchat.types import PromptAssembled

pytestmark = pytest.mark.real


def warm_conversation(tmp_path, real_engines, *said: str):
    """A conversation that pre-warms after its turns, with `said` already sent (each turn settled)."""
    engine, embedder = real_engines
    settings = load_settings(tmp_path / "none.toml", {"db": str(tmp_path / "kv.db")},
                             environ={"MEMCHAT_BUDGET_RESERVED_OUTPUT": "24"})
    conversation = open_conversation(build_services(settings, engine=engine, embedder=embedder), "kv")
    conversation.prewarm_after_turns = True
    for text in said:
        conversation.run_turn(text)
        conversation.settle()
    return conversation


def sent(conversation, text):
    """Run a turn; its finished event and the prompt it sent."""
    prompts: list[PromptAssembled] = []
    finished = conversation.run_turn(text, emit=lambda e: prompts.append(e) if isinstance(e, PromptAssembled) else None)
    conversation.settle()
    return finished, prompts[-1].messages


def test_after_a_prewarm_a_reply_reads_only_its_notes_recall_and_message(tmp_path, real_engines):
    engine = real_engines[0]
    conversation = warm_conversation(tmp_path, real_engines, "My name is Ana and I live in Porto with my dog Pixel.")
    finished, messages = sent(conversation, "From now on answer briefly. Where do I live?")
    # the per-turn blocks (the new note, recalled memories: a system message each) and the message
    tail = 1 + next(i for i, m in enumerate(reversed(messages[:-1])) if m.role != "system")
    assert tail == 3
    new_part = engine.count_messages(messages) - engine.count_messages(messages[:-tail])
    reused, read = finished.timings.prompt_reused, finished.timings.prompt_evaluated
    assert reused + read == engine.count_messages(messages)
    assert read <= new_part + 4  # the tail, and the assistant cue the template adds after the last message
    assert reused >= engine.count_messages(messages[:-tail]) - 4


def test_after_a_draft_prewarm_a_reply_reads_nothing(tmp_path, real_engines):
    engine = real_engines[0]
    conversation = warm_conversation(tmp_path, real_engines, "My name is Ana and I live in Porto with my dog Pixel.",
                                     "From now on answer briefly.")
    text = "What is my dog called, and where do I live?"
    conversation.prewarm_draft(text)
    conversation.settle()
    finished, messages = sent(conversation, text)
    assert messages[-2].role == "system" and "Pixel" in messages[-2].content  # recalled: warmed while "typing"
    reused, read = finished.timings.prompt_reused, finished.timings.prompt_evaluated
    assert reused + read == engine.count_messages(messages)
    message_part = engine.count_messages(messages) - engine.count_messages(messages[:-1])
    assert message_part > 12  # so the next line can fail
    assert read == 0  # the message, the cue and the last token's logits were warm
    assert finished.reply.strip()


def test_a_prewarm_gives_way_to_a_turn_at_once(real_engines):
    engine, _ = real_engines
    from memchat.types import ChatMessage

    long_history = [ChatMessage("system", "You are helpful.")] + [
        ChatMessage("user" if i % 2 == 0 else "assistant", f"Message {i} about the weather in Lisbon and Porto.")
        for i in range(60)
    ]
    assert engine.prewarm(long_history, should_stop=lambda: True) == 0
    calls = []
    assert 0 < engine.prewarm(long_history, should_stop=lambda: calls.append(1) or len(calls) > 2) <= 2 * 64
