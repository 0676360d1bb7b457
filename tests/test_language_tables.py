"""The language tables (slots, discourse markers, time expressions): each row's example is its test."""

from datetime import datetime

import pytest

from memchat.memory.distill import draft_from_sentence, is_retirement, third_person
from memchat.memory.episodes import episode_windows, time_for
from memchat.memory.query import sub_queries
from memchat.memory.rules import forget_topic, topic_parts
from memchat.memory.segment import split_sentences
from memchat.memory.slots import SLOTS, slot_of, slots_asked
from memchat.memory.speech import (
    normalise,
    referent_of,
    split_clauses,
    strip_markers,
    with_referent,
    without_question_tail,
)
from memchat.memory.timeexpr import TIME_RULES, query_months, resolve_times

MONDAY = datetime(2026, 3, 16, 10, 0).timestamp()


@pytest.mark.parametrize(("slot", "example"), [(s.name, e) for s in SLOTS for e in s.examples])
def test_every_slot_example_is_recognised_as_its_slot(slot, example):
    assert slot_of(example).name == slot


@pytest.mark.parametrize("text", ["I'm a big fan of the vet down the road.", "I'm a friend of the nurse who lives there.",
                                  "I'm in it for the long haul.", "I'm in love with this song.",
                                  "Valentina put me in charge of the Antofagasta route."])
def test_liking_someone_with_a_job_or_being_in_something_is_no_job(text):
    slot = slot_of(text)
    assert slot is None or slot.name != "job"


@pytest.mark.parametrize("text", ["The book club moved to Thursdays at the Crown.",
                                  "My appointment got moved to Friday in Leeds.",
                                  "Choir practice has moved to the church hall in Didsbury."])
def test_a_rescheduled_thing_is_no_new_home(text):
    slot = slot_of(text)
    assert slot is None or slot.name != "home"


@pytest.mark.parametrize(("text", "slot"), [
    ("We met at climbing, of all places.", None), ("I met Sam at the gym.", None),
    ("We met through the running club.", None), ("I go climbing on Sundays.", "hobby"),
    ("I run with a club on Thursdays.", "sport"),
])
def test_where_two_people_met_is_no_pastime(text, slot):
    found = slot_of(text)
    assert (found.name if found else None) == slot


@pytest.mark.parametrize(("text", "slot"), [
    ("I make 15 an hour at the cafe.", "income"), ("我年薪三十万。", "income"), ("My payslip is late again.", None),
    ("I got a raise!", None), ("I got a parking ticket.", None), ("I got a new bike.", "possessions"),
    ("工资条还没发。", None),
])
def test_what_the_user_earns_and_what_they_got(text, slot):
    """Pay is a slot of its own; a raise, a ticket or a payslip is no possession and no pay."""
    found = slot_of(text)
    assert (found.name if found else None) == slot


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
        # a day of the month without its month: the nearest one, before or after by the tense
        ("We finally got the keys on the 9th.", "2026-03-09"),
        ("I went to the dentist on the 23rd", "2026-02-23"),
        ("My op is on the 23rd, fingers crossed", "2026-03-23"),
        ("I'm flying out on the 2nd", "2026-04-02"),
        ("The recital is on the 4th of next month", "2026-04-04"),
        ("Payday was the 1st.", "2026-03-01"),
        ("We got the keys on Friday the 13th.", "2026-03-13"),
        ("大前天我去看了牙医", "2026-03-13"),
        ("大后天我要考试", "2026-03-19"),
        ("9号那天我们去了医院", "2026-03-09"),
        ("我20号要去面试", "2026-03-20"),
        ("上个月8号体检查出来血压高", "2026-02-08"),
        ("下个月3号搬家", "2026-04-03"),
        ("a fortnight ago I started the new job", "2026-03-02"),
        ("in a fortnight we're off to Crete", "2026-03-30"),
        ("the day after tomorrow I fly", "2026-03-18"),
        ("the weekend before last we went camping", "2026-03-07"),
        ("last Sat we had a barbecue", "2026-03-14"),
        ("We spent Christmas at my sister's", "2025-12-25"),
        ("over Easter we painted the kitchen", "2025-04-20"),
        ("国庆的时候去了趟延安", "2025-10-01"),
    ],
)
def test_relative_times_resolve_against_the_message_time(text, label):
    assert resolve_times(text, MONDAY)[0].label == label


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("I start there on 1 June.", "2026-06-01"),
        ("They offered me the job! Start date is 1 June.", "2026-06-01"),
        ("五一放假他回来，5月1号到家。", "2026-05-01"),
        ("Then on 3 March, an interview at the bank", "2026-03-03"),
        ("We got married on 14 June", "2025-06-14"),
        ("The wedding is in June", "2026-06"),
        # found in review: words that are no past tense
        ("I've got a meeting on the 23rd", "2026-05-23"), ("The last payment is on the 30th", "2026-04-30"),
        ("我3号过生日", "2026-05-03"),
        # a weekday is the last one unless the sentence looks ahead without "will" (said on Monday 27 April; found
        # trying it as a user, round 25, and in its review)
        ("I start my new job at Ocado on Monday.", "2026-05-04"), ("My op is on Friday, fingers crossed", "2026-05-01"),
        ("Need to call mum on Friday", "2026-05-01"), ("Fred is coming on Friday", "2026-05-01"),
        ("I went to the gym on Friday.", "2026-04-24"), ("Clara got engaged on Saturday!", "2026-04-25"),
        ("Mum called on Friday", "2026-04-24"), ("The boiler broke on Friday", "2026-04-24"),
        ("Played bridge at the club on Sunday.", "2026-04-26"), ("Broke my wrist on Saturday, it's killing me", "2026-04-25"),
    ],
)
def test_a_date_with_no_tense_is_the_nearer_one_ahead_rather_than_behind(text, label):
    said = datetime(2026, 4, 27, 10, 0).timestamp()
    assert resolve_times(text, said)[0].label == label


