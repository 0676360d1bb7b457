"""The language tables (slots, discourse markers, time expressions): each row's example is its test."""

from datetime import datetime

import pytest

from memchat.memory.distill import draft_from_sentence, is_retirement, third_person
from memchat.memory.episodes import episode_windows
from memchat.memory.query import sub_queries
from memchat.memory.rules import forget_topic, topic_parts
from memchat.memory.slots import SLOTS, slot_of, slots_asked
from memchat.memory.speech import normalise, split_clauses, strip_markers
from memchat.memory.timeexpr import TIME_RULES, query_months, resolve_times

MONDAY = datetime(2026, 3, 16, 10, 0).timestamp()


@pytest.mark.parametrize(("slot", "example"), [(s.name, e) for s in SLOTS for e in s.examples])
def test_every_slot_example_is_recognised_as_its_slot(slot, example):
    assert slot_of(example).name == slot


@pytest.mark.parametrize("rule", TIME_RULES, ids=[r.name for r in TIME_RULES])
def test_every_time_rule_example_resolves(rule):
    found = resolve_times(rule.example, MONDAY)
    assert found, rule.example


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Last Friday I ran my first half marathon", "2026-03-13"),
        ("two weeks ago we moved", "2026-03-02"),
        ("next month I'm flying to Oslo", "2026-04"),
        ("我上周五去了杭州", "2026-03-13"),
        ("两周前我们搬家了", "2026-03-02"),
        ("下个月我要去北京出差", "2026-04"),
        ("去年我换了工作", "2025"),
        ("I started in June", "2025-06"),
    ],
)
def test_relative_times_resolve_against_the_message_time(text, label):
    assert resolve_times(text, MONDAY)[0].label == label


def test_month_questions_name_no_year_so_they_mean_the_same_whenever_asked():
    assert query_months("What did I do in June?") == [(None, 6)]
    assert query_months("我三月做了什么") == [(None, 3)]
    assert query_months("May I ask something?") == []


@pytest.mark.parametrize(
    ("text", "clauses"),
    [
        ("Btw Im gonna start at Caley Marine and my new boss is Stuart.",
         ["I'm going to start at Caley Marine", "my new boss is Stuart."]),
        ("I live in Culloden and work at Caley Marine.", ["I live in Culloden", "I work at Caley Marine."]),
        ("I'm Aigerim, a vet in Almaty.", ["I'm Aigerim", "I'm a vet in Almaty."]),
        ("Quick update: we moved to Porto.", ["We moved to Porto."]),
        ("对了，我老婆叫小美。", ["我老婆叫小美。"]),
        ("I play guitar and piano.", ["I play guitar and piano."]),
    ],
)
def test_discourse_markers_go_and_each_fact_keeps_a_subject(text, clauses):
    assert split_clauses(strip_markers(normalise(text))) == clauses


@pytest.mark.parametrize(
    "text", ["Free time is a thing of the past.", "Huge news!", "That sounds lovely.", "Brilliant, thanks."]
)
def test_fragments_and_feelings_make_no_typed_memory(text):
    assert draft_from_sentence(text, session_id=None, message_id=None) is None


def test_third_person_reads_as_a_sentence():
    assert third_person("I sold my car.") == "The user sold their car."
    assert third_person(normalise("I wanna help make a difference")) == "The user wants to help make a difference."
    assert third_person("Our son Timur is five.") == "The user's son Timur is five."
    assert third_person("我对芒果过敏") == "用户对芒果过敏。"


@pytest.mark.parametrize("text", ["I sold my car.", "I quit the band.", "I'm not vegan any more.", "我把尤克里里卖了。"])
def test_retirement_language(text):
    assert is_retirement(text)


@pytest.mark.parametrize(
    ("text", "topic", "parts"),
    [
        ("Please forget what I told you about Arman and the gambling, it's private.", "Arman and the gambling",
         ["Arman", "gambling"]),
        ("Hey, can you please forget what I told you about Archie. It wasn't mine to share.", "Archie", ["Archie"]),
        ("忘掉我说的关于阿杰的事，不要记，太丢人了。", "阿杰", ["阿杰"]),
    ],
)
def test_forget_requests_in_any_common_phrasing(text, topic, parts):
    assert forget_topic(text) == topic
    assert topic_parts(topic) == parts


def test_before_i_forget_is_not_a_request():
    assert forget_topic("I'll book the hotel tonight before I forget.") is None


def test_questions_find_their_slots_and_compound_questions_split():
    assert "home" in slots_asked("Where do I live?")
    assert "pet" in slots_asked("What pet do I have?")
    assert "pet" not in slots_asked("What's my cat called?"), "a near miss must not ask for the dog"
    assert sub_queries("Where do I live and who do I work for?") == ["Where do I live", "who do I work for"]
    assert sub_queries("Do I like rock and roll?") == []


def test_a_long_message_becomes_windows_that_read_on_their_own():
    text = ("Right so bit of family stuff so you know who I'm on about. My wife Rhona is a nurse at Raigmore. "
            "She works nights mostly. Our daughter Isla is 19 and at uni in Glasgow doing vet science. "
            "Callum is 17, still at school and he lives and breathes shinty. Is that too much detail? "
            "My brother Ewan runs the ferry cafe in Uig with his husband Tom. Last Friday we all went to Portree.")
    windows = episode_windows(text, MONDAY)
    assert all("?" not in w.text and "family stuff" not in w.text for w in windows), [w.text for w in windows]
    assert any("Rhona" in w.text and "nights" in w.text for w in windows), [w.text for w in windows]
    assert len(windows) >= 2
    assert windows[-1].time is not None and windows[-1].time.label == "2026-03-13"
