"""One turn end to end with the scripted engine: notes, recall, eviction into the summary, resume."""

import json

import pytest
from helpers import fake_conversation

from memchat.pipeline import snapshot
from memchat.pipeline.factory import open_conversation
from memchat.types import (
    PURGE_OFFER,
    MemchatError,
    MemoryWritten,
    PromptAssembled,
    RecallDone,
    TokenStreamed,
    TurnFinished,
)


def test_a_turn_emits_events_persists_and_extracts(tmp_path):
    conv = fake_conversation(tmp_path, ("Nice to meet you!",))
    events = []
    finished = conv.run_turn("Hi, I live in Lisbon.", events.append)
    conv.wait()
    kinds = [type(e) for e in events]
    assert kinds.index(RecallDone) < kinds.index(PromptAssembled) < kinds.index(TokenStreamed) < kinds.index(TurnFinished)
    assert isinstance(events[-1], MemoryWritten) and events[-1].outcomes[0].action == "added"
    assert finished.reply == "Nice to meet you!"
    assert [m.role for m in conv.history()] == ["user", "assistant"]
    stored = snapshot.load(conv.services.db, conv.session.id, 1)
    assert stored["memory_writes"][0]["action"] == "added"


def test_a_note_takes_effect_in_the_very_next_prompt(tmp_path):
    conv = fake_conversation(tmp_path)
    conv.run_turn("From now on always answer in bullet points.")
    prompt = conv.services.engine.prompts[-1]
    per_turn = prompt[-2]  # after the cached conversation, just before the message
    assert per_turn.role == "system" and "always answer in bullet points" in per_turn.content


def test_recalled_memory_reaches_the_prompt(tmp_path):
    conv = fake_conversation(tmp_path)
    conv.run_turn("My dog is called Pixel.")
    conv.wait()
    conv.run_turn("What is my dog called?")
    recalled = [m for m in conv.services.engine.prompts[-1] if "quoted data" in m.content and "relevant" in m.content]
    assert recalled and "Pixel" in recalled[0].content
    assert conv.services.memories.list_items()[0].access_count == 1


def test_window_overflow_is_summarised_incrementally(tmp_path):
    conv = fake_conversation(tmp_path, n_ctx=600, budget={"reserved_output": 100})
    engine = conv.services.engine
    summariser = conv.services.summariser
    folds: list[str] = []
    fold = summariser.update
    summariser.update = lambda old, evicted, limit: folds.append(old) or fold(old, evicted, limit)  # type: ignore[method-assign]
    for turn in range(8):
        engine.enqueue("reply " + "blah " * 40)
        conv.run_turn(f"message {turn} " + "words " * 40)
        conv.wait()
    evicted = [m for m in conv.history() if not m.in_window]
    assert evicted and evicted[0].content.startswith("message 0")
    assert conv.summary.startswith("User: message") and "blah" not in conv.summary  # the user's words, not replies
    assert folds and folds[0] == "" and folds[-1] != ""  # the old summary goes in first
    summary_prompts = folds
    synchronous = 0
    for record in conv.services.db.rows("SELECT snapshot FROM turns"):
        budget = json.loads(record["snapshot"])["budget"]
        assert budget["prompt_tokens"] <= budget["n_ctx"] - budget["reserved_output"]
        synchronous += any(b["name"] == "window" and b["cut"] for b in budget["blocks"])
    assert synchronous < len(summary_prompts), "eviction should mostly happen ahead, after a reply"


def test_resume_rebuilds_the_same_window_summary_and_notes(tmp_path):
    conv = fake_conversation(tmp_path, n_ctx=600, budget={"reserved_output": 100})
    conv.run_turn("From now on answer briefly.")
    for turn in range(6):
        conv.services.engine.enqueue("ok " * 40)
        conv.run_turn(f"turn {turn} " + "text " * 40)
    conv.wait()
    before = conv.preview("next")
    again = open_conversation(conv.services, None, resume=True)
    assert again.session.id == conv.session.id
    assert again.summary == conv.summary and again.notes == conv.notes
    assert again.preview("next").prompt_tokens == before.prompt_tokens


