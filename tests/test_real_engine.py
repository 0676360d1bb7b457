"""The real llama.cpp engine with the default models: chat, JSON, embeddings, counting."""

import json

import numpy as np
import pytest

from memchat.engine.protocol import Sampling
from memchat.memory.distill import draft_from_sentence
from memchat.memory.extract import label_with_model
from memchat.types import ChatMessage

pytestmark = pytest.mark.real


def test_streams_a_reply(real_engines):
    """Behaviour only: a 135M model's greedy wording differs between CPUs (issue 13)."""
    engine, _ = real_engines
    messages = [ChatMessage("user", "What is the capital of France?")]
    pieces = list(engine.stream(messages, max_tokens=32, sampling=Sampling(temperature=0.0)))
    reply = "".join(pieces)
    assert len(pieces) > 1 and all(isinstance(p, str) for p in pieces)
    assert reply.strip(), "the model streamed only whitespace"
    assert "<|im_end|>" not in reply and "<|im_start|>" not in reply, "the chat template leaked into the reply"
    assert 0 < engine.count(reply) <= 32 + 2


def test_stop_request_ends_generation_at_once(real_engines):
    engine, _ = real_engines
    seen = []
    for piece in engine.stream([ChatMessage("user", "Count from one to fifty in words.")], max_tokens=200,
                               sampling=Sampling(), should_stop=lambda: len(seen) >= 3):
        seen.append(piece)
    assert len(seen) == 3


def test_counts_are_the_tokens_the_model_reads(real_engines):
    engine, _ = real_engines
    messages = [ChatMessage("system", "Be brief."), ChatMessage("user", "Hello there, 你好!")]
    rendered = engine.render(messages)
    assert rendered.startswith("<|im_start|>system\nBe brief.<|im_end|>")
    assert rendered.endswith("<|im_start|>assistant\n")
    assert engine.count_messages(messages) == len(engine._prompt_tokens(messages))
    assert engine.count_messages(messages) > engine.count("Be brief.") + engine.count("Hello there, 你好!")


def test_kept_counts_stay_the_tokenizers_for_old_and_new_texts(real_engines):
    from memchat.engine.llama import COUNTED_TEXTS

    engine, _ = real_engines
    texts = [f"Message {i}: we walked {'far ' * (i % 7)}along the river in Porto." for i in range(COUNTED_TEXTS + 50)]
    tokenized = [len(engine._llm.tokenize(t.encode("utf-8"), add_bos=False, special=False)) for t in texts]
    assert [engine.count(t) for t in texts] == tokenized  # the oldest are dropped from the kept counts
    assert [engine.count(t) for t in reversed(texts)] == tokenized[::-1]  # counted again, the same


def test_json_constrained_output_parses_and_validates(real_engines):
    engine, _ = real_engines
    sentences = ["I live in Lisbon.", "My dog is called Pixel.", "I'm allergic to peanuts."]
    drafts = [draft_from_sentence(s, session_id=None, message_id=None) for s in sentences]
    labels = label_with_model(engine, sentences, drafts)
    assert labels.failure is None
    assert len(labels.drafts) == 3
    raw = engine.complete_json([ChatMessage("user", "Give a JSON object with a name.")],
                               {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
                               max_tokens=40)
    assert isinstance(json.loads(raw)["name"], str)


def test_embeddings_have_the_expected_dimension_and_meaning(real_engines):
    _, embedder = real_engines
    dog, puppy, stocks = (np.array(v) for v in embedder.embed(["I love my dog", "I adore my puppy", "Stocks fell today"]))
    assert embedder.dim == 384 and dog.shape == (384,)
    assert abs(np.linalg.norm(dog) - 1) < 1e-4
    assert dog @ puppy > dog @ stocks + 0.3
    assert embedder.coverage("I love my dog") == 1.0
    assert embedder.coverage("我喜欢吃苹果") < 0.6


def test_loading_leaves_the_terminal_alone(real_model_paths, capfd):
    """A model loading on a thread must not point fds 1 and 2 elsewhere: the TUI draws meanwhile."""
    import os
    import threading

    from memchat.engine.llama import LlamaChatEngine

    before = [os.readlink(f"/proc/self/fd/{fd}") for fd in (1, 2)]
    seen: list[list[str]] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.append([os.readlink(f"/proc/self/fd/{fd}") for fd in (1, 2)])

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        engine = LlamaChatEngine(real_model_paths["chat"], n_ctx=512, n_threads=1)
        engine.utility()
    finally:
        done.set()
        watcher.join()
    assert seen and all(fds == before for fds in seen)
    out, err = capfd.readouterr()
    assert "llama" not in out + err and "ggml" not in out + err
