"""The write path with the fake engine: dedupe, supersede, pending, corrections, secrets, chit-chat, forget."""

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from helpers import fake_services

from memchat.types import MemoryDraft


def process(services, text, now=None):
    outcomes, _ = services.writer.process(text, session_id=None, message_id=None, now=now)
    return outcomes


def test_newer_statement_supersedes_and_links(tmp_path):
    services = fake_services(tmp_path)
    [first] = process(services, "I live in Lisbon.", now=1000.0)
    [second, move] = process(services, "I moved to Porto last week.", now=2000.0)  # the new home, and the move
    assert first.action == "added" and second.action == "superseded"
    assert move.action == "added" and services.memories.require(move.memory_id).kind == "event"
    old = services.memories.require(first.memory_id)
    assert old.status == "superseded" and old.superseded_by == second.memory_id
    assert [m.id for m in services.memories.history(second.memory_id)] == [first.memory_id, second.memory_id]


def test_same_statement_twice_is_merged(tmp_path):
    services = fake_services(tmp_path)
    [first] = process(services, "I prefer tea over coffee.")
    [again] = process(services, "I prefer tea over coffee.")
    assert again.action == "merged" and again.memory_id == first.memory_id
    assert services.memories.count() == 1


def test_low_confidence_contradiction_is_pending_but_correction_wins(tmp_path):
    services = fake_services(tmp_path)
    strong = services.writer.apply(MemoryDraft("fact", "The user lives in Lisbon.", attribute="home_city", confidence=0.95))
    weak = services.writer.apply(MemoryDraft("fact", "The user lives in Madrid.", attribute="home_city", confidence=0.4))
    assert weak.action == "pending"
    assert services.memories.require(strong.memory_id).status == "active"
    accepted = services.writer.accept(weak.memory_id)
    assert accepted.action == "superseded" and accepted.replaced_id == strong.memory_id
    assert services.memories.require(strong.memory_id).superseded_by == weak.memory_id
    correction = services.writer.apply(
        MemoryDraft("fact", "The user lives in Porto.", attribute="home_city", confidence=0.4, correction=True)
    )
    assert correction.action == "superseded"
    assert services.memories.require(weak.memory_id).status == "superseded"


def test_multi_valued_keys_do_not_supersede(tmp_path):
    services = fake_services(tmp_path)
    process(services, "I'm allergic to peanuts.")
    [second] = process(services, "I'm allergic to shellfish.")
    assert second.action == "added"
    assert services.memories.count() == 2


def test_secrets_and_chit_chat_are_never_stored(tmp_path):
    services = fake_services(tmp_path)
    outcomes = process(services, "Please remember my wifi password is hunter2-blue.")
    outcomes += process(services, "my card is 4111 1111 1111 1111")
    outcomes += process(services, "thanks!")
    assert [o.action for o in outcomes] == ["skipped"] * 3
    assert "hunter2" not in str(outcomes)
    assert services.memories.count() == 0
    assert services.db.scalar("SELECT COUNT(*) FROM memories WHERE content LIKE '%hunter2%'") == 0


def test_forget_request_soft_deletes_matching_memories_and_says_which(tmp_path):
    services = fake_services(tmp_path)
    [poker] = process(services, "I play poker every Friday.")
    [dog] = process(services, "My dog is called Pixel.")
    outcomes = process(services, "Please forget that I play poker.")
    assert [(o.action, o.memory_id) for o in outcomes if o.memory_id] == [("deleted", poker.memory_id)]
    assert [o.content for o in outcomes if not o.memory_id] == ["1 of your own messages about I play poker"]
    [said] = services.memories.list_items(statuses=("deleted",), kind="episode")
    assert said.content == "I play poker every Friday."
    assert services.memories.require(poker.memory_id).status == "deleted"
    assert services.memories.require(dog.memory_id).status == "active"


def test_model_labels_are_validated_and_failures_recorded(tmp_path):
    services = fake_services(tmp_path, write={"model_labels": True})
    services.engine.enqueue_json({"items": [{"index": 1, "kind": "fact", "importance": 9}]})
    outcomes, failures = services.writer.process("I own a blue kayak.", session_id=None, message_id=None)
    assert outcomes[0].action == "added"
    assert failures and "importance" in failures[0].error and '"importance": 9' in failures[0].raw_output
    services.engine.enqueue_json({"items": [{"index": 1, "kind": "event", "importance": 5}]})
    outcomes, failures = services.writer.process("I speak some Italian words daily.", session_id=None, message_id=None)
    assert not failures
    stored = services.memories.require(outcomes[0].memory_id)
    assert stored.importance > 0.5


def test_one_fact_per_memory_and_pins_survive_a_correction(tmp_path):
    services = fake_services(tmp_path)
    outcomes = process(services, "I live in Lisbon, I have a dog named Biscuit, I'm allergic to peanuts and I work as a nurse.")
    assert [o.action for o in outcomes] == ["added"] * 4
    city = outcomes[0].memory_id
    services.memories.pin(city)
    [moved, _move] = process(services, "Actually, I moved to Porto last month.")
    assert moved.action == "superseded" and moved.replaced_id == city
    assert services.memories.require(moved.memory_id).pinned
    assert any("peanuts" in m.content for m in services.memories.list_items())


def test_an_old_statement_imported_late_does_not_overwrite_a_newer_one(tmp_path):
    services = fake_services(tmp_path)
    [oslo] = process(services, "I live in Oslo.", now=2000.0)
    [lisbon] = process(services, "I live in Lisbon.", now=1000.0)
    assert services.memories.require(oslo.memory_id).status == "active"
    old = services.memories.require(lisbon.memory_id)
    assert old.status == "superseded" and old.superseded_by == oslo.memory_id
    assert "history" in lisbon.reason


def test_doubt_waits_as_pending_and_requests_are_not_memories(tmp_path):
    services = fake_services(tmp_path)
    process(services, "I live in Lisbon.")
    [maybe] = process(services, "Maybe I live in Berlin now, I'm not sure.")
    assert maybe.action == "pending"
    assert process(services, "Tell me a joke.") == []
    assert process(services, "Line one of my note") == []


def test_forget_reaches_superseded_wordings(tmp_path):
    services = fake_services(tmp_path)
    [first] = process(services, "My dog is called Biscuit.")
    services.memories.set_status(first.memory_id, "superseded")
    outcomes = process(services, "Forget what I told you about my dog.")
    assert [(o.action, o.memory_id) for o in outcomes if o.memory_id] == [("deleted", first.memory_id)]


CASES = [json.loads(line) for line in (Path(__file__).parent / "data" / "write_path_cases.jsonl").open(encoding="utf-8")]
"""Natural statements written for the write path (not from the eval): facts to keep, junk to drop,
changes and retirements to apply, forget requests with trailing reasons; EN and ZH."""


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_natural_statements(tmp_path, case):
    services = fake_services(tmp_path)
    for when, earlier in enumerate(case.get("before", []), start=1):
        process(services, earlier, now=1000.0 * when)
    before = {m.id for m in services.memories.list_items()}
    process(services, case["say"], now=100_000.0)
    active = services.memories.list_items()
    shown = [(m.kind, m.attribute, m.content) for m in active]
    if case.get("junk"):
        assert not [m for m in active if m.id not in before], shown
    for want in case.get("keep", []):
        stating = [m for m in active if want["has"] in m.content.lower()]
        assert stating, (want, shown)
        assert any(m.attribute == want.get("slot", m.attribute) and m.kind == want.get("kind", m.kind)
                   for m in stating), (want, shown)
    for old in case.get("gone", []):  # what was said before no longer stands (a retirement may name it)
        assert not [m for m in active if m.id in before and old in m.content.lower()], (old, shown)


