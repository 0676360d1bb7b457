"""When a forget request matches nothing: the memories closest to what it named, for the user to pick.

A request that finds nothing by its words must not take the nearest memory by itself — tried, it took a
brother's home for his money trouble. But saying nothing leaves the user believing it is gone. So the chat
offers what recall ranks closest to the topic and the user picks (or keeps everything).
"""

from __future__ import annotations

from collections.abc import Mapping

from memchat.memory.recall import Recaller
from memchat.types import Candidate, Memory

OFFER_SIZE = 3
OFFER_FLOOR = 0.2
"""Relevance (see `Candidate.relevance`) a memory needs to be offered: below it, nothing is close."""
DRAWN_FLOOR = 0.1
"""An episode close to the topic stands for those of its typed memories that are at least this close themselves
(the message told the engagement and the new job: "wedding plans" offers the engagement alone)."""
_SEARCHED = frozenset({"vector", "keyword", "concept"})
"""Routes that found a memory by the topic itself (not a pin, a slot or a date)."""


def offered(candidates: list[Candidate], drawn: Mapping[int, list[Memory]], size: int = OFFER_SIZE) -> list[Memory]:
    """The active memories to offer, closest first. An episode close to the topic is offered as the typed
    memories drawn from it (`drawn`, by episode id) that are close too, the closest first: picking one takes
    the sentences that told it, not the whole message; an episode with none such is offered itself. Pure."""
    ranked = sorted((c for c in candidates if c.memory.status == "active" and _SEARCHED & set(c.routes)
                     and c.relevance >= OFFER_FLOOR), key=lambda c: -c.relevance)
    relevance = {c.memory.id: c.relevance for c in candidates}
    chosen: dict[int, Memory] = {}
    for candidate in ranked:
        memory = candidate.memory
        parts = sorted((m for m in drawn.get(memory.id, []) if m.status == "active"
                        and relevance.get(m.id, 0.0) >= DRAWN_FLOOR),
                       key=lambda m: -relevance.get(m.id, 0.0)) if memory.is_episode else []
        for offer in parts or [memory]:
            if len(chosen) < size:
                chosen.setdefault(offer.id, offer)
    return list(chosen.values())


def closest(recaller: Recaller, topic: str, size: int = OFFER_SIZE) -> list[Memory]:
    """What recall ranks closest to a forget request's topic, to offer when the request matched nothing."""
    if not topic.strip():
        return []
    candidates = recaller.recall(topic, token_limit=1 << 20, count_tokens=len, touch=False).candidates
    drawn = {c.memory.id: recaller.memories.distilled_from(c.memory.id) for c in candidates if c.memory.is_episode}
    return offered(candidates, drawn, size)
