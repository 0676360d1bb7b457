from datetime import datetime

import pytest

from memchat.memory.distill import draft_from_sentence, guess_key
from memchat.memory.rules import (
    contains_secret,
    forget_topic,
    is_chit_chat,
    is_durable_statement,
    is_question,
    notes_from,
)
from memchat.memory.terms import index_text, query_terms, search_terms


@pytest.mark.parametrize("text", ["thanks!", "ok cool", "hello again", "haha nice", "谢谢", "好的", "good morning"])
def test_chit_chat(text):
    assert is_chit_chat(text)


@pytest.mark.parametrize("text", ["ok fine I'll drink more water", "haha ok will do", "okay noted, thanks for the tips",
                                  "ok ok I'll stop doomscrolling", "yeah yeah I know, bed by eleven", "好的，我会注意的"])
def test_a_reply_to_advice_is_chit_chat(text):
    """An acknowledgement, then compliance with what the assistant said: nothing about the user to keep."""
    assert is_chit_chat(text)


@pytest.mark.parametrize("text", ["ok so I'm Marta and I teach maths", "Ok, my sister is called Bea.",
                                  "okay big news, we moved to Leeds", "Okay, I'll start at Deloitte in June",
                                  "yes I'll be moving to Leeds next month", "ok noted, I'm allergic to nuts",
                                  "ok I'll be honest, I hate my job at Tesco"])
def test_an_acknowledgement_that_goes_on_to_say_something_is_kept(text):
    assert not is_chit_chat(text)


@pytest.mark.parametrize("text", ["I live in Lisbon.", "My dog is called Pixel.", "我不吃香菜。", "I'm allergic to peanuts."])
def test_durable_statements(text):
    assert not is_chit_chat(text)
    assert is_durable_statement(text)


@pytest.mark.parametrize("text", ["Where do I live?", "what's the weather like", "我住在哪里？", "thanks"])
def test_questions_and_chat_are_not_statements(text):
    assert not is_durable_statement(text)


@pytest.mark.parametrize(
    "text",
    [
        "my wifi password is hunter2-blue",
        "remember my bank PIN is 4821",
        "my card is 4111 1111 1111 1111",
        "here is my key sk-live-9f8a7b6c5d4e3f2a1b0c",
        "my passport number is X7Q482193",
        "我的密码是abc123",
    ],
)
def test_secrets_are_detected(text):
    assert contains_secret(text)


def test_a_long_number_that_fails_luhn_is_not_a_card():
    assert contains_secret("my order number is 4111 1111 1111 1112") is None


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("Forget what I told you about my ex-boss.", "my ex-boss"),
        ("please forget that I play poker", "I play poker"),
        ("忘掉我说过的关于打麻将的事", "打麻将"),
    ],
)
def test_forget_requests(text, topic):
    assert forget_topic(text) == topic


def test_notes_catch_standing_instructions_in_both_languages():
    assert notes_from("From now on always answer in bullet points. Thanks!") == [
        "From now on always answer in bullet points."
    ]
    assert notes_from("以后都用中文回答我。") == ["以后都用中文回答我。"]
    assert notes_from("我不吃香菜") == ["我不吃香菜"]
    assert notes_from("Actually, I moved to Porto.") == ["Actually, I moved to Porto."]
    assert notes_from("What is the time?") == []
    assert notes_from("never share my password hunter2") == []