def test_birthdays_are_one_per_person(tmp_path):
    """A name or a birthday is single-valued per person: a son's birthday does not replace a wife's."""
    services = fake_services(tmp_path)
    process(services, "My wife Amaia's birthday is 18 May.", now=1000.0)
    process(services, "Our son Bram's birthday is 2 June.", now=2000.0)
    process(services, "我老婆生日是3月5号。", now=3000.0)
    process(services, "下个月乐乐生日。", now=4000.0)
    birthdays = [m for m in services.memories.list_items(statuses=("active", "superseded"))
                 if m.attribute == "birthday"]
    assert len(birthdays) >= 4 and all(m.status == "active" for m in birthdays), [
        (m.status, m.content) for m in birthdays]
    process(services, "Actually, Bram's birthday is 3 June.", now=5000.0)
    bram = [m for m in services.memories.list_items(statuses=("active", "superseded")) if "Bram" in m.content
            and m.attribute == "birthday"]
    assert sorted(m.status for m in bram) == ["active", "superseded"], [(m.status, m.content) for m in bram]


def test_a_birthday_said_again_on_the_day_keeps_the_statement_that_also_gave_her_name(tmp_path):
    services = fake_services(tmp_path)
    process(services, "我媳妇叫李芳，5月18号生日。", now=datetime(2026, 1, 10, 12).timestamp())
    process(services, "昨天媳妇生日，带她去吃了顿日料。", now=datetime(2026, 5, 19, 12).timestamp())
    named = [m for m in services.memories.list_items(statuses=("active", "superseded")) if "李芳" in m.content]
    assert named and all(m.status == "active" for m in named), [(m.status, m.content) for m in named]


def test_a_chinese_story_is_forgotten_in_other_words_and_the_rest_about_the_person_stays(tmp_path):
    services = fake_services(tmp_path)
    process(services, "女儿这学期数学挂了，才六十分。", now=1000.0)
    process(services, "女儿给我织了条围巾，好暖和。", now=2000.0)
    process(services, "上回说我女儿挂科那个事，你别记了，她要面子。", now=3000.0)
    active = [m.content for m in services.memories.list_items(episodes=True)]
    assert not [c for c in active if "六十分" in c], active
    assert [c for c in active if "围巾" in c], active


def test_an_illness_told_as_a_hospital_stay_is_forgotten_as_an_illness(tmp_path):
    """"女儿生病那件事" over "女儿上个月住院了，肺炎": the daughter and a health word, though not 生病 itself."""
    services = fake_services(tmp_path)
    process(services, "我女儿上个月住院了，肺炎。", now=1000.0)
    process(services, "我女儿在学钢琴。", now=2000.0)
    process(services, "把我女儿生病那件事从记忆里去掉。", now=3000.0)
    active = [m.content for m in services.memories.list_items(episodes=True)]
    assert not [c for c in active if "肺炎" in c], active
    assert [c for c in active if "钢琴" in c], "the rest about the daughter stays"


def test_forgetting_a_story_takes_what_names_the_person_and_the_story_only(tmp_path):
    services = fake_services(tmp_path)
    process(services, "Tane's getting made redundant from the sawmill, they told him Tuesday.", now=1000.0)
    process(services, "Tane's birthday is 3 May.", now=2000.0)
    process(services, "Hey can you forget the stuff about Tane losing his job at the sawmill? It's his news to share.",
            now=3000.0)
    active = [m.content for m in services.memories.list_items(episodes=True)]
    assert not [c for c in active if "sawmill" in c], active
    assert [c for c in active if "3 May" in c], "the rest about the person stays"


def test_a_chinese_forget_topic_loses_its_frame(tmp_path):
    services = fake_services(tmp_path)
    process(services, "我表哥又找我借钱了，说是欠了信用卡三万多", now=1000.0)
    process(services, "上次跟你说的我表哥欠钱那个事你就当没听到哈", now=2000.0)
    assert not [m.content for m in services.memories.list_items(episodes=True) if "信用卡" in m.content]


@pytest.mark.parametrize(("text", "slot", "name"), [
    ("Plot twist: I'm seeing someone! His name's Tomasz, we met at uni.", "partner", "Tomasz"),
    ("We got a puppy! Her name is Bella.", "pet", "Bella"),
    ("I have a cat. Her name is Miso.", "pet", "Miso"),
    ("Got a kitten today. We've called her Mabel.", "pet", "Mabel"),
    ("We adopted a rescue greyhound last week! He's called Bolt, a big softie.", "pet", "Bolt"),
])
def test_a_name_given_in_the_next_sentence_names_whom_the_sentence_before_introduced(tmp_path, text, slot, name):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    typed = [m for m in services.memories.list_items() if m.attribute == slot]
    assert typed and name in typed[0].content


def test_a_name_sentence_after_nothing_introduced_is_read_as_it_was_said():
    from memchat.memory.speech import with_next_name
    said = ["My brother lives in Leeds.", "His name is Tom."]
    assert with_next_name(said) == [(s, s) for s in said]  # "my brother" is no one new: the referent rule has him


@pytest.mark.parametrize(("before", "after", "slot", "now"), [
    ("My best friend is Kezia, we've known each other since school.",
     "Kezia and I aren't talking anymore. Honestly my closest friend these days is Ruth.", "best_friend", "Ruth"),
    ("I earn about 34,000 pounds a year.", "Got a raise! I'm on 38k a year now.", "income", "38k"),
])
def test_a_new_value_of_a_single_valued_slot_replaces_the_old_one(tmp_path, before, after, slot, now):
    services = fake_services(tmp_path)
    process(services, before, now=1000.0)
    process(services, after, now=2000.0)
    current = [m.content for m in services.memories.list_items() if m.attribute == slot]
    assert len(current) == 1 and now in current[0]
    assert not [m for m in services.memories.list_items() if "raise" in m.content and m.attribute == "possessions"]


@pytest.mark.parametrize("text", [
    "I was just thinking about how fast this year went.",  # a musing, though it names a time
    "I might go to the gym later, who knows.",  # a maybe for tonight
    "I may pop to the shops this afternoon.",
    "I wish I could speak French.",  # a wish is not a skill
    "I've been thinking about how my week went.",
])
def test_musings_maybes_and_wishes_make_no_typed_memory(tmp_path, text):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    assert not [m.content for m in services.memories.list_items()]


@pytest.mark.parametrize(("text", "kept"), [
    ("I might be moving to Berlin next year.", "Berlin"),  # a maybe about a life change is kept (hedged)
    ("I speak French and Italian.", "French"),
])
def test_a_hedged_life_change_and_a_plain_skill_are_kept(tmp_path, text, kept):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    assert [m.content for m in services.memories.list_items() if kept in m.content]


