"""The recall score and the dynamic selection: pure functions, no I/O.

    score = w_sim·similarity + w_kw·keyword + w_rec·recency + w_imp·importance + w_pin·pinned

Every signal is in [0, 1]. Selection is dynamic: everything at or above `high`
is taken, up to `middle_k` from the band between `floor` and `high`, nothing
below `floor`, and never more than the recalled-memory token share. Each
candidate keeps the reason it was selected or rejected, for the inspector.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from memchat.config import RecallSettings
from memchat.memory.terms import is_single_cjk, query_terms, search_terms
from memchat.types import Candidate, Memory, Signals, memory_line

DAY = 86_400.0


def recency(last_access_at: float, now: float, half_life_days: float) -> float:
    """Exponential decay on time since last access: 1.0 now, 0.5 after one half-life."""
    age_days = max(0.0, now - last_access_at) / DAY
    return math.pow(0.5, age_days / max(half_life_days, 1e-6))


def keyword_overlap(query: str, content: str) -> float:
    """Share of the query's meaningful terms present in the content.

    Words and CJK bigrams are one family, single CJK characters another; the
    better-covered family counts, so single characters rescue a Chinese
    paraphrase without diluting an exact two-character match.
    """
    wanted = set(query_terms(query))
    if not wanted:
        return 0.0
    present = set(search_terms(content))
    singles = {t for t in wanted if is_single_cjk(t)}
    words = wanted - singles
    shares = [len(family & present) / len(family) for family in (words, singles) if family]
    return max(shares)


def signals_for(memory: Memory, similarity: float, query: str, now: float, settings: RecallSettings) -> Signals:
    return Signals(
        similarity=max(0.0, min(1.0, similarity)),
        keyword=keyword_overlap(query, memory.content),
        recency=recency(memory.last_access_at, now, settings.half_life_days),
        importance=memory.importance,
        pinned=1.0 if memory.pinned else 0.0,
    )


def score(signals: Signals, settings: RecallSettings) -> float:
    return (
        settings.w_similarity * signals.similarity
        + settings.w_keyword * signals.keyword
        + settings.w_recency * signals.recency
        + settings.w_importance * signals.importance
        + settings.w_pinned * signals.pinned
    )


def select(
    candidates: Sequence[Candidate],
    settings: RecallSettings,
    token_limit: int,
    count_tokens: Callable[[str], int],
) -> list[Candidate]:
    """Mark each candidate selected or not, with a reason; returns them best first."""
    ranked = sorted(candidates, key=lambda c: (-c.score, c.memory.id))
    used = 0
    middle_taken = 0
    result: list[Candidate] = []
    for candidate in ranked:
        memory, signals = candidate.memory, candidate.signals
        decided = _reject_reason(memory, signals, candidate.score, settings)
        if decided is None and memory.pinned:
            result.append(replace(candidate, selected=True, reason="pinned: always in the prompt"))
            continue
        if decided is None and candidate.score < settings.high:
            if middle_taken >= settings.middle_k:
                decided = f"middle band full ({settings.middle_k} taken)"
        if decided is None:
            cost = count_tokens(memory_line(memory)) + 1
            if used + cost > token_limit:
                decided = f"budget cut ({used}+{cost} > {token_limit} tokens)"
            else:
                used += cost
                band = "above high threshold" if candidate.score >= settings.high else "middle band"
                if candidate.score < settings.high:
                    middle_taken += 1
                result.append(replace(candidate, selected=True, reason=band))
                continue
        result.append(replace(candidate, selected=False, reason=decided or "not selected"))
    return result


def _reject_reason(memory: Memory, signals: Signals, value: float, settings: RecallSettings) -> str | None:
    if memory.status == "superseded":
        return f"superseded by #{memory.superseded_by}" if memory.superseded_by else "superseded"
    if memory.status != "active":
        return memory.status
    if memory.pinned:
        return None
    if signals.similarity < settings.min_similarity and signals.keyword == 0:
        return f"unrelated (similarity {signals.similarity:.3f} < {settings.min_similarity:g}, no keyword)"
    if value < settings.floor:
        return f"below floor ({value:.3f} < {settings.floor:g})"
    return None
