"""Relevance, the recall score and the dynamic selection: pure functions, no I/O.

Relevance decides, recency orders (DESIGN.md §1):

    relevance = similarity + w_kw·keyword + w_date·date + w_answer·answers
    score     = relevance + w_slot·slot + w_rec·recency + w_imp·importance + w_pin·pinned

Whether a memory enters the prompt depends on its relevance only — never on its age — so
the same question asked a day or a year after the conversation selects the same memories.
Recency is measured against the newest candidate of the same query, not against the wall
clock: it only says which of two relevant statements is the later one.

Selection is calibrated per query: a candidate must clear an absolute floor, stand out
from the query's background (the median similarity of its nearest neighbours: a question
about something never mentioned matches everything a little and nothing well), and be
close to the best match — unless it fills the slot an open question asks for ("Where do I
work?" — "巴蜀记那边给offer了"): many messages may share the question's words, one answers it. Everything at or above `high` is taken, up to `middle_k` from the
band below it, within the recalled-memory token share; the best memory that fills the asked slot is weighed
for that share first. Each candidate keeps its reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from memchat.config import RecallSettings
from memchat.memory.concepts import concept_key, concept_overlap, concepts_in, covers, own_kin_only
from memchat.memory.terms import is_single_cjk, query_terms, term_set
from memchat.types import ASKED_OF_THE_PAST, Candidate, Memory, Signals, memory_line

DAY = 86_400.0
MIN_BACKGROUND = 12
"""Fewer neighbours than this (a young store) and a query's background (the median similarity of its
nearest memories) is no background: recall's background gate and forget's margin are off."""


def recency(created_at: float, newest: float, half_life_days: float) -> float:
    """1.0 for the newest candidate, halving every `half_life_days` older than it. Clock-free."""
    age_days = max(0.0, newest - created_at) / DAY
    return math.pow(0.5, age_days / max(half_life_days, 1e-6))


def idf(doc_frequency: int, total: int) -> float:
    """BM25's inverse document frequency: rare words say more than common ones."""
    return math.log(1 + (total - doc_frequency + 0.5) / (doc_frequency + 0.5))


def keyword_overlap(query: str, content: str, weights: Mapping[str, float] | None = None,
                    people: Mapping[str, Sequence[frozenset[str]]] | None = None) -> float:
    """Share of the query's meaningful terms present in the content, weighted by `weights` (IDF).

    Words and CJK bigrams are one family, single CJK characters another, counted at half
    weight and only when two or more are shared: they rescue a Chinese paraphrase without
    passing for an exact two-character match.
    A concept the query names ("spouse", "宠物") is one term of the word family, met by any of
    its words or a narrower concept's in the content ("husband", "猫"; see `concepts`); the
    query's own words for it count through the concept, not again on their own. `people` (a relation
    concept → the index terms of each name the store gives it) lets a name meet it too: "my lad?" —
    "Callum passed his driving test", once Callum is known to be the son.
    """
    asked, concept_units, words, singles = _query_units(query)
    if not concept_units and not words and not singles:
        return 0.0
    weights = weights or {}
    content = own_kin_only(query, content)
    present = term_set(content)
    met = concept_overlap(asked, concepts_in(content)) if asked else set()
    people = people or {}
    units = [(weights.get(concept_key(name), max(weights.get(t, 1.0) for t in spoken)),
              name in met or bool(spelled & present) or any(terms <= present for terms in people.get(name, ())))
             for name, spoken, spelled in concept_units]
    units.extend((weights.get(t, 1.0), t in present) for t in words)

    def share(family: list[tuple[float, bool]]) -> float:
        total = sum(w for w, _ in family)
        return sum(w for w, hit in family if hit) / total if total else 0.0

    single_units = [(weights.get(t, 1.0), t in present) for t in singles]
    if sum(hit for _, hit in single_units) < 2:  # a single shared character is chance
        single_units = []
    return max(share(units) if units else 0.0, 0.5 * share(single_units) if single_units else 0.0)