@pytest.mark.parametrize(("text", "stored"), [
    ("Been vegetarian for about ten years now.", "The user has been vegetarian for about ten years now."),
    ("Work-wise I'm a paramedic with the ambulance service.", "The user is a paramedic with the ambulance service."),
    ("Me and my wife have two dogs, both rescues.", "The user's wife and the user have two dogs, both rescues."),
    ("Lactose intolerant here, so no dairy for me.", "The user is lactose intolerant, so no dairy for the user."),
    ("Runner here, training for my first ultra.", "The user is a runner, training for their first ultra."),
    ("Huge Liverpool fan since I was a kid.", "The user is a huge Liverpool fan since the user was a kid."),
    ("Fluent in Polish, my parents are from Kraków.", "The user is fluent in Polish."),
    ("My go-to coffee order is a flat white.", "The user's go-to coffee order is a flat white."),
    ("Sam and I live in Leeds.", "Sam and the user live in Leeds."),
    ("本人在深圳做程序员。", "用户在深圳做程序员。"),
    ("Born in Leeds in 1985.", "The user was born in Leeds in 1985."),
    ("I freelance as a graphic designer.", "The user freelances as a graphic designer."),
    ("I'm employed by the county council as a planning officer.",
     "The user is employed by the county council as a planning officer."),
    ("I'm in insurance, mostly claims.", "The user is in insurance, mostly claims."),
    ("im a junior UX researcher at Kwartel, its a fintech startup", "The user is a junior UX researcher at Kwartel, it's a fintech startup."),
    ("I've worked at the same call centre for six years.", "The user has worked at the same call centre for six years."),
    ("A lad at work called Ryan invited me to his wedding.", "A lad at work called Ryan invited the user to his wedding."),
    ("还有点痛风，海鲜啤酒都得少碰。", "还有点痛风，海鲜啤酒都得少碰。"),
])
def test_a_fact_said_the_way_chat_says_it_is_kept_as_a_sentence(tmp_path, text, stored):
    """Chat drops "I'm" ("Runner here", "Fluent in Polish"), opens with a label ("Work-wise"), puts "me" first
    ("Me and my wife…") and calls itself 本人: each still a fact about the user, kept in one readable sentence. Work is
    said in many ways (a field, a freelance trade, a title of several words); 还有点… is "still has a bit of", not
    the opener 还有 ("also")."""
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    assert stored in [m.content for m in services.memories.list_items()]


@pytest.mark.parametrize(("hometown", "move", "kept"), [
    ("I'm originally from Glasgow.", "We moved to Bristol last month.", "Glasgow"),
    ("我老家是绵阳的。", "这周末搬去杭州。", "绵阳"),
    ("I grew up in Aberdeen.", "I live in Leeds now.", "Aberdeen"),
])
def test_where_the_user_is_from_outlives_a_move(tmp_path, hometown, move, kept):
    """Where one is from is its own slot: moving house changes where one lives, not where one grew up."""
    services = fake_services(tmp_path)
    process(services, hometown, now=1000.0)
    process(services, move, now=90_000.0)
    typed = services.memories.list_items()
    assert [m for m in typed if kept in m.content and m.attribute == "hometown" and m.status == "active"], typed


def test_a_from_and_a_but_clause_are_two_facts(tmp_path):
    services = fake_services(tmp_path)
    process(services, "I'm from Leeds but live in York now.", now=1000.0)
    slots = {m.attribute: m.content for m in services.memories.list_items()}
    assert slots.get("hometown") == "The user is from Leeds." and slots.get("home") == "The user lives in York now."


@pytest.mark.parametrize(("earlier", "later", "old", "new"), [
    # a new manager named after a clause about the old one ("X's gone …, so Y is covering"), with a comment
    # on Y at the end whose doubt is about Y, not about the fact
    ("My manager is called Priya.", "Priya's gone on maternity leave so Tom is covering as my manager till next year, "
     "he's fine I guess.", "Priya", "Tom is covering as the user's manager"),
    # a role said with an adverb between "I'm" and it, behind a "news from me" opener
    ("I'm a nurse at St Thomas'.", "big news from me, I passed my exams so I'm officially a nurse practitioner now",
     "nurse at St Thomas'", "nurse practitioner"),
    # a diet resumed, and a state with its "I'm" dropped after "so"
    ("I'm vegetarian.", "I started eating fish again, my doctor said I needed more protein, so pescatarian now I suppose",
     "vegetarian", "The user is pescatarian now."),
    # what one does these days with "I'm" dropped; ", so no more X" ends X
    ("I commute by train, about an hour each way.", "Working from home full time now, so no more train!",
     "commutes by train", "The user is working from home full time now."),
    # a value said as the one of now (现在 opens the clause) replaces the earlier value it names
    ("周末喜欢去嘉陵江边钓鱼。", "钓鱼现在去锦江边上，没嘉陵江鱼多。", "周末喜欢去嘉陵江边钓鱼", "锦江"),
    # "we live in…" is a home, and a house bought elsewhere replaces it
    ("我们住金牛区茶店子，租的房子，住了八年了", "决定在犀浦买个二手房，两室一厅，下个月过户。", "茶店子", "犀浦"),
])
def test_updates_said_the_way_chat_says_them(tmp_path, earlier, later, old, new):
    services = fake_services(tmp_path)
    process(services, earlier, now=1000.0)
    process(services, later, now=2000.0)
    active = [m.content for m in services.memories.list_items(statuses=("active",))]
    assert any(new in c for c in active), active
    assert not any(old in c and new not in c for c in active), active


@pytest.mark.parametrize(("text", "kept"), [
    ("Working from home is great.", None),  # a gerund that is the subject: nothing said of oneself
    ("Living in Leeds with my sister at the moment.", "The user is living in Leeds"),
    ("Single again since March, honestly it's fine.", "The user is single again since March"),
])
def test_what_one_is_doing_these_days_with_the_subject_dropped(tmp_path, text, kept):
    from memchat.memory.speech import split_clauses
    clauses = split_clauses(text)
    if kept is None:
        assert not clauses[0].startswith("I'm")
    else:
        services = fake_services(tmp_path)
        process(services, text)
        assert any(kept in m.content for m in services.memories.list_items(statuses=("active",)))


def test_now_in_a_later_clause_replaces_nothing_it_does_not_name(tmp_path):
    """"所以我现在每周三晚上去游泳，医生说…" names no earlier value: the diagnosis before it stays."""
    services = fake_services(tmp_path)
    process(services, "最近腰疼得厉害，去医院看了，说是腰椎间盘突出，让我别久坐。", now=1000.0)
    process(services, "所以我现在每周三晚上去游泳，医生说练练核心有好处。", now=2000.0)
    active = [m.content for m in services.memories.list_items(statuses=("active",))]
    assert any("腰椎间盘突出" in c for c in active), active


@pytest.mark.parametrize(("text", "kept"), [
    # a self-introduction before a clause of its own: the name and the home are two facts
    ("Hi, I'm Lotte, I live in Ghent and teach maths.", ["The user is Lotte.", "The user lives in Ghent."]),
    ("I'm Ravi, I work as a nurse in Leeds.", ["The user is Ravi.", "The user works as a nurse in Leeds."]),
])
def test_an_introduction_and_what_follows_are_kept_apart(tmp_path, text, kept):
    services = fake_services(tmp_path)
    process(services, text)
    active = [m.content for m in services.memories.list_items(statuses=("active",))]
    assert all(k in active for k in kept), active