@pytest.mark.parametrize("text", ["My flat is on the 3rd floor.", "It was the 5th time I asked.",
                                  "Her 40th birthday party was fun", "坐3号线去上班", "住在5号楼",
                                  "I lay on sun loungers all week",
                                  # found in review
                                  "I rely on sat nav too much", "I've always wanted to visit Easter Island",
                                  "I love Christmas", "Merry Christmas!", "圣诞快乐", "买了一盒5号电池", "在2号航站楼等你",
                                  "I play chess with Henry the 8th.", "It's on the 2nd shelf", "by the 3rd trimester"])
def test_numbers_that_are_no_dates_stay_undated(text):
    assert resolve_times(text, MONDAY) == []


def test_a_day_that_some_years_lack_is_kept_in_the_years_that_have_it():
    said = datetime(2028, 3, 1, 10, 0).timestamp()
    assert resolve_times("She was born on Feb 29th", said)[0].label == "2028-02-29"


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
        # a pair subject opens its clause; a name ending another clause is no pair ("…is Ana and I live…")
        ("My name is Ana and I live in Porto with my dog Pixel.", ["My name is Ana", "I live in Porto with my dog Pixel."]),
        ("Me and my wife have two dogs.", ["My wife and I have two dogs."]),
        # a plan or a change told without its "I'm"
        ("Heading to Porto with Lars on 3 Oct.", ["I'm heading to Porto with Lars on 3 Oct."]),
        ("Going keto, doctor's orders.", ["I'm going keto, doctor's orders."]),
        ("Going to the gym is a pain.", ["Going to the gym is a pain."]),
        ("Going to the gym helps my back.", ["Going to the gym helps my back."]),
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
    assert third_person("Sam and I are engaged.") == "Sam and the user are engaged.", "two subjects: plural"
    assert third_person("My name is Ana and I am 30.") == "The user's name is Ana and the user is 30.", "two clauses"
    # the verb agrees beyond the verbs of the slots; an interstate's name is no "I"
    assert third_person("I haul dry van, mostly I-40.") == "The user hauls dry van, mostly I-40."
    assert third_person("I bank with Amarillo National and I wear a 3X.") == \
        "The user banks with Amarillo National and the user wears a 3X."


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
        ("About Priya's driving test, scrap that. She'd hate it written down.", "Priya's driving test",
         ["Priya's driving test"]),
        ("Re the dentist thing - forget it, all sorted now.", "dentist thing", ["dentist"]),
    ],
)
def test_forget_requests_in_any_common_phrasing(text, topic, parts):
    assert forget_topic(text) == topic
    assert topic_parts(topic) == parts


