"""A question about a named person's work, age, birthday, surname, school, partner or home is not answered
by a memory that only mentions them."""

import pytest
from helpers import fake_services

from memchat.memory.asked_of_someone import asked_kind, says_nothing_of


@pytest.mark.parametrize(("question", "kind"), [
    ("Where does Gwen work?", "work"),
    ("What does Marco do for a living?", "work"),
    ("How old is Tariq?", "age"),
    ("When is Elsie's birthday?", "birthday"),  # not an age question
    ("What's Priyanka's surname?", "surname"),
    ("What school does Finn go to?", "school"),  # not a work question
    ("Is Dev married?", "partner"),
    ("Who is Jesse dating now?", "partner"),
    ("Where does Grandad Joe live?", "home"),
    ("Where is Gwen living these days?", "home"),  # living somewhere, not for a living
    ("When was Timur's birthday party?", ""),  # the party, an occasion: not the date of birth
    ("When is Finn's school play?", ""),
    ("小雨生日是哪天", "birthday"), ("小雨哪年出生的", "birthday"), ("小雨的生日派对在哪", ""),
    ("Who is Gwen?", ""),  # who they are: anything about them answers
])
def test_what_a_question_asks_about_the_person_it_names(question, kind):
    assert asked_kind(question) == kind


@pytest.mark.parametrize(("kind", "name", "mention", "answer"), [
    ("work", "Nomsa", "My girlfriend Nomsa says I work too much.", "Nomsa is a nurse at Addington."),
    ("work", "Bram", "Bram came round for a curry.", "Bram's at Deloitte now."),
    ("work", "Nomsa", "The user's girlfriend Nomsa says the user works too much.", "Nomsa works nights at Addington."),
    ("age", "Tariq", "My brother Tariq is coming for Eid.", "Tariq turned forty in March."),
    ("birthday", "Zanele", "Zanele is 12 and Sipho is 8.", "Zanele was born on 3 June."),
    ("birthday", "Siobhan", "Siobhan loves the garden.", "Siobhan's is on St Paddy's Day."),
    ("surname", "Priyanka", "Had lunch with Priyanka from accounts.", "Had lunch with Priyanka Shah from accounts."),
    ("school", "Sipho", "Sipho turned 9 on Tuesday.", "Sipho's at Westville Primary."),
    ("partner", "Isla", "Isla's home for the summer.", "Isla's got a boyfriend called Ross."),
    ("home", "Joe", "Took Grandad Joe to the garden centre.", "Grandad Joe still lives in Rotherham."),
])
def test_a_mention_says_nothing_of_what_is_asked_and_a_statement_does(kind, name, mention, answer):
    assert says_nothing_of(kind, name, mention) == f"says nothing of the {kind} asked of {name}"
    assert says_nothing_of(kind, name, answer) == ""


def test_a_memory_that_may_be_about_them_is_judged_too_and_only_when_something_particular_is_asked():
    assert says_nothing_of("work", "Nomsa", "The user's partner is a nurse.") == ""  # may be her, and says a job
    assert says_nothing_of("birthday", "Zanele", "Took the kids to uShaka Marine World.") != ""
    assert says_nothing_of("", "Nomsa", "My girlfriend Nomsa says I work too much.") == ""
    assert says_nothing_of("work", "", "My girlfriend Nomsa says I work too much.") == ""


def test_recall_marks_a_passing_mention_and_keeps_the_statement(tmp_path):
    services = fake_services(tmp_path)
    for said in ("My girlfriend Nomsa says I work too much.", "Nomsa asked me to move in with her next month.",
                 "I drive a white Hilux.", "Nomsa is a nurse at Addington Hospital."):
        services.writer.process(said, session_id=None, message_id=None, now=1000.0)
    result = services.recaller.recall("What does Nomsa do for work?", token_limit=400, count_tokens=len, now=2000.0,
                                      touch=False)
    naming = [c for c in result.candidates if "Nomsa" in c.memory.content]
    mentions = [c for c in naming if "nurse" not in c.memory.content]
    assert mentions and all(c.mismatch == "says nothing of the work asked of Nomsa" and not c.selected for c in mentions)
    assert all(not c.mismatch for c in naming if "nurse" in c.memory.content)


def test_a_chinese_question_names_its_person_by_the_names_the_store_knows(tmp_path):
    services = fake_services(tmp_path)
    for said in ("我女朋友叫小雨，在小学当老师。", "国庆带小雨回山东见爸妈。", "小雨生日是三月八号。"):
        services.writer.process(said, session_id=None, message_id=None, now=1000.0)
    result = services.recaller.recall("小雨生日是哪天", token_limit=400, count_tokens=len, now=2000.0, touch=False)
    trip = [c for c in result.candidates if "国庆" in c.memory.content]
    assert trip and all(c.mismatch == "says nothing of the birthday asked of 小雨" and not c.selected for c in trip)
    assert any(c.selected for c in result.candidates if "三月八号" in c.memory.content)