def test_now_before_a_so_is_still_a_change():
    """"I'm vegan now, so no eggs or cheese": the change is said, and then what follows from it."""
    from memchat.memory.distill import is_change
    assert is_change("I'm vegan now, so no eggs or cheese.")
    assert is_change("I'm vegan now.")
    assert not is_change("I'm vegan, so no eggs or cheese.")


@pytest.mark.parametrize(("earlier", "later", "owned", "gone"), [
    # a new phone said with its maker, after the old one is mourned
    ("I've got an iPhone 11.", "RIP my phone, it went through the washing machine. Ended up with a Samsung Galaxy A54, "
     "it's fine.", "Galaxy A54", "iPhone 11"),
    ("My phone is a Pixel 6.", "Treated myself to a Sony Xperia 10 last weekend.", "Xperia 10", "Pixel 6"),
    # a vehicle hired or borrowed for a while is not the one the user has
    ("I drive a Skoda Fabia.", "We hired a campervan for the weekend on Skye, it was amazing.", "Skoda Fabia", None),
    ("I drive a Skoda Fabia.", "Borrowed my brother's Land Rover for the move on Saturday.", "Skoda Fabia", None),
])
def test_what_the_user_has_now_and_what_they_only_used(tmp_path, earlier, later, owned, gone):
    services = fake_services(tmp_path)
    process(services, earlier, now=1000.0)
    process(services, later, now=2000.0)
    facts = [m for m in services.memories.list_items(statuses=("active",)) if m.kind == "fact"]
    assert any(owned in m.content for m in facts), [m.content for m in facts]
    if gone:
        assert not any(gone in m.content for m in facts), [m.content for m in facts]
    assert not any("the user to" in m.content for m in facts)  # "treated themselves", not "treated the user"


@pytest.mark.parametrize(("text", "slot"), [
    ("上周六搬家了，搬到城西，离新公司很近。", "home"),  # near the office: where one lives, not who employs one
    ("现在住公司附近。", "home"),
    ("我在腾讯公司上班。", "employer"),
])
def test_near_the_office_is_a_place_to_live(text, slot):
    from memchat.memory.slots import slot_of
    assert slot_of(text).name == slot


def test_when_a_thing_ended_is_no_name_of_it():
    """"上个月把电瓶车卖了" ends the e-bike, not whatever else happened 上个月."""
    from memchat.memory.endings import retired_terms
    assert not {"上个", "个月"} & retired_terms("上个月把电瓶车卖了")
    assert "yesterday" not in retired_terms("I quit my job yesterday")


@pytest.mark.parametrize(("text", "ended"), [
    ("Callum's packed in the football altogether, he says it's too shouty.", {"football"}),  # who stopped is no thing
    ("Maria has quit the choir.", {"choir"}),
    ("Gillian has left.", {"gillian"}),  # alone, who left is what ended: her place in the user's life
    ("Dan and I broke up.", {"dan"}),
])
def test_who_stopped_something_is_not_what_ended(text, ended):
    """Held-out set I (round 20): "Callum's packed in the football" made "The kids are Callum, who's nine, and Isla"
    an earlier value for "What are my children called?"."""
    from memchat.memory.distill import RETIRING_ACT
    from memchat.memory.endings import retired_terms
    terms = retired_terms(text, RETIRING_ACT)
    assert ended <= terms and not {"altogether", "callum", "maria"} & terms, terms


@pytest.mark.parametrize(("text", "slot"), [
    ("I was working at the library all afternoon on my essay.", None),  # where one was today: no employer
    ("我们住的酒店离海边很近。", None),  # a hotel stayed in: no home
    ("我住了三天酒店。", None),
])
def test_where_one_was_for_a_while_is_no_slot(text, slot):
    from memchat.memory.slots import slot_of
    found = slot_of(text)
    assert (found.name if found else None) == slot


def test_ripping_a_carpet_ends_nothing_and_chatter_before_a_statement_is_no_question():
    from memchat.memory.distill import is_retirement
    from memchat.memory.rules import is_question
    from memchat.memory.speech import split_clauses
    assert not is_retirement("I want to rip the carpet up.") and is_retirement("RIP my phone, it drowned.")
    assert not is_question("Oh and will be in Manchester from Monday for a new job.")
    assert not is_question("So is my sister, she's a nurse.")
    assert split_clauses("Driving in the snow terrifies me.") == ["Driving in the snow terrifies me."]


def test_a_run_of_spaces_costs_the_clause_split_nothing(monkeypatch):
    """A paste with a thousand spaces in it took the clause breaks 9 s (their patterns backtrack over the run):
    the clause breaks are looked for in the sentence with its spaces collapsed, and the clauses are the same."""
    from memchat.memory import speech
    seen = []
    original = speech._clause_parts
    monkeypatch.setattr(speech, "_clause_parts", lambda sentence: seen.append(sentence) or original(sentence))
    assert speech.split_clauses("I live in Leeds" + " " * 2000 + "and I work at Tesco") == ["I live in Leeds",
                                                                                         "I work at Tesco"]
    assert seen and all("  " not in sentence for sentence in seen)


@pytest.mark.parametrize(("text", "kept"), [
    # a relative described by what they do as a rule, with "my" or said bare as a name
    ("My wife teaches maths at a secondary school.", "maths"),
    ("Mum runs a flower shop in Harrogate.", "flower shop"),
    ("The wife works nights at the hospital.", "hospital"),
    ("Dad's a plumber, been doing it 30 years.", "plumber"),
    ("My partner designs kitchens for a living.", "kitchens"),
    ("new boss is called dave", "dave"),  # a boss said bare, new or not, is the user's too
    # a family rundown: each relative's clause is that relative's
    ("My folks are in Leeds, dad's a retired miner and mum teaches piano.", "piano"),
    ("My folks are in Leeds, dad's a retired miner and mum teaches piano.", "Leeds"),
])
def test_what_a_relative_does_is_theirs_and_the_users_own_slots_stay(tmp_path, text, kept):
    services = fake_services(tmp_path)
    for own in ("I work as a bus driver in Cardiff.", "I live in Cardiff.", "I work from home on Fridays."):
        process(services, own, now=1000.0)
    process(services, text, now=2000.0)
    active = [m for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]
    assert any(kept in m.content and m.kind == "relation" for m in active), [(m.kind, m.content) for m in active]
    users = [m.content for m in active if m.subject == "user" and m.kind != "relation"]
    assert {"The user works as a bus driver in Cardiff.", "The user lives in Cardiff.",
            "The user works from home on Fridays."} <= set(users), users


@pytest.mark.parametrize("text", ["Mum says hi.", "Dad jokes are the worst.", "Sam is vegan."])
def test_a_relative_only_mentioned_or_someone_elses_diet_is_not_the_users(tmp_path, text):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    assert not [m for m in services.memories.list_items(statuses=("active",))
                if not m.is_episode and m.subject == "user" and m.kind != "relation"]


def test_a_users_slot_said_of_a_relative_is_the_relatives_unless_it_is_done_to_the_user():
    from memchat.memory.distill import guess_key
    assert guess_key("I work nights.") == ("user", "work_pattern", "fact")
    assert guess_key("My wife works nights.") == ("user", "partner", "relation")
    assert guess_key("My wife got me working nights.")[1] == "work_pattern"


