"""A scripted engine for fast, model-free tests of the pipeline and the UI.

Replies are queued with `enqueue`; when the queue is empty a short echo is
produced. Token counts are deterministic (one token per word or punctuation
mark, one per CJK character), and embeddings are hashed bags of words, so
texts that share words are similar and unrelated texts are not.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from memchat.engine.protocol import Sampling
from memchat.types import ChatMessage

_TOKEN = re.compile(r"[\u3400-\u9fff]|\w+|[^\w\s]")


_TOKEN_WITH_SPACE = re.compile(r"\s*(?:[\u3400-\u9fff]|\w+|[^\w\s])|\s+")
PREWARM_STEP = 16
"""Tokens a fake pre-warm evaluates between two checks of should_stop."""


def fake_tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


class FakeEngine:
    exact = True

    def __init__(self, replies: Sequence[str] = (), *, n_ctx: int = 2048, delay: float = 0.0) -> None:
        self.name = "fake-engine"
        self.n_ctx = n_ctx
        self.file_sha256 = "0" * 64
        self.delay = delay
        self._replies: deque[str] = deque(replies)
        self._json: deque[str] = deque()
        self.prompts: list[list[ChatMessage]] = []
        self.json_prompts: list[list[ChatMessage]] = []
        self.samplings: list[Sampling] = []
        """The sampler settings of every `stream` call, in order (a retry shows up here)."""
        self._cached = ""
        """The text "in the KV cache": the last prompt and its reply, or what `prewarm` evaluated."""
        self.last_cache = (0, 0)
        self.prewarmed: list[list[ChatMessage]] = []
        self.prewarm_step_seconds = 0.0
        """How long one pre-warm step takes (a slow pre-warm, to test that nothing waits for it)."""

    def enqueue(self, *replies: str) -> None:
        self._replies.extend(replies)

    def enqueue_json(self, *outputs: str | dict[str, Any]) -> None:
        self._json.extend(o if isinstance(o, str) else json.dumps(o) for o in outputs)

    def wait_until_loaded(self) -> FakeEngine:
        return self

    def utility(self) -> FakeEngine:
        return self

    def count(self, text: str) -> int:
        return len(fake_tokens(text))

    def render(self, messages: Sequence[ChatMessage]) -> str:
        parts = [f"<|{m.role}|>\n{m.content}\n" for m in messages]
        return "".join(parts) + "<|assistant|>\n"

    def count_messages(self, messages: Sequence[ChatMessage]) -> int:
        return self.count(self.render(messages))

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        sampling: Sampling,
        should_stop: Callable[[], bool] = lambda: False,
    ) -> Iterator[str]:
        self.prompts.append(list(messages))
        self.samplings.append(sampling)
        prompt = self.render(messages)
        reused = self.count(os.path.commonprefix([self._cached, prompt]))
        self.last_cache = (reused, self.count(prompt) - reused)
        reply = self._replies.popleft() if self._replies else f"You said: {messages[-1].content[:60]}"
        self._cached = prompt + reply
        for piece in re.findall(r"\S+\s*", reply)[:max_tokens]:
            if should_stop():
                return
            if self.delay:
                time.sleep(self.delay)
            yield piece

    def prompt_cache(self) -> tuple[int, int]:
        return self.last_cache

    def forget_cache(self) -> None:
        """Empty the KV cache, as a freshly loaded model has it (a pre-warm then has all to read)."""
        self._cached = ""

    def prewarm(self, messages: Sequence[ChatMessage], should_stop: Callable[[], bool] = lambda: False, *,
                whole: bool = False) -> int:
        """Remembers the text it was asked to warm; the next `stream` counts its common start as reused.

        Evaluates PREWARM_STEP tokens at a time, `prewarm_step_seconds` each, checking `should_stop`
        between steps as the real engine does; a prefix of what is already cached is left as it is.
        `whole`: the assistant cue is warmed too.
        """
        self.prewarmed.append(list(messages))
        warm = self.render(messages)
        if not whole:
            warm = warm[: warm.rindex("<|assistant|>")]
        if self._cached.startswith(warm):
            return 0
        cached = os.path.commonprefix([self._cached, warm])
        pieces = _TOKEN_WITH_SPACE.findall(warm[len(cached):])
        evaluated = 0
        for start in range(0, len(pieces), PREWARM_STEP):
            if should_stop():
                break
            if self.prewarm_step_seconds:
                time.sleep(self.prewarm_step_seconds)
            step = "".join(pieces[start : start + PREWARM_STEP])
            cached += step
            evaluated += self.count(step)
            self._cached = cached
        return evaluated

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int) -> str:
        self.json_prompts.append(list(messages))
        if self._json:
            return self._json.popleft()
        return json.dumps({"items": []})


class FakeEmbedder:
    """Hashed bag-of-words vectors: deterministic, fast, similarity from shared words."""

    def __init__(self, dim: int = 64) -> None:
        self.name = "fake-embedder"
        self.dim = dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._one(text) for text in texts]

    def coverage(self, text: str) -> float:
        return 1.0

    def _one(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        for token in fake_tokens(text.lower()):
            if not token.strip() or not token[0].isalnum():
                continue
            digest = hashlib.blake2b(token.encode(), digest_size=4).digest()
            vector[int.from_bytes(digest, "little") % self.dim] += 1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]