def test_distill_makes_third_person_typed_drafts():
    draft = draft_from_sentence("I now work at Brightline.", session_id=1, message_id=2, correction=True)
    assert draft.content == "The user now works at Brightline."
    assert (draft.kind, draft.attribute, draft.correction) == ("fact", "employer", True)
    assert guess_key("My dog is called Pixel.") == ("user", "pet", "fact")
    assert guess_key("My mum Saule lives in Almaty.") == ("mum", "home", "relation")
    assert guess_key("I love hiking.")[1] == "likes"
    # a Chinese clause about him or her is theirs, as "She moved to Leeds" is
    assert guess_key("她前年也搬到温江来了，巧得很。")[:2] == ("她", "home")
    assert guess_key("他在银行上班。")[0] == "他"
    assert guess_key("我住在成都。") == ("user", "home", "fact")
    # how people are called, opening a clause: theirs ("王姐在超市做收银员" had replaced 小雨's job as the user's)
    assert guess_key("小雨在小学当老师")[:2] == ("小雨", "job") and guess_key("王姐在超市做收银员")[0] == "王姐"
    assert guess_key("刘总退休了")[0] == "刘总" and guess_key("老家在绵阳")[0] == "user"
    # someone by what they are: theirs, unless the rest is the user's ("The GP says I'm pre-diabetic")
    assert guess_key("The landlord lives in Spain, never answers emails.")[:2] == ("landlord", "home")
    assert guess_key("The doctor says I'm pre-diabetic.")[0] == "user"
    assert draft_from_sentence("Free time is a thing of the past.", session_id=None, message_id=None) is None


def test_terms_split_chinese_into_bigrams_and_stem_english():
    assert index_text("我不吃香菜") == "我不 不吃 吃香 香菜 不 吃 香 菜"
    assert index_text("She lives here") == index_text("she lived here")
    assert query_terms("Where do I live?") == ["liv"]
    # Chinese beside a digit or a Latin word is its own run: "医院" and "手机" are found there too
    assert {"医院", "9"} <= set(search_terms("我9号去了医院"))
    assert {"iphone15", "手机"} <= set(search_terms("买了iPhone15手机"))


@pytest.mark.parametrize(
    ("text", "question"),
    [("When you explain something, use numbered steps please.", False), ("If you can, keep it short.", False),
     ("Whenever I ask about code, show an example.", False), ("When do I leave, tomorrow", True),
     ("When is my flight?", True),
     # a statement that trails off into a doubt tells something
     ("I did a trial shift on Monday and it went... fine?", False), ("We had a second date and it was… nice?", False),
     ("I wonder if it went... fine?", True), ("Did it go... fine?", True), ("I got the job?", True),
     # a standing request asked as a question is an instruction
     ("Would you mind giving me your answers as a checklist from now on?", False),
     ("Could you keep replies under 100 words going forward?", False), ("以后回答能不能短一点？", False),
     ("Could you explain how tides work?", True),
     # found in review: a doubt about a value is still asked
     ("My mum's birthday is on... the 5th?", True), ("I left my keys at... where?", True),
     # round 32, held-out set S: "did" with the "I" dropped, told with a figure or a time, tells what was done
     ("did the three peaks on sat, 11h40", False), ("Did my driving theory test this morning, 48 out of 50.", False),
     ("Had my first swim lesson on Tuesday", False), ("Did you see the match yesterday", True),
     ("did my mum call yesterday", True), ("Did it rain on Monday", True)],
)
def test_a_condition_and_an_instruction_is_not_a_question(text, question):
    assert is_question(text) is question


@pytest.mark.parametrize(
    ("text", "topic"),
    [("Actually, drop the lists.", None), ("Skip the emojis please.", None), ("Cut the small talk, just answer.", None),
     ("Drop what I said about my ex.", "my ex"), ("Please forget the list of my meds, it's private.", "list of my meds")],
)
def test_dropping_a_format_is_an_instruction_not_a_forget_request(text, topic):
    assert forget_topic(text) == topic


