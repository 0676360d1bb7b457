"""Relevance, the recall score and the dynamic selection: pure functions, no I/O.

Relevance decides, recency orders (DESIGN.md §1):

    relevance = similarity + w_kw·keyword + w_date·date
    score     = relevance + w_slot·slot + w_rec·recency + w_imp·importance + w_pin·pinned

Whether a memory enters the prompt depends on its relevance only — never on its age — so
the same question asked a day or a year after the conversation selects the same memories.
Recency is measured against the newest candidate of the same query, not against the wall
clock: it only says which of two relevant statements is the later one.

Selection is calibrated per query: a candidate must clear an absolute floor, stand out
from the query's background (the median similarity of its nearest neighbours: a question
about something never mentioned matches everything a little and nothing well), and be
close to the best match. Everything at or above `high` is taken, up to `middle_k` from the
band below it, within the recalled-memory token share. Each candidate keeps its reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from memchat.config import RecallSettings
from memchat.memory.terms import is_single_cjk, query_terms, search_terms
from memchat.types import Candidate, Memory, Signals, memory_line

DAY = 86_400.0


def recency(created_at: float, newest: float, half_life_days: float) -> float:
    """1.0 for the newest candidate, halving every `half_life_days` older than it. Clock-free."""
    age_days = max(0.0, newest - created_at) / DAY
    return math.pow(0.5, age_days / max(half_life_days, 1e-6))


def idf(doc_frequency: int, total: int) -> float:
    """BM25's inverse document frequency: rare words say more than common ones."""
    return math.log(1 + (total - doc_frequency + 0.5) / (doc_frequency + 0.5))


def keyword_overlap(query: str, content: str, weights: Mapping[str, float] | None = None) -> float:
    """Share of the query's meaningful terms present in the content, weighted by `weights` (IDF).

    Words and CJK bigrams are one family, single CJK characters another, counted at half
    weight: they rescue a Chinese paraphrase without passing for an exact two-character match.
    """
    wanted = set(query_terms(query))
    if not wanted:
        return 0.0
    present = set(search_terms(content))
    singles = {t for t in wanted if is_single_cjk(t)}
    words = wanted - singles

    def share(family: set[str]) -> float:
        total = sum((weights or {}).get(t, 1.0) for t in family)
        return sum((weights or {}).get(t, 1.0) for t in family & present) / total if total else 0.0

    return max(share(words) if words else 0.0, 0.5 * share(singles) if singles else 0.0)


def signals_for(
    memory: Memory, similarity: float, keyword: float, *, date: float, newest: float, settings: RecallSettings,
    slot: float = 0.0,
) -> Signals:
    return Signals(
        similarity=max(0.0, min(1.0, similarity)),
        keyword=keyword,
        recency=recency(memory.created_at, newest, settings.half_life_days),
        importance=memory.importance,
        pinned=1.0 if memory.pinned else 0.0,
        date=date,
        slot=slot,
    )


def relevance(signals: Signals, settings: RecallSettings) -> float:
    return signals.similarity + settings.w_keyword * signals.keyword + settings.w_date * signals.date


def score(signals: Signals, settings: RecallSettings) -> float:
    return (
        relevance(signals, settings)
        + settings.w_slot * signals.slot
        + settings.w_recency * signals.recency
        + settings.w_importance * signals.importance
        + settings.w_pinned * signals.pinned
    )


def select(
    candidates: Sequence[Candidate],
    settings: RecallSettings,
    token_limit: int,
    count_tokens: Callable[[str], int],
    *,
    background: float = 0.0,
    duplicates: Mapping[int, int] | None = None,
) -> list[Candidate]:
    """Mark each candidate selected or not, with a reason; returns them best first.

    `duplicates` maps a memory id to the candidate that says the same thing (a typed memory and
    the episode it was distilled from): those are rejected and listed last, so the prompt and the
    top of the table hold different statements.
    """
    duplicates = duplicates or {}
    ranked = sorted(candidates, key=lambda c: (c.memory.id in duplicates, -c.score, c.memory.id))
    best: dict[int, float] = {}  # per part of a compound question: each part has its own best answer
    for c in ranked:
        if c.memory.status == "active" and not c.memory.pinned and c.memory.id not in duplicates:
            best[c.group] = max(best.get(c.group, 0.0), c.relevance)
    used = 0
    middle_taken = 0
    result: list[Candidate] = []
    for candidate in ranked:
        memory = candidate.memory
        if memory.id in duplicates:
            result.append(replace(candidate, selected=False, reason=f"same statement as #{duplicates[memory.id]}"))
            continue
        decided = _reject_reason(memory, candidate.relevance, best.get(candidate.group, 0.0), background, settings)
        if decided is None and memory.pinned:
            result.append(replace(candidate, selected=True, reason="pinned: always in the prompt"))
            continue
        strong = candidate.relevance >= settings.high
        if decided is None and not strong and middle_taken >= settings.middle_k:
            decided = f"middle band full ({settings.middle_k} taken)"
        if decided is None:
            cost = count_tokens(memory_line(memory)) + 1
            if used + cost > token_limit:
                decided = f"budget cut ({used}+{cost} > {token_limit} tokens)"
            else:
                used += cost
                middle_taken += not strong
                result.append(replace(candidate, selected=True, reason="above high threshold" if strong else "middle band"))
                continue
        result.append(replace(candidate, selected=False, reason=decided or "not selected"))
    return result


def _reject_reason(memory: Memory, value: float, best: float, background: float,
                   settings: RecallSettings) -> str | None:
    if memory.status == "superseded":
        return f"superseded by #{memory.superseded_by}" if memory.superseded_by else "superseded"
    if memory.status != "active":
        return memory.status
    if memory.pinned:
        return None
    if value < settings.floor:
        return f"below floor ({value:.3f} < {settings.floor:g})"
    if value - background < settings.min_lift:
        return f"unrelated ({value:.3f} is within {settings.min_lift:g} of this query's background {background:.3f})"
    if value < best - settings.margin:
        return f"far below the best match ({value:.3f} < {best:.3f} − {settings.margin:g})"
    return None