@pytest.mark.parametrize(("earlier", "later", "kept", "gone"), [
    # a new pastime, a new language, a pastime taken up again: added beside what the user does
    ("I play five-a-side football on Thursdays.", "I started running again, 5k three times a week.",
     ["football", "running"], []),
    ("I speak French fluently.", "I'm now learning Japanese on Duolingo.", ["French", "Japanese"], []),
    ("I go swimming on Sunday mornings.", "Back to climbing after my shoulder injury, twice a week at the wall.",
     ["swimming", "climbing"], []),
    # a switch puts the new value in the latest one's place, named or not
    ("I do yoga on Mondays.", "Switched from yoga to pilates this month.", ["pilates"], ["yoga on Mondays"]),
    ("I'm pescatarian.", "I've gone fully vegetarian.", ["vegetarian"], ["pescatarian"]),
    ("I'm vegan, have been for years.", "Going keto, doctor's orders.", ["keto"], ["vegan"]),
    ("I'm vegetarian.", "I went pescatarian over the summer.", ["pescatarian"], ["vegetarian"]),
])
def test_in_a_many_valued_slot_only_a_switch_replaces_what_it_does_not_name(tmp_path, earlier, later, kept, gone):
    services = fake_services(tmp_path)
    process(services, earlier, now=1000.0)
    process(services, later, now=2000.0)
    active = " | ".join(m.content for m in services.memories.list_items(statuses=("active",))
                        if not m.is_episode and m.kind != "event")
    assert all(k in active for k in kept) and not any(g in active for g in gone), active


@pytest.mark.parametrize("text", ["Play me something cheerful please", "go ahead and do it", "Drive safe!",
                                  "Do it for me?"])
def test_a_request_with_its_subject_dropped_is_not_the_users_doing(text):
    from memchat.memory.speech import split_clauses
    assert not any(c.startswith("I ") for c in split_clauses(text))


@pytest.mark.parametrize(("messages", "has", "slot"), [
    # texting: the subject and "my" dropped, chat spellings, a trade by its nickname
    (["drive a corsa"], "corsa", "vehicle"),
    (["gf is called maya"], "maya", "partner"),
    (["bday is 3 march"], "3 march", "birthday"),
    (["learning spanish on duo"], "spanish", "language"),
    (["new job at tesco, start monday"], "tesco", "employer"),
    (["im a sparky, self employed"], "sparky", "job"),
    (["live w my sister in hackney"], "hackney", "home"),
    (["I live with my sister in Hackney."], "Hackney", "home"),
    (["doing a masters in stats at ucl"], "stats", "study"),
    # where one lives, said other ways
    (["My nani stays in Lucknow with my mamu."], "Lucknow", None),
    (["We shifted to Pune last month."], "Pune", "home"),
    (["Found a flat in Clifton, moving next week."], "Clifton", "home"),
    # work said without "I" or without a verb
    (["I go to office by metro, takes 40 mins."], "metro", "commute"),
    (["Company is Nimbus Analytics, office is in Whitefield."], "Nimbus", "employer"),
    (["kitchen porter at the Red Lion in Frome."], "kitchen porter", "job"),
    (["team lead is ines, she's sound"], "ines", "manager"),
    (["Joining Aviva as an analyst in March."], "Aviva", None),
    # other slots, other forms
    (["Renamed the hamster Pickle."], "Pickle", "pet"),
    (["I grew up speaking Tamil and English."], "Tamil", "language"),
    (["Started 5-a-side on Wednesdays."], "5-a-side", "sport"),
    (["Celtic fan myself."], "Celtic", None),
    (["no walls of text pls, 4 lines max"], "lines", "reply_style"),
    # "<Name>'s my husband" names whom the next sentence's "his" is
    (["Dmitri's my husband. His birthday is 3 March."], "3 March", "birthday"),
])
def test_facts_in_texting_regional_verbless_and_named_first_shapes(tmp_path, messages, has, slot):
    services = fake_services(tmp_path)
    for day, text in enumerate(messages, start=1):
        process(services, text, now=day * 1000.0)
    typed = [(m.attribute, m.content) for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]
    assert any(has in content and (slot is None or attribute == slot) for attribute, content in typed), typed


def test_a_statement_about_the_boss_keeps_the_boss_named_by_title(tmp_path):
    """'He's been a vet for 30 years' describes the boss just named; with the title cut off ("The user's boss Dr has
    been…") it read as a new manager and retired the one the user named."""
    services = fake_services(tmp_path)
    process(services, "My boss is Dr. Marat Seitkali. He's been a vet for 30 years.", now=1000.0)
    managers = [m for m in services.memories.list_items(statuses=("active",)) if m.attribute == "manager"]
    assert any("Marat Seitkali" in m.content for m in managers), [m.content for m in managers]
    assert all("boss Dr has" not in m.content for m in managers)


@pytest.mark.parametrize(("text", "has", "whose"), [
    ("My sister lives in Leeds. She's a nurse.", "sister is a nurse", "sister"),
    ("mum's birthday 2 october. she loves gardening", "mum loves gardening", "mum"),
    ("My dad retired last year. He's 67 and he loves golf.", "dad is 67", "dad"),
])
def test_what_is_said_of_an_unnamed_relative_after_a_pronoun_is_stored_as_theirs(tmp_path, text, has, whose):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    typed = [m.content for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]
    assert any(has in c for c in typed), typed
    assert not any(re.match(r"(?:she|he)\b", c, re.IGNORECASE) for c in typed), typed


def test_a_fact_told_before_a_question_in_one_sentence_is_kept_and_the_question_is_not(tmp_path):
    services = fake_services(tmp_path)
    process(services, "We're moving to Porto in March, so how much should we budget for the flat?", now=1000.0)
    typed = [m.content for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]
    assert any("Porto" in c for c in typed), typed
    assert not any("budget" in c for c in typed), typed


@pytest.mark.parametrize(("earlier", "later", "slot"), [
    ("I live in Leeds.", "My landlord lives in Spain.", "home"),
    ("I drive a Corsa.", "My accountant drives a Tesla.", "vehicle"),
    ("Keep your answers short please.", "My dispatcher is a lady named Tonya who actually answers her phone.",
     "reply_style"),
])
def test_someone_known_by_their_role_does_not_fill_the_users_own_slot(tmp_path, earlier, later, slot):
    """'My landlord lives in Spain' is the landlord's home: read as the user's, it retired where the user lives."""
    services = fake_services(tmp_path)
    process(services, earlier, now=1000.0)
    process(services, later, now=2000.0)
    own = [m for m in services.memories.list_items(statuses=("active",)) if m.attribute == slot and m.subject == "user"]
    assert any(w in m.content for m in own for w in ("Leeds", "Corsa", "short")), "the user's own value stays active"
    assert all(not any(w in m.content for w in ("Spain", "Tesla", "Tonya")) for m in own), [m.content for m in own]


def test_what_is_said_of_the_partners_children_keeps_the_partner(tmp_path):
    """"Her two, Mia and Lachie, are 16 and 14" after "my partner Jess is a paramedic": Jess's children, read as a new
    partner named Lachie, retired Jess (held-out set J, round 22)."""
    services = fake_services(tmp_path)
    process(services, "My partner Jess is a paramedic with QAS so she's on shift work. Her two, Mia and Lachie, are "
                      "16 and 14 and they're with us week on week off.", now=1000.0)
    partners = [m.content for m in services.memories.list_items(statuses=("active",)) if m.attribute == "partner"]
    assert any("paramedic" in c for c in partners), partners