@pytest.mark.parametrize(
    ("text", "topic"),
    [("I think it's better if you forget what I said about my brother.", "my brother"),
     ("Honestly it'd be best to delete the stuff about my loan.", "my loan"),
     ("So yeah, can you maybe forget my salary?", "my salary"),
     ("Thinking about it more, you should probably erase the bit about my diagnosis.", "my diagnosis"),
     ("I've changed my mind and I want you to forget about my sister's wedding drama.", "my sister's wedding drama"),
     ("I'd feel better if you forgot about my credit card debt.", "my credit card debt"),
     ("Yeah so I need you to forget the stuff about my landlord dispute, it's sorted now.", "my landlord dispute"),
     ("要不你把我工资那个忘了吧。", "工资"), ("你最好别记我离婚的事。", "离婚"), ("能麻烦你把关于我爸欠债的内容都删掉吗？", "我爸欠债"),
     # the same verbs, not asked of the memory
     ("Did you forget what I told you about my sister?", None), ("Don't you forget about my birthday!", None),
     ("You forget my birthday every year.", None), ("You forgot about my birthday.", None),
     ("I hope you didn't forget the thing about my mum.", None), ("You should drop the attitude.", None),
     ("I need you to remove the watermark from my photo.", None), ("It's better to forget about the past.", None),
     ("It's best to delete old emails regularly.", None), ("Could you also remove the onions from the recipe?", None),
     ("I don't want you to forget my mum's birthday.", None), ("我想了想，这周末还是去爬山吧。", None)],
)
def test_a_request_after_what_leads_up_to_it(text, topic):
    """The request comes after a lead-in ("I think it's better if you…", "you should probably…", "I need you to…",
    我想了想，你还是把…): asked of the assistant by a modal, "want/need you to" or "better if you"."""
    assert forget_topic(text) == topic


@pytest.mark.parametrize(
    ("text", "topic"),
    [("I'd rather you didn't keep anything about my court case.", "my court case"),
     ("Let's pretend I never mentioned the affair.", "affair"),
     ("Take out the part about my IVF.", "my IVF"),
     ("I take back what I said about Priya's breakup, forget it.", "Priya's breakup"),
     ("Let that thing about my boss go, don't store it.", "my boss"),
     ("Please, no memory of the miscarriage.", "miscarriage"), ("No record of my address, please.", "my address"),
     ("Can you clear out anything on my brother's arrest?", "my brother's arrest"),
     ("Forget all of that about my dad's gambling.", "my dad's gambling"),
     ("Erase everything related to my eating disorder.", "my eating disorder"), ("请删除我住址相关的信息。", "住址"),
     # the same words, not asked of us
     ("No memory of that night at all.", None), ("Take out my mum for her birthday.", None),
     ("I take back my offer to help.", None), ("Let's pretend we never met.", None), ("Let it go.", None),
     ("I'd rather you didn't keep asking.", None)],
)
def test_more_ways_to_ask_and_what_the_topic_is(text, topic):
    """Shapes of request written for round 24 (a keeping verb before "anything", "let's pretend", "take out the part",
    "I take back", "let … go", "no memory of …, please") and topics that lose their frame ("related to", "all of
    that about", 相关的信息)."""
    assert forget_topic(text) == topic


def test_a_counted_family_over_two_sentences_is_kept_as_who_they_are(tmp_path):
    """"I have two kids." then their names in the next sentence: one relation memory names both."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    outcomes, _ = services.writer.process("I have two kids. Bram is 9 and Lotte is 6.", session_id=None,
                                          message_id=None, now=1000.0)
    assert "The user has two kids: Bram is 9 and Lotte is 6." in [o.content for o in outcomes if o.action == "added"]
    [kids] = [m for m in services.memories.list_items() if "Bram is 9" in m.content]
    assert kids.kind == "relation" and kids.attribute == "children"


def test_what_ended_a_value_stays_what_happened_when_a_new_value_comes(tmp_path):
    """"I sold the Hilux", then an e-bike: the e-bike replaces the Hilux, not the sale, and a question
    about the Hilux still finds the sale as current, not as an earlier value."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    for i, said in enumerate(["I drive a Hilux to work.", "I sold the Hilux last weekend.", "I bought an e-bike, I ride it to work."]):
        services.writer.process(said, session_id=None, message_id=None, now=1000.0 + i * 86_400)
    [sale] = [m for m in services.memories.list_items() if "sold" in m.content and not m.is_episode]
    assert sale.status == "active" and sale.kind == "event"
    found = services.recaller.recall("Do I still have the Hilux?", token_limit=400, count_tokens=services.engine.count,
                                     touch=False).candidates
    mine = next(c for c in found if c.memory.id == sale.id)
    assert not mine.reason.startswith("earlier value"), mine.reason


