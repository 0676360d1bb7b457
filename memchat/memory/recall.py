"""Hybrid recall: vector KNN, FTS5 keywords, attribute match and pinned items, merged.

Each route proposes memory ids; the union is scored with `scoring.score` and
selected dynamically. When the embedding model does not know most of the
query's tokens (Chinese for all-MiniLM-L6-v2: they become [UNK]), the vector
similarity means nothing, so keyword overlap stands in for it and the
candidate's routes say `lexical-similarity`. Every candidate carries which routes found it, its
signals and the reason for the decision, so `memchat recall --json` and the
inspector can show exactly why something was (not) recalled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from memchat.config import RecallSettings
from memchat.memory.items import MemoryStore
from memchat.memory.scoring import score, select, signals_for
from memchat.memory.terms import search_terms
from memchat.types import Candidate


ATTRIBUTE_MATCH = 0.5
"""Keyword signal of a memory whose attribute key is a word of the query."""


@dataclass
class RecallResult:
    query: str
    candidates: list[Candidate]
    embed_ms: float
    search_ms: float

    @property
    def selected(self) -> list[Candidate]:
        return [c for c in self.candidates if c.selected]


class Recaller:
    def __init__(self, memories: MemoryStore, settings: RecallSettings) -> None:
        self.memories = memories
        self.settings = settings

    def recall(
        self,
        query: str,
        *,
        token_limit: int,
        count_tokens: Callable[[str], int],
        now: float | None = None,
        vector: list[float] | None = None,
        touch: bool = True,
    ) -> RecallResult:
        now = time.time() if now is None else now
        started = time.perf_counter()
        if vector is None:
            vector = self.memories.embedder.embed([query])[0] if query.strip() else None
        embedded = time.perf_counter()
        routes: dict[int, list[str]] = {}
        similarity: dict[int, float] = {}
        if vector is not None:
            for memory_id, sim in self.memories.knn(vector, self.settings.knn_k):
                routes.setdefault(memory_id, []).append("vector")
                similarity[memory_id] = sim
        for memory_id, _rank in self.memories.keyword(query, self.settings.keyword_k):
            routes.setdefault(memory_id, []).append("keyword")
        for memory_id in self.memories.by_attributes([t for t in search_terms(query) if len(t) > 2]):
            routes.setdefault(memory_id, []).append("attribute")
        for memory in self.memories.pinned():
            routes.setdefault(memory.id, []).append("pinned")

        found = self.memories.many(list(routes))
        missing = [i for i in found if i not in similarity]
        if missing and vector is not None:
            query_vec = np.asarray(vector, dtype=np.float32)
            for memory_id, blob in self.memories.vectors(missing).items():
                similarity[memory_id] = float(np.frombuffer(blob, dtype=np.float32) @ query_vec)

        semantic = self.memories.embedder.coverage(query) >= self.settings.min_coverage
        candidates = []
        for memory_id, memory in found.items():
            if memory.status in ("deleted", "archived") or (memory.expires_at and memory.expires_at <= now):
                continue
            signals = signals_for(memory, similarity.get(memory_id, 0.0), query, now, self.settings)
            if "attribute" in routes[memory_id]:  # the query names the memory's key ("my job?" → job)
                signals = replace(signals, keyword=max(signals.keyword, ATTRIBUTE_MATCH))
            if not semantic:
                signals = replace(signals, similarity=signals.keyword)
                routes[memory_id].append("lexical-similarity")
            candidates.append(
                Candidate(memory=memory, signals=signals, score=score(signals, self.settings),
                          routes=tuple(routes[memory_id]))
            )
        ranked = select(candidates, self.settings, token_limit, count_tokens)
        if touch:
            self.memories.touch([c.memory.id for c in ranked if c.selected and not c.memory.pinned], now)
        done = time.perf_counter()
        return RecallResult(query, ranked, (embedded - started) * 1000, (done - embedded) * 1000)
