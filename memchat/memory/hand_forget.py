"""Forgetting one memory by hand — a key in the inspector or browser, `memchat memory forget`, a pick from
the memories a forget request came close to — and restoring it.

A typed memory is distilled from an episode (what the user said, kept as said). Forgetting only the typed
row would leave its episode active, and recall would put the same fact back in the next prompt. So:

- forgetting a typed memory takes the sentences of its episode that told it: they move to an episode row
  of their own, forgotten with it, and the episode keeps what else the message said ("My sister Clara got
  engaged. I start my new job on Monday.": forgetting the engagement keeps the job). The typed memory now
  points at that row;
- forgetting an episode takes the typed memories drawn from it.

What went with a memory is recorded (`forgotten_with`, each row with the status it had), so restoring it
brings back exactly that: not what was forgotten on its own before or after, and a pending memory comes back
pending. Forgetting stays soft (status `deleted`); `purge` is the hard delete.
"""

from __future__ import annotations

import re
from dataclasses import replace

from memchat.memory.distill import CN_RELATIVES
from memchat.memory.episodes import leans_back
from memchat.memory.items import MemoryStore
from memchat.memory.segment import split_sentences
from memchat.memory.slots import embedding_text
from memchat.memory.speech import split_clauses
from memchat.memory.terms import USER_TERMS, search_terms
from memchat.types import EPISODE, MemchatError, Memory, MemoryDraft

ALSO_TOLD = 0.6
"""A typed memory came from the sentences of its episode that share most of its words; any other sentence
holding this share of its words told it again."""


def _words(memory: Memory) -> set[str]:
    """The index terms of what a typed memory says (not "the user")."""
    return set(search_terms(memory.content)) - USER_TERMS


def told_sentences(memory: Memory, episode: Memory) -> list[int]:
    """Which of the episode's sentences (by position) told the typed `memory`: those sharing most of its words
    (all of them on a tie), any other sharing `ALSO_TOLD` of them, and the sentences right after one of these
    that lean on it ("Huge news from my sister Clara! She and Pete got engaged."). Pure."""
    sentences = split_sentences(episode.content)
    words = _words(memory)
    if len(sentences) <= 1 or not words:
        return list(range(len(sentences))) if len(sentences) == 1 else []
    shares = [len(words & set(search_terms(s))) / len(words) for s in sentences]
    best = max(shares)
    if not best:
        return []
    told = {i for i, share in enumerate(shares) if share == best or share >= ALSO_TOLD}
    for index in range(1, len(sentences)):
        if index - 1 in told and leans_back(sentences[index]):
            told.add(index)
    return sorted(told)


CJK_ALSO_TOLD = 0.25
"""Chinese words are counted as two-character pieces, many of them shared by chance: a clause holding this share
of a memory's pieces told part of it."""
_CN_NEW_SUBJECT = re.compile(rf"^\s*(?:我(?!们)|俺|(?:我们?的?)?(?:{CN_RELATIVES}))")
"""A Chinese clause that opens with its own subject (the user, or a relative of theirs) tells a new thing; one
that opens otherwise ("叫土豆", "她是护士", "我们是在大学认识的") goes on with the clause before it."""


def cjk_clauses(sentence: str) -> list[str]:
    """A Chinese sentence split at its commas into the things it tells: "我在杭州上班，我女朋友叫小雨，她是护士。" →
    "我在杭州上班，", "我女朋友叫小雨，她是护士。" (as the write path splits it). Pure."""
    clauses: list[str] = []
    for piece in (p for p in re.split(r"(?<=[，,；;])", sentence) if p.strip()):
        if clauses and not _CN_NEW_SUBJECT.match(piece):
            clauses[-1] += piece
        else:
            clauses.append(piece)
    return clauses


def _cut_cjk(memory: Memory, sentence: str, words: set[str]) -> tuple[str, str] | None:
    clauses = cjk_clauses(sentence)
    if len(clauses) < 2:
        return None
    shares = [len(words & set(search_terms(c))) / len(words) for c in clauses]
    best = max(range(len(clauses)), key=shares.__getitem__)
    if not shares[best] or any(share >= CJK_ALSO_TOLD for i, share in enumerate(shares) if i != best):
        return None  # another clause told part of it too ("用户在杭州上班，女朋友叫小雨。" told both)

    def ended(text: str) -> str:
        text = text.strip().rstrip("，,；;")
        return text if re.search(r"[.!?。！？]$", text) else text + "。"

    return ended(clauses[best]), ended("".join(c for i, c in enumerate(clauses) if i != best))