@lru_cache(maxsize=256)
def _query_units(query: str) -> tuple[frozenset[str], tuple[tuple[str, frozenset[str], frozenset[str]], ...],
                                      tuple[str, ...], tuple[str, ...]]:
    """What `keyword_overlap` looks for, worked out once per query (recall scores dozens of memories
    against it): the concepts asked, each with the query's words for it and those of them that spell
    the word (not one CJK character); the remaining words; the remaining single CJK characters."""
    wanted = set(query_terms(query))
    asked = concepts_in(query)
    concept_units = []
    for name in sorted(asked):
        spoken = frozenset(t for t in wanted if covers(name, t))
        if not spoken:
            continue
        wanted -= spoken
        concept_units.append((name, spoken, frozenset(t for t in spoken if not is_single_cjk(t))))
    singles = tuple(sorted(t for t in wanted if is_single_cjk(t)))
    return asked, tuple(concept_units), tuple(sorted(wanted - set(singles))), singles


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


def relevance(signals: Signals, settings: RecallSettings, *, read: bool = True) -> float:
    """`read`: whether the embedder could read the question. When it could not (Chinese for an English
    embedder), similarity is only the words again, and the slot an open question asks for is the one
    piece of meaning recall has, so it weighs `w_answer_unread` instead of `w_answer`."""
    answers = 1.0 if signals.slot >= 1.0 else 0.0  # an open question asks for this memory's slot
    weight = settings.w_answer if read else settings.w_answer_unread
    return signals.similarity + settings.w_keyword * signals.keyword + settings.w_date * signals.date + weight * answers


def score(signals: Signals, settings: RecallSettings, *, read: bool = True) -> float:
    return (
        relevance(signals, settings, read=read)
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
    older: Mapping[int, int] | None = None,
    past: bool = False,
) -> list[Candidate]:
    """Mark each candidate selected or not, with a reason; returns them best first.

    `duplicates` maps a memory id to the candidate that says the same thing (a typed memory and
    the episode it was distilled from): those are rejected and listed last, so the prompt and the
    top of the table hold different statements. `older` maps an earlier value of a single-valued
    slot (and the episode that said it) to the later one: history, not current truth. `past`: the question asks what
    was ("What does my ex do?", "Who did I use to play tennis with?"), which a superseded memory may answer.
    """
    duplicates = duplicates or {}
    older = older or {}
    heirs = later_values(candidates, settings, background, older)
    own_relevance = {c.memory.id: c.relevance for c in candidates}
    candidates = [replace(c, relevance=heirs[c.memory.id][0], score=max(c.score, heirs[c.memory.id][2]))
                  if c.memory.id in heirs else c for c in candidates]
    ranked = parts_first(answers_first(sorted(candidates, key=lambda c: (c.memory.id in duplicates, -c.score,
                                                                          c.memory.id)), duplicates, older), duplicates)
    best: dict[int, float] = {}  # per part of a compound question: each part has its own best answer
    for c in ranked:  # by their own relevance: a later value taking an earlier one's raises no bar for the rest
        if (c.memory.status == "active" and not c.memory.pinned and c.memory.id not in duplicates
                and c.memory.id not in older and not c.mismatch):
            best[c.group] = max(best.get(c.group, 0.0), own_relevance[c.memory.id])
    used = 0
    middle_taken = 0
    result: list[Candidate] = []
    for candidate in ranked:
        memory = candidate.memory
        if memory.id in duplicates:
            result.append(replace(candidate, selected=False, reason=f"same statement as #{duplicates[memory.id]}"))
            continue
        answers = candidate.signals.slot >= 1.0  # fills the slot an open question asks for: no other match outranks it
        decided = _reject_reason(memory, candidate.relevance, 0.0 if answers else best.get(candidate.group, 0.0),
                                 background, settings, candidate.mismatch, past)
        if decided is None and memory.id in older:
            decided = f"earlier value: #{older[memory.id]} said later"
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
                why = "above high threshold" if strong else "middle band"
                if memory.status == "superseded":
                    why = f"{ASKED_OF_THE_PAST} ({why})"
                if memory.id in heirs:
                    why = f"later value of #{heirs[memory.id][1]} ({why})"
                result.append(replace(candidate, selected=True, reason=why))
                continue
        result.append(replace(candidate, selected=False, reason=decided or "not selected"))
    return result