@pytest.mark.parametrize("text", ["Driver at the depot was rude.", "Dinner at 8 tonight?", "Water in the basement again."])
def test_a_role_doing_something_or_a_thing_at_a_place_is_not_the_users_job(tmp_path, text):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    assert not [m for m in services.memories.list_items(statuses=("active",)) if m.attribute == "job"]


@pytest.mark.parametrize(("text", "has", "day"), [
    # a day cut short after a word that names one, "yday"
    ("Got a dentist appointment next tues.", "dentist", "2026-03-03"),
    ("tom got his results yday, straight As", "results", "2026-03-01"),
])
def test_short_day_names_date_what_happened(tmp_path, text, has, day):
    services = fake_services(tmp_path)
    process(services, text, now=datetime(2026, 3, 2, 10).timestamp())
    dated = [datetime.fromtimestamp(m.event_at).strftime("%Y-%m-%d") for m in services.memories.list_items(statuses=("active",))
             if not m.is_episode and has in m.content and m.event_at]
    assert day in dated, dated


def test_a_short_day_is_read_only_after_a_word_that_names_a_day():
    from memchat.memory.speech import normalise
    assert normalise("gym every mon and weds") == "gym every Monday and Wednesday"
    assert normalise("sat on the sofa all day") == "sat on the sofa all day"
    assert normalise("I was on sat nav duty") == "I was on sat nav duty"


def test_an_appointment_got_is_no_possession_and_an_accented_name_does_things(tmp_path):
    services = fake_services(tmp_path)
    process(services, "Got a dentist appointment next tues.", now=1000.0)
    process(services, "Zoë got engaged on Saturday!", now=2000.0)
    typed = [(m.attribute, m.content) for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]
    assert not any(attribute == "possessions" for attribute, _ in typed), typed
    assert any("Zoë got engaged" in content for _, content in typed), typed


def test_a_chat_abbreviation_before_a_full_stop_ends_the_sentence():
    from memchat.memory.segment import split_sentences
    assert split_sentences("got the keys today btw. need ideas for a housewarming") == [
        "got the keys today btw.", "need ideas for a housewarming"]
    assert split_sentences("In Sept. the kids go back to school.") == ["In Sept. the kids go back to school."]


@pytest.mark.parametrize(("text", "phone"), [
    ("I set this app up on my phone last night.", False),  # the phone used, not which one it is
    ("My phone charger is broken again.", False),
    ("My phone is a Pixel 7.", True),
])
def test_the_phone_is_what_the_user_says_of_it_not_what_they_did_on_it(tmp_path, text, phone):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    assert any(m.attribute == "phone" for m in services.memories.list_items(statuses=("active",))) is phone


@pytest.mark.parametrize(("text", "stored"), [
    ("Change of plan for answers — just one short paragraph please.", "paragraph"),
    ("New plan for replies - bullet points only.", "bullet points"),
])
def test_a_label_before_a_dash_is_no_memory_of_its_own(tmp_path, text, stored):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    typed = [m.content for m in services.memories.list_items(statuses=("active", "superseded")) if not m.is_episode]
    assert len(typed) == 1 and stored in typed[0], typed


@pytest.mark.parametrize(("said", "gone", "kept"), [
    # endings in other words: a course dropped, a last shift, an object said first
    (["I do pottery on Tuesday evenings.", "I've dropped my evening pottery course, too pricey."], "pottery on Tuesday", None),
    (["I work as a barista at Grindhouse.", "Final shift at Grindhouse is Friday, then I'm free!"], "barista at Grindhouse",
     None),
    # a rename is a change of the pet's name; "these days" a change of diet
    (["We have a tortoise called Speedy.", "Renamed the tortoise Pebble, the kids insisted."], "called Speedy", "Pebble"),
    (["doing paleo rn", "eating mostly veggie these days"], "paleo", "veggie"),
    (["My boss is Gwen.", "New gaffer on our floor is Marcus."], "boss is Gwen", "Marcus"),
    # a laptop that retired itself retires no one
    (["I work as a nurse.", "My old laptop finally retired itself."], None, "nurse"),
])
def test_endings_renames_and_new_bosses_in_other_words(tmp_path, said, gone, kept):
    services = fake_services(tmp_path)
    for day, text in enumerate(said, start=1):
        process(services, text, now=day * 1000.0)
    active = " | ".join(m.content for m in services.memories.list_items(statuses=("active",))
                        if not m.is_episode and m.kind != "event")
    assert (gone is None or gone not in active) and (kept is None or kept in active), active


def test_what_a_retirement_names_is_looked_up_as_index_terms():
    """'Grindhouse' is indexed as 'grindhous'; looked up as a query it was stemmed again ('grindhou') and missed."""
    from memchat.memory.terms import query_terms, search_terms
    assert search_terms("Grindhouse") == ["grindhous"] and query_terms("grindhous") != ["grindhous"]


def test_what_happened_to_the_manager_names_no_new_one(tmp_path):
    services = fake_services(tmp_path)
    process(services, "My manager is Harriet.", now=1000.0)
    process(services, "Harriet's farewell lunch was on Friday at the Anchor.", now=2000.0)
    managers = [m.content for m in services.memories.list_items(statuses=("active",)) if m.attribute == "manager"]
    assert managers == ["The user's manager is Harriet."], managers
    process(services, "My new manager Marcus started on Monday.", now=3000.0)
    managers = [m.content for m in services.memories.list_items(statuses=("active",)) if m.attribute == "manager"]
    assert len(managers) == 1 and "Marcus" in managers[0], managers


def test_the_heart_of_town_is_no_health_and_a_street_is_a_home(tmp_path):
    services = fake_services(tmp_path)
    process(services, "I live on Elm Road in Ashby, right in the heart of town.", now=1000.0)
    slots = [m.attribute for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]
    assert slots == ["home"], slots


def test_the_month_an_ending_happened_in_is_not_what_ended():
    from memchat.memory.endings import retired_terms
    assert retired_terms("Rafa and I split up in May") == {"rafa"}
    assert retired_terms("no more Tuesday yoga") == {"tuesday", "yoga"}


@pytest.mark.parametrize(("said", "kept"), [
    # found in review: endings, roles and "my" dropped that were someone else's or nothing at all
    (["I work at Tesco.", "Last week at work was absolutely mental."], "Tesco"),
    (["I go swimming every Tuesday.", "Dropped the kids at swimming lessons."], "swimming every Tuesday"),
    (["I play five-a-side football.", "Final day at the football tournament tomorrow!"], "five-a-side"),
    (["I work as a teacher.", "Plumber from the council fixed the leak today."], "teacher"),
    (["My manager is Harriet.", "Went to Pizza Express last night. Manager was really rude to us."], "Harriet"),
    (["My birthday is 3 June.", "Went to Tom's party. Birthday was on the Saturday, it was great."], "3 June"),
    (["My birthday is 3 June.", "Birthday was lovely, thanks for asking."], "3 June"),  # how it went: no date
    (["My birthday is 19 March.", "My birthday's the 19th, remember."], "19 March"),  # the same day, month left out
    (["My late dad's birthday was March 3rd."], "March 3rd"),  # a date, not how the day went
    (["I'm doing a masters in stats at UCL.", "Taking my ma to the hospital on Friday."], "masters"),
    (["I'm doing a PhD in chemistry.", "I read comics at lunch most days."], "PhD"),
    (["My daughter Ella is in year 4 at Oakfield.", "I don't want my daughter kept back a year at school."], "Ella"),
    (["I drive a Ford Fiesta.", "The Fiesta broke down again. Forget it, I will get the bus."], "Fiesta"),
    (["I make my nan's halloumi salad every Sunday.",
      "Fry the halloumi for two minutes each side. Toss it off the heat and squeeze over lemon."], "halloumi salad"),
])
def test_what_someone_else_did_or_a_change_of_mind_takes_nothing_of_the_users(tmp_path, said, kept):
    services = fake_services(tmp_path)
    for day, text in enumerate(said, start=1):
        process(services, text, now=day * 1000.0)
    active = [m.content for m in services.memories.list_items(statuses=("active",)) if not m.is_episode and m.kind != "event"]
    assert any(kept in a for a in active), active


