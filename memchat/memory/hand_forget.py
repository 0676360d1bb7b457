"""Forgetting one memory by hand — a key in the inspector or browser, `memchat memory forget`, a pick from
the memories a forget request came close to — and restoring it.

A typed memory is distilled from an episode (what the user said, kept as said). Forgetting only the typed
row would leave its episode active, and recall would put the same fact back in the next prompt. So:

- forgetting a typed memory takes the sentences of its episode that told it: they move to an episode row
  of their own, forgotten with it, and the episode keeps what else the message said ("My sister Clara got
  engaged. I start my new job on Monday.": forgetting the engagement keeps the job). The typed memory now
  points at that row, so restoring it brings back exactly the sentences that went;
- forgetting an episode takes the typed memories distilled from it, and restoring it brings them back.

Forgetting stays soft (status `deleted`); `purge` is the hard delete.
"""

from __future__ import annotations

from memchat.memory.items import MemoryStore
from memchat.memory.segment import split_sentences
from memchat.memory.slots import embedding_text
from memchat.memory.terms import search_terms
from memchat.types import EPISODE, MemchatError, Memory, MemoryDraft

ALSO_TOLD = 0.6
"""A typed memory came from one sentence of its episode — the one sharing most of its words — and any other
sentence holding this share of its words told it again."""
_USER_WORDS = frozenset(search_terms("the user user's their they 用户"))


def told_sentences(memory: Memory, episode: Memory) -> list[int]:
    """Which of the episode's sentences (by position) told the typed `memory`. Pure."""
    sentences = split_sentences(episode.content)
    words = set(search_terms(memory.content)) - _USER_WORDS
    if len(sentences) <= 1 or not words:
        return list(range(len(sentences))) if len(sentences) == 1 else []
    shares = [len(words & set(search_terms(s))) / len(words) for s in sentences]
    if not max(shares):
        return []
    best = max(range(len(shares)), key=shares.__getitem__)
    return sorted({best} | {i for i, share in enumerate(shares) if share >= ALSO_TOLD})


def forget(store: MemoryStore, memory_id: int) -> list[Memory]:
    """Soft-delete one memory and what would tell it again; returns every row whose status changed."""
    memory = store.require(memory_id)
    if memory.status == "deleted":
        raise MemchatError(f"#{memory_id} is already forgotten", f"`memchat memory restore {memory_id}` undoes it")
    if memory.is_episode:
        with store.db.transaction():
            gone = [store.set_status(memory.id, "deleted")]
            gone += [store.set_status(child.id, "deleted") for child in store.distilled_from(memory.id)]
        return gone
    episode = store.get(memory.origin_id) if memory.origin_id is not None else None
    if episode is None or not episode.is_episode or episode.status != "active":
        return [store.set_status(memory.id, "deleted")]
    sentences = split_sentences(episode.content)
    told = told_sentences(memory, episode)
    kept = " ".join(s for i, s in enumerate(sentences) if i not in told)
    if not told:  # no word of it in any sentence (a model's rewording): nothing to tell which sentence said it
        return [store.set_status(memory.id, "deleted")]
    if not kept:
        with store.db.transaction():
            return [store.set_status(memory.id, "deleted"), store.set_status(episode.id, "deleted")]
    piece = " ".join(sentences[i] for i in told)
    dated = episode.event_text in piece  # the time the episode carried, if the piece said it
    draft = MemoryDraft(
        kind=EPISODE, content=piece, importance=episode.importance, confidence=episode.confidence,
        source_session=episode.source_session, source_message=episode.source_message,
        event_at=episode.event_at if dated else None, event_text=episode.event_text if dated else "",
        event_grain=episode.event_grain if dated else "",
    )
    with store.prepared([MemoryStore.embedding_input(draft), embedding_text(episode.attribute, kept)]), \
            store.db.transaction():
        split_off = store.add(draft, now=episode.created_at, status="deleted")
        store.edit(episode.id, kept)
        for child in [memory, *store.distilled_from(episode.id)]:  # what else those sentences told ("The user's
            said = told_sentences(child, episode)  # sister is Clara") now points at them too, and stays active
            if child.id == memory.id or said and set(said) <= set(told):
                store.set_origin(child.id, split_off.id)
        return [store.set_status(memory.id, "deleted"), split_off]


def restore(store: MemoryStore, memory_id: int, status: str = "active") -> list[Memory]:
    """Undo `forget`: the memory gets `status` back, and what went with it comes back active."""
    memory = store.require(memory_id)
    with store.db.transaction():
        back = [store.set_status(memory.id, status)]
        if memory.is_episode:
            children = store.rows_from(memory.id, "deleted")
            back += [store.set_status(child.id, "active") for child in children]
        elif memory.origin_id is not None:
            origin = store.get(memory.origin_id)  # comes back unless it also told something still forgotten
            if origin is not None and origin.is_episode and origin.status == "deleted" \
                    and not [m for m in store.rows_from(origin.id, "deleted") if m.id != memory.id]:
                back.append(store.set_status(origin.id, "active"))
    return back