def test_a_retirement_takes_the_key_of_the_memory_that_names_what_ended(tmp_path):
    """"I've left The Skerries" retires the band's memory, not the newest one sharing a word like 'away'."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    for i, said in enumerate(["I play the fiddle in a band called The Skerries.",
                              "My mum moved to Portree, two hours away."]):
        services.writer.process(said, session_id=None, message_id=None, now=1000.0 + i)
    services.writer.process("I've left The Skerries now that we're two hours away.", session_id=None, message_id=None,
                            now=5000.0)
    [left] = [m for m in services.memories.list_items() if "left The Skerries" in m.content]
    assert left.attribute == "hobby", left.attribute


@pytest.mark.parametrize(("said", "slot", "content"), [
    ("So no more red meat for me.", "diet", "No more red meat for the user."),  # "no" is no opener here
    ("I'll be a maintenance electrician at the harbour.", "job", None),
    ("I drive my white pickup to work every day.", "commute", None),
])
def test_ordinary_ways_of_saying_a_slot(tmp_path, said, slot, content):
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process(said, session_id=None, message_id=None, now=1000.0)
    [memory] = [m for m in services.memories.list_items() if m.attribute == slot]
    assert content is None or memory.content == content


@pytest.mark.parametrize(("said", "stored"), [
    ("I start there on the 1st of April.", "The user starts there on the 1st of April."),
    ("I study French on Tuesdays.", "The user studies French on Tuesdays."),
    ("I carry an EpiPen everywhere.", "The user carries an EpiPen everywhere."),
    ("I wanna help make a difference.", "The user wants to help make a difference."),
])
def test_the_third_person_reads_as_english(said, stored):
    from memchat.memory.distill import third_person
    assert third_person(said) == stored


@pytest.mark.parametrize(("before", "after", "retired"), [
    ("I'm doing keto at the moment, day 12.", "Quick update on the keto thing, ditched it. Lasted 5 weeks.", "day 12"),
    ("I drive a blue van.", "Sold the van last week.", "blue van"),
    ("We have a dog, a boerboel called Tank.", "We buried Tank under the mango tree on Thursday.", "boerboel"),
    ("I go bouldering twice a week.", "Also officially giving up bouldering, yoga it is.", "twice a week"),
    ("I ride a blue Vespa to work.", "The Vespa has a new owner as of Saturday, a student from Hull.", "blue Vespa"),
    ("I drive a red Mazda 3.", "The Mazda was written off in the crash, insurance is paying out.", "red Mazda"),
    ("我养了一条金毛，叫旺财。", "旺财送给乡下的亲戚养了，城里房子太小。", "金毛"),  # a pet ends by a new home too
    ("We have a collie called Bess.", "Bess went to a loving home on a farm, we couldn't give her the space.", "collie"),
    ("I drive a Golf.", "Sold the car last week, the bus is fine.", "Golf"),  # "the car": the one the user had
    ("I have a motorbike, a Honda CB500.", "got rid of the motorbike, too cold", "Honda"),
    ("I'm 34.", "Just turned 35 today!", "34"),  # an age moves on
    ("I do salsa on Thursdays.", "Salsa I have stopped. No time these days.", "Thursdays"),  # the thing said first
    ("I do woodwork in the garage at weekends.", "I've stopped the woodwork, no space now.", "garage"),
    ("我每周拉二胡。", "二胡我不练了，太忙。", "每周"),
])
def test_a_value_ended_in_everyday_words_is_retired(tmp_path, before, after, retired):
    """Subjects dropped ("ditched it", "Sold the van"), a pet that died, "giving up": the old value goes."""
    old = _said_then(tmp_path, before, after, retired)
    assert old and all(status == "superseded" for _, status in old), old


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    # a new job told as an offer, a start or a first week, without "I work at"
    ("I work at Tesco as a shift manager.", "Got the offer!! Data lead at Fernway Bank. Starting 4th March.", "Tesco",
     "Fernway"),
    ("I work at Tesco.", "Starting at Boots on Monday, nervous!", "Tesco", "Boots"),
    ("I work at Tesco.", "Finished my first week at Fernway.", "Tesco", "Fernway"),
    ("I work at Tesco.", "I'm data lead at Fernway Bank now.", "Tesco", "Fernway"),
    ("I work at Barclays in Leeds.", "I work at a small bakery in Leeds.", "Barclays", "bakery"),  # not the same place
])
def test_a_new_job_told_in_passing_replaces_the_old(tmp_path, before, after, old, new):
    said = _said_then(tmp_path, before, after, "")
    assert [s for c, s in said if old in c] == ["superseded"], said
    assert "active" in [s for c, s in said if new in c], said


@pytest.mark.parametrize(("before", "after", "kept"), [
    ("I work at Tesco.", "Manager at Tesco was rude today.", "Tesco"),  # someone else's role there
    # found in review: an age, a name, a car, a manager and a birthday said in passing
    ("I'm 34.", "I turned 40 onto the M4.", "34"), ("I'm 34.", "I'm 5 in line.", "34"),
    ("我今年三十四岁。", "我五岁的时候学会了游泳。", "三十四"), ("I'm Oskar.", "My names tag fell off at work.", "Oskar"),
    ("I'm Oskar.", "call me later", "Oskar"), ("I drive a Golf.", "I nearly crashed the car this morning.", "Golf"),
    ("I drive a Golf.", "The thief got rid of the car in a canal.", "Golf"),
    ("My manager is Harriet.", "Went to Pizza Express last night, new manager is really rude.", "Harriet"),
    ("I work at Tesco.", "Teacher at Ella's school called.", "Tesco"),
    ("I work at Fernway Bank as a data lead.", "Finished my first week at Fernway.", "data lead"),  # the same place again
    ("I do salsa on Thursdays.", "I stopped by the salsa class to say hi.", "Thursdays"),
    ("I work at Tesco.", "Starting at 9 tomorrow.", "Tesco"),  # a time, not a workplace
    # found in the second review
    ("I work at Aldi.", "Starting at Wembley tonight is Saka.", "Aldi"),
    ("I work at Aldi.", "Finished my first week at Slimming World, lost 3 pounds!", "Aldi"),
    ("我开一辆本田。", "我买了长城的门票。", "本田"), ("我开一辆本田。", "我开了一台空调。", "本田"),
    ("I play football on Sundays.", "I stopped my son playing football, too dangerous.", "on Sundays"),
])
def test_what_happened_to_a_thing_does_not_replace_it(tmp_path, before, after, kept):
    old = _said_then(tmp_path, before, after, kept)
    assert old and all(status == "active" for _, status in old), old


def _said_then(tmp_path, before, after, marker):
    """(content, status) of the memories naming `marker` once `after` followed `before` a day later."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process(before, session_id=None, message_id=None, now=1000.0)
    services.writer.process(after, session_id=None, message_id=None, now=90_000.0)
    return [(m.content, m.status) for m in services.memories.list_items(statuses=("active", "superseded"))
            if marker in m.content]