def test_before_i_forget_is_not_a_request():
    assert forget_topic("I'll book the hotel tonight before I forget.") is None


@pytest.mark.parametrize("text", ["Forgot to mention, I started a new job at Arup.", "Oh I totally forgot, my mum is visiting.",
                                  "I forgot my keys again."])
def test_the_users_own_forgetting_is_no_request(text):
    """"Forgot to mention, …" once read as "forget 'to mention'" and took every memory with that word."""
    assert forget_topic(text) is None


@pytest.mark.parametrize(("text", "topic"), [
    ("别再记着我欠钱的事了。", "欠钱"),
    ("那个关于我离婚的，不要留着。", "离婚"),
    ("我之前说的工资数字，删了。", "工资"),
    ("Lose the stuff about my divorce, please.", "my divorce"),
    ("Bin the bit about my ex.", "my ex"),
])
def test_more_ways_to_ask_for_forgetting(text, topic):
    """"别再…" and "不要留着" ask not to keep; "what I said before" and "the number" frame the topic, they are not it."""
    assert topic in forget_topic(text) and not forget_topic(text).startswith(("我之前", "那个"))


@pytest.mark.parametrize("text", ["I lose my keys all the time.", "我不用再记得密码了。"])
def test_words_of_losing_or_not_remembering_are_no_request(text):
    assert forget_topic(text) is None


def test_a_misspelt_request_still_is_one():
    assert forget_topic("Please forgot about my ex.") == "my ex"


@pytest.mark.parametrize(("text", "stored"), [
    ("side note I absolutely HATE coriander, tastes like soap", "The user absolutely hates coriander, tastes like soap."),
    ("Side note: I hate coriander.", "The user hates coriander."),
    ("Unrelated, but I'm allergic to cats.", "The user is allergic to cats."),
    ("PS I moved to Leeds last week.", "The user moved to Leeds last week."),
    ("Forgot to mention, I started a new job at Arup.", "The user started a new job at Arup."),
    ("Random thought: I really miss playing the piano.", "The user really misses playing the piano."),
    ("I genuinely hate early mornings.", "The user genuinely hates early mornings."),
    ("I REALLY LOVE jazz", "The user really loves jazz."),
    ("I do like a good curry.", "The user does like a good curry."),
    ("我真的很喜欢吃火锅", "用户真的很喜欢吃火锅。"),
])
def test_an_aside_or_an_intensifier_keeps_the_fact_and_the_grammar(text, stored):
    """Asides ("side note", "PS", "forgot to mention") carry no fact; words between the subject and its verb
    ("absolutely", "genuinely") change nothing of it, and the verb still agrees."""
    draft = draft_from_sentence(strip_markers(normalise(text)), session_id=None, message_id=None)
    assert draft is not None and draft.content == stored