def test_what_ended_a_mention_says_no_more_of_what_is_asked_than_the_mention(tmp_path):
    """"When's Declan's birthday?": "I've packed in the five-a-side" ended "I play five-a-side with Declan's brother",
    which said nothing of his birthday; neither does its ending, found beside it."""
    services = fake_services(tmp_path)
    for day, said in enumerate(("My husband Declan is a postie.", "I play five-a-side football on Tuesdays with Declan's "
                                "brother.", "I've packed in the five-a-side football, my knee is gone."), start=1):
        services.writer.process(said, session_id=None, message_id=None, now=day * 86_400.0)
    result = services.recaller.recall("When's Declan's birthday?", token_limit=400, count_tokens=len, now=9 * 86_400.0,
                                      touch=False)
    ending = [c for c in result.candidates if c.routes == ("ending",)]
    assert ending and all(c.mismatch == "says nothing of the birthday asked of Declan" for c in ending)
    assert not [c.memory.content for c in result.candidates if c.selected]


def test_an_ending_that_says_nothing_of_what_is_asked_ends_nothing_of_it(tmp_path):
    """"How old is Callum?": "Callum's packed in the football" ends his football, not what said his age."""
    services = fake_services(tmp_path)
    for day, said in enumerate(("The kids are Callum, who's nine, and Isla, who's six.", "Callum's football is Saturday "
                                "mornings now, he plays for Cathcart Colts.", "Callum's packed in the football "
                                "altogether, he says it's too shouty."), start=1):
        services.writer.process(said, session_id=None, message_id=None, now=day * 86_400.0)
    result = services.recaller.recall("How old is Callum?", token_limit=400, count_tokens=len, now=9 * 86_400.0,
                                      touch=False)
    assert [c.memory.content for c in result.candidates if c.selected] == [
        "The kids are Callum, who's nine, and Isla, who's six."]


@pytest.mark.parametrize(("content", "age"), [
    ("I have two kids. Zanele is 12 and Sipho is 8.", 8),
    ("Sipho turned 9 on Tuesday.", 9),
    ("Sipho's 90th birthday was lovely.", 90),
    ("Sipho's 7 now and loud.", 7),
    ("our 6-year-old Sipho", 6),
    ("Sipho is 5 minutes late again.", None),  # a number, not an age
    ("Sipho is at school.", None),
])
def test_the_age_a_memory_gives_someone(content, age):
    from memchat.memory.asked_of_someone import stated_age
    assert stated_age("Sipho", content) == age


def test_the_latest_age_stands_and_every_earlier_one_is_history():
    from memchat.memory.recall import earlier_ages
    from memchat.types import Candidate, Memory, Signals

    def said(memory_id, content, at):
        memory = Memory(id=memory_id, kind="episode", content=content, subject="user", attribute="", importance=0.5,
                        confidence=1.0, created_at=at, updated_at=at, last_access_at=at)
        return Candidate(memory, Signals(), 1.0, relevance=1.0)

    twelve_and_eight = said(1, "I have two kids. Zanele is 12 and Sipho is 8.", 10)
    nine = said(2, "Sipho turned 9 on Tuesday.", 40)
    cake = said(3, "We had cake at Nomsa's place.", 41)
    assert earlier_ages([twelve_and_eight, nine, cake], "Sipho") == {1: 2}
    assert earlier_ages([twelve_and_eight, said(4, "Sipho is 8 and loves football.", 50)], "Sipho") == {}  # no change


@pytest.mark.parametrize(("question", "terms"), [
    ("我妈多大岁数了？", ["妈"]),  # the answer says "她84了", never 多大 or 岁数
    ("How old is Tariq?", ["tariq"]),
    ("Where is my old flat?", ["old", "flat"]),  # "old" is a word of its own outside "how old"
])
def test_the_words_that_ask_an_age_are_no_search_terms(question, terms):
    from memchat.memory.terms import query_terms
    assert query_terms(question) == terms


def test_an_age_question_about_anyone_is_answered_only_by_a_number_or_an_age_word():
    from memchat.memory.asked_of_someone import says_no_age
    assert asked_kind("我妈多大岁数了？") == asked_kind("How old is my daughter?") == "age"
    assert asked_kind("房子有多大了？") == ""  # how big, not how old
    assert says_no_age("Mild asthma since the user was a kid.") == "says no age"
    assert says_no_age("清明节回郫县看我妈，她84了") == ""
    assert says_no_age("The user is thirty-four.") == ""
    assert says_no_age("所以我打算先回乐山给她过了八十八大寿再出发") == "", "a Chinese numeral is a number"
    assert says_no_age("我妈在电话里念了一大堆") == "says no age"