@pytest.mark.parametrize(("before", "after", "kept"), [
    ("I do yoga twice a week.", "Yesterday I dropped the kids at school and went to yoga.", "yoga twice"),
    ("I go running every evening.", "My phone died halfway through the run.", "running every"),
    ("We have a collie called Bess.", "I left the dog with my neighbour for the weekend.", "Bess"),
    ("I work from home two days a week.", "The flat upstairs has a new owner, a drummer. Great.", "from home"),
    ("We have a cat called Miso.", "Stopped the car to let a cat cross.", "Miso"),
    ("我每天晚上跑步。", "今天跑步走了一万多步。", "每天晚上"),
    ("I work as a nurse at the Royal Infirmary.", "I'll be the designated driver tonight for my cousins.", "nurse"),
    ("我在星火互娱上班。", "我在想要不要去打工。", "星火互娱"),
])
def test_an_ordinary_sentence_near_a_value_does_not_end_it(tmp_path, before, after, kept):
    """What ended is next to the act that ended it; the living only end by dying; a night's role is no job."""
    old = _said_then(tmp_path, before, after, kept)
    assert old and all(status == "active" for _, status in old), old



@pytest.mark.parametrize("said", ["刚下班，累成狗了。", "我是个夜猫子，一般两点才睡。", "What a dog's dinner of a day."])
def test_an_idiom_with_an_animal_is_no_pet(tmp_path, said):
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process(said, session_id=None, message_id=None, now=1000.0)
    assert not [m for m in services.memories.list_items() if m.attribute == "pet"]


