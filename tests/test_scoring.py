"""Scoring and selection are pure: tested without a model or a database."""

import math

from memchat.config import RecallSettings
from memchat.memory.scoring import DAY, idf, keyword_overlap, recency, relevance, score, select, signals_for
from memchat.types import Candidate, Memory, Signals

SETTINGS = RecallSettings()


def memory(i, content="x", pinned=False, status="active", importance=0.5):
    return Memory(i, "fact", content, "user", "", importance, 0.8, 0.0, 0.0, 0.0, status=status, pinned=pinned)


def candidate(i, value, similarity=0.6, keyword=0.0, **kw):
    return Candidate(memory(i, **kw), Signals(similarity=similarity, keyword=keyword), value, relevance=value)


def test_recency_halves_every_half_life_behind_the_newest_candidate():
    newest = 1_000 * DAY
    assert recency(newest, newest, 30) == 1.0
    assert math.isclose(recency(newest - 30 * DAY, newest, 30), 0.5)
    assert math.isclose(recency(newest - 60 * DAY, newest, 30), 0.25)


def test_relevance_decides_and_the_rest_only_orders():
    signals = Signals(similarity=0.5, keyword=1, date=1, slot=0.5, recency=1, importance=1, pinned=1)
    assert math.isclose(relevance(signals, SETTINGS), 0.5 + SETTINGS.w_keyword + SETTINGS.w_date)
    extra = 0.5 * SETTINGS.w_slot + SETTINGS.w_recency + SETTINGS.w_importance + SETTINGS.w_pinned
    assert math.isclose(score(signals, SETTINGS), relevance(signals, SETTINGS) + extra)
    assert score(Signals(), SETTINGS) == 0
    high = Candidate(memory(1), Signals(similarity=SETTINGS.floor - 0.01, recency=1, importance=1, slot=0.5), 0)
    high.score, high.relevance = score(high.signals, SETTINGS), relevance(high.signals, SETTINGS)
    [ranked] = select([high], SETTINGS, 10_000, len)
    assert not ranked.selected, "ordering signals must not lift a memory over a gate"


def test_the_slot_an_open_question_asks_for_counts_as_relevance():
    """"Where do I live?" is answered by whatever fills the home slot; "Do I live in Leeds?" is not (slot 0.5)."""
    asked = Signals(similarity=SETTINGS.floor - 0.1, slot=1)
    touched = Signals(similarity=SETTINGS.floor - 0.1, slot=0.5)
    assert math.isclose(relevance(asked, SETTINGS) - relevance(touched, SETTINGS), SETTINGS.w_answer)
    ranked = select([Candidate(memory(1), asked, score(asked, SETTINGS), relevance=relevance(asked, SETTINGS)),
                     Candidate(memory(2), touched, score(touched, SETTINGS), relevance=relevance(touched, SETTINGS))],
                    SETTINGS, 10_000, len)
    assert [c.memory.id for c in ranked if c.selected] == [1]


def test_a_near_miss_and_an_earlier_value_are_rejected_with_their_reason():
    near = Candidate(memory(1), Signals(similarity=0.9), 0.9, relevance=0.9, mismatch="about dog, not cat")
    earlier, later = candidate(2, 0.9), candidate(3, 0.8)
    ranked = {c.memory.id: c for c in select([near, earlier, later], SETTINGS, 10_000, len, older={2: 3})}
    assert not ranked[1].selected and "about dog, not cat" in ranked[1].reason
    assert not ranked[2].selected and "#3" in ranked[2].reason
    assert ranked[3].selected, "the best match among the rest is judged without the rejected ones"


def test_the_same_query_selects_the_same_memories_a_day_or_a_year_later():
    """Selection never looks at the wall clock: only relevance and the other candidates."""
    old = Memory(1, "fact", "The user is allergic to penicillin.", "user", "", 0.7, 0.8, 0.0, 0.0, 0.0)
    for newest in (1 * DAY, 365 * DAY):
        sig = signals_for(old, 0.7, 0.5, date=0.0, newest=newest, settings=SETTINGS)
        ranked = select([Candidate(old, sig, score(sig, SETTINGS), relevance=relevance(sig, SETTINGS))],
                        SETTINGS, 1000, len, background=0.2)
        assert ranked[0].selected, ranked[0].reason


def test_keyword_overlap_ignores_stopwords_and_works_for_chinese():
    assert keyword_overlap("Where do I live?", "The user lives in Porto.") == 1.0
    assert keyword_overlap("我吃香菜吗", "用户不吃香菜。") >= 0.5
    assert keyword_overlap("what about it", "anything") == 0.0


def test_rare_query_words_weigh_more_than_common_ones():
    weights = {"dog": idf(1, 100), "name": idf(60, 100)}
    assert keyword_overlap("What is my dog's name?", "Pixel the dog", weights) > 0.8
    assert keyword_overlap("What is my dog's name?", "My name is Kofi", weights) < 0.2


def test_a_question_that_only_matches_the_background_recalls_nothing():
    value = SETTINGS.floor + 0.02
    ranked = select([candidate(1, value), candidate(2, value - 0.01)], SETTINGS, 10_000, len,
                    background=value - SETTINGS.min_lift / 2)
    assert not any(c.selected for c in ranked)
    assert ranked[0].reason.startswith("unrelated")


