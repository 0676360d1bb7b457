"""Background pre-warm with the scripted engine: after a reply through the notes, while typing through
the draft's recalled memories; a turn never waits for one, and a draft pre-warm writes nothing."""

from __future__ import annotations

import time

from helpers import fake_conversation

from memchat.types import PromptAssembled

TEMPLATE = 12
"""Fake template tokens around a user message and the assistant cue: `<|user|>`, `<|assistant|>`, newlines."""


def with_memories(tmp_path, **overrides):
    conv = fake_conversation(tmp_path, ("Nice to meet you.", "Lovely dog."), **overrides)
    conv.prewarm_after_turns = True
    for text in ("I live in Porto and I work as a pharmacist.", "My dog is called Pixel and he loves the beach."):
        conv.run_turn(text)
        conv.settle()
    return conv


def cue(engine):
    """Tokens of the assistant cue that closes every prompt: all a turn reads after its draft was warmed."""
    return engine.count_messages([])


def prompt_of(conv, text):
    prompts: list[PromptAssembled] = []
    finished = conv.run_turn(text, emit=lambda e: prompts.append(e) if isinstance(e, PromptAssembled) else None)
    conv.settle()
    return finished, prompts[-1].messages


def test_after_a_reply_the_notes_are_warm_too(tmp_path):
    conv = with_memories(tmp_path)
    conv.run_turn("From now on always answer in one sentence.")
    conv.settle()
    engine = conv.services.engine
    warmed = engine.prewarmed[-1]
    assert "always answer in one sentence" in warmed[-1].content  # the notes close the warm part
    finished, messages = prompt_of(conv, "What is my dog called?")
    assert messages[:len(warmed)] == warmed
    recalled_and_message = engine.count_messages(messages) - engine.count_messages(messages[:len(warmed)])
    assert "Pixel" in messages[-2].content  # recalled: read by the turn, after the warm notes
    assert finished.timings.prompt_evaluated <= recalled_and_message + 5  # + the assistant cue, once per count


def test_after_a_draft_prewarm_a_turn_reads_only_the_assistant_cue(tmp_path):
    conv = with_memories(tmp_path)
    engine = conv.services.engine
    text = "What is my dog called and where do I live?"
    conv.prewarm_draft(text)
    conv.settle()
    warmed = engine.prewarmed[-1]
    finished, messages = prompt_of(conv, text)
    assert "Pixel" in messages[-2].content and "Porto" in messages[-2].content  # recalled memories: warm already
    assert warmed == messages  # the draft itself too: sent as it stood
    assert finished.timings.prompt_evaluated <= cue(engine)
    assert finished.timings.prompt_reused + finished.timings.prompt_evaluated == engine.count_messages(messages)


def test_a_draft_edited_after_its_prewarm_is_read_from_its_first_change(tmp_path):
    conv = with_memories(tmp_path)
    engine = conv.services.engine
    conv.prewarm_draft("What is my dog called?")
    conv.settle()
    finished, messages = prompt_of(conv, "What is my dog called again?")
    assert finished.timings.prompt_evaluated <= engine.count(" again?") + cue(engine) + 1
    assert finished.timings.prompt_reused + finished.timings.prompt_evaluated == engine.count_messages(messages)


def test_without_a_draft_prewarm_the_recalled_memories_are_read_by_the_turn(tmp_path):
    conv = with_memories(tmp_path)
    text = "What is my dog called and where do I live?"
    finished, _ = prompt_of(conv, text)
    assert finished.timings.prompt_evaluated > conv.services.engine.count(text) + TEMPLATE  # the test above can fail


def test_a_changed_draft_still_gives_the_prompt_of_the_final_text(tmp_path):
    sent = "Where do I live?"
    drafted = with_memories(tmp_path / "a")
    drafted.prewarm_draft("What is my dog called?")
    drafted.settle()
    finished, messages = prompt_of(drafted, sent)
    plain = with_memories(tmp_path / "b")
    _, expected = prompt_of(plain, sent)
    assert messages == expected
    assert "Porto" in messages[-2].content and "Pixel" not in messages[-2].content
    engine = drafted.services.engine
    assert finished.timings.prompt_reused + finished.timings.prompt_evaluated == engine.count_messages(messages)


def test_a_draft_with_a_new_note_warms_the_note_the_turn_will_add(tmp_path):
    conv = with_memories(tmp_path)
    text = "From now on answer briefly. What is my dog called?"
    conv.prewarm_draft(text)
    conv.settle()
    finished, messages = prompt_of(conv, text)
    assert any("answer briefly" in m.content for m in messages[:-1] if m.role == "system")
    assert finished.timings.prompt_evaluated <= cue(conv.services.engine)


def test_sending_during_a_draft_prewarm_does_not_wait_for_it(tmp_path):
    long_system = "You are a patient assistant who explains things with care. " * 40
    conv = with_memories(tmp_path, system_prompt=long_system)
    engine = conv.services.engine
    engine.prewarm_step_seconds = 0.2
    engine.forget_cache()  # a long warm: the whole prompt start
    steps = (engine.count(long_system) + 100) // 16
    assert steps * engine.prewarm_step_seconds > 4  # the whole pre-warm would take seconds
    conv.prewarm_draft("What is my dog called?")
    deadline = time.monotonic() + 5
    while not conv._prewarmer.jobs_run and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)  # inside its steps now
    started = time.monotonic()
    finished = conv.run_turn("What is my dog called?")
    assert time.monotonic() - started < 0.2 + 0.5  # at most the step under way, not the pre-warm
    assert finished.reply and engine.prompts[-1][-1].content == "What is my dog called?"
    assert finished.timings.prompt_reused < engine.count(long_system)  # the pre-warm was stopped early


def test_a_draft_prewarm_writes_nothing(tmp_path):
    conv = with_memories(tmp_path)
    db = conv.services.db
    tables = [r["name"] for r in db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE "
                                         "'CREATE VIRTUAL%'")]

    def contents():
        return {t: db.rows(f'SELECT * FROM "{t}"') for t in tables}

    before = contents()
    for draft in ("What is my dog called?", "From now on answer briefly. Where do I live?", "my name is Ana"):
        conv.prewarm_draft(draft)
        conv.settle()
    assert conv._prewarmer.jobs_run >= 3
    assert contents() == before  # no row added or changed: memories untouched (access counts), no note, no snapshot


def test_an_empty_draft_or_a_disabled_prewarm_starts_nothing(tmp_path):
    conv = with_memories(tmp_path, model={"prewarm": False})
    runs = conv._prewarmer.jobs_run
    conv.prewarm_draft("Where do I live?")
    conv.settle()
    assert conv._prewarmer.jobs_run == runs
    enabled = with_memories(tmp_path / "on")
    runs = enabled._prewarmer.jobs_run
    enabled.prewarm_draft("   ")
    enabled.settle()
    assert enabled._prewarmer.jobs_run == runs


def test_rewinding_the_llama_context_marks_its_logits_stale():
    """After the context's end moves back, its logits are another token's: llama-cpp-python must evaluate
    before it samples, or a reply would start from the wrong place. Staying put keeps them live."""
    from types import SimpleNamespace

    from memchat.engine.llama import _rewind

    llm = SimpleNamespace(n_tokens=40, _requires_eval=False)
    _rewind(llm, 40)
    assert (llm.n_tokens, llm._requires_eval) == (40, False)
    _rewind(llm, 12)
    assert (llm.n_tokens, llm._requires_eval) == (12, True)