@pytest.mark.parametrize(("before", "after", "old"), [
    ("We live in Leeds.", "We finally made the move to York last month.", "Leeds"),
    ("I drive a Ford Fiesta.", "Traded the Fiesta in for a Honda Jazz.", "Ford Fiesta"),
    ("I'm vegetarian.", "I've started eating fish again, so pescatarian now.", "vegetarian"),
    ("I go swimming on Mondays.", "Swimming's moved to Wednesdays now.", "Mondays"),
    ("My phone is an iPhone 11.", "Upgraded to a Pixel 8 at the weekend.", "iPhone"),
    ("我在华为上班。", "我跳槽去了腾讯。", "华为"),
    ("I live in a flat in Hackney.", "Loving the new place in Walthamstow, so much more space!", "Hackney"),
    ("我们住在朝阳区。", "新家在顺义，空气好多了。", "朝阳区"),
    ("My GP is Dr Shah at Elm Street surgery.", "Registered with the new practice, my doctor is Dr Okafor now.", "Shah"),
    ("My landlord is a guy called Steve.", "Our new landlord is Mrs Okoye, the flat got sold.", "Steve"),
    ("我的房东姓王。", "我们的新房东是李阿姨。", "姓王"),
])
def test_a_change_said_as_people_say_it_replaces_the_old_value(tmp_path, before, after, old):
    """Our own update sentences (written before the rules): the move as a noun, a car traded in, a diet
    'now', a schedule moved (not a home), an upgrade with no subject, 跳槽去了, a new home, a new doctor
    or landlord (one person per role in the user's life)."""
    stale = [content for content, status in _said_then(tmp_path, before, after, old) if status == "active"]
    assert not [c for c in stale if all(w not in c for w in ("Fiesta in", "Wednesdays", "move to", "腾讯"))], stale


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("I live in Cardiff.", "Quick one, we're in Bristol now, the Cardiff flat is handed back.", "lives in Cardiff", "Bristol"),
    ("I work at Aldi stacking shelves.", "Handed my notice in at Aldi, starting with the NHS next week as a porter.",
     "stacking", "NHS"),
    ("My manager is Tom.", "Priya's my line manager now that Tom moved to the Glasgow office.", "manager is Tom", "Priya"),
    ("My boyfriend is Jamie.", "Jamie and I split up in March. I'm seeing someone called Alex now.", "boyfriend is Jamie",
     "Alex"),
    ("I'm a sous chef at Rosa's.", "They made me head chef at Rosa's last week.", "sous", "head chef"),
    ("I use a Samsung Galaxy S10.", "My old Samsung finally died so I'm on a Pixel now.", "Galaxy", "Pixel"),
    ("We rent a flat in Salford.", "We've moved into our own place in Didsbury, finally done with renting in Salford.",
     "rents a flat", "Didsbury"),
    ("I'm a beginner at Japanese.", "My Japanese is conversational now, I passed the N3.", "beginner", "conversational"),
    ("I drive to work.", "The bus is my way in now that the car's gone.", "drives to work", "bus"),
    ("我们住在朝阳区。", "我们家从朝阳区搬到了海淀区。", "住在朝阳区", "海淀"),
    ("My partner is called Dan.", "bit of a rough month tbh, Dan and I broke up after nine years.", "partner is called",
     "broke up"),
    ("我每周三晚上去打羽毛球。", "羽毛球现在改到周六下午了，周三晚上大家都加班。", "周三晚上去打", "周六"),
])
def test_round_8_update_shapes_replace_the_old_value(tmp_path, before, after, old, new):
    """A second batch of our own update sentences, written before any rule: a place "now", a notice handed in
    and a start "with" an employer, "X's my line manager", a break-up and someone new, "made me head chef",
    a phone that died, renting, a language level, "my way in", 从…搬到了…."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process(before, session_id=None, message_id=None, now=1000.0)
    services.writer.process(after, session_id=None, message_id=None, now=90_000.0)
    typed = [m for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]
    assert not [m.content for m in typed if old in m.content and new not in m.content]
    assert [m.content for m in typed if new in m.content]


@pytest.mark.parametrize(("said", "slot"), [
    ("Tom moved to the Glasgow office last month.", "home"),
    ("I'm starting with the basics of Python.", "employer"),
    ("They made me cry at the wedding.", "job"),
    ("I'm in a meeting now.", "home"),
])
def test_round_8_shapes_do_not_catch_their_look_alikes(tmp_path, said, slot):
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process(said, session_id=None, message_id=None, now=1000.0)
    assert not [m.content for m in services.memories.list_items() if m.attribute == slot and not m.is_episode]


def test_a_new_boss_after_the_old_one_left_replaces_the_old(tmp_path):
    """", so now I report to Dev" is a clause of its own: Dev is the boss, Karen's retirement an event."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process("My boss is called Karen.", session_id=None, message_id=None, now=1000.0)
    services.writer.process("Karen retired, so now I report to Dev.", session_id=None, message_id=None, now=90_000.0)
    managers = [m for m in services.memories.list_items() if m.attribute == "manager"]
    assert [m.content for m in managers] == ["Now the user reports to Dev."]