def later_values(candidates: Sequence[Candidate], settings: RecallSettings, background: float,
                 older: Mapping[int, int]) -> dict[int, tuple[float, int, float]]:
    """The later value of a relevant memory is as relevant as it: "am I still vegetarian?" matches "I'm vegetarian"
    well and "started eating fish again", which replaced it, hardly at all — the earlier one is history, and the
    later one answers, in its place. Maps the later memory's id to (the relevance it takes, the earlier memory's id,
    its score), for an earlier one that clears the floor and the background gate and says what the question asks
    (no mismatch)."""
    present = {c.memory.id: c for c in candidates}
    heirs: dict[int, tuple[float, int, float]] = {}
    for c in candidates:
        memory = c.memory
        heir = older.get(memory.id) or (memory.superseded_by if memory.status == "superseded" else None)
        if (heir is None or heir not in present or c.mismatch or c.relevance < settings.floor
                or c.relevance - background < settings.min_lift):
            continue
        later = present[heir]
        if later.relevance < c.relevance and c.relevance > heirs.get(heir, (0.0, 0, 0.0))[0]:
            heirs[heir] = (c.relevance, memory.id, c.score)
    return heirs


def answers_first(ranked: list[Candidate], duplicates: Mapping[int, int], older: Mapping[int, int]) -> list[Candidate]:
    """The best current memory that fills the slot a question asks for ("Where do I work?" — the employer)
    is weighed for the budget first: long messages that only share the question's words must not spend the
    room it needs."""
    leaders: dict[int, Candidate] = {}
    for c in ranked:
        if (c.signals.slot >= 1.0 and c.memory.status == "active" and c.memory.id not in duplicates
                and c.memory.id not in older and not c.mismatch):
            leaders.setdefault(c.group, c)
    if not leaders:
        return ranked
    first = [c for c in ranked if any(c is leader for leader in leaders.values())]
    return first + [c for c in ranked if all(c is not f for f in first)]


def parts_first(ranked: list[Candidate], duplicates: Mapping[int, int]) -> list[Candidate]:
    """For a compound question ("my dog's name and my mum's?"), the best current answer to each part
    leads, then the rest by score: one part's many near answers must not push the other's out of sight."""
    leaders: dict[int, Candidate] = {}
    for c in ranked:
        if c.group and c.memory.status == "active" and c.memory.id not in duplicates and not c.mismatch:
            leaders.setdefault(c.group, c)
    if len(leaders) < 2:
        return ranked
    first = sorted(leaders.values(), key=lambda c: -c.score)
    return first + [c for c in ranked if all(c is not f for f in first)]


def _reject_reason(memory: Memory, value: float, best: float, background: float,
                   settings: RecallSettings, mismatch: str = "", past: bool = False) -> str | None:
    if memory.status == "superseded" and not past:
        return f"superseded by #{memory.superseded_by}" if memory.superseded_by else "superseded"
    if memory.status not in ("active", "superseded"):
        return memory.status
    if memory.pinned:
        return None
    if mismatch:
        return mismatch
    if value < settings.floor:
        return f"below floor ({value:.3f} < {settings.floor:g})"
    if value - background < settings.min_lift:
        return f"unrelated ({value:.3f} is within {settings.min_lift:g} of this query's background {background:.3f})"
    if value < best - settings.margin:
        return f"far below the best match ({value:.3f} < {best:.3f} − {settings.margin:g})"
    return None
