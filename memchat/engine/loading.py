"""Engines that load in the background, so the chat is usable before the model is.

`BackgroundChatEngine` starts loading its real engine on a thread at once. Until
it is ready, token counts come from tiktoken (`EstimatingCounter`, marked
`exact = False`, shown as "~" estimates) and the prompt is rendered with a
generic ChatML template; anything that needs the model itself — generating,
exact counting for a prompt about to be sent — waits for the load to finish.
A load failure is raised, as the loader's own MemchatError, by the next call
that needs the model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from memchat.engine.estimate import EstimatingCounter
from memchat.engine.protocol import ChatEngine, Embedder, Sampling
from memchat.types import ChatMessage

T = TypeVar("T")


class _Loader(Generic[T]):
    def __init__(self, load: Callable[[], T], name: str) -> None:
        self._value: T | None = None
        self._error: BaseException | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(load,), name=f"memchat-load-{name}", daemon=True)
        self._thread.start()

    def _run(self, load: Callable[[], T]) -> None:
        try:
            self._value = load()
        except BaseException as exc:  # noqa: BLE001 - re-raised to whoever needs the model
            self._error = exc
        finally:
            self._done.set()

    @property
    def ready(self) -> T | None:
        return self._value if self._done.is_set() and self._error is None else None

    def get(self) -> T:
        self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._value is not None
        return self._value


class BackgroundChatEngine:
    """A ChatEngine whose model loads on a thread; estimates until then."""

    def __init__(self, load: Callable[[], ChatEngine], *, name: str, n_ctx: int) -> None:
        self.name = name
        self.n_ctx = n_ctx
        self._loader: _Loader[ChatEngine] = _Loader(load, name)
        self._estimate = EstimatingCounter()

    @property
    def exact(self) -> bool:
        return self._loader.ready is not None

    @property
    def file_sha256(self) -> str:
        return self._loader.get().file_sha256

    def wait_until_loaded(self) -> ChatEngine:
        return self._loader.get()

    def utility(self) -> ChatEngine:
        return self._loader.get().utility()

    def count(self, text: str) -> int:
        engine = self._loader.ready
        return engine.count(text) if engine else self._estimate.count(text)

    def render(self, messages: Sequence[ChatMessage]) -> str:
        engine = self._loader.ready
        if engine:
            return engine.render(messages)
        body = "".join(f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in messages)
        return body + "<|im_start|>assistant\n"

    def count_messages(self, messages: Sequence[ChatMessage]) -> int:
        engine = self._loader.ready
        return engine.count_messages(messages) if engine else self._estimate.count(self.render(messages))

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        sampling: Sampling,
        should_stop: Callable[[], bool] = lambda: False,
    ) -> Iterator[str]:
        return self._loader.get().stream(messages, max_tokens=max_tokens, sampling=sampling, should_stop=should_stop)

    def prompt_cache(self) -> tuple[int, int]:
        engine = self._loader.ready
        return engine.prompt_cache() if engine else (0, 0)

    def prewarm(self, messages: Sequence[ChatMessage], should_stop: Callable[[], bool] = lambda: False) -> int:
        engine = self._loader.ready
        return engine.prewarm(messages, should_stop) if engine else 0  # never waits for the model to load

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int) -> str:
        return self._loader.get().complete_json(messages, schema, max_tokens=max_tokens)


class BackgroundEmbedder:
    """An Embedder whose model loads on a thread; calls wait for it."""

    def __init__(self, load: Callable[[], Embedder], *, name: str, dim: int) -> None:
        self.name = name
        self._dim = dim
        self._loader: _Loader[Embedder] = _Loader(load, name)

    @property
    def dim(self) -> int:
        return self._loader.get().dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._loader.get().embed(texts)

    def coverage(self, text: str) -> float:
        return self._loader.get().coverage(text)