def test_far_below_the_best_match_is_not_selected():
    ranked = select([candidate(1, SETTINGS.floor + SETTINGS.margin + 0.2), candidate(2, SETTINGS.floor + 0.05)],
                    SETTINGS, 10_000, len, background=0.1)
    by_id = {c.memory.id: c for c in ranked}
    assert by_id[1].selected and not by_id[2].selected
    assert by_id[2].reason.startswith("far below the best match")


def test_the_answer_to_an_open_question_is_not_outranked_by_other_matches():
    """"我在哪上班？" matches many messages word for word; the one employer statement, which shares no word
    with it, answers it: it must clear the floor, not come close to the best word match."""
    words = candidate(1, SETTINGS.floor + SETTINGS.margin + 0.3)
    answer = Candidate(memory(2), Signals(similarity=0.0, keyword=0.0, slot=1.0), SETTINGS.floor + 0.03,
                       relevance=SETTINGS.floor + 0.03)
    by_id = {c.memory.id: c for c in select([words, answer], SETTINGS, 10_000, len, background=0.0)}
    assert by_id[1].selected and by_id[2].selected


def test_dynamic_selection_takes_high_some_middle_none_below_floor():
    high = [candidate(i, SETTINGS.high + 0.05) for i in range(1, 4)]
    middle = [candidate(i, SETTINGS.high - 0.01) for i in range(10, 16)]
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
    ranked = select([candidate(1, 0.3, similarity=0.1, importance=1.0)], SETTINGS, 10_000, len)
    assert not ranked[0].selected and ranked[0].reason.startswith("below floor")


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


def test_an_unread_question_leans_on_the_slot_it_asks_for():
    """When the embedder cannot read the question, the slot an open question asks for is enough alone."""
    answer = Signals(similarity=0.0, keyword=0.0, slot=1.0)
    assert relevance(answer, SETTINGS) < SETTINGS.floor <= relevance(answer, SETTINGS, read=False)
    closed = Signals(similarity=0.0, keyword=0.0, slot=0.5)  # a closed question names its own answer
    assert relevance(closed, SETTINGS, read=False) == 0.0


def test_the_answer_to_the_slot_asked_is_weighed_for_the_budget_before_long_messages_that_share_words():
    """Five long messages scoring above the employer memory must not spend the room it needs."""
    long_ones = [Candidate(memory(i, content="word " * 40), Signals(similarity=0.9, keyword=1.0), 2.0, relevance=1.6)
                 for i in range(1, 6)]
    answer = Candidate(memory(9, content="The user works at Hengda Logistics."), Signals(similarity=0.5, slot=1.0),
                       1.5, relevance=1.55)
    ranked = select([*long_ones, answer], SETTINGS, 120, lambda text: len(text.split()))
    assert ranked[0].memory.id == 9 and ranked[0].selected
    assert sum(c.selected for c in ranked) == 3  # two long ones fit beside it, as before three would have


def test_a_later_value_answers_in_the_place_of_the_earlier_one_the_question_matched():
    """"Am I still vegetarian?" matches "I'm vegetarian since I was 15" (history now) and barely "started eating fish
    again", which replaced it: the later value takes the earlier one's relevance and place, and says why."""
    earlier, later, other = candidate(1, 1.0), candidate(2, 0.3), candidate(3, 0.7)
    ranked = {c.memory.id: c for c in select([earlier, later, other], SETTINGS, 10_000, len, older={1: 2})}
    assert not ranked[1].selected and "earlier value" in ranked[1].reason
    assert ranked[2].selected and ranked[2].reason.startswith("later value of #1")
    assert ranked[3].selected, "the later value raises no bar for the rest: it is judged by what it matched itself"
    superseded = candidate(4, 1.0, status="superseded")
    superseded.memory.superseded_by = 5
    ranked = {c.memory.id: c for c in select([superseded, candidate(5, 0.3)], SETTINGS, 10_000, len)}
    assert ranked[5].selected and "later value of #4" in ranked[5].reason


def test_an_earlier_value_below_the_floor_lifts_nothing():
    earlier, later = candidate(1, SETTINGS.floor - 0.05), candidate(2, 0.2)
    ranked = {c.memory.id: c for c in select([earlier, later], SETTINGS, 10_000, len, older={1: 2})}
    assert not ranked[2].selected


def test_what_was_is_an_answer_only_to_a_question_about_the_past():
    """"What does my ex do?": the superseded "Ola is a nurse" answers it, marked in the prompt as no longer current;
    for any other question it stays out."""
    from memchat.types import memory_line
    old = candidate(1, 0.8, status="superseded", content="Ola is a nurse at the Queen Elizabeth.")
    assert not select([old], SETTINGS, 10_000, len)[0].selected
    [chosen] = select([old], SETTINGS, 10_000, len, past=True)
    assert chosen.selected and chosen.reason.startswith("what was, asked of the past")
    assert "no longer current" in memory_line(chosen.memory)
    gone = candidate(2, 0.8, status="forgotten")
    assert not select([gone], SETTINGS, 10_000, len, past=True)[0].selected, "a forgotten memory never comes back"