def test_cancel_keeps_the_partial_reply_marked(tmp_path):
    conv = fake_conversation(tmp_path, ("one two three four five six",))
    seen = []

    def stop():
        return len(seen) >= 2

    finished = conv.run_turn("hello there friend", lambda e: seen.append(e) if isinstance(e, TokenStreamed) else None, stop)
    assert finished.cancelled and finished.reply == "one two"
    assert conv.history()[-1].cancelled


def test_empty_message_is_refused_without_storing(tmp_path):
    conv = fake_conversation(tmp_path)
    with pytest.raises(MemchatError):
        conv.run_turn("   ")
    assert conv.history() == []


def test_a_turn_that_fails_before_any_reply_leaves_nothing_behind(tmp_path):
    conv = fake_conversation(tmp_path)

    def broken(*args, **kwargs):
        raise MemchatError("prompt does not fit", "shorten it")
        yield  # pragma: no cover

    conv.services.engine.stream = broken
    with pytest.raises(MemchatError):
        conv.run_turn("From now on answer in Latin. What is love?")
    assert conv.history() == []
    assert conv.notes == []


def test_forget_acts_before_recall_and_retires_matching_notes(tmp_path):
    conv = fake_conversation(tmp_path)
    conv.run_turn("I'm allergic to peanuts and I never eat shellfish.")
    conv.wait()
    assert any("peanuts" in n for n in conv.notes)
    events = []
    conv.run_turn("Please forget that I'm allergic to peanuts.", events.append)
    conv.wait()
    assert not any("peanuts" in m.content for m in conv.services.memories.list_items())
    assert not any("peanuts" in n for n in conv.notes)
    prompt = conv.services.engine.prompts[-1]  # the window still quotes the chat; memory and notes do not
    assert not any("peanuts" in m.content for m in prompt if m.role == "system")
    written = [e for e in events if isinstance(e, MemoryWritten)][0]
    assert {o.action for o in written.outcomes if o.reason != PURGE_OFFER} == {"deleted"}
    offer = [o for o in written.outcomes if o.reason == PURGE_OFFER]
    assert len(offer) == 1 and offer[0].content.startswith("memchat memory purge-topic ")


def test_a_message_forgotten_whole_or_in_part_leaves_the_window_too(tmp_path):
    """What the user took back is not read to the model again with the chat. A message that also said other things
    leaves the window too (the window holds it as typed, forgotten part and all); its memory keeps the rest. The rest
    of the chat stays."""
    conv = fake_conversation(tmp_path)
    for text in ("My daughter has been self-harming, we're getting her help from the GP.",
                 "I work at Tesco. My daughter loves netball.", "I live in Porto."):
        conv.run_turn(text)
        conv.wait()
    conv.run_turn("Forget everything about my daughter.")
    conv.wait()
    prompt = " ".join(m.content for m in conv.services.engine.prompts[-1])
    assert "self-harming" not in prompt and "netball" not in prompt and "Porto" in prompt
    kept = " ".join(m.content for m in conv.services.memories.list_items(episodes=True))
    assert "Tesco" in kept and "netball" not in kept  # what else its message said is kept in memory


def test_a_later_reply_that_told_the_story_again_leaves_the_window(tmp_path):
    """Tried in tmux (round 21): after "Please forget about Kyle's arrest", the 135M model's reply to a later message,
    which had repeated "He was arrested for possession", was still read to the model with the chat."""
    conv = fake_conversation(tmp_path, ("Sorry to hear that.", "Kyle's case: he was arrested for possession, sorry.",
                                        "Noted.", "Runner beans are great."))
    for text in ("My grandson Kyle was arrested on Saturday for possession.", "In other news, the runner beans are up."):
        conv.run_turn(text)
        conv.wait()
    conv.run_turn("Please forget about Kyle's arrest.")
    conv.wait()
    conv.run_turn("What should I plant next?")
    conv.wait()
    prompt = " ".join(m.content for m in conv.services.engine.prompts[-1])
    assert "arrested" not in prompt and "runner beans" in prompt