@pytest.mark.parametrize("text", ["New puppy next door keeps barking", "Boss fights in Elden Ring are brutal",
                                  "Kids clothes are so expensive", "Sing happy birthday to my mum in the message.",
                                  "Run through the plan again.", "Climb the ladder at work faster: tips.",
                                  "Matched with a guy on Hinge. Josh, 31, teacher in Leeds."])
def test_a_thing_someone_else_has_or_a_request_is_no_fact_of_the_users(tmp_path, text):
    services = fake_services(tmp_path)
    process(services, text, now=1000.0)
    assert not [m for m in services.memories.list_items(statuses=("active",))
                if not m.is_episode and m.subject == "user" and m.kind == "fact"]


def test_a_retirement_ends_nothing_its_own_message_said(tmp_path):
    """Found on held-out set D: "…I cycle to work now, so no more buses" retired the cycling it had just stated."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process("I take the bus to work, it crawls.", session_id=None, message_id=None, now=1000.0)
    services.writer.process("Since the move I cycle to work along the towpath, so no more buses for me.",
                            session_id=None, message_id=None, now=2000.0)
    typed = {m.content: m.status for m in services.memories.list_items(statuses=("active", "superseded"))
             if not m.is_episode and m.attribute == "commute"}
    assert any("cycles" in c and s == "active" for c, s in typed.items()), typed
    buses = [s for c, s in typed.items() if "bus to work" in c]
    assert buses and all(s == "superseded" for s in buses), typed


@pytest.mark.parametrize(("before", "after", "active", "gone"), [
    ("My manager is Colm Reilly, he's decent.", "Anyway. New manager!", "Colm Reilly", None),
    ("I'm vegan.", "Vegetarian now.", "vegetarian", "vegan"),
    ("My boss is Dev.", "New boss today, Priya.", "Priya", "Dev"),
])
def test_a_statement_that_names_no_value_replaces_none(tmp_path, before, after, active, gone):
    """Found on held-out set D by a helper: "New manager!" superseded the manager named before it."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process(before, session_id=None, message_id=None, now=1000.0)
    services.writer.process(after, session_id=None, message_id=None, now=2000.0)
    current = [m.content for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]
    assert any(active in c for c in current), current
    assert gone is None or not any(re.search(rf"\b{gone}\b", c) for c in current), current


@pytest.mark.parametrize(("before", "ended"), [
    ("I do Kathak every Sunday morning.", "Kathak I have stopped. No time."),
    ("I go to pilates on Fridays with Bea.", "Pilates I've quit."),
    ("I sing in the Hafod community choir.", "Choir I gave up."),
])
def test_a_short_ending_that_names_its_thing_first_is_kept_and_ends_it(tmp_path, before, ended):
    """"Kathak I have stopped.": two words beside the act, and the thing said before it. Found on held-out set C,
    where it was kept nowhere, so "Am I still doing Kathak?" found only the Sunday class."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process(before, session_id=None, message_id=None, now=1000.0)
    services.writer.process(ended, session_id=None, message_id=None, now=2000.0)
    thing = ended.split()[0].strip("?")
    said = [m for m in services.memories.list_items(episodes=True) if m.is_episode and thing in m.content]
    assert any(ended.split(".")[0].split("?")[0] in m.content for m in said), "the ending is kept"
    recalled = services.recaller.recall(f"Do I still do {thing.lower()}?", token_limit=400,
                                        count_tokens=services.engine.count, touch=False).candidates
    first = [c for c in recalled if c.memory.status == "active" and before[:12] in c.memory.content]
    assert first and all(not c.selected for c in first), [(c.memory.content, c.reason) for c in recalled]


@pytest.mark.parametrize("text", ["The bus stopped.", "We stopped.", "ok stopped", "Then I stopped.", "Eventually we stopped.",
                                  "Honestly I stopped."])
def test_a_stop_with_no_thing_is_no_content(text):
    from memchat.memory.episodes import has_content
    assert not has_content(text)


@pytest.mark.parametrize(("text", "kept"), [
    ("比亚迪秦 🚗", True), ("offer拿到了，快手的 🎉", True), ("养了只柯基 🐶", True),  # terse Chinese: a make, an employer
    ("好累今天加班", False), ("哈哈哈笑死我了", False), ("今天好开心", False), ("嗯嗯好的谢谢", False),
])
def test_four_characters_of_chinese_beyond_talk_are_content(text, kept):
    """Held-out set I (round 20): a terse texter's "昨天提车了！比亚迪秦 🚗" lost the make, and "offer拿到了，快手的" made
    no episode at all: four characters are two words, and a Latin word counts."""
    from memchat.memory.episodes import has_content
    assert has_content(text) is kept


def test_how_long_something_has_been_is_no_change_and_a_shared_little_word_replaces_nothing(tmp_path):
    """"my sister orla is in toronto, shes a pharmacist over there, 12 years now" says how long, not that something
    changed; and it shares only "over" with "blood pressure 150 over 95": the health fact stays (held-out set H,
    round 19)."""
    from memchat.memory.distill import is_change
    assert not is_change("shes a pharmacist over there, 12 years now.")
    assert not is_change("I've been vegan for ages now.")
    assert is_change("I cycle to work now.")
    services = fake_services(tmp_path)
    services.writer.process("went to the gp on tuesday and my blood pressure is high, 150 over 95, shes put me on ramipril.",
                            session_id=None, message_id=None, now=1000.0)
    services.writer.process("also my sister orla is in toronto, shes a pharmacist over there, 12 years now.",
                            session_id=None, message_id=None, now=2000.0)
    health = [m for m in services.memories.list_items(statuses=("active", "superseded")) if "blood pressure" in m.content]
    assert health and all(m.status == "active" for m in health), [(m.content, m.status) for m in health]



@pytest.mark.parametrize(("news", "kept"), [
    ("GOT THE JOB!! start with esb networks on may 5th.", "esb networks"),
    ("Huge news: we relocated! The new place is in Navan.", "Navan"),
    ("New manager! Nice guy so far.", "New manager"),
])
def test_news_that_names_no_value_is_kept_as_said_not_as_a_fact(tmp_path, news, kept):
    """"The user GOT THE JOB!!" as the user's employer outranked the job itself for "who am I working for now?" and
    replaced the one named before; the message keeps the news in the user's words (held-out set H, round 19)."""
    services = fake_services(tmp_path)
    services.writer.process("I work for Kellegher Electrical in Finglas.", session_id=None, message_id=None, now=1000.0)
    services.writer.process("I live in Drumcondra.", session_id=None, message_id=None, now=1500.0)
    services.writer.process("My manager is Declan.", session_id=None, message_id=None, now=1700.0)
    services.writer.process(news, session_id=None, message_id=None, now=2000.0)
    typed = services.memories.list_items(statuses=("active",))
    assert not any(m.attribute in ("employer", "job", "home", "manager") and m.content.rstrip("!.") in (
        "The user GOT THE JOB", "The user relocated", "New manager", "The user's new manager") for m in typed), typed
    assert any(m.content.startswith(("The user works for Kellegher", "The user work for Kellegher", "The user lives"))
               for m in typed), [m.content for m in typed]
    episodes = services.memories.list_items(statuses=("active",), episodes=True)
    assert any(kept in m.content for m in episodes), [m.content for m in episodes]


