"""What the rest of memchat may ask of a model.

The memory, prompt and pipeline layers import only these protocols; the real
llama.cpp engine (`memchat.engine.llama`) and the scripted fake
(`memchat.engine.fake`) both satisfy them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from memchat.types import ChatMessage

Count = Callable[[str], int]
"""A token counter: the model's own tokenizer, or an estimate."""


def truncate_text(text: str, limit: int, count: Count, *, keep: str = "head") -> tuple[str, bool]:
    """`text` cut to at most `limit` tokens (binary search on characters); returns (text, was_cut)."""
    if count(text) <= limit:
        return text, False
    if limit <= 0:
        return "", True
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        piece = text[:mid] if keep == "head" else text[-mid:]
        if count(piece) <= limit:
            low = mid
        else:
            high = mid - 1
    return (text[:low] if keep == "head" else text[len(text) - low :]), True


@dataclass(frozen=True)
class Sampling:
    temperature: float = 0.3
    top_p: float = 0.9
    repeat_penalty: float = 1.1
    seed: int = 42
    presence_penalty: float = 0.0
    """Subtracted once from every token already in the recent context (llama.cpp penalties)."""
    frequency_penalty: float = 0.0
    """Subtracted per occurrence of a token in the recent context."""
    avoid: tuple[str, ...] = ()
    """Texts the reply must not copy: continuing any run of tokens taken from one of them is
    penalised, more the longer the run (a DRY-style penalty; `memchat.engine.copy_penalty`).
    A retry after a repeated reply passes the earlier replies here."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "temperature": self.temperature,
            "top_p": self.top_p,
            "repeat_penalty": self.repeat_penalty,
            "seed": self.seed,
            "presence_penalty": self.presence_penalty,
            "frequency_penalty": self.frequency_penalty,
            "avoid": len(self.avoid),
        }


class TokenCounter(Protocol):
    @property
    def exact(self) -> bool:
        """False when counts are estimates (tiktoken) rather than the model's tokenizer."""

    def count(self, text: str) -> int: ...


class ChatEngine(TokenCounter, Protocol):
    name: str
    n_ctx: int

    @property
    def file_sha256(self) -> str:
        """sha256 of the model file, recorded in every turn snapshot."""

    def utility(self) -> ChatEngine:
        """The same model in a second context, for background work (memory labelling, summaries).

        One llama.cpp context holds one KV cache: a summary or an extraction prompt run in
        the chat's context would evict the conversation's cached prefix, and the next reply
        would re-read the whole prompt. A separate context keeps the chat's cache warm and
        lets background work run beside a streaming reply.
        """

    def wait_until_loaded(self) -> ChatEngine:
        """Block until the model is usable (engines that load in the background); returns the engine."""

    def render(self, messages: Sequence[ChatMessage]) -> str:
        """The prompt text after the model's chat template, ready for generation."""

    def count_messages(self, messages: Sequence[ChatMessage]) -> int:
        """Exact tokens of the rendered prompt: what the model will actually read."""

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        sampling: Sampling,
        should_stop: Callable[[], bool] = lambda: False,
    ) -> Iterator[str]:
        """Reply text pieces as they are generated; stops early when should_stop() is true."""

    def prompt_cache(self) -> tuple[int, int]:
        """(tokens reused from the KV cache, tokens evaluated) for the last `stream`'s prompt."""
        ...

    def prewarm(self, messages: Sequence[ChatMessage], should_stop: Callable[[], bool] = lambda: False, *,
                whole: bool = False) -> int:
        """Evaluate `messages` — the start of the next prompt — into the KV cache ahead of time, in small
        steps that give way at once to a `stream` call or to `should_stop`; returns tokens evaluated.
        `whole`: they are the whole next prompt, assistant cue included, so streaming them reads one token."""
        ...

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int) -> str:
        """Raw model output constrained by a JSON-schema grammar (may still fail validation)."""


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """L2-normalised embeddings, one per text."""

    def coverage(self, text: str) -> float:
        """Share of `text`'s tokens the model knows (not [UNK]); below ~0.6 its embedding says little."""