def test_questions_find_their_slots_and_compound_questions_split():
    assert "home" in slots_asked("Where do I live?")
    assert "pet" in slots_asked("What pet do I have?")
    assert "pet" not in slots_asked("What's my cat called?"), "a near miss must not ask for the dog"
    assert "home" in slots_asked("我家在哪？") and "home" in slots_asked("我现在住哪里？")
    # 家 as a measure word, in a country, at a friend's: no home of the user's is asked for
    for question in ("我原来那家单位是做哪类产品的？", "出国那趟我们去的哪个国家？", "我们打麻将在谁家？"):
        assert "home" not in slots_asked(question), question
    assert sub_queries("Where do I live and who do I work for?") == ["Where do I live", "who do I work for"]
    assert sub_queries("Do I like rock and roll?") == []
    # "<someone> and I/me" is one subject, not two questions
    assert sub_queries("Did Lena and I ever talk about cycling?") == []
    assert sub_queries("Where did my sister and me go in May?") == []


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


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        ("My son Kai is seven. His birthday is 2 March.", "My son Kai's birthday is 2 March."),
        ("Our daughter Lena is at uni. She's studying law.", "Our daughter Lena is studying law."),
        ("My brother Olu moved to Lagos. He works at a bank there.", "My brother Olu works at a bank there."),
        # a title stays with the name: "my boss Dr", cut at the title's dot, would be nobody
        ("My boss is Dr. Marat Seitkali. He's been a vet for 30 years.", "My boss Dr. Marat has been a vet for 30 years."),
        # one relative, unnamed: the next "she" is her, in lowercase texting too
        ("My sister lives in Leeds. She's a nurse.", "my sister is a nurse."),
        ("mum's birthday 2 october. she loves gardening", "my mum loves gardening"),
        ("My older brother moved out. His flat is in Hull.", "my brother's flat is in Hull."),
        # 's before what someone has done is "has" ("is missed two dinners" was no sentence); before a state, "is"
        ("My dad's drinking again. He's missed two family dinners.", "my dad has missed two family dinners."),
        ("My sister lives in Leeds. She's just moved to York.", "my sister has just moved to York."),
        ("My brother Olu is 30. He's married to Ada.", "my brother Olu is married to Ada."),
    ],
)
def test_a_pronoun_continues_the_person_just_introduced(text, resolved):
    first, second = split_sentences(text)
    assert with_referent(second, referent_of(first)).lower() == resolved.lower()


@pytest.mark.parametrize(
    "text",
    [
        "My dad retired last year. She loves gardening.",  # "she" is not the dad
        "My mum and my sister came over. She brought a cake.",  # two women: which?
        "My friend's dog is sick. She's not eating.",  # the dog or the friend
        "The weather was awful. He was late again.",  # no one introduced
    ],
)
def test_a_pronoun_that_cannot_be_told_is_left_as_it_was_said(text):
    first, second = split_sentences(text)
    assert with_referent(second, referent_of(first)) == second


@pytest.mark.parametrize(
    ("text", "clauses"),
    [
        ("Sam and I have been together for ten years.", ["Sam and I have been together for ten years."]),
        ("Gareth retired; my new manager is Sunita Rao.", ["Gareth retired", "my new manager is Sunita Rao."]),
        ("I'm 34, I have two cats and I'm allergic to penicillin.",
         ["I'm 34, I have two cats", "I'm allergic to penicillin."]),
        ("我住在南京，家里养了一只柯基叫豆豆。", ["我住在南京", "家里养了一只柯基叫豆豆。"]),
    ],
)
def test_short_parts_ride_with_a_neighbour_and_pairs_stay_one_subject(text, clauses):
    assert split_clauses(text) == clauses


@pytest.mark.parametrize(
    "text",
    ["Jonas passed his driving test on Monday!", "We went to Lisbon for our anniversary.", "I ran my first marathon.",
     "My sister got married in a tiny chapel.", "我考上研究生了！", "我姐姐上个月结婚了。"],
)
def test_milestones_and_named_trips_are_events_without_a_date(text):
    draft = draft_from_sentence(text, session_id=None, message_id=None)
    assert draft is not None and draft.kind == "event", draft


@pytest.mark.parametrize("text", ["I went to bed late.", "I went to the shop.", "We had a look at it.", "我吃饭了。"])
def test_ordinary_doings_are_not_events(text):
    assert draft_from_sentence(text, session_id=None, message_id=None) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [("I sold my car.", "event"), ("I quit the choir.", "event"), ("我把吉他卖了。", "event"),
     ("I'm not vegan any more.", "preference"), ("I've switched to a gluten-free diet.", "preference")],
)
def test_a_retirement_by_an_act_is_an_event_a_changed_state_keeps_its_kind(text, kind):
    assert draft_from_sentence(text, session_id=None, message_id=None).kind == kind


@pytest.mark.parametrize("text", ["We relocated!", "Huge news: we moved!", "大新闻：我们搬家了！"])
def test_a_move_without_a_place_fills_no_home(text):
    assert slot_of(strip_markers(text)) is None or slot_of(strip_markers(text)).name != "home"


