"""Scoring and selection are pure: tested without a model or a database."""

import math

from memchat.config import RecallSettings
from memchat.memory.scoring import DAY, keyword_overlap, recency, score, select
from memchat.types import Candidate, Memory, Signals

SETTINGS = RecallSettings()


def memory(i, content="x", pinned=False, status="active", importance=0.5):
    return Memory(i, "fact", content, "user", "", importance, 0.8, 0.0, 0.0, 0.0, status=status, pinned=pinned)


def candidate(i, value, similarity=0.6, keyword=0.0, **kw):
    return Candidate(memory(i, **kw), Signals(similarity=similarity, keyword=keyword), value)


def test_recency_halves_every_half_life():
    now = 1_000 * DAY
    assert recency(now, now, 30) == 1.0
    assert math.isclose(recency(now - 30 * DAY, now, 30), 0.5)
    assert math.isclose(recency(now - 60 * DAY, now, 30), 0.25)


def test_score_is_the_weighted_sum():
    signals = Signals(similarity=1, keyword=1, recency=1, importance=1, pinned=1)
    total = SETTINGS.w_similarity + SETTINGS.w_keyword + SETTINGS.w_recency + SETTINGS.w_importance + SETTINGS.w_pinned
    assert math.isclose(score(signals, SETTINGS), total)
    assert score(Signals(), SETTINGS) == 0


def test_keyword_overlap_ignores_stopwords_and_works_for_chinese():
    assert keyword_overlap("Where do I live?", "The user lives in Porto.") == 1.0
    assert keyword_overlap("我吃香菜吗", "用户不吃香菜。") >= 0.5
    assert keyword_overlap("what about it", "anything") == 0.0


def test_dynamic_selection_takes_high_some_middle_none_below_floor():
    high = [candidate(i, 0.8) for i in range(1, 4)]
    middle = [candidate(i, 0.5) for i in range(10, 16)]
    low = [candidate(99, 0.2)]
    ranked = select(high + middle + low, SETTINGS, 10_000, len)
    chosen = {c.memory.id for c in ranked if c.selected}
    assert {1, 2, 3} <= chosen
    assert len(chosen & set(range(10, 16))) == SETTINGS.middle_k
    assert 99 not in chosen
    reasons = {c.memory.id: c.reason for c in ranked}
    assert reasons[99].startswith("below floor")
    assert reasons[15].startswith("middle band full")


def test_unrelated_candidates_are_rejected_even_with_high_importance():
    ranked = select([candidate(1, 0.5, similarity=0.1)], SETTINGS, 10_000, len)
    assert not ranked[0].selected and ranked[0].reason.startswith("unrelated")


def test_budget_cut_and_status_reasons():
    long_text = "word " * 50
    ranked = select(
        [candidate(1, 0.9, content=long_text), candidate(2, 0.85, content=long_text), candidate(3, 0.9, status="superseded")],
        SETTINGS, 300, len,
    )
    by_id = {c.memory.id: c for c in ranked}
    assert by_id[1].selected
    assert not by_id[2].selected and by_id[2].reason.startswith("budget cut")
    assert not by_id[3].selected and by_id[3].reason.startswith("superseded")


def test_pinned_items_are_selected_with_their_reason():
    ranked = select([candidate(1, 0.1, similarity=0.0, pinned=True)], SETTINGS, 100, len)
    assert ranked[0].selected and ranked[0].reason.startswith("pinned")
