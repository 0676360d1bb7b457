"""The only module that touches llama.cpp.

Chat prompts are rendered with the GGUF's own chat template and tokenized here,
and generation is fed those exact tokens, so the count the budget reports is the
count the model reads. One lock per model: llama.cpp contexts are not
thread-safe, and the UI streams from a worker while extraction runs in another.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import io
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memchat.engine.copy_penalty import CopyPenalty
from memchat.engine.protocol import Sampling
from memchat.types import ChatMessage, MemchatError

UTILITY_CTX = 2048
"""Context of the background (utility) context: extraction and summary prompts are short."""
PREFILL_CHUNK = 64
"""Tokens evaluated between two checks of should_stop while reading a prompt (~0.5 s here)."""

COUNTED_TEXTS = 2048
"""Texts whose token counts the chat engine keeps (the window's messages, memory lines, notes)."""
KEPT_PROMPTS = 4
"""Rendered prompts whose tokens the chat engine keeps."""

_FALLBACK_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


_SILENCE: list[Any] = []
"""Keeps the no-op llama.cpp log callback alive (ctypes callbacks must outlive their use)."""


def _import_llama() -> Any:
    try:
        import llama_cpp
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise MemchatError(
            "llama-cpp-python is not installed",
            "install memchat with the README's command (it builds llama-cpp-python)",
        ) from exc
    if not _SILENCE:
        _SILENCE.append(llama_cpp.llama_log_callback(lambda level, text, user_data: None))
        llama_cpp.llama_log_set(_SILENCE[0], ctypes.c_void_p(0))
    return llama_cpp


def _check_gguf(path: Path) -> None:
    if not path.is_file():
        raise MemchatError(f"model file not found: {path}", "run `memchat models pull` or fix the model setting")
    with path.open("rb") as handle:
        if handle.read(4) != b"GGUF":
            raise MemchatError(
                f"{path} is not a GGUF model file (corrupt or wrong format)",
                "delete it and run `memchat models pull`, then `memchat models verify`",
            )


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _load(llama_cpp: Any, path: Path, **kwargs: Any) -> Any:
    """Load a model without touching the process's file descriptors.

    `verbose=False` would make llama-cpp-python point fds 1 and 2 at /dev/null while it
    loads — for the whole process, so a TUI drawing from another thread meanwhile draws
    into nothing (and two overlapping loads can leave them there). Instead memchat loads
    verbosely, drops llama.cpp's native log lines with a no-op callback, and catches the
    Python-level chatter of the constructor; `verbose` is turned off afterwards.
    """
    _check_gguf(path)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            llm = llama_cpp.Llama(model_path=str(path), verbose=True, **kwargs)
        llama_cpp._logger.set_verbose(False)
        llm.verbose = False
        return llm
    except (ValueError, RuntimeError) as exc:
        raise MemchatError(
            f"llama.cpp could not load {path.name}: {exc}",
            "the file may be corrupt: run `memchat models verify`",
        ) from exc


def _rewind(llm: Any, position: int) -> None:
    """Move the context's end back to `position` (the next eval overwrites what follows). Its logits are then
    another token's: llama-cpp-python must evaluate before it samples again."""
    if position != llm.n_tokens:
        llm.n_tokens = position
        llm._requires_eval = True


class LlamaChatEngine:
    """Streaming chat, JSON-constrained completions and exact token counts."""

    exact = True

    def __init__(self, path: Path, *, n_ctx: int, n_threads: int, seed: int = 42, sha256: str = "") -> None:
        self._llama_cpp = _import_llama()
        self._lock = threading.Lock()
        self._llm = _load(
            self._llama_cpp, path, n_ctx=n_ctx, n_threads=n_threads, n_threads_batch=n_threads, seed=seed
        )
        self.name = path.stem
        self.path = path
        self.n_ctx = n_ctx
        self.file_sha256 = sha256
        self._formatter = self._make_formatter()
        self._prefix_formatter = self._make_formatter(generation_prompt=False)
        self._n_threads, self._seed = n_threads, seed
        self._utility: LlamaChatEngine | None = None
        self._utility_lock = threading.Lock()
        self._last_cache = (0, 0)
        self._counted: dict[str, int] = {}
        """`count`'s recent texts, least recently counted first."""
        self._prompts: dict[str, list[int]] = {}
        """`_prompt_tokens`' recent prompts, least recently used first."""
        self._turn_waiting = threading.Event()
        """Set while a `stream` waits for the context: a pre-warm gives way at its next step."""

    def _make_formatter(self, *, generation_prompt: bool = True) -> Any:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        llm = self._llm
        template = llm.metadata.get("tokenizer.chat_template") or _FALLBACK_TEMPLATE
        eos = llm.detokenize([llm.token_eos()], special=True).decode("utf-8", "replace")
        bos = llm.detokenize([llm.token_bos()], special=True).decode("utf-8", "replace")
        return Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos,
                                   add_generation_prompt=generation_prompt)

    def wait_until_loaded(self) -> LlamaChatEngine:
        return self

    def utility(self) -> LlamaChatEngine:
        """A second context on the same (memory-mapped) weights, opened on first use."""
        with self._utility_lock:
            if self._utility is None:
                self._utility = LlamaChatEngine(
                    self.path, n_ctx=min(self.n_ctx, UTILITY_CTX), n_threads=self._n_threads, seed=self._seed,
                    sha256=self.file_sha256,
                )
            return self._utility

    # ---- counting -------------------------------------------------------
    def count(self, text: str) -> int:
        """Tokens of `text`. Kept for the last COUNTED_TEXTS texts: every turn counts the window's messages
        and memory lines again, and at a few thousand tokens of context that re-tokenising cost 20 ms."""
        if not text:
            return 0
        with self._lock:
            counted = self._counted.pop(text, None)
            if counted is None:
                counted = len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))
            self._counted[text] = counted
            if len(self._counted) > COUNTED_TEXTS:
                del self._counted[next(iter(self._counted))]
            return counted

    def render(self, messages: Sequence[ChatMessage]) -> str:
        response = self._formatter(messages=[{"role": m.role, "content": m.content} for m in messages])
        return response.prompt

    def _prompt_tokens(self, messages: Sequence[ChatMessage]) -> list[int]:
        """The tokens of the rendered prompt. The last few prompts' are kept: a turn's prompt is tokenized
        by the draft's pre-warm, by the assembly's final count and by `stream`, thousands of tokens each."""
        prompt = self.render(messages)
        with self._lock:
            tokens = self._prompts.pop(prompt, None)
            if tokens is None:
                tokens = self._llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)
            self._prompts[prompt] = tokens
            if len(self._prompts) > KEPT_PROMPTS:
                del self._prompts[next(iter(self._prompts))]
            return list(tokens)

    def count_messages(self, messages: Sequence[ChatMessage]) -> int:
        return len(self._prompt_tokens(messages))

    # ---- generation -----------------------------------------------------
    def _stops(self) -> list[str]:
        return ["<|im_end|>", "<|endoftext|>", "<|eot_id|>", "</s>"]

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        sampling: Sampling,
        should_stop: Callable[[], bool] = lambda: False,
    ) -> Iterator[str]:
        tokens = self._prompt_tokens(messages)
        if len(tokens) + 1 > self.n_ctx:
            raise MemchatError(
                f"prompt of {len(tokens)} tokens does not fit the {self.n_ctx}-token context",
                "shorten the message or raise model.n_ctx",
            )
        max_tokens = max(1, min(max_tokens, self.n_ctx - len(tokens)))
        self._turn_waiting.set()
        with self._lock:
            self._turn_waiting.clear()
            if not self._prefill(tokens, should_stop):
                return
            chunks = self._llm.create_completion(
                prompt=tokens,
                max_tokens=max_tokens,
                temperature=sampling.temperature,
                top_p=sampling.top_p,
                repeat_penalty=sampling.repeat_penalty,
                presence_penalty=sampling.presence_penalty,
                frequency_penalty=sampling.frequency_penalty,
                seed=sampling.seed,
                stop=self._stops(),
                stream=True,
                logits_processor=self._copy_penalty(sampling.avoid, len(tokens)),
            )
            try:
                for chunk in chunks:
                    if should_stop():
                        break
                    text = chunk["choices"][0]["text"]
                    if text:
                        yield text
            finally:
                chunks.close()

    def _copy_penalty(self, avoid: Sequence[str], prompt_length: int) -> Any:
        """The "do not copy these texts" processor for one generation (None when there is nothing to avoid).
        Called with the lock held."""
        if not avoid:
            return None
        avoided = [self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False) for text in avoid if text]
        return self._llama_cpp.LogitsProcessorList([CopyPenalty(avoided, prompt_length)])

    def _prefill(self, tokens: list[int], should_stop: Callable[[], bool]) -> bool:
        """Evaluate the prompt batch by batch, checking `should_stop` between batches.

        llama-cpp-python evaluates a whole prompt before it yields anything, so Esc could
        not interrupt a long one. Here the part not already in the KV cache (everything
        after the longest common prefix with the previous prompt) is evaluated in small
        chunks; the completion call that follows then finds all but the last token cached.
        Returns False when stopped.
        """
        llm = self._llm
        if self._holds_exactly(tokens):  # a pre-warm read all of it, the last token too: its logits are live
            self._last_cache = (len(tokens), 0)
            return not should_stop()
        _rewind(llm, self._cached_prefix(tokens[:-1]))
        self._last_cache = (llm.n_tokens, len(tokens) - llm.n_tokens)
        pending = tokens[llm.n_tokens : len(tokens) - 1]
        step = min(llm.n_batch, PREFILL_CHUNK)
        for start in range(0, len(pending), step):
            if should_stop():
                return False
            llm.eval(pending[start : start + step])
        return not should_stop()

    def _holds_exactly(self, tokens: Sequence[int]) -> bool:
        """Whether the context holds these tokens and nothing after them, and its logits are those of the last
        one (it was the last evaluated): llama-cpp-python then samples the reply's first token with no model
        step (called with the lock held). Without the flag that says so (another llama-cpp-python), never."""
        llm = self._llm
        return (llm.n_tokens == len(tokens) > 0 and not getattr(llm, "_requires_eval", True)
                and self._cached_prefix(tokens) == len(tokens))

    def _cached_prefix(self, tokens: Sequence[int]) -> int:
        """How many leading `tokens` the KV cache already holds (called with the lock held)."""
        held = self._llm._input_ids
        length = min(len(held), len(tokens))
        if not length:
            return 0
        differ = np.flatnonzero(np.asarray(held[:length]) != np.asarray(tokens[:length], dtype=held.dtype))
        return int(differ[0]) if len(differ) else length

    def prompt_cache(self) -> tuple[int, int]:
        return self._last_cache

    def prewarm(self, messages: Sequence[ChatMessage], should_stop: Callable[[], bool] = lambda: False, *,
                whole: bool = False) -> int:
        """Evaluate the start of the next prompt now (after a reply, while the user types).

        The chat template renders these messages exactly as they will open the next prompt, minus
        the assistant cue, so the next `stream` finds them cached and evaluates only what follows.
        `whole`: they are the whole next prompt (a draft as it would be sent); it is rendered with the
        cue and warmed to its last token, so sent as drafted, the reply's first token needs no model step.
        One step of PREFILL_CHUNK tokens at a time, the lock released between steps: a `stream`
        waiting for the context, or `should_stop`, ends the pre-warm at the next step. When the
        cache already holds all of these tokens and more (a longer pre-warm came first), it is left
        whole, unless they are a whole prompt: then its last token is read again, for its logits.
        """
        if whole:
            tokens = self._prompt_tokens(messages)
        else:
            prompt = self._prefix_formatter(messages=[{"role": m.role, "content": m.content} for m in messages]).prompt
            with self._lock:
                tokens = self._llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)
        if len(tokens) >= self.n_ctx:
            return 0
        evaluated = 0
        while not (should_stop() or self._turn_waiting.is_set()):
            with self._lock:
                llm = self._llm
                cached = self._cached_prefix(tokens)
                if cached == len(tokens) and (not whole or self._holds_exactly(tokens)):
                    break
                start = min(cached, len(tokens) - 1)  # a whole prompt's last token again, for its logits
                _rewind(llm, start)
                step = tokens[start : start + min(llm.n_batch, PREFILL_CHUNK)]
                llm.eval(step)
                evaluated += len(step)
        return evaluated

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int) -> str:
        grammar = self._llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        tokens = self._prompt_tokens(messages)
        budget = max(16, min(max_tokens, self.n_ctx - len(tokens) - 1))
        with self._lock:
            result = self._llm.create_completion(
                prompt=tokens, max_tokens=budget, temperature=0.0, grammar=grammar, stop=self._stops()
            )
        return result["choices"][0]["text"]