@pytest.mark.parametrize(
    ("text", "topic"),
    [("Pretend I never told you about the loan.", "loan"), ("Forget I said anything about Marco, please.", "Marco"),
     ("Can you not remember the bit about my arrest?", "my arrest"),
     ("Please erase the part where I talked about my ex.", "my ex"),
     ("Don't hold on to the info about my diagnosis, it's personal.", "my diagnosis"),
     ("Could you drop the thing about Jake? It was a secret.", "Jake")],
)
def test_forget_requests_with_containers_and_trailing_reasons(text, topic):
    assert forget_topic(text) == topic


@pytest.mark.parametrize(("question", "parts"), [
    ("What are my uncle's and my cousin's jobs?", ["What are my uncle's jobs", "my cousin's jobs"]),
    ("What do my niece and my nephew study?", ["What do my niece study", "my nephew study"]),
    ("Where are my aunt and my uncle living now?", ["Where are my aunt living now", "my uncle living now"]),
    ("Who are my neighbours in Leeds and in York?", ["Who are my neighbours in Leeds", "Who are my neighbours in York"]),
    ("我爸和我妈分别多大？", ["我爸多大", "我妈多大"]),
    ("What's my dog called and what instrument do I play?", ["What's my dog called", "what instrument do I play"]),
    ("Where do Tom and my sister live?", ["Where do Tom live", "my sister live"]),  # subjects of unlike length
    ("What are Tom's and my sister's jobs?", ["What are Tom's jobs", "my sister's jobs"]),
])
def test_the_parts_of_a_question_share_what_they_ask(question, parts):
    """Two people or places with one predicate: each part asks the whole question about its own."""
    assert sub_queries(question) == parts


@pytest.mark.parametrize(("question", "slot"), [
    ("What do I do for work?", "job"), ("我老公是干嘛的？", "job"), ("Which shift do I work?", "work_pattern"),
    ("What are my working hours?", "work_pattern"), ("我的工作班次是怎样的？", "work_pattern"),
    ("Am I in a relationship?", "partner"), ("Am I seeing anyone at the moment?", "partner"),
])
def test_a_question_in_everyday_words_asks_for_its_slot(question, slot):
    assert slot in slots_asked(question)


@pytest.mark.parametrize(("message", "kept"), [
    ("我爸4月17号过六十大寿 打算在饭店订几桌酒席 订几桌合适呢", "4月17号"),
    ("阿杰他爸妈都是东北人 过年想让我们去哈尔滨 那边冬天要带什么衣服", "东北人"),
])
def test_chinese_typed_with_spaces_keeps_what_it_tells_before_its_question(tmp_path, message, kept):
    """Found on held-out set D: a question in the last space-separated chunk made the whole message a question."""
    from helpers import fake_services
    assert split_sentences(message)[-1] in ("订几桌合适呢", "那边冬天要带什么衣服")
    services = fake_services(tmp_path)
    services.writer.process(message, session_id=None, message_id=None, now=MONDAY)
    alive = [m.content for m in services.memories.list_items(statuses=("active",), episodes=True)]
    assert any(kept in a for a in alive) and not any("合适呢" in a or "什么衣服" in a for a in alive), alive
    assert split_sentences("今天好累 你呢？") == ["今天好累", "你呢？"]
    assert split_sentences("我在成都 做设计") == ["我在成都 做设计"]


def test_news_told_to_the_assistant_is_kept_as_news():
    from memchat.memory.episodes import kept_sentences
    assert kept_sentences("跟你说个事，不在天府那边干了，现在在顺丰送快递") != []
    assert kept_sentences("偷偷告诉你 阿玲要离婚了！") != []
    assert kept_sentences("你好会安慰人") == [], "a remark to the assistant is still nothing about the user"


def test_chinese_words_inside_others_and_questions_asked_one_after_another():
    """Found on held-out set D by a helper, in sentences of our own."""
    from memchat.memory.concepts import concepts_in, kin_of_others
    assert "home" not in concepts_in("这周加班太多 真的顶不住") and "home" in concepts_in("我住在江北")
    assert "mother" in kin_of_others("它妈妈以前也是流浪猫"), "a pet's mother is no mother of the user's"
    assert sub_queries("我姐住哪？我侄子几岁了？") == ["我姐住哪", "我侄子几岁了"]