def test_only_what_the_request_took_back_leaves_the_window(tmp_path):
    """A message whose memory was deleted earlier, in the memory panel, stays in the chat window when a later
    request forgets something else."""
    conv = fake_conversation(tmp_path)
    for text in ("I love pasta carbonara.", "My sister has a secret."):
        conv.run_turn(text)
        conv.wait()
    for memory in conv.services.memories.list_items(statuses=("active",), episodes=True):
        if "pasta" in memory.content:
            conv.services.memories.set_status(memory.id, "deleted")
    conv.run_turn("Forget everything about my sister.")
    conv.wait()
    prompt = " ".join(m.content for m in conv.services.engine.prompts[-1])
    assert "pasta" in prompt and "secret" not in prompt


def test_questions_do_not_become_notes(tmp_path):
    conv = fake_conversation(tmp_path)
    conv.run_turn("Do you remember what I am allergic to?")
    assert conv.notes == []


def test_resume_skips_empty_sessions_and_empty_ones_can_be_discarded(tmp_path):
    conv = fake_conversation(tmp_path)
    conv.run_turn("hello")
    conv.wait()
    empty = conv.services.sessions.create("opened-and-closed")
    assert open_conversation(conv.services, None, resume=True).session.id == conv.session.id
    assert conv.services.sessions.discard_if_empty(empty.id)
    assert not conv.services.sessions.discard_if_empty(conv.session.id)
    assert [s.name for s in conv.services.sessions.all()] == ["test"]


def test_the_next_prompt_starts_with_exactly_what_was_prewarmed(tmp_path):
    conv = fake_conversation(tmp_path, ("Nice to meet you.", "Noted.", "Porto is lovely.", "Try the bacalhau."))
    conv.prewarm_after_turns = True
    engine = conv.services.engine
    texts = ("My name is Ana.", "From now on answer briefly.", "I live in Porto, what should I visit?",
             "And what about food in Porto?")  # a new note, then recalled memories: both after the warm part
    for turn, text in enumerate(texts):
        conv.run_turn(text)
        if turn:
            warmed, prompt = engine.prewarmed[-1], engine.prompts[-1]
            assert prompt[:len(warmed)] == warmed
            assert engine.last_cache[1] <= engine.count_messages(prompt[len(warmed):]) + 2  # only the new part read
        conv.settle()
    assert len(engine.prewarmed) == len(texts)


def test_a_turn_does_not_prewarm_when_not_asked(tmp_path):
    conv = fake_conversation(tmp_path, ("Hi.",))
    conv.run_turn("My name is Ana.")
    conv.wait()
    assert conv.services.engine.prewarmed == []


def test_the_budget_preview_follows_a_recalled_memory_forgotten_pinned_or_edited_by_key(tmp_path):
    conv = fake_conversation(tmp_path, ("Noted.", "Tuesdays, then."))
    conv.run_turn("My sister Olga lives in Riga and she plays the oboe in the city orchestra.")
    conv.wait()
    conv.run_turn("Where does my sister Olga live?")
    conv.wait()
    recalled = [c.memory for c in conv.last_recall.selected]
    assert recalled, "the Riga memory is recalled for the next prompt"

    def recalled_tokens() -> int:
        block = conv.preview("ok").block("recalled")
        return block.tokens if block else 0

    counted = recalled_tokens()
    assert counted > 0
    memories, writer = conv.services.memories, conv.services.writer
    first = recalled[0]
    memories.pin(first.id)
    pinned = conv.preview("ok").block("pinned")
    assert recalled_tokens() < counted and pinned is not None and pinned.tokens > 0  # counted once, as pinned
    memories.pin(first.id, False)
    assert recalled_tokens() == counted
    memories.edit(first.id, "The user's sister Olga lives in Riga.")
    assert 0 < recalled_tokens() < counted  # the edited text, not the one recalled
    for memory in recalled:
        writer.forget_one(memory.id)
    assert recalled_tokens() == 0  # before the next message is sent, not after it