RECENT_EMBEDDINGS = 64
"""Texts whose vectors the embedder keeps (a turn embeds a message and its parts, a few times)."""


class LlamaEmbedder:
    """Sentence embeddings from a BERT-style GGUF (pooling as the GGUF declares it), L2-normalised."""

    def __init__(self, path: Path, *, n_threads: int) -> None:
        llama_cpp = _import_llama()
        self._lock = threading.Lock()
        self._llm = _load(
            llama_cpp,
            path,
            embedding=True,
            n_ctx=512,
            n_batch=512,
            n_ubatch=512,
            n_threads=n_threads,
            n_threads_batch=n_threads,
        )
        self.name = path.stem
        self.dim = int(self._llm.n_embd())
        self._recent: OrderedDict[str, tuple[float, ...]] = OrderedDict()
        unknown = self._llm.tokenize(b"[UNK]", add_bos=False, special=True)
        self._unk = unknown[0] if len(unknown) == 1 else None

    def token_ids(self, text: str) -> list[int]:
        with self._lock:
            return self._llm.tokenize(text.encode("utf-8"), add_bos=True, special=False)

    def coverage(self, text: str) -> float:
        if self._unk is None or not text.strip():
            return 1.0
        with self._lock:
            tokens = self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        return 1.0 - sum(t == self._unk for t in tokens) / max(1, len(tokens))

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit vectors, in order. The last few texts' vectors are kept: recall embeds the draft while
        the user types (pre-warm) and the same text again when it is sent."""
        vectors: list[list[float]] = []
        with self._lock:
            for text in texts:
                cached = self._recent.get(text)
                if cached is None:
                    raw = np.asarray(self._llm.embed(text or " ", truncate=True), dtype=np.float32)
                    norm = float(np.linalg.norm(raw)) or 1.0
                    cached = tuple((raw / norm).tolist())
                    self._recent[text] = cached
                    while len(self._recent) > RECENT_EMBEDDINGS:
                        self._recent.popitem(last=False)
                self._recent.move_to_end(text)
                vectors.append(list(cached))
        return vectors

    def forget_recent(self) -> None:
        """Drop the kept vectors (a benchmark timing the embedding itself)."""
        with self._lock:
            self._recent.clear()