@pytest.mark.parametrize(("text", "slot"), [
    ("I'm 34.", "age"), ("im 19", "age"), ("just turned 30 today", "age"), ("我今年二十八岁。", "age"),
    ("I'm 5 minutes away.", None), ("I'm 2 weeks into the new job.", None), ("I turn 3 times a day on the lathe.", None),
    ("I'm Oskar btw.", "name"), ("my names oskar", "name"), ("call me jo", "name"), ("My names are on the list.", None),
    ("i'm from poland originally", "hometown"),
    ("I do salsa on Thursdays.", "hobby"), ("We had salsa and chips.", None), ("I crochet in the evenings.", "hobby"),
    ("我每周拉二胡。", "hobby"), ("我在练书法。", "hobby"), ("我开一辆比亚迪。", "vehicle"), ("我们去了现代艺术馆。", None),
    ("我们去了长城。", None),
])
def test_how_people_give_their_age_name_origin_pastimes_and_car(text, slot):
    """Said as people type them: lower case, "btw" after, "names" for "name's"; dances and crafts; car brands."""
    found = [slot_of(c) for c in split_clauses(strip_markers(normalise(text)))] or [None]
    assert (found[0].name if found[0] else None) == slot


def test_the_age_question_is_the_users_own():
    assert slots_asked("how old am I again?") == ["age"] and not slots_asked("How old is my dog?")


@pytest.mark.parametrize("question", ["Which university did I graduate from?", "What did I major in?", "我哪个大学毕业的？"])
def test_a_degree_asked_in_other_words_asks_for_studies(question):
    assert slots_asked(question) == ["study"]


@pytest.mark.parametrize(("sentence", "clauses"), [
    ("My brother got a new job and moved to Leeds.", ["My brother got a new job", "My brother moved to Leeds."]),
    ("Mum had a nasty chest infection and was in the RAH for a week.",
     ["My mum had a nasty chest infection", "My mum was in the RAH for a week."]),
    ("Sam broke his leg and was in plaster for weeks.", ["Sam broke his leg", "Sam was in plaster for weeks."]),
    ("I had a chest infection and was off work.", ["I had a chest infection", "I was off work."]),
])
def test_a_clause_that_leaves_its_subject_out_borrows_the_one_before_it_whoever_it_is(sentence, clauses):
    """Held-out set I (round 20): "Mum … and was in the RAH" was stored as the user's hospital stay, and
    "my brother … and moved to Leeds" would have moved the user."""
    assert split_clauses(sentence) == clauses


@pytest.mark.parametrize(("text", "slot"), [
    ("Got an interview at the RAH on Thursday for the ICU band 6 post!", None),  # a pay band, not a hobby
    ("I play bass in a band.", "hobby"),
])
def test_a_pay_band_is_no_band(text, slot):
    found = slot_of(text)
    assert (found.name if found else None) == slot


@pytest.mark.parametrize(("text", "told"), [
    ("We're off to Spain in May, so how much cash should I take?", "We're off to Spain in May."),
    ("I'm also the daddy so what does a wedding run these days in Texas, ballpark.", "I'm also the daddy."),
    ("My car died, any idea what a new battery costs", "My car died."),
    ("I started a new job but how do I ask for a day off already?", "I started a new job."),
    ("I have a cough, is it normal to last 3 weeks?", "I have a cough."),
    # a few words asked after a statement, whatever they are
    ("had an interview last Tuesday with Tarawera Energy for a field supervisor role, think it went ok??",
     "had an interview last Tuesday with Tarawera Energy for a field supervisor role."),
    ("Started a new job at Fernway last week, is that mad?", "Started a new job at Fernway last week."),
    ("I live in Leeds, you?", "I live in Leeds."),
    ("Why did I move to Leeds, any idea?", "Why did I move to Leeds, any idea?"),       # a question from the start
    ("Do you think I should sell the car, or keep it?", "Do you think I should sell the car, or keep it?"),
    ("what time is it, roughly?", "what time is it, roughly?"),
    # a question alone, or a statement about one, is left as it is
    ("How much should I take?", "How much should I take?"),
    ("I know exactly how much it costs.", "I know exactly how much it costs."),
    ("My sister, who is a nurse, lives in Leeds.", "My sister, who is a nurse, lives in Leeds."),
    ("I moved to Leeds, which is great.", "I moved to Leeds, which is great."),
    # Chinese: the phrase that asks, and what follows it
    ("还有个事，我上个月体检血糖有点高，医生说是糖尿病前期，年夜饭我自己要注意些啥子？", "还有个事，我上个月体检血糖有点高，医生说是糖尿病前期。"),
    ("她生日11月8号，你帮我想想送啥子", "她生日11月8号。"),
    ("你帮我看下，八个人吃，做几个菜合适？", "你帮我看下，八个人吃，做几个菜合适？"),  # it asks from the start
    ("我不知道他住哪？", "我不知道他住哪？"),
])
def test_a_question_asked_after_a_statement_leaves_the_statement(text, told):
    assert without_question_tail(text) == told