@pytest.mark.parametrize(("sentence", "clauses"), [
    ("bit of a rough month tbh, Dan and I broke up after nine years.",
     ["bit of a rough month tbh, Dan and I broke up after nine years."]),  # one pair, one subject
    ("My name is Dougal and I work as an engineer", ["My name is Dougal", "I work as an engineer"]),
    ("I live in Culloden and I work at Caley Marine", ["I live in Culloden", "I work at Caley Marine"]),
])
def test_a_name_and_i_in_mid_sentence_is_a_pair_only_before_a_pair_verb(sentence, clauses):
    from memchat.memory.speech import split_clauses
    assert split_clauses(sentence) == clauses


@pytest.mark.parametrize(("said", "key"), [
    ("My GP is Dr Shah at Elm Street surgery.", "provider_doctor"),
    ("My therapist is Helen, I see her on Thursdays.", "provider_therapist"),
    ("我的房东姓王。", "provider_房东"),
    ("My doctor was worried about my blood pressure.", "health"),  # no one named: what the doctor said
    ("My dentist is great.", ""),
])
def test_someone_named_in_a_role_is_one_per_role(said, key):
    from memchat.memory.distill import guess_key
    assert guess_key(said)[1] == key


@pytest.mark.parametrize(("question", "asked"), [
    ("Who is my doctor?", ["provider_doctor"]), ("Who's my GP?", ["provider_doctor"]),
    ("What's my landlord called?", ["provider_landlord"]), ("我的房东姓什么？", ["provider_房东"]),
    ("Who is my manager?", []),  # a slot of its own
])
def test_a_question_asks_who_fills_a_role(question, asked):
    from memchat.memory.distill import providers_asked
    assert providers_asked(question) == asked


@pytest.mark.parametrize(("text", "asked"), [
    ("端午节除了吃粽子还有啥习俗", True),  # a question word in its one phrase, no mark
    ("怎么跟老板说辞职比较好", True),  # opens on 怎么
    ("ok so how do i write a cover letter", True),  # chatter before the question word
    ("她生日11月8号，你帮我想想送啥子", False),  # the birthday is said first: a statement with a request after it
    ("ok so I work at Tesco now", False),
    ("我最近在学做饭", False),
])
def test_questions_without_their_mark(text, asked):
    assert is_question(text) is asked