def _mostly_cjk(sentence: str) -> bool:
    """Chinese more than anything else: "I live in 杭州 and my dog is called Pixel" is English with a name in it."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", sentence))
    return cjk > len(re.findall(r"[A-Za-z]", sentence))


def cut_clause(memory: Memory, sentence: str) -> tuple[str, str] | None:
    """A sentence that told two things in clauses ("I live in Lisbon and my dog is called Pixel",
    "我在杭州上班，我女朋友叫小雨"): the clause that told `memory` and what the sentence keeps without it, or None
    when the sentence is one thing. Pure."""
    words = _words(memory)
    if _mostly_cjk(sentence):
        return _cut_cjk(memory, sentence, words) if words else None
    clauses = split_clauses(sentence)
    if len(clauses) < 2 or not words:
        return None
    shares = [len(words & set(search_terms(c))) / len(words) for c in clauses]
    best = max(range(len(clauses)), key=shares.__getitem__)
    if not shares[best] or any(share >= ALSO_TOLD for i, share in enumerate(shares) if i != best):
        return None  # the other clauses told it too
    told = clauses[best].strip()
    start = sentence.find(told)
    if start < 0:
        return None
    before = sentence[:start].rstrip(" ,;")
    before = re.sub(r"\s*\b(?:and|but|so|or)$", "", before, flags=re.IGNORECASE).rstrip(" ,;")
    after = re.sub(r"^[\s,;]*(?:(?:and|but|so|or)\b)?\s*", "", sentence[start + len(told):])
    kept = f"{before} {after}".strip() if before else after[:1].upper() + after[1:]
    if not re.search(r"\w", kept):
        return None
    if before and not re.search(r"[.!?。！？]$", kept):
        kept += "."
    piece = told[:1].upper() + told[1:]
    return (piece if re.search(r"[.!?。！？]$", piece) else piece + "."), kept


def forget(store: MemoryStore, memory_id: int) -> list[Memory]:
    """Soft-delete one memory and what would tell it again; returns every row whose status changed."""
    memory = store.require(memory_id)
    if memory.status == "deleted":
        raise MemchatError(f"#{memory_id} is already forgotten", f"`memchat memory restore {memory_id}` undoes it")
    if memory.is_episode:
        return _forget_all(store, memory, [memory, *store.distilled_from(memory.id)])
    episode = store.get(memory.origin_id) if memory.origin_id is not None else None
    if episode is None or not episode.is_episode or episode.status != "active" or episode.pinned:
        return _forget_all(store, memory, [memory])  # a pinned episode keeps its words: the user chose to keep them
    sentences = split_sentences(episode.content)
    told = told_sentences(memory, episode)
    if not told:  # no word of it in any sentence (a model's rewording): nothing tells which sentence said it
        return _forget_all(store, memory, [memory])
    cut = cut_clause(memory, sentences[told[0]]) if len(told) == 1 else None
    if cut is not None:  # "I live in Lisbon and my dog is called Pixel": the dog stays in the user's words
        piece = cut[0]
        kept = " ".join(cut[1] if i == told[0] else s for i, s in enumerate(sentences))
    else:
        piece = " ".join(sentences[i] for i in told)
        kept = " ".join(s for i, s in enumerate(sentences) if i not in told)
    if not kept:
        return _forget_all(store, memory, [memory, episode])
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
        store.edit(episode.id, kept, said_at=episode.created_at)
        store.set_origin(memory.id, split_off.id)  # what else those sentences told keeps its episode: a purge of
        # this row (what was forgotten) must not take a memory that is still active
        store.went_with(memory.id, [memory, replace(split_off, status="active")])  # comes back active
        return [store.set_status(memory.id, "deleted"), split_off]


def _forget_all(store: MemoryStore, memory: Memory, going: list[Memory]) -> list[Memory]:
    with store.db.transaction():
        store.went_with(memory.id, going)
        return [store.set_status(m.id, "deleted") for m in going]


def restore(store: MemoryStore, memory_id: int, status: str | None = None) -> list[Memory]:
    """Undo `forget`: the memory and what went with it get back the status each had (`status`, when given,
    for the memory itself; active when nothing was recorded)."""
    memory = store.require(memory_id)
    if memory.status not in ("deleted", "archived"):
        raise MemchatError(f"#{memory_id} is not forgotten (it is {memory.status})", "restore brings back a forgotten "
                           "or archived memory; `memchat memory list --all` shows each one's status")
    with store.db.transaction():
        went = dict(store.taken_back(memory.id))
        own = went.pop(memory.id, "active")
        back = [store.set_status(memory.id, status or own)]
        for other_id, previous in went.items():
            other = store.get(other_id)
            if other is not None and other.status == "deleted":
                back.append(store.set_status(other_id, previous))
    return back