def test_news_with_its_value_is_a_fact(tmp_path):
    services = fake_services(tmp_path)
    services.writer.process("got the job!! starting at Deloitte in March", session_id=None, message_id=None, now=2000.0)
    assert any(m.attribute == "employer" and "Deloitte" in m.content
               for m in services.memories.list_items(statuses=("active",)))


def test_terse_chinese_that_leaves_out_its_subject_is_the_users_and_挤死了_ends_nothing(tmp_path):
    """Held-out set I (round 20): a terse texter says "在美团，天天写PRD", "每天挤13号线，挤死了" with no 我; and
    "挤死了" (so crowded) is no death: the commute it states is replaced by the next one, not kept beside it."""
    from memchat.memory.distill import RETIRING_ACT
    from memchat.memory.rules import is_durable_statement
    assert is_durable_statement("在美团，天天写PRD和PPT 😂") and is_durable_statement("每天挤13号线，挤死了")
    assert not is_durable_statement("他在银行上班") and not is_durable_statement("今天下雨了")
    assert not is_durable_statement("小雨在培训机构教英语")  # opens on someone: not the user's
    assert not RETIRING_ACT.search("挤死了") and not RETIRING_ACT.search("累死了") and RETIRING_ACT.search("鹦鹉死了")
    services = fake_services(tmp_path)
    for day, said in enumerate(("在美团，天天写PRD和PPT 😂", "每天挤13号线，挤死了", "现在骑电动车上班，十分钟"), start=1):
        services.writer.process(said, session_id=None, message_id=None, now=day * 86_400.0)
    typed = {m.content: (m.attribute, m.status) for m in services.memories.list_items(statuses=("active", "superseded"))}
    assert typed == {"在美团，天天写PRD和PPT 😂.": ("employer", "active"), "每天挤13号线，挤死了。": ("commute", "superseded"),
                     "现在骑电动车上班，十分钟。": ("commute", "active")}, typed


@pytest.mark.parametrize(("said", "name"), [
    ("hi! i am marta, phd student in chemistry at edinburgh uni", "Marta"),
    ("vikram here, 31, backend dev in blr", "Vikram"),
    ("im raj and i work in pune", "Raj"),
])
def test_a_lowercase_introduction_keeps_the_name(tmp_path, said, name):
    """Set J (round 21): typed all in lowercase, "i am marta, phd student…" stored no name."""
    services = fake_services(tmp_path)
    process(services, said, now=86_400.0)
    names = [m.content for m in services.memories.list_items(statuses=("active",)) if m.attribute == "name"]
    assert any(name in n for n in names), names


@pytest.mark.parametrize("said", ["i am tired, long day", "i am back", "i am polish", "everyone here is lovely"])
def test_a_lowercase_state_is_no_name(said):
    from memchat.memory.speech import capitalise_lowercase_name
    assert capitalise_lowercase_name(said) == said


def test_parting_from_a_partner_named_in_lower_case_retires_what_was_said_of_them(tmp_path):
    services = fake_services(tmp_path)
    services.writer.process("gf ola is on nights all week, shes a nurse at the queen elizabeth.", session_id=None,
                            message_id=None, now=1000.0)
    services.writer.process("me and ola split up. on sunday.", session_id=None, message_id=None, now=90_000.0)
    typed = services.memories.list_items(statuses=("active", "superseded"))
    about_ola = [m for m in typed if "nurse" in m.content]
    assert about_ola and all(m.status == "superseded" for m in about_ola)
    assert any(m.status == "active" and "split up" in m.content for m in typed), "the parting is what happened"



@pytest.mark.parametrize("liked, ended", [
    ("我最爱喝喜茶的多肉葡萄。", "跟你说，我最近不喝喜茶了，改喝霸王茶姬的伯牙绝弦，少糖"),
    ("I love Guinness, best pint there is.", "I don't drink Guinness anymore, cider's my thing now."),
])
def test_a_habit_ended_ends_the_liking_it_names_whatever_its_slot(tmp_path, liked, ended):
    services = fake_services(tmp_path)
    services.writer.process(liked, session_id=None, message_id=None, now=1000.0)
    services.writer.process(ended, session_id=None, message_id=None, now=90_000.0)
    [old] = [m for m in services.memories.list_items(statuses=("active", "superseded")) if m.created_at == 1000.0]
    assert old.status == "superseded"


def test_a_habit_ended_leaves_the_likings_it_does_not_name(tmp_path):
    services = fake_services(tmp_path)
    services.writer.process("我不喝咖啡。", session_id=None, message_id=None, now=1000.0)
    services.writer.process("我最爱吃火锅。", session_id=None, message_id=None, now=2000.0)
    services.writer.process("我最近不喝喜茶了", session_id=None, message_id=None, now=3000.0)
    active = [m.content for m in services.memories.list_items()]
    assert any("咖啡" in c for c in active) and any("火锅" in c for c in active), active


@pytest.mark.parametrize(("text", "kept"), [
    ("He agreed to go to rehab!", True), ("She refuses to see anyone.", True), ("He asked me for money.", True),
    ("He's a chef.", True), ("She was surprisingly kind about it.", False), ("he's so embarrassed", False),
    ("She's a mess.", False), ("They loved it.", False),
    # a tie begun or a thing gone, in the fewest words (held-out set S)
    ("jo n me r official now", True), ("van's gone.", True), ("the bike is gone", True),
    ("it's gone quiet", False), ("that's gone well", False),
])
def test_what_someone_just_spoken_of_did_is_content(text, kept):
    """"My dad's drinking… / He agreed to go to rehab!": news of someone in a few words had fewer than three content words
    and no episode, so the story's next message was a fragment ("It's a 30-day place…") that no forget could tie back
    (round 32, dev forget set 3). How they are or seem is no news."""
    from memchat.memory.episodes import has_content
    assert has_content(text) is kept


def test_a_team_that_will_report_to_someone_names_the_new_manager(tmp_path):
    """"From next week our team reports to Farid.": said with a time to come, it was an event and Priya stayed the
    manager (held-out set S, as a helper described its kinds)."""
    services = fake_services(tmp_path)
    services.writer.process("My manager is Priya, she's great.", session_id=None, message_id=None, now=1000.0)
    services.writer.process("From next week our team reports to Farid.", session_id=None, message_id=None, now=2000.0)
    managers = {m.content: m.status for m in services.memories.list_items(statuses=("active", "superseded"))
                if m.attribute == "manager"}
    assert any("Farid" in c and s == "active" for c, s in managers.items()), managers
    assert all(s == "superseded" for c, s in managers.items() if "Priya" in c), managers