@pytest.mark.parametrize(("sentence", "kind"), [
    ("Played bridge at the club last night.", "event"), ("I went swimming yesterday with Jo.", "event"),
    ("I play bridge on Tuesdays.", "fact"), ("I go swimming every Friday.", "fact"),
    ("I go swimming on Sunday mornings.", "fact"),
    ("Went climbing a week ago, arms still sore.", "event"),
    ("Next Saturday I play my first chess tournament.", "fact"),  # ahead: not yet done
])
def test_a_pastime_done_once_on_a_past_day_is_an_event_and_a_habit_a_fact(sentence, kind):
    monday = datetime(2026, 3, 16, 10, 0).timestamp()
    draft = draft_from_sentence(sentence, session_id=None, message_id=None, said_at=monday)
    assert draft is not None and draft.attribute in ("hobby", "sport")
    assert draft.kind == kind


@pytest.mark.parametrize(("sentence", "attribute"), [
    ("Took Dad out for his birthday on Sunday.", "event"), ("Timur's birthday party was at a trampoline park.", "event"),
    ("We had a lovely meal for my wife's birthday yesterday.", "event"), ("上周末给我妈过了生日", "event"),
    ("My birthday is on 3 May.", "birthday"), ("Dad's birthday is 3 May.", "birthday"),
])
def test_a_birthday_celebrated_is_an_event_not_the_date_of_the_birthday(sentence, attribute):
    """The day out must not take the place of the birthday's date (a single value per person)."""
    monday = datetime(2026, 3, 16, 10, 0).timestamp()
    draft = draft_from_sentence(sentence, session_id=None, message_id=None, said_at=monday)
    assert draft is not None and draft.attribute == attribute


@pytest.mark.parametrize(("before", "after", "kept"), [
    ("I've been vegetarian for twelve years and the hospital canteen is dire.",
     "ok unrelated and slightly mad, but i've been thinking about quitting the hospital.", "vegetarian"),
    ("I drive a Golf.", "I might sell the car, it's costing a fortune.", "Golf"),
    ("I play squash every Tuesday.", "I'm tempted to quit squash, honestly.", "squash"),
    ("I work at Tesco.", "Planning to quit Tesco in the spring.", "Tesco"),
    ("我在医院上班。", "我想辞职，太累了。", "医院"),
    ("我有一辆白色的Polo车。", "我打算把车卖了。", "Polo"),
])
def test_an_ending_only_mused_on_or_planned_retires_nothing(tmp_path, before, after, kept):
    """Found in the *_f dev personas (round 25): "thinking about quitting the hospital" retired the diet memory
    that named the hospital canteen. Set O's update accuracy rose with this (0.72 -> 0.76)."""
    said = _said_then(tmp_path, before, after, kept)
    assert said and all(status == "active" for _, status in said), said


@pytest.mark.parametrize(("before", "after"), [
    ("I've been vegetarian for twelve years.", "and a little food update: i'm eating fish now. still no meat though"),
    ("I've been vegetarian since uni.", "I eat meat again, doctor's orders."),
])
def test_a_food_eaten_now_or_again_takes_the_place_of_the_diet_before(tmp_path, before, after):
    said = _said_then(tmp_path, before, after, "vegetarian")
    assert said and all(status == "superseded" for _, status in said), said


@pytest.mark.parametrize(("sentence", "asked"), [
    ("Could you do bullet points in your replies, I skim on the train", False),   # a wish about every answer
    ("Would you mind using metric units when you explain recipes?", False),
    ("Can you keep your answers short?", False),
    ("could you format this table for me?", True),                                # one answer asked for
    ("Could you reply to my email draft?", True),
    ("Can you explain how a mortgage works?", True),
])
def test_a_polite_wish_about_every_answer_is_a_preference_not_a_question(sentence, asked):
    from memchat.memory.rules import is_question
    assert is_question(sentence) is asked
