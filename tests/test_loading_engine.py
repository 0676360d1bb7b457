"""The chat is usable while the model loads: estimates first, exact counts once it is ready."""

import threading

import pytest

from memchat.engine.fake import FakeEngine
from memchat.engine.loading import BackgroundChatEngine
from memchat.engine.protocol import Sampling
from memchat.types import ChatMessage, MemchatError

MESSAGES = [ChatMessage("user", "hello there, how are you today?")]


def test_estimates_until_loaded_then_exact():
    release = threading.Event()
    real = FakeEngine(["fine thanks"])

    def load():
        release.wait(5)
        return real

    engine = BackgroundChatEngine(load, name="slow", n_ctx=2048)
    assert not engine.exact
    estimate = engine.count_messages(MESSAGES)
    assert estimate > 0
    assert "<|im_start|>user" in engine.render(MESSAGES)
    release.set()
    assert engine.wait_until_loaded() is real
    assert engine.exact
    assert engine.count_messages(MESSAGES) == real.count_messages(MESSAGES)
    assert "".join(engine.stream(MESSAGES, max_tokens=10, sampling=Sampling())) == "fine thanks"


def test_a_load_failure_reaches_the_caller_as_its_own_error():
    def load():
        raise MemchatError("model file not found: x.gguf", "run `memchat models pull`")

    engine = BackgroundChatEngine(load, name="broken", n_ctx=2048)
    with pytest.raises(MemchatError, match="not found"):
        list(engine.stream(MESSAGES, max_tokens=5, sampling=Sampling()))
    assert engine.count("still estimates") > 0