def test_a_question_for_a_number_is_answered_only_by_a_memory_that_holds_one():
    from memchat.memory.asked_of_someone import asks_a_quantity, says_no_quantity
    for question in ("How many grandchildren do I have?", "What year did Harold and I get married?",
                     "How much did we pay for the Niro?", "How long have I played the violin?", "我有几个孙子？",
                     "我拉二胡拉了多少年？"):
        assert asks_a_quantity(question), question
    assert not asks_a_quantity("Where does Michael live?") and not asks_a_quantity("What's my dog called?")
    assert says_no_quantity("The user's son Michael is an engineer in Tucson.") == "says no number"
    assert says_no_quantity("The user's husband is Harold.") == "says no number"
    for answer in ("We have three grandkids.", "Married in 1979.", "Paid £18,500 for it.", "Since I was a kid, ages.",
                   "Played the violin for a couple of years.", "两个孙子，都在深圳。", "拉了二十多年了。"):
        assert says_no_quantity(answer) == "", answer


def test_recall_marks_a_memory_without_a_number_for_a_question_that_asks_one(tmp_path):
    services = fake_services(tmp_path)
    for said in ("My husband is Harold.", "Harold and I got married in 1979 in Leeds."):
        services.writer.process(said, session_id=None, message_id=None, now=1000.0)
    result = services.recaller.recall("What year did Harold and I get married?", token_limit=400, count_tokens=len,
                                      now=2000.0, touch=False)
    marks = {c.memory.content: c.mismatch for c in result.candidates if not c.memory.is_episode}
    assert any("1979" in content and not mark for content, mark in marks.items()), marks
    assert any("1979" not in content and mark == "says no number" for content, mark in marks.items()), marks


def test_recall_does_not_answer_for_a_relative_from_another_relatives_memory(tmp_path):
    """"What's my mum's name?" over a store that knows the daughter and the mum: the daughter's memories are
    marked, the mum's named one stays a candidate without a mark."""
    services = fake_services(tmp_path)
    for said in ("My daughter Isla is 20 and at Glasgow uni.", "My mum Huia turned 60 on Sunday.",
                 "Isla's flat in Glasgow is tiny.", "I drive a white Hilux."):
        services.writer.process(said, session_id=None, message_id=None, now=1000.0)
    result = services.recaller.recall("What's my mum's name?", token_limit=400, count_tokens=len, now=2000.0, touch=False)
    daughters = [c for c in result.candidates if "Isla" in c.memory.content]
    mums = [c for c in result.candidates if "Huia" in c.memory.content]
    assert daughters and all(c.mismatch == "names no mother of yours" and not c.selected for c in daughters)
    assert mums and all(not c.mismatch for c in mums)


@pytest.mark.parametrize(("content", "gives"), [
    ("The user's mum runs a flower shop there.", False),
    ("The user's dad is retired, mum still works.", False),
    ("Tomas was born on August 2.", True),
    ("The user's mum Huia turned 60 on Sunday.", True),
    ("her name is noor, she's a landscape architect", True),
    ("我妈叫王秀兰。", True),
    ("dads bday is in june. rafael. works at the docks", True),  # no capitals anywhere: no telling, so no mark
])
def test_a_name_question_is_answered_only_by_a_memory_that_gives_a_name(content, gives):
    from memchat.memory.asked_of_someone import asks_a_name, says_no_name
    assert asks_a_name("What's my mum's first name?") and asks_a_name("我哥叫什么？")
    assert not asks_a_name("What does my mum do?")
    assert (says_no_name(content) == "") is gives


def test_recall_gives_no_nameless_memory_for_a_relatives_name(tmp_path):
    """"What's my mum's first name?" when the store knows what she does but not her name: nothing answers."""
    services = fake_services(tmp_path)
    for said in ("Mum runs a flower shop.", "My daughter Isla is 20 and at Glasgow uni.",
                 "I drive a white Hilux."):
        services.writer.process(said, session_id=None, message_id=None, now=1000.0)
    result = services.recaller.recall("What's my mum's first name?", token_limit=400, count_tokens=len, now=2000.0,
                                      touch=False)
    shop = [c for c in result.candidates if "flower shop" in c.memory.content]
    assert shop and all(c.mismatch == "gives no name" and not c.selected for c in shop)
    job = services.recaller.recall("What does my mum do for work?", token_limit=400, count_tokens=len, now=2000.0,
                                   touch=False)
    assert any("flower shop" in c.memory.content and not c.mismatch for c in job.candidates)