@pytest.mark.parametrize(("text", "slot"), [
    # a run that is work or an errand, running something: no sport
    ("Back on the road Thursday, Tonya's got me on a run to Memphis.", None),
    ("I do the school run every morning.", None),
    ("I'm running late today.", None),
    ("I run a small café in Leith.", None),
    # a run that is one
    ("I'm running the London marathon in April.", "sport"),
    ("I went for a run along the canal.", "sport"),
    ("I run 10k most mornings.", "sport"),
    # being in a vehicle is having none
    ("I don't want him getting fat riding in a truck all day like his daddy did.", None),
    ("I was in a car crash last week.", None),
    ("I live in a van now.", "home"),
    ("We got a new van for the business.", "vehicle"),
    # answering a phone is no way the assistant should answer
    ("My dispatcher actually answers her phone.", None),
    ("Please keep your answers short.", "reply_style"),
])
def test_a_word_of_a_slot_in_another_sense_fills_no_slot(text, slot):
    found = slot_of(text)
    assert (found.name if found else None) == slot


def test_an_episode_keeps_the_statement_told_before_a_question():
    """The diabetes told before "what should I watch at the new-year dinner?" was in no episode and no memory."""
    from memchat.memory.episodes import kept_sentences
    text = "我在定年夜饭的菜单。你帮我看下，八个人吃，做几个菜合适？还有个事，我上个月体检血糖有点高，医生说是糖尿病前期，年夜饭我要注意些啥子？"
    kept = kept_sentences(text)
    assert any("糖尿病前期" in s and "啥子" not in s for s in kept), kept
    assert not any("八个人" in s for s in kept), kept
    assert kept_sentences("We're off to Spain in May, so how much cash should I take?") == ["We're off to Spain in May"]


@pytest.mark.parametrize(("text", "sentence", "dated"), [
    ("My sister Clara just got engaged. I start my new job at Ocado on Monday.", "My sister Clara just got engaged.",
     False),
    ("My sister Clara just got engaged. I start my new job at Ocado on Monday.", "I start my new job at Ocado on Monday.",
     True),
    ("Ran my first half marathon. Last Friday.", "Ran my first half marathon.", True),
    ("We flew to Rome last week. It was amazing.", "It was amazing.", True),
    ("Had my interview at Monzo on Monday. I got the job!", "I got the job!", True),
    ("I got the job! Start date is the 1st of June.", "I got the job!", False),
])
def test_a_window_s_time_is_not_the_time_of_a_sentence_before_the_one_that_says_it(text, sentence, dated):
    [window] = episode_windows(text, MONDAY)
    assert (time_for(window, sentence) is not None) is dated


@pytest.mark.parametrize(("text", "kept"), [
    ("Got the half marathon done on Sunday. 1:52:40.", ["Got the half marathon done on Sunday. 1:52:40."]),
    ("We won the cup final on Saturday! 3-1!", ["We won the cup final on Saturday! 3-1!"]),
    ("lol. 666", []),                       # a figure after nothing kept is still nothing
    ("666", []),
])
def test_a_figure_said_on_its_own_belongs_to_the_sentence_before(text, kept):
    from memchat.memory.episodes import kept_sentences
    assert kept_sentences(text) == kept


def test_colours_by_their_everyday_names_are_colours():
    from memchat.memory.concepts import concepts_in
    assert "colour" in concepts_in("Our puppy Pepper is jet black")
    assert "colour" in concepts_in("我的车是白色的")
