import pytest
from helpers import fake_conversation, fake_services

from memchat.config import ForgetSettings
from memchat.memory.forget_requests import ForgetRequest
from memchat.memory.forgetting import DAY, run_forgetting
from memchat.memory.rules import forget_request
from memchat.types import MemoryDraft

NOW = 1_000 * DAY


def add(services, text, importance=0.5, pinned=False, expires_at=None, at=NOW):
    return services.memories.add(
        MemoryDraft("fact", text, importance=importance, pinned=pinned, expires_at=expires_at), now=at
    )


def test_expired_items_are_archived_not_pinned_ones(tmp_path):
    services = fake_services(tmp_path)
    expired = add(services, "The user is in Rome this week.", expires_at=NOW - 1)
    pinned = add(services, "The user's visa expires soon.", pinned=True, expires_at=NOW - 1)
    report = run_forgetting(services.db, ForgetSettings(), now=NOW)
    assert report.expired == 1
    assert services.memories.require(expired.id).status == "archived"
    assert services.memories.require(pinned.id).status == "active"


def test_never_recalled_unimportant_items_decay(tmp_path):
    services = fake_services(tmp_path)
    stale = add(services, "The user once tried kombucha.", importance=0.2, at=NOW - 400 * DAY)
    important = add(services, "The user has a peanut allergy.", importance=0.9, at=NOW - 400 * DAY)
    used = add(services, "The user likes pears.", importance=0.2, at=NOW - 400 * DAY)
    services.memories.touch([used.id], now=NOW - 400 * DAY)
    assert run_forgetting(services.db, ForgetSettings(decay_days=180), now=NOW).decayed == 1
    statuses = {m.id: m.status for m in services.memories.list_items(statuses=("active", "archived"))}
    assert statuses == {stale.id: "archived", important.id: "active", used.id: "active"}


def test_capacity_evicts_lowest_importance_times_usage_never_pinned(tmp_path):
    services = fake_services(tmp_path)
    low_pinned = add(services, "pinned but unimportant", importance=0.01, pinned=True)
    items = [add(services, f"memory number {i}", importance=i / 10) for i in range(1, 10)]
    services.memories.touch([items[0].id] * 1, now=NOW)
    report = run_forgetting(services.db, ForgetSettings(capacity=6), now=NOW)
    assert report.over_capacity == 4
    active = {m.id for m in services.memories.list_items()}
    assert low_pinned.id in active
    assert {items[1].id, items[2].id} & active == set()
    assert services.memories.count() == 6


def test_events_get_a_time_to_live_and_expire(tmp_path):
    services = fake_services(tmp_path, forget={"event_ttl_days": 30})
    trip = services.writer.apply(MemoryDraft("event", "The user is flying to Tokyo next week."), now=NOW)
    fact = services.writer.apply(MemoryDraft("fact", "The user lives in Porto."), now=NOW)
    assert services.memories.require(trip.memory_id).expires_at == NOW + 30 * DAY
    assert services.memories.require(fact.memory_id).expires_at is None
    assert run_forgetting(services.db, ForgetSettings(), now=NOW + 31 * DAY).expired == 1
    assert services.memories.require(trip.memory_id).status == "archived"


@pytest.mark.parametrize(("text", "topic"), [
    ("Just act like you never heard that thing about my brother's debt, ok?", "my brother's debt"),
    ("forget i ever mentioned the layoffs at my brother's work lol", "the layoffs at my brother's work"),
    ("I regret telling you about my gambling, please remove it.", "my gambling"),
    ("I shouldn't have told you about Nadia's breakup.", "Nadia's breakup"),
    ("刚才说的我妈住院那件事，当我没说", "我妈住院"),
    ("表妹失业的事帮我删掉吧，她不想让人知道", "表妹失业"),
    # round 32, held-out set S: the thing named first, the request after a dash in the same sentence
    ("Oh and the stuff I told you about Rita and the debt - can you forget all that?", "Rita and the debt"),
    ("Tom and the drinking -- please don't keep any of that", "Tom and the drinking"),
    # a thing pointed at with "that" is the thing, not a reason like "That's private"
    ("That whole saga with the landlord. Could you wipe it from your memory?", "whole saga with the landlord"),
])
def test_more_ways_to_ask_to_forget(text, topic):
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) == topic


@pytest.mark.parametrize("text", ["I told you I act like a kid sometimes.", "I regret nothing.", "我没说过这话。"])
def test_not_requests_to_forget(text):
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) is None


@pytest.mark.parametrize(("text", "topic"), [
    ("I'd prefer if you didn't keep the stuff about my debt.", "my debt"),
    ("That bit about my brother's arrest - please don't save it.", "my brother's arrest"),
    ("No need to remember my salary.", "my salary"),
    ("You don't need to remember the thing about my landlord.", "my landlord"),
    ("Get rid of what I said about the lawsuit.", "the lawsuit"),
    ("Ignore what I said about moving to Leeds.", "moving to Leeds"),
    ("Strike the part about my surgery from the record.", "my surgery"),
    ("Can you erase any mention of Priya?", "Priya"),
    ("Don't keep a record of my weight.", "my weight"),
    ("You can forget about the Berlin job, it fell through.", "Berlin job"),
    ("I don't want you remembering my PIN stuff.", "my PIN stuff"),
    ("Take the bit about my court case out of your memory.", "my court case"),
    ("我离婚的事你不用记。", "离婚"),
    ("别把我住址存下来。", "住址"),
    ("刚才说的体重你就当没听见。", "体重"),
    ("帮我把张伟的事从记录里去掉。", "张伟"),
    ("That bit about my salary, don't keep it.", "my salary"),
    ("Can you not remember the bit about my arrest?", "my arrest"),
    ("I don't want you holding on to my address.", "my address"),
    ("我的病情你别存了。", "病情"),  # "you, don't store it": addressed to the memory
    # the thing said named with words before "stuff"/"thing", or fronted before the request
    ("Don't remember the Spotify interview stuff, my boss might see this laptop.", "Spotify interview stuff"),
    ("That thing about Gary — can you drop it from memory? It's gossip.", "Gary"),
    ("The stuff with my ex, please forget it.", "my ex"),
    ("工资那个你别存了哈。", "工资"),  # "that salary thing"
])
def test_asking_not_to_keep_something_is_asking_to_forget_it(text, topic):
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) == topic


@pytest.mark.parametrize("text", [
    "Never log in on public wifi.", "Bin day is Thursday.", "Don't keep me waiting!", "Strike a balance between short and long.",
    "Don't save the date yet, the wedding might move.", "You can't forget your first car.", "Ignore the typos.",
    "Stop tracking my steps, the app is annoying.", "我不用记笔记。", "No need to keep it short, I like detail.",
    "Please don't write so much.", "Get rid of the bullet points please.", "You can drop me at the station.",
    "I don't want you to forget my mum's birthday.", "我老婆说别存钱了，该花就花。", "医生让我把盐去掉。",
    # a statement that something ended, or advice: the words, but nothing asked of the memory
    "Not keeping chickens any more, the fox got them all.", "No point in saving for a house in London.",
    "Not saving much these days with the mortgage.", "Ignore the bit about Tuesday, pottery moved to Wednesday.",
    "Never keep cash at home.", "Don't store potatoes in the fridge.", "Get rid of the weeds first.",
    "Strike while the iron is hot.", "不要存那么多照片在手机里。", "别存着剩饭。", "Don't keep the receipts, they're useless.",
    # a dash before words that ask nothing of the memory
    "I went to the gym - forget it, not important", "the rent went up - can you believe it?",
])
def test_the_same_words_that_ask_nothing_of_the_memory(text):
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) is None



@pytest.mark.parametrize(("content", "topic", "rest"), [
    ("I have two kids. Bram is 9 and Lotte is 6. I earn 42k a year.", "my salary", "I have two kids. Bram is 9 and Lotte is 6."),
    ("My mum's birthday is 3 May. She has been diagnosed with dementia.", "my mum's diagnosis",
     "My mum's birthday is 3 May."),
    ("I earn 42k a year.", "my salary", ""),  # all of it goes
    ("rolled it on the stairs, it's the size of a grapefruit", "the ankle injury thing", ""),  # by meaning: all goes
])
def test_a_message_loses_only_its_sentences_about_the_topic(content, topic, rest):
    from memchat.memory.topic_match import without_topic
    assert without_topic(content, topic) == rest


@pytest.mark.parametrize(("text", "topic"), [
    ("Forget what I just said, it was dumb.", ""), ("Delete my last message.", ""), ("Scratch that last bit.", ""),
    ("Please forget the last thing I said about Tom, it was mean.", "Tom"),
    ("Actually, strike that last thing about my brother from the record.", "my brother"),
    ("刚才那句当我没说。", ""), ("请忘掉我刚才说的体检结果。", "体检"),
])
def test_a_request_about_the_latest_thing_said_is_about_that_alone(text, topic):
    """"The last thing I said about Tom" is one message about Tom, not everything about him — and never
    everything with the word "last" in it."""
    from memchat.memory.forget_requests import ForgetRequest, forget_request
    assert forget_request(text) == ForgetRequest(topic, latest=True)


def _told(services, *said):
    for day, text in enumerate(said, start=1):
        services.writer.process(text, session_id=None, message_id=None, now=day * DAY)


def _told_in_a_chat(services, *said):
    """`said` as one chat session on day 1, a minute apart; returns the session's id."""
    session = services.sessions.create("chat", now=DAY).id
    for minute, text in enumerate(said):
        services.writer.process(text, session_id=session, message_id=None, now=DAY + minute * 60)
    return session


def _alive(services):
    return " | ".join(m.content for m in services.memories.list_items(statuses=("active",), episodes=True))


def test_forgetting_the_last_thing_about_someone_keeps_the_rest_about_them(tmp_path):
    services = fake_services(tmp_path)
    _told(services, "My brother Luis is a chef in Madrid.", "My dad retired last year.",
          "My brother Luis is going through a divorce.")
    services.writer.process("Strike that last thing about my brother from the record.", session_id=None,
                            message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "divorce" not in alive
    assert "chef in Madrid" in alive and "retired last year" in alive


def test_forgetting_what_was_just_said_takes_only_the_latest_message(tmp_path):
    services = fake_services(tmp_path)
    _told(services, "I work as a nurse at St Mary's.", "I earn 42k a year and I'm saving for a flat.")
    services.writer.process("Forget what I just said.", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "42k" not in alive and "flat" not in alive
    assert "nurse at St Mary's" in alive


def test_forgetting_a_sensitive_area_takes_all_of_it(tmp_path):
    """"Erase everything about my health": a condition told in its own words goes too."""
    services = fake_services(tmp_path)
    _told(services, "I've got IBS and it flares up when I'm stressed.", "I play five-a-side on Tuesdays.",
          "My GP put me on iron tablets.", "I work as a nurse at the children's hospital.",
          "I have type 1 diabetes. I work nights at the hospital.")
    services.writer.process("Erase everything you know about my health stuff, please.", session_id=None,
                            message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "IBS" not in alive and "iron tablets" not in alive and "diabetes" not in alive
    assert "five-a-side" in alive
    assert "nurse at the children's hospital" in alive  # a job at a hospital is no part of the user's health
    assert "I work nights at the hospital" in alive  # nor is the sentence beside the diabetes


@pytest.mark.parametrize(("topic", "slots"), [
    ("where I work", ["employer"]), ("my address", ["home"]), ("我工作单位的事", ["job", "employer"]),
    ("住址相关的都", ["home"]),
    ("the Berlin job", []),  # one job, not the slot
    ("my brother's job", []), ("孩子学校的信息", []),  # someone else's: a story about them
])
def test_a_topic_that_names_a_slot_and_nothing_more(topic, slots):
    from memchat.memory.topic_match import named_slots
    assert named_slots(topic) == slots


def test_forgetting_a_slot_takes_every_value_of_the_users_own_and_nobody_elses(tmp_path):
    """"把我工作单位的事删了" — the employer however it was said, the old one too; the sister's home stays."""
    services = fake_services(tmp_path)
    _told(services, "I work as a nurse at St Mary's.", "My sister Ana lives in Porto.", "We live in Leeds.",
          "我在平安保险上班，做理赔。", "I play five-a-side on Tuesdays.")
    services.writer.process("把我工作单位的事删了吧，不想留记录。", session_id=None, message_id=None, now=9 * DAY)
    services.writer.process("Please forget my address, it's private.", session_id=None, message_id=None, now=10 * DAY)
    alive = _alive(services)
    assert "平安" not in alive and "St Mary's" not in alive and "Leeds" not in alive
    assert "Porto" in alive and "five-a-side" in alive


@pytest.mark.parametrize(("told", "kept"), [
    (["My birthday is 9 June.", "My mum's birthday is 3 May."], "3 May"),
    # privacy first: "…and mine is 9 June" is the user's birthday, said in their mum's sentence
    (["My mum's birthday is 3 May and mine is 9 June.", "My sister's birthday is 1 March."], "1 March"),
])
def test_forgetting_the_users_birthday_keeps_a_relatives_said_on_its_own(tmp_path, told, kept):
    services = fake_services(tmp_path)
    _told(services, *told)
    services.writer.process("Please forget my birthday.", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "9 June" not in alive and kept in alive


@pytest.mark.parametrize(("told", "asked", "gone"), [
    ("I voted Green at the last election.", "Forget my politics please, I don't want that on record.", "voted Green"),
    ("We go to St Peter's church most Sundays.", "Please forget anything about my religion.", "church"),
    ("My daughter Maisie has ADHD.", "Please don't keep anything about Maisie's diagnosis, she'd be mortified.",
     "ADHD"),
    ("我有抑郁症，在吃舍曲林。", "我的病情你别存了。", "舍曲林"),
    ("I'm secretly interviewing at Spotify.", "Don't remember the Spotify interview stuff, my boss might see this laptop.",
     "Spotify"),
    ("My neighbour Gary is having an affair.", "That thing about Gary — can you drop it from memory? It's gossip.", "affair"),
    ("我的月薪是两万三。", "工资那个你别存了哈。", "两万三"),
])
def test_beliefs_and_a_diagnosis_told_in_their_own_words_are_forgotten(tmp_path, told, asked, gone):
    services = fake_services(tmp_path)
    _told(services, told, "I play five-a-side on Tuesdays.", "My daughter Maisie is seven.")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert gone not in alive
    assert "five-a-side" in alive and "Maisie is seven" in alive  # the rest of Maisie stays


def test_in_a_chat_what_was_just_said_is_the_users_previous_message(tmp_path):
    """Chatting, "forget what I just said" is about the user's previous message: after small talk that
    stored nothing, nothing goes — not the last message that happened to store something."""
    from memchat.types import MemoryWritten

    conversation = fake_conversation(tmp_path, ("Noted.",) * 6)
    written: list[MemoryWritten] = []
    for text in ("I work as a nurse at St Mary's.", "I earn 42k a year and I'm saving for a flat.",
                 "Forget what I just said."):
        conversation.run_turn(text, emit=lambda e: written.append(e) if isinstance(e, MemoryWritten) else None)
        conversation.settle()
    alive = _alive(conversation.services)
    assert "42k" not in alive and "nurse at St Mary's" in alive
    offers = [o.content for o in written[-1].outcomes if "purge" in o.content]
    assert offers and all("purge-topic" not in o for o in offers)  # the hard delete of what went, no topic's
    assert all(f"--db {conversation.services.settings.db_path}" in o for o in offers)  # of this database
    window = " ".join(m.content for m in conversation.services.sessions.window(conversation.session.id))
    assert "42k" not in window and "nurse" in window  # the next reply does not read it again either
    for text in ("My dog Biscuit is a beagle.", "haha ok", "Forget what I just said."):
        conversation.run_turn(text)
        conversation.settle()
    assert "Biscuit" in _alive(conversation.services)


def test_a_message_the_request_took_a_part_of_is_not_read_again_with_the_chat(tmp_path):
    """Tried in the app (round 20): "My neighbour Doris… I've noticed a lot of wine bottles in her bin" kept its
    first sentence in memory after "forget … Doris and her drinking", so the message was not all forgotten and the
    window sent it to the model again, wine bottles and all, as it was typed."""
    conversation = fake_conversation(tmp_path, ("Noted.",) * 4)
    for text in ("My neighbour Doris has been my rock, we play Scrabble on Thursdays. But I'm worried about her. "
                 "I've noticed a lot of wine bottles in her recycling bin lately.", "I'm growing tomatoes this year.",
                 "Please forget what I told you about Doris and her drinking, it's her business."):
        conversation.run_turn(text)
        conversation.settle()
    assert "wine bottles" not in _alive(conversation.services) and "Scrabble" in _alive(conversation.services)
    window = " ".join(m.content for m in conversation.services.sessions.window(conversation.session.id))
    assert "wine bottles" not in window and "tomatoes" in window


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # the story goes on in a sentence that opens on whom it named: that sentence, and what it stored, go too
    (["My cousin Leo got caught shoplifting. He has a court date in June and he's terrified.",
      "Leo is doing a plumbing apprenticeship."], "forget what I said about Leo and the shoplifting, please",
     ["court date", "shoplifting"], ["plumbing apprenticeship"]),
    (["Our neighbour Ruth started chemo in March. She's lost her hair and barely goes out.", "Ruth has a lovely garden."],
     "Delete the bit about Ruth's chemo, it's not mine to share.", ["chemo", "lost her hair"], ["lovely garden"]),
    # two people and one story: the story of both, not everything about the first of them
    (["My friend Omar has two kids.", "He and his wife Lena are separating, she's moving out next week."],
     "Can you forget what I told you about Omar and Lena splitting up? They'd hate it.", ["separating"], ["two kids"]),
    (["My daughter Jo lives in Bath.", "Jo and Sam had a massive row at the wedding, they're not speaking."],
     "Forget what I said about Jo and Sam's row.", ["massive row"], ["lives in Bath"]),
    # Chinese requests that close on 了 and particles
    (["我表姐被裁员了，现在在找工作。"], "我表姐被裁员那件事，你就别留着了吧，她还没告诉家里。", ["裁员"], []),
    (["我舅舅上个月住院了，肝不好。"], "上次说的我舅住院的事，不要记录了，他挺在意的。", ["住院"], []),
    (["我同学小李借了我五千块钱。"], "关于小李借钱那个，删掉了啊。", ["五千"], []),
    # the person named in a forgotten sentence is not the story: "The user's brother is Tom" stays
    (["My brother Tom got arrested last week. Anyway, I start at Aviva on Monday."], "Please forget about Tom's arrest.",
     ["arrested"], ["brother", "Aviva"]),
    # a sentence after the forgotten one that is a fact of its own stays
    (["Dad's knee surgery is on Friday. He's turning 70 in June."], "Forget Dad's knee surgery.", ["knee"], ["70"]),
    # advice and errands are no requests
    (["My gran's carrot cake recipe is my favourite thing to bake."], "Regarding the cake, don't keep it in the fridge.",
     [], ["carrot cake"]),
    (["I keep my bike in the hallway."], "Do me a favour and remove the bins on Friday.", [], ["bike"]),
])
def test_a_story_is_forgotten_whole_and_no_more_than_was_asked(tmp_path, told, asked, gone, kept):
    _assert_forgets(tmp_path, told, asked, gone, kept)


def _assert_forgets(tmp_path, told, asked, gone, kept):
    """After `told`, the request `asked` leaves none of `gone` and all of `kept` among what memory holds."""
    services = fake_services(tmp_path)
    _told(services, *told)
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in gone if g in alive], alive
    assert all(k in alive for k in kept), alive


def _assert_a_chat_forgets(tmp_path, told, asked, gone, kept):
    """After `told` as one chat, the request `asked` in it leaves none of `gone` and all of `kept` in memory."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, *told)
    services.writer.process(asked, session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in gone if g in alive], alive
    assert all(k in alive for k in kept), alive


@pytest.mark.parametrize("text", ["别记住了哈", "删掉了啊"])
def test_a_chinese_request_with_no_topic_left_is_no_topic(text):
    from memchat.memory.forget_requests import forget_request
    request = forget_request(text)
    assert request is None or request.topic not in ("住了哈", "了啊")


@pytest.mark.parametrize(("told", "asked", "gone"), [
    (["My credit score tanked after I missed three mortgage payments."],
     "Can we keep my money problems off the record please", ["mortgage"]),  # "off the record"; the area named
    (["Tilly, my niece, is being bullied at school."], "About Tilly being bullied - please don't keep that.", ["bullied"]),
    (["My dad has early onset Alzheimer's. He forgets my name some days."],
     "forget my dad's diagnosis pls, the family hasn't told anyone", ["Alzheimer", "forgets my name"]),  # an illness
    (["我老公炒股亏了二十万，还瞒着他爸妈。"], "我老公炒股亏钱那事，别给我记着哈，丢人。", ["二十万"]),
    # a favour asked before the request; names with accented letters are names
    (["My pal Tom's job is going badly. His partner Zoë left and he's staying on a sofa."],
     "Be a dear and forget the Tom and Zoë business, they'd hate it getting around.", ["going badly", "sofa"]),
    (["My overdraft is at its limit again."], "Could you do me a kindness and scrap that stuff about my overdraft, it's sorted now.",
     ["overdraft is"]),
    (["Colm is having an affair with his boss."], "Would you mind forgetting the thing about Colm, he asked me not to tell anyone.",
     ["affair"]),
    # "pretend I never said it", then another verb: the topic ends at the first
    (["我表哥借了高利贷，现在还不上。"], "我表哥借钱的事你当我没提过，删掉吧，他不想让人知道。", ["高利贷"]),
])
def test_more_ways_to_ask_and_illnesses_by_name(tmp_path, told, asked, gone):
    services = fake_services(tmp_path)
    _told(services, *told, "I play five-a-side on Tuesdays.")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in gone if g in alive], alive
    assert "five-a-side" in alive


@pytest.mark.parametrize("text", ["Keep it short please.", "Let's keep this between us.", "Keep the receipts off the table."])
def test_keeping_that_is_not_about_the_record(text):
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) is None


@pytest.mark.parametrize("text", ["Do me a favour and pick up milk on the way home.", "你就当我没说过吧", "删了吧"])
def test_a_favour_or_a_bare_verb_names_no_topic(text):
    from memchat.memory.forget_requests import forget_request
    request = forget_request(text)
    assert request is None or request.topic == ""


@pytest.mark.parametrize("text", [
    "Would you mind removing your shoes?", "Would you mind dropping me off at work?", "Be a love and clear the table.",
    "Be a mate and drop the kids at school tomorrow.", "Do me a favour and delete the old photos from my phone.",
    "About dinner, don't save it for me.", "As for the car, don't keep it, sell it.", "当没说过就算了吧",
])
def test_favours_and_advice_are_not_requests_to_forget(text):
    from memchat.memory.forget_requests import forget_request
    request = forget_request(text)
    assert request is None or request.topic == ""


@pytest.mark.parametrize(("told", "asked", "gone"), [
    # "it": what the message brought up before its request
    (["My cousin Dev got arrested at a protest in June."],
     "Remember what I told you about Dev getting arrested? Not my story to tell. Please erase it from wherever you keep "
     "stuff.", ["arrested"]),
    (["Our neighbour's teenage son has been caught shoplifting twice."],
     "You know that story about the neighbour's son and the shoplifting? Bin it from your files, thanks.", ["shoplifting"]),
    (["I had a panic attack at work on Monday and had to go home."],
     "About the panic attack. I'd really like you to delete it.", ["panic attack"]),
    # a favour before a qualified thing said
    (["I got a £90 parking fine and I'm appealing it."],
     "Be a star and erase the entire parking fine saga from your records.", ["parking fine"]),
    (["Our landlord is refusing to return the deposit and we're going to small claims."],
     "Do me a kindness and scrap the whole landlord deposit thing.", ["small claims"]),
    # a second topic added after the request
    (["My mate Pim is in a lot of overdraft.", "Pim has a gambling problem, it's bad."],
     "Forget what I said about Pim's overdraft. The gambling part too, I'd rather that wasn't kept.",
     ["overdraft", "gambling"]),
    (["My landlord sent me an eviction letter.", "The landlord is Mr Hughes and he's a nightmare."],
     "Scrap the bit about the eviction letter. Same for the landlord.", ["eviction", "Hughes"]),
    # "it" after a greeting, and a request in the second of two joined clauses
    (["My flatmate Ines is being investigated for fraud at her bank."],
     "Morning! Quick one. Earlier I told you about Ines and the fraud investigation. Not mine to share. Could you just "
     "leave it, wipe it from wherever you keep things?", ["fraud"]),
    (["Uncle Raj lost his licence for drink driving."],
     "Good evening. Remember what I said about Uncle Raj and the drink driving? Please drop it and erase it from your "
     "memory.", ["drink driving"]),
    (["I had a second interview at Halden Labs on Friday."],
     "Right, one thing I meant to mention - the Halden Labs business, the interview? Please wipe that from your "
     "records. It came to nothing.", ["Halden"]),
    # northern speech: 俺 and 额 for 我, a bare 给 before the verb
    (["俺闺女跟班上一个男生在网上聊得火热，怕是早恋了。"], "俺闺女那个事你给删了吧", ["早恋"]),
    (["额女儿最近跟一个叫周鹏的男娃走得很近。"], "女儿那个事你给额删了啊 娃知道了要闹", ["周鹏"]),
    # Chinese: 那条 closing the topic; a one-character relative after 我
    (["上周去做了针灸，治颈椎病。"], "刚才说去做针灸那条你删了吧", ["针灸"]),
    (["我姐离婚了，正在打官司争孩子。"], "我姐那个事你别记了", ["离婚"]),
])
def test_it_a_qualified_thing_and_a_topic_added_after(tmp_path, told, asked, gone):
    services = fake_services(tmp_path)
    _told(services, *told, "I play five-a-side on Tuesdays.")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in gone if g in alive], alive
    assert "five-a-side" in alive


@pytest.mark.parametrize("text", [
    "Forget my salary. The weather is nice too.",  # a remark after a request adds nothing to it
    "Forget my salary. I love you too.",
])
def test_a_remark_after_a_request_adds_no_topic(text):
    from memchat.memory.forget_requests import forget_request
    assert forget_request(text).topic == "my salary"


@pytest.mark.parametrize("text", ["Bin it, it's gone off.", "Toss it in the salad.", "Lose it, mate, it's not worth it."])
def test_throwing_it_away_is_a_request_only_with_where_it_is_kept(text):
    from memchat.memory.forget_requests import forget_request
    assert forget_request(f"The milk smells weird. {text}") is None


@pytest.mark.parametrize(("told", "asked", "gone"), [
    ("I was diagnosed with nephrolithiasis, I'm on tamsulosin now.", "Remove whatever I said about my kidney.",
     "nephrolithiasis"),
    ("Had a hepatitis scare, bloods came back fine in the end.", "Drop the thing about my liver please.", "hepatitis"),
    ("My osteoarthritis flares up when it's cold.", "Please forget about my joints.", "osteoarthritis"),
    ("The dermatologist put me on isotretinoin for the acne.",
     "Please drop what I told you about my skin, I don't want health stuff kept.", "isotretinoin"),
])
def test_a_body_part_forgets_what_a_doctors_word_for_it_said(tmp_path, told, asked, gone):
    services = fake_services(tmp_path)
    _told(services, told, "I play five-a-side on Tuesdays.", "I'm back from Spain, the spine of my book broke on the way.")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert gone not in alive and "five-a-side" in alive and "Spain" in alive, alive


@pytest.mark.parametrize(("told", "asked", "kept"), [
    # found in review: a body part only as what the topic is about, its root only at a word's start
    ("My mum has rheumatoid arthritis.", "Forget what I said about our joint account.", "arthritis"),
    ("I love the adrenaline rush of skydiving.", "Forget what I said about my kidney.", "adrenaline"),
    ("I was diagnosed with asthma last year.", "Forget what I said about the chest of drawers.", "asthma"),
    # a remark after a request adds no topic; "and also" is news
    ("We went to the zoo on Saturday, the kids loved it.", "Forget what I said about the party. The kids loved it too.",
     "zoo"),
])
def test_found_in_review_forgetting_takes_no_more_than_asked(tmp_path, told, asked, kept):
    services = fake_services(tmp_path)
    _told(services, told, "I play five-a-side on Tuesdays.")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    assert kept in _alive(services)


def test_a_kind_of_thing_after_a_request_is_its_reason_not_a_topic_of_its_own(tmp_path):
    """Found on held-out set C: "medical" as a topic part of its own took the user's employer, "Brightside Medical"."""
    from memchat.memory.forget_requests import forget_request
    asked = "Please drop what I said about my knee surgery. I don't want medical stuff saved."
    assert forget_request(asked).topic == "my knee surgery"
    services = fake_services(tmp_path)
    _told(services, "I had knee surgery in March.", "I work at Brightside Medical Supplies as a buyer.")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "knee surgery" not in alive and "Brightside Medical" in alive, alive


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # a story's details go on in a sentence that opens on "His/Her…", in a message long enough to be split
    ("Right, this is a bit delicate so go easy on me, my old flatmate Joaquin is in the middle of a nasty tax "
     "investigation. His accountant apparently filed nothing for three years and now the revenue people want forty "
     "thousand back, and nobody at his work knows yet.",
     "Please forget what I told you about Joaquin and the tax investigation.", ["accountant", "investigation"], []),
    # …and what the next window says besides the story stays (review)
    ("Right, this is a bit delicate so go easy on me, my old flatmate Joaquin is in the middle of a nasty tax "
     "investigation. His accountant apparently filed nothing for three years and now the revenue people want forty "
     "thousand back. Totally unrelated but I finally learned to make proper bacalhau last winter and now I cook it "
     "every Sunday for Marta and the kids, which they love.",
     "Please forget what I told you about Joaquin and the tax investigation.", ["accountant"], ["bacalhau"]),
    # "that" with where it is kept: what the message named before it, not "your notes"
    ("The hostel mix-up in Porto cost me two nights on a bench at the station.",
     "So, the Porto hostel thing? Please wipe that from your notes. Nothing came of it.", ["bench"], []),
    # a statement trailing off into "…fine?" tells something, and its name is what the request names
    ("I did a trial shift at Crumb & Co on Monday and it went... fine? I'd have to start at five.",
     "Forget what I said about the trial shift at Crumb & Co.", ["Crumb"], []),
    # the topic first, then "forget I mentioned it", "forget about it", "pretend I never said it"
    ("My neighbour Tobiah borrowed 800 quid off me for his van repairs and hasn't paid it back.",
     "Honestly, the stuff I told you about Tobiah and the money, forget I mentioned it.", ["800"], []),
    ("My cousin Sunniva is dating her married boss, it's a whole mess.",
     "What I said about Sunniva and her boss, forget about it, it's none of my business.", ["married boss"], []),
    ("Anyway my friend Ravi got caught shoplifting at the garden centre, can't believe it.",
     "Anyway, that drama I told you about with Ravi - pretend I never said it.", ["shoplifting"], []),
    # Chinese: a note in brackets says which thing; the topic, the verb and the reason apart by spaces
    ("阿玲要离婚了，已经分居两个月了。", "之前讲的阿玲那件事（离婚）你帮我删掉吧 她不想声张", ["离婚"], []),
    ("老周上个月住院了，心脏搭了个桥。", "上回说老周住院那事 你删了吧 他不想让人知道", ["住院"], []),
    ("我堂妹退学了，她爸妈还不知道。", "我堂妹退学那个 别存了 她爸妈还不知道", ["退学"], []),
    # news told to us after a space ("偷偷告诉你 …") is kept to be forgotten; a relation that tells the detail goes too
    ("偷偷告诉你 小敏要离婚了！她是我大学室友 认识十几年了 已经分居三个月了 目前只有我知道", "小敏离婚那件事你帮我删了吧",
     ["离婚", "分居"], []),
])
def test_found_on_held_out_set_d_forget_requests_in_more_shapes(tmp_path, told, asked, gone, kept):
    """Kinds a helper found on a fresh held-out set (D), each written here in sentences of our own."""
    services = fake_services(tmp_path)
    _told(services, told, "I play five-a-side on Tuesdays.")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in gone if g in alive], alive
    assert "five-a-side" in alive and all(k in alive for k in kept), alive


@pytest.mark.parametrize("said", ["钱别存了 买点好吃的", "这个月工资别存了，花了吧", "The drama club meets on Fridays, forget it.",
                                  # found in review: the user's own forgetting, and a thing said of the world
                                  "作业忘了啦 明天补", "密码忘了啊 怎么办", "你说的那件事我忘了", "我生日你忘了",
                                  "钥匙又忘了 只能等老公回来", "The drama on the show, forget it, it was scripted.",
                                  "This matter on my desk - scrap it, it's junk mail.",
                                  # the user reporting what they deleted
                                  "关于那个项目的文件都删了", "照片我全删了", "聊天记录全删了", "关于前任的东西全删了",
                                  "小时候的事情都忘了", "我喝多了，昨天的事全忘了", "考试的事情全忘了，怎么办"])
def test_look_alikes_of_the_new_request_shapes_are_not_requests(said):
    from memchat.memory.forget_requests import forget_request
    assert forget_request(said) is None


def test_forgetting_everything_about_two_people_takes_what_each_of_them_was_told_with(tmp_path):
    """Review: "everything about Ravi and Priya" must reach an arrest told of each of them alone."""
    services = fake_services(tmp_path)
    _told(services, "Ravi got arrested for drink driving on Saturday.", "Priya got arrested with him too.")
    services.writer.process("Please forget everything I told you about Ravi and Priya.", session_id=None,
                            message_id=None, now=9 * DAY)
    assert "arrested" not in _alive(services)


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # a person and a vague "thing": the story about them goes, who they are stays
    (["My daughter Ella is 14 and loves netball.",
      "My daughter has been self-harming, we're getting her help from the GP."],
     "Forget that thing about my daughter, please.", ["self-harming"], ["netball"]),
    (["我女儿叫小雨，今年上初二。", "女儿最近跟班上一个男生走得很近，天天聊到半夜，我怕她早恋，又不敢说她。"],
     "女儿那个事你给我删了啊，她会不高兴的", ["早恋"], ["小雨"]),
    # short private stories go too: only what is shown to say who they are stays
    (["My sister Anna lives in Leeds.", "My sister is pregnant."], "Forget that thing about my sister.",
     ["pregnant"], ["Leeds"]),
    (["My son Ben is 17 and plays guitar.", "My son came out as gay last week."], "Forget that thing about my son.",
     ["gay"], ["guitar"]),
    (["My friend Ella loves hiking.", "Ella cheated on her boyfriend."], "Forget the thing about Ella.",
     ["cheated"], ["hiking"]),
    (["My daughter Ella is 19. She had an abortion in March."], "Forget that thing about my daughter.",
     ["abortion"], ["19"]),
    (["我儿子叫小明，今年二十岁。", "我儿子跟我说他喜欢男生。"], "儿子那个事你给我删了", ["男生"], ["小明"]),
    (["我哥叫阿强，住在广州。", "我哥欠了别人二十万。"], "我哥那个事你给我删了", ["二十万"], ["广州"]),
    (["My brother Tom lives in Hull.", "My brother is doing time in Wandsworth."], "Forget that thing about my brother.",
     ["Wandsworth"], ["Hull"]),
    (["我爸叫老王，六十岁了。", "我爸住院了，心脏不好。"], "我爸那个事你给我删了", ["住院"], ["老王"]),
    # "all the stuff", 全部: everything about them, as asked
    (["My brother Tom lives in Hull.", "My brother owes the bank thirty grand."], "Forget all the stuff about my brother.",
     ["Hull", "thirty grand"], []),
    (["我女儿叫小雨，今年上初二。", "女儿最近早恋了，我很担心。"], "女儿的事全部删了吧", ["小雨", "早恋"], []),
    (["我女儿叫小雨，今年上初二。", "女儿最近早恋了，我很担心。"], "关于我女儿的全部删掉", ["小雨", "早恋"], []),
    (["我女儿叫小雨，今年上初二。", "女儿最近早恋了，我很担心。"], "把我女儿的事情全删了", ["小雨", "早恋"], []),
    # who they are, and nothing else, is what was asked for: it goes
    (["My cousin Ravi lives in Derby."], "Forget that thing about my cousin.", ["Derby"], []),
    # no vague "thing": everything told about the person goes, as asked
    (["My brother Tom lives in Hull.", "My brother's been arrested for drink driving, court is next month."],
     "Please forget everything I told you about my brother.", ["arrested", "Hull"], []),
])
def test_the_thing_about_a_person_is_their_story_not_who_they_are(tmp_path, told, asked, gone, kept):
    _assert_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize("asked", ["Forget everything about my sister.", "Forget that thing about my sister."])
def test_a_story_told_over_messages_goes_with_the_person(tmp_path, asked):
    """"My sister has a secret." / "She's seeing a married man." / "She's pregnant by him.": the messages that go on
    about her with "she" go with her; the next thing the user talks about stays."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, "I live in Porto.", "My sister Anna lives in Leeds.", "My sister has a secret.",
                              "She's seeing a married man.", "She's pregnant by him.", "I'm off to the gym.")
    services.writer.process(asked, session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in ("secret", "married man", "pregnant") if g in alive], alive
    assert "Porto" in alive and "gym" in alive, alive
    assert ("Leeds" in alive) == ("that thing" in asked), alive  # a vague thing: who she is stays


@pytest.mark.parametrize("after", ["They say it'll rain all weekend.", "He's been amazing, my husband, so supportive.",
                                   "They cancelled my train so I'm working from home."])
def test_the_next_message_about_someone_else_stays(tmp_path, after):
    """Found in review: only "she" goes on about a sister, and only while nobody else is named."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, "My sister has a secret.", after)
    services.writer.process("Forget everything about my sister.", session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "secret" not in alive and after[:12] in alive, alive


@pytest.mark.parametrize(("text", "kept"), [
    ("Forget what I said about Omar's debts. I really shouldn't have told you, it's not my story to tell. "
     "Also I've started at the leisure centre on Monday.", "Also I've started at the leisure centre on Monday."),
    ("Please delete the thing about my cousin's court case. I was just venting and I overshared.", ""),
    ("把我表哥的事删了吧。我不该说的。我下周去杭州出差。", "我下周去杭州出差。"),
])
def test_a_reason_about_the_telling_is_not_kept_beside_a_request(text, kept):
    """Regret or venting is about the request; only news besides it stays."""
    from memchat.memory.forget_requests import besides_forget, forget_request
    assert besides_forget(text, forget_request(text).topic) == kept


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    ("说说我家里人 老公叫张伟 在银行上班 儿子叫张小军 上高一 最近老逃课去网吧 被老师抓了两回",
     "儿子那个事你给俺删了", ["网吧", "逃课"], ["张伟", "银行"]),
    ("俺屋里三口人 婆姨叫李梅 在医院当护士 闺女叫小燕 跟一个网上认识的男的跑了 俺都快急死了",
     "闺女的事你给俺删了吧", ["网上认识", "跑了"], ["李梅", "护士"]),
    ("跟你说个秘密 阿敏离婚了！！她是我高中同学 最好的朋友 刚签的字 还没告诉她爸妈 我心里也不好受 明天我去上海出差",
     "阿敏那个事你帮我删了吧", ["离婚", "刚签的字", "她爸妈"], ["上海出差"]),
    ("偷偷说 新工资一个月一万八 比之前多了三千 爽", "工资那个事你别记了", ["一万八", "三千"], []),
])
def test_a_story_in_chinese_typed_with_spaces_goes_and_the_rest_of_the_message_stays(tmp_path, told, asked, gone, kept):
    """A message typed with spaces for stops tells about two people: forgetting one's story keeps the other. After a
    chunk that names the person, chunks that name no one go on about them (Chinese leaves the subject out)."""
    services = fake_services(tmp_path)
    _told(services, told, "我住在西安。")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in gone if g in alive], alive
    assert all(k in alive for k in kept) and "西安" in alive, alive
    typed = " | ".join(m.content for m in services.memories.list_items(statuses=("active",)))
    assert all(k in typed for k in kept if k not in ("上海出差",)), f"the typed memory keeps the rest too: {typed}"


def test_what_goes_on_telling_a_forgotten_sentence_goes_with_it_and_a_vague_word_is_no_topic(tmp_path):
    """"the Bellwether thing" is about Bellwether, not every sentence with "thing" in it; a remark on the sentence that
    goes ("Not great.") and the sentence after it about "them" go too; what the message turns to next stays."""
    services = fake_services(tmp_path)
    _told(services, "I had a trial shift at Bellwether Bakery on Saturday and it was chaos. Not great. They want "
                    "someone with five years' experience, which isn't the same thing as enthusiasm. Anyway, I'm off to "
                    "the gym now.")
    services.writer.process("Forget the Bellwether thing, please.", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "Bellwether" not in alive and "five years" not in alive and "Not great" not in alive, alive
    assert "gym" in alive, alive


def test_forgetting_someones_relative_keeps_what_was_said_of_them(tmp_path):
    """"Priti's husband" is the husband: what was said of Priti herself stays."""
    services = fake_services(tmp_path)
    _told(services, "My friend Priti is in my running club.", "Priti is moving to Bristol in June.",
          "Priti's husband Sanjay has been gambling away their savings.")
    services.writer.process("Forget what I told you about Priti's husband.", session_id=None, message_id=None,
                            now=9 * DAY)
    alive = _alive(services)
    assert "gambling" not in alive and "running club" in alive and "Bristol" in alive, alive


@pytest.mark.parametrize("text", [
    "I had a yoga membership at Flow Studio. I cancelled it, so could you drop it from the budget?",
    "My physio moved to Monday. Could you update my reminder, and please clear it from the calendar?",
    "Please drop it and move on.", "Can you leave it and tell me a story instead?",
])
def test_clearing_it_from_somewhere_else_is_no_request_to_forget(text):
    """Found in review: "…it from the budget" is not where memories are kept, and two verbs are not a topic."""
    from memchat.memory.forget_requests import forget_request
    request = forget_request(text)
    assert request is None or request.topic == "", request


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # a greeting is not what "it" stands for
    (["My cousin Ravi was arrested for fraud.", "I'm really happy with my new flat."],
     "Happy Friday! The thing about Ravi's arrest. Could you just leave it, wipe it from wherever you keep things?",
     ["arrested"], ["new flat"]),
    # a colon after something told says what it was, not a second topic
    (["My cat is called Mochi.", "My bank password hint is my first school."],
     "Last week I told you my bank password hint: my first school. Please wipe that from your records.",
     ["password"], ["Mochi"]),
    # a dash after a person: their part in it, not all said of them
    (["My friend Lena lives in Graz.", "Lena is going through a messy divorce."],
     "I said something about Lena yesterday - the divorce. Please erase it from your memory.",
     ["divorce"], ["Graz"]),
    # news after the forgotten sentence is not a remark on it
    (["My cousin Ravi was arrested for fraud. Finally quit smoking. Exam results came back."],
     "Forget what I said about Ravi's arrest.", ["arrested"], ["quit smoking", "Exam results"]),
])
def test_review_cases_forget_what_was_asked_and_nothing_else(tmp_path, told, asked, gone, kept):
    _assert_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize("text", [
    "Forget the Ravi thing. I was venting about work all week, but I got promoted today!",
    "阿明那个事你别记了。我不该说的，不过我下个月结婚。",
    "阿明那个事你别记了。医生说我不该说话，嗓子发炎了。",
])
def test_news_beside_a_regret_is_kept(text):
    from memchat.memory.forget_requests import besides_forget, forget_request
    kept = besides_forget(text, forget_request(text).topic)
    assert kept and not forget_request(kept), kept


@pytest.mark.parametrize(("told", "gone", "kept"), [
    ("阿敏离婚了，刚签的字。今天 好开心 下午去游泳 晚上吃火锅", ["离婚"], ["游泳", "火锅"]),
])
def test_a_chinese_story_does_not_run_on_into_the_next_sentence(tmp_path, told, gone, kept):
    services = fake_services(tmp_path)
    _told(services, told)
    services.writer.process("阿敏那个事你帮我删了吧", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in gone if g in alive] and all(k in alive for k in kept), alive


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # a greeting word opening a disclosure is no greeting
    ([], "Hope you won't think less of me, but I had a breakdown last spring. Please wipe it from your memory.",
     ["breakdown"], []),
    # a regret with news in the same sentence keeps the news
    (["My friend Kim is cheating on her husband."], "Forget what I said about Kim. I was venting because my dad died "
     "yesterday.", ["cheating"], ["dad died"]),
    (["我朋友小林在赌博。"], "小林那个事你别记了。我不该说的，我下个月要结婚了。", ["赌博"], ["结婚"]),
    # spaces between words of a punctuated Chinese sentence are no stops
    (["我哥欠了 20万 赌债，我在腾讯上班。"], "把我哥欠钱的事忘了吧", ["赌债"], []),
    # a short exclamation with news of the user's own is no remark
    (["My cousin Ben got arrested for shoplifting. Great, I'm pregnant!"], "Forget what I said about Ben's arrest.",
     ["arrested"], ["pregnant"]),
])
def test_second_review_cases(tmp_path, told, asked, gone, kept):
    services = fake_services(tmp_path)
    _told(services, *told, "I play five-a-side on Tuesdays.")
    services.writer.process(asked, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in gone if g in alive], alive
    assert all(k in alive for k in kept) and "five-a-side" in alive, alive


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # whose story it is, said first, takes only the story: 老陈 is the husband, his profile stays
    (["老陈是我老公，以前开公交车的，去年退休了。", "老陈前年借给他一个战友五万块钱，到现在都没还。"],
     "别记我说的那个老陈借钱的事了，家丑不外扬。", ["五万"], ["公交车"]),
    (["我弟是医生，在成都。", "我弟又欠了别人十几万，天天躲着不接电话。"], "把我弟欠钱的事忘了吧", ["十几万"], ["医生"]),
    (["王姐是我以前的老邻居，人很好。", "王姐上个月离婚了，她老公在外面有人。"], "王姐离婚的事你别记了", ["离婚"], ["老邻居"]),
])
def test_a_chinese_story_of_someone_is_not_everything_said_of_them(tmp_path, told, asked, gone, kept):
    _assert_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("text", "topic"), [
    ("I wanted to ask, could you please not keep anything about Michael's marriage troubles? He'd be mortified.",
     "Michael's marriage troubles"),
    ("forget whatever i said abt ananya's dad's health. she wants it private", "ananya's dad's health"),
    ("Actually, can you forget the stuff I said about that nurse on my unit a while back?", "nurse on my unit"),
])
def test_more_ways_to_ask_found_on_set_i(text, topic):
    """Held-out set I (round 20): an "I wanted to ask," opener, "please not keep", "abt", "a while back"."""
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) == topic


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # the story goes on after the name, of "her", in the message's next sentences or the next message
    (["My neighbour Doris has been my rock, we play Scrabble on Thursdays. But I'm a little worried about her. "
      "I've noticed a lot of wine bottles in her recycling bin lately.", "I'm growing tomatoes this year."],
     "Please forget what I told you about Doris and her drinking, it's her business.", ["wine bottles"],
     ["tomatoes"]),
    (["My sister Niamh lives in Edinburgh and works in a bank.",
      "To be fair to her, her and her husband Steven are having a rough time, he's moved out for now."],
     "Can you forget everything I told you about Niamh's marriage?", ["Steven"], ["bank"]),
    (["Kirsty told me in confidence that she and her wife are starting IVF next month."],
     "Please scrub what I told you about Kirsty's fertility stuff.", ["IVF"], []),
    # typed without capitals: a word that names no concept is who; the next message's "he" goes on with it
    (["rohit lost his job last week. layoffs at his startup", "he took 3 lakh loan from me, says will return",
      "flatmate is rohit, we split the rent"],
     "pls forget the rohit money stuff. his matter, not mine", ["3 lakh"], ["split the rent"]),
    # whose health it is does not take everything said of them
    (["ananya's dad had bypass surgery on tuesday.", "wedding moved up to december 12 now. her dad wants it sooner"],
     "forget whatever i said abt ananya's dad's health", ["bypass"], ["december 12"]),
    # a slot said in words no typed memory kept
    (["current ctc 24 lpa, they offered 36."], "pls forget my salary numbers i told you, privacy", ["24 lpa"], []),
    # someone called by their work is not the user's own work
    (["I'm an ICU nurse at the Queen Elizabeth.", "There's a nurse on my unit who keeps swapping off weekends."],
     "Can you forget the stuff I said about that nurse on my unit?", ["swapping"], ["Queen Elizabeth"]),
    (["表哥找我借三万块", "说是做生意周转，有点犹豫", "我养了一只柯基"], "表哥借钱那事你忘了吧，家丑不外扬",
     ["三万", "周转"], ["柯基"]),
])
def test_stories_told_on_and_found_on_set_i(tmp_path, told, asked, gone, kept):
    _assert_a_chat_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # a long Chinese story is told by a pair of its characters or two of them, not one (上 of 肺上 took a house sale)
    (["老周上个礼拜天签了合同，高兴得很。", "老周体检查出肺上有个小结节。"], "老周肺上那个结节的事你删了吧",
     ["结节"], ["签了合同"]),
    # the frame of a Chinese request ("前段时间跟你说的…") is no part of the story; the people in it are whose, not what
    (["我儿子在深圳做软件，儿媳妇是护士。", "儿子跟儿媳妇最近一直在冷战。"], "前段时间跟你说的我儿子儿媳吵架那件事，你别记了",
     ["冷战"], ["护士"]),
    (["我在社区医院做护士。", "去年我弟做生意亏了，找我借了三万。"], "借钱给我弟弟那个事，你就当我没说过。", ["三万"], ["护士"]),
    # "…and all of it": all said of them; a sentence that leaves out its subject ("wants to borrow…") goes on
    (["My ex Sheila rang out of nowhere, she lives in Reno now with her new fella. wants to borrow 2 grand for her rent.",
      "I play darts on Fridays."],
     "please forget what I said about Sheila and the money and all of it", ["Reno", "2 grand"], ["darts"]),
    # a lowercase name beside what happened: their part in it, and the next message that opens on them and names them
    (["my flatmate zoe plays drums at night", "also zoe lent her brother 500 quid, he never paid it back",
      "now he blocks her number. she cries a lot, poor zoe"],
     "delete what i said about zoe and money", ["500 quid", "blocks her number"], ["plays drums"]),
    # a story of the user's own in other words than the request's ("therapist" — "counsellor")
    (["had a panic attack at work yesterday", "i see a counsellor at the student centre every monday",
      "i started bouldering last week"], "forget about the panic attacks and the therapist", ["counsellor"], ["bouldering"]),
    (["I filed chapter 11 for my bakery in 2019 and lost the lease.", "My daughter is getting married in June."],
     "scratch that part about the bankruptcy, it's behind me", ["chapter 11"], ["married in June"]),
])
def test_stories_found_on_set_j(tmp_path, told, asked, gone, kept):
    """Found on held-out set J (round 21): Chinese forget took what only shared a character with the story (a
    flat's contract, the user's name and age for a son's marriage), and English kept what went on without a
    shared word."""
    _assert_a_chat_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("text", "topic"), [
    ("Could you delete the bit about the complaint from a few weeks ago? It's closed.", "the complaint"),
    ("Don't keep that stuff about Mia from last time, please - it's her business.", "Mia"),
    ("forget what I told you about the restructure at Rohan's work too. His team is fine.", "the restructure at Rohan's work"),
    ("Can you delete everything about that whole thing, the lump, the biopsy, all of it. I don't want it kept.",
     "the lump and the biopsy"),
])
def test_when_it_was_said_and_which_thing_are_no_part_of_the_topic(text, topic):
    """Found on set J: "…the complaint from a few weeks ago" kept "from", "…about that whole thing, the lump, the
    biopsy" asked for "whole thing" and forgot nothing."""
    from memchat.memory.forget_requests import forget_request
    assert forget_request(text).topic == topic


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # a story at someone's work goes on in the area's words ("a meeting with HR"), of him
    (["Rohan's had a letter saying his department is being restructured.", "He's got a meeting with HR next week.",
      "I booked the tennis court for Sunday."],
     "forget what I told you about the restructure at Rohan's work", ["meeting with HR"], ["tennis court"]),
    # what they said, told with no subject, goes on about the one forgotten (Chinese leaves out whose words)
    (["表哥找我借了两万", "说年底还，估计悬", "我养了一只柯基"], "表哥那事别记了哈", ["两万", "年底还"], ["柯基"]),
    # a visit to the doctor is the user's health, however it was said
    (["最近焦虑，医生开了舍曲林", "周末去西湖边citywalk"], "看病那条删了吧，隐私", ["舍曲林"], ["citywalk"]),
])
def test_stories_found_on_set_j_second_half(tmp_path, told, asked, gone, kept):
    """Set J's second half, traced after its clean run (forget 0.25 there): the same kinds of story, told on in
    other words than the request's."""
    _assert_a_chat_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("text", "topic"), [
    ("On reflection, please do forget what I said about Margaret's husband.", "Margaret's husband"),
    ("Actually I probably shouldn't have told you about Lucy, she'd kill me. Forget her news for now.", "Lucy's news"),
    ("他住院那事你别记了，我爸不想让人知道。", "我爸住院"),
    ("被辞退那事你先别记了，等我找到下家再说。", "被辞退"),
    ("看心理医生那个事能不能帮我删掉，不太想留记录。", "看心理医生"),
    ("Forget about the vasectomy thing mate, bit personal.", "vasectomy thing"),
    ("Kindly don't keep my HIV status in memory, I have told very few people.", "my HIV status"),
])
def test_fillers_and_pronouns_around_a_topic(text, topic):
    """A fresh set of forget requests written by a helper (set K, round 21): "please do forget" was no request, a
    topic kept "for now", "mate", "in memory", 你先, 能不能, and "her news", 他住院 named nobody."""
    from memchat.memory.forget_requests import forget_request
    assert forget_request(text).topic == topic


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # the next message goes on with the story without its words: "Hasn't told…", "His public defender says…", 医生说
    (["Big news, my sister Beth is expecting! Due in March.", "Hasn't told her boss yet, wants to wait for the scan.",
      "Other news, I've started a pottery class."],
     "I shouldn't have said anything about Beth. Forget her news.", ["Hasn't told her boss"], ["pottery class"]),
    (["My nephew Kyle was arrested on Saturday for possession.", "His solicitor says he might get a caution.",
      "In other news, the runner beans are finally up."],
     "Please forget about Kyle's arrest.", ["might get a caution"], ["runner beans"]),
    (["我妈上周做了心脏搭桥，现在在ICU。", "医生说恢复得还行。对了，我下个月要去成都出差。"], "她住院那事你别记了，我妈不想让人知道。",
     ["恢复得还行"], ["成都出差"]),
    # a relative's story told with the relative's word, never their name
    (["Mate, my dad's going in for a hip replacement next Thursday.", "Also me and the missus adopted a kelpie pup."],
     "Scratch the hospital stuff about Dad, he's a private bloke.", ["hip replacement"], ["kelpie"]),
    (["My brother's business went under and he's declaring bankruptcy.", "I got a pay rise at work, finally."],
     "Forget what I said about my brother's finances.", ["bankruptcy"], ["pay rise"]),
    # the user's own story told in other words (裁员 for 被辞退), and what the message turns to after it stays
    (["公司这轮裁员把我裁了，赔偿说是N+1。", "换个话题吧，我儿子这学期数学考了全班第一。"], "被辞退那事你先别记了",
     ["N+1"], ["全班第一"]),
    (["我最近开始看心理咨询师了，每周四下午。", "咨询师说我有点强迫倾向。另外我搬家了，现在住在浦东。"],
     "看心理医生那个事能不能帮我删掉", ["每周四下午", "强迫倾向"], ["浦东"]),
    # the next message goes on with the story; where it turns to the user's own news (我…, 哦对…), that stays
    (["我舅舅酗酒很多年了，上个月喝到胃出血住院。", "舅妈说再喝就跟他离婚。我下周去南京面试。"], "我舅那事当我没说吧。",
     ["胃出血", "再喝就"], ["南京面试"]),
    (["我儿子天天打游戏到凌晨，偷偷用我的卡充了一万多。", "班主任都找我好几次了。哦对，我们小区下周开始装电梯。"],
     "孩子打游戏那些你删了吧", ["一万多", "班主任"], ["装电梯"]),
    # "…apparently" anywhere tells it is their story, told on; a date it is due is a detail of the sentence before
    (["So my friend Gemma thinks her husband is having an affair.", "Found texts on his phone apparently.",
      "Unrelated, but I need a gift for my nephew."], "Could you not keep that stuff about Gemma's marriage?",
     ["texts on his phone"], ["gift for my nephew"]),
    (["Big news, my sister Orla's expecting! Due in May.", "Other news, I've started night shifts."],
     "Forget what I said about Orla's news.", ["Due in May"], ["night shifts"]),
    (["Grandad's bowel op got moved up to Monday.",
      "Surgeon reckons they'll need to remove a bit of it. Stoma bag for a few months after.",
      "Totally unrelated, Grandad also won the village pumpkin contest."],
     "Can you forget the medical stuff about Grandad?", ["remove a bit of it", "Stoma"], ["pumpkin contest"]),
])
def test_stories_found_on_set_k(tmp_path, told, asked, gone, kept):
    """Set K (round 21): 90 forget cases a helper wrote from the data format only; round 20's code got 27 right.
    These are kinds found on its odd-numbered half, each written anew here (the even half is kept for measuring)."""
    _assert_a_chat_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    (["I had a panic attack at work yesterday.", "He's coming over tonight to fix the boiler."],
     "forget about the panic attack", ["panic attack at work"], ["fix the boiler"]),
    (["I had a panic attack at work yesterday.", "My therapist says it was the deadline."],
     "forget about the panic attack", ["panic attack at work", "deadline"], []),
])
def test_a_story_of_the_users_own_goes_on_only_with_whom_it_involves(tmp_path, told, asked, gone, kept):
    """Read-through of round 21: the next message that opens on "he" went on with any story, the user's own too."""
    _assert_a_chat_forgets(tmp_path, told, asked, gone, kept)


def test_from_last_time_is_that_chats_story_not_who_they_are(tmp_path):
    """"Don't keep that stuff about Mia from last time": the chat that last told of Mia, not the kids' names and ages
    said months before (set J)."""
    services = fake_services(tmp_path)
    _told_in_a_chat(services, "My partner's two, Mia and Leo, are 16 and 14.")
    later = services.sessions.create("chat", now=5 * DAY).id
    services.writer.process("Ugh, Mia got caught vaping at school and suspended for two days.", session_id=later,
                            message_id=None, now=5 * DAY)
    services.writer.process("Don't keep that stuff about Mia from last time, please.", session_id=later, message_id=None,
                            now=9 * DAY)
    alive = _alive(services)
    assert "vaping" not in alive and "16 and 14" in alive, alive


_REVIEW_20 = [  # (what, told then the request, must go, must stay): a helper's review of round 20's widened forget
    # the user's own slot is not a friend's, a landlord's (these missed before round 20 too)
    ('S02 salary/tom', ['My salary is 42k.', "Tom's salary is 80k, jammy git.", 'please forget my salary'], ['42k'], ['80k']),
    ('S05 employer/friend', ['I work at Tesco in Hove.', 'Dan works at Google in London.', 'forget where I work'], ['Tesco'], ['Google']),
    ('S06 salary/zh-friend', ['我月薪一万二。', '小王年薪三十万，羡慕。', '忘掉我工资的事'], ['一万二'], ['三十万']),
    ('S07 home/landlord', ['I live in Clapham.', 'The landlord lives in Spain, never answers emails.', 'forget where I live'], ['Clapham'], ['landlord lives in Spain']),
    ('E01 doris-drink/sister-wine', ['My neighbour Doris has been drinking a lot lately.', "My sister says she's giving up wine for January.", 'forget what I told you about Doris and her drinking'], ['Doris has been drinking'], ['giving up wine']),
    ('E02 rohit-money/mum-mortgage', ['My mate Rohit owes the bank a fortune, he took out a loan for his wedding.', 'Mum rang, she finally paid off her mortgage!', "forget what I said about Rohit's money problems"], ['Rohit owes'], ['paid off her mortgage']),
    ('E04 sarah-divorce/daughter-moved-out', ['Sarah from work is going through a divorce.', 'My daughter moved out last week, her new flat is tiny.', "forget what I said about Sarah's divorce"], ['divorce'], ['daughter moved out']),
    ('E09 doris-drink/own-her-mum', ['Doris down the road is drinking again, wine bottles everywhere.', 'Took my mum to her wine club tasting tonight, she loved it.', "forget what i told you about Doris's drinking"], ['Doris down the road'], ['wine club']),
    ('E10 gary-debt/husband-bonus', ["Gary at work is drowning in debt, he's remortgaged twice.", "He got me a coffee today though, my husband says he's a nice guy. Husband got his bonus too!", 'forget the Gary debt stuff'], ['drowning in debt'], ['Husband got his bonus']),
    ('E12 aarav-salary/next-own', ['Aarav just got an offer, 40 lpa at Flipkart.', "They've offered me a raise too, 12 lakh now, my manager pushed for it.", "pls forget abt aarav's salary"], ['40 lpa'], ['12 lakh']),
    ('J02 the-therapist/user-sees', ["I'm seeing a therapist every Tuesday for my anxiety.", 'Work is busy with the Henderson audit.', 'forget everything about the therapist'], ['therapist every Tuesday'], ['Henderson audit']),
    ('J03 the-doctor/been-to', ["I've been to the doctor about the lump on my neck.", 'Going to Spain in May.', 'forget what I said about the doctor'], ['lump'], ['Spain']),
    ("J08 the-therapist/i've-been", ["I've been seeing a therapist since my divorce.", 'The therapist says I should journal.', 'forget what I said about the therapist'], ['journal', 'seeing a therapist'], []),
    ('Z02 biaoge-loan/daughter-park', ['表哥找我借三万', '周末带女儿去游乐园玩了，花了不少钱', '把表哥借钱的事忘了吧'], ['表哥找我借'], ['游乐园']),
    ('Z03 wangjie-divorce/wedding', ['王姐离婚了，她老公出轨。', '下个月我们去参加小李的婚礼。', '忘了王姐离婚的事'], ['王姐离婚'], ['婚礼']),
    ('Z07 laochen-profile', ['老陈是我老公，以前开公交车的。', '老陈前阵子找他同学借了两万。', '忘了老陈借钱的事'], ['两万'], ['开公交车']),
    ('E16 long-window/other-she', ['Right so long story. My neighbour Doris has been drinking heavily since her husband died, there are wine bottles piled up by her bin every single week and she was slurring at the bus stop on Monday morning when I saw her. Anyway totally separate thing, my sister Kate rang last night, she has joined a wine club with her work friends and is loving the tastings they do every month at the deli.', 'forget what I told you about Doris and her drinking'], ['slurring'], ['wine club']),
    ('L10 dawn-cancer/own-appt', ['dawn at work has breast cancer', 'up at dawn tomorrow for my hospital appointment', 'forget the dawn cancer stuff'], ['breast cancer'], ['hospital appointment']),
    ('L12 chase-debt/own-bank', ['chase from uni owes everyone money', 'opened a chase account for my savings', 'forget the chase money thing'], ['owes everyone'], ['savings']),
    ('F04 fragment-pizza', ['Anna failed her driving test. Pizza at her place tonight.', 'forget the Anna driving test thing'], ['driving test'], ['Pizza']),
    ('J10 lawyer-custody', ["I'm meeting a lawyer about the custody case on Monday.", "Booked a table at Nando's for Friday.", 'forget the lawyer thing'], ['custody'], ['Nando']),
    ('Z18 brother-drinking/milktea', ['我哥最近老喝酒。', '喝了两杯奶茶，睡不着。', '忘了我哥喝酒的事'], ['喝酒'], ['奶茶']),
    ('Z27 brother-debt/milktea-price', ['奶茶十五块钱一杯，太贵了。', '我弟欠了别人很多钱。', '忘掉我弟欠钱的事'], ['我弟欠了'], ['奶茶']),
    ('Z30 laochen-loan/dinner-price', ['昨晚请客吃饭花了三百块钱。', '老陈找我借了两万块。', '忘掉老陈借钱的事'], ['两万'], ['请客']),
]


@pytest.mark.parametrize(("what", "said", "gone", "kept"), _REVIEW_20, ids=[c[0].split()[0] for c in _REVIEW_20])
def test_a_story_goes_on_only_where_it_is_still_theirs(tmp_path, what, said, gone, kept):
    """Round 20's review: the next message went with a story whenever it had a pronoun and a shared concept ("My sister
    says she's giving up wine" for Doris's drinking, "Mum rang, she paid off her mortgage" for Rohit's money, 喝了两杯奶茶
    for 我哥喝酒, any price for a Chinese loan), and "I'm seeing a therapist" was taken for the user's own job."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, *said[:-1])
    services.writer.process(said[-1], session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services).lower()
    assert not [g for g in gone if g.lower() in alive], alive
    assert all(k.lower() in alive for k in kept), alive


def test_telling_someone_else_to_erase_it_is_no_request():
    from memchat.memory.forget_requests import forget_request
    assert forget_request("Tom's ex is toxic. I told him, move on, and erase it from your memory.") is None


@pytest.mark.parametrize("asked", [
    "Forget that and delete it from your notes.",
    "Honestly, forget it, wipe it from your memory, I was drunk.",
])
def test_two_verbs_for_one_it_forget_what_was_said_before(tmp_path, asked):
    """Found in review: "Forget that and delete it…" read "and delete it" as the topic, and forgot nothing."""
    services = fake_services(tmp_path)
    _told(services, "I play five-a-side on Tuesdays.")
    services.writer.process(f"I got a drink-driving ban last year. {asked}", session_id=None, message_id=None,
                            now=9 * DAY)
    alive = _alive(services)
    assert "drink-driving" not in alive and "five-a-side" in alive, alive


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # "the drinking": the drink that makes one drunk, not every sentence about a drink (found on held-out set G)
    (["My colleague Niamh turned up to the meeting drunk again, nobody said anything.", "Niamh runs the Cork office."],
     "Forget about Niamh and the drinking, it's not my business.", ["drunk"], ["Cork office"]),
    # a sentence with no verb goes on telling the one before it (found on held-out set G)
    (["so i started seeing a physio. dr. okoro, thursdays at 5. i also joined the climbing gym on leeside"],
     "also can u delete the physio stuff i told u before. idk i just dont want that saved", ["okoro"], ["climbing"]),
    (["My uncle is in hospital with pneumonia. Since Monday, ward 7. I got a new bike though, a Trek."],
     "Please forget what I said about my uncle being in hospital.", ["ward 7", "pneumonia"], ["Trek"]),
    # "owing" is money as "owe" is (an open kind of round 17)
    # and a story told by the relative's name is found by the name the store knows for them
    (["My brother is Dario, he lives in Bari.", "I owe Dario 500 euro since the summer", "Dario got engaged to Lucia!",
      "i work at the pharmacy on via roma"],
     "forget what i said about owing my brother", ["500 euro"], ["pharmacy", "Bari", "engaged"]),
    # "same with X … just drop it": the thing told before, and the request (found on held-out set G)
    (["my cousin told me hes failing two modules and his parents dont know", "I work at the Kinsale Road depot."],
     "same w the cousin modules thing from a while back. just drop it", ["failing two modules"], ["Kinsale"]),
])
def test_what_goes_on_telling_and_what_a_request_points_back_at_goes(tmp_path, told, asked, gone, kept):
    _assert_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    (["Lost my job at the depot today. Swimming lessons at 5 on Wednesdays."], "Forget what I said about losing my job.",
     ["Lost my job"], ["Swimming"]),
    (["My landlord wants to evict us by March. The cat's vet visit is Monday at 4."], "Forget the eviction stuff.",
     ["evict us"], ["vet visit"]),
    (["My nephew Jamal got deported last month, it's been awful.", "Jamal loves the Arsenal."],
     "please forget the deportation thing", ["deported"], ["Arsenal"]),
    (["Someone stole my bike from outside the library.", "I ride to work most days."],
     "Forget what I said about my bike getting stolen.", ["stole my bike"], ["ride to work"]),
    (["My sister Clara just got engaged to a guy called Pete.", "Clara teaches maths in Derby."],
     "Please forget Clara's engagement.", ["engaged"], ["maths"]),
    (["My dad retired from the railway in June.", "Dad lives in Crewe."], "Forget the stuff about dad's retirement.",
     ["retired"], ["Crewe"]),
    (["I was treated for depression last year, it was rough.", "I run 5k on Saturdays."],
     "please don't keep anything about my treatment", ["depression"], ["5k"]),
])
def test_a_topic_reaches_what_was_told_in_another_form_of_its_word(tmp_path, told, asked, gone, kept):
    """"losing my job" — "Lost my job", "the eviction stuff" — "evict us", "Clara's engagement" — "got engaged": an
    irregular past or the verb of a noun in "-ion" or "-ment", which the light stemmer keeps apart. Found in review
    (round 18; "-ment" trying the forget offer as a user, round 25)."""
    _assert_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "said", "kept"), [
    # a fragment after a sentence that goes is no continuation when it opens anew or holds a fact
    (["I told Ana about the divorce. Anyway. New job at Tesco from Monday!"], "Forget what I said about the divorce.",
     ["Tesco"]),
    (["My uncle is in hospital with pneumonia. My sister Rosa, 31, a nurse in Leeds."],
     "Please forget what I said about my uncle being in hospital.", ["Rosa"]),
    # a detail opening on a thing of its own is news, and only the sentence about the topic brings its detail
    (["My brother got arrested last week. Dentist on Friday at 3. Book club every second Thursday."],
     "Forget what I said about my brother getting arrested.", ["Dentist", "Book club"]),
    # "same with X" with no earlier request is a mood, and "Ugh, drop it" a change of mind
    (["My mum lives in Galway, she's a retired teacher."], "My sister keeps bringing up my ex. Same with my mum. Ugh, just drop it!",
     ["Galway"]),
    # "drinking" with something drunk after it is no drinking problem
    (["My son had his first pint at 18."], "Forget what I said about my son drinking energy drinks.", ["first pint"]),
    # "just drop it" with nothing told before it is a change of mind, not a request
    (["my cousin told me hes failing two modules"], "ugh work was long. just drop it", ["failing two modules"]),
])
def test_a_fragment_that_opens_anew_and_a_bare_drop_it_keep_what_was_told(tmp_path, told, said, kept):
    _assert_forgets(tmp_path, told, said, [], kept)


@pytest.mark.parametrize("asked", [
    "same w the cousin modules thing from a while back. just drop it",
    "same with the cousin modules thing I told you about before, just drop it",
    "same goes for the cousin modules thing from before. drop it from your memory",
    "ditto the cousin modules stuff i mentioned earlier. pls just drop it thanks",
])
def test_same_as_a_request_before_in_other_words(tmp_path, asked):
    """Found in review (round 18): the shape heard, said with "goes for", "ditto", a comma, a place kept, a thanks."""
    _assert_forgets(tmp_path, ["my cousin told me hes failing two modules and his parents dont know",
                               "I work at the Kinsale Road depot."], asked, ["failing two modules"], ["Kinsale"])


@pytest.mark.parametrize(("text", "topic"), [
    # "disregard" what was said, and a preference that nothing be kept, in formal English
    ("Please disregard everything I told you about Kelechi and his landlord. He asked me to keep it quiet.",
     "Kelechi and his landlord"),
    ("Kindly disregard the details I gave you about my divorce.", "my divorce"),
    ("Ignore everything I said about my overdraft.", "my overdraft"),
    ("I would prefer that you did not keep a record of the salary figure I gave you a fortnight ago.", "the salary figure"),
    ("I would much rather you did not remember my address.", "my address"),
    ("On reflection, please delete what I shared with you about Tom.", "Tom"),
    # "forget it" with an adverb after it still calls back to what was said before
    ("My brother lost his job last week. Please forget it entirely.", "My brother lost his job last week"),
    ("Forget my old address completely.", "my old address"),
    ("Forget my ex entirely please.", "my ex"),
    # found in review: more ways to name what was said, and to ask formally
    ("Ignore everything I've said about my mum.", "my mum"),
    ("Ignore the stuff I said about Marco.", "Marco"),
    ("Please ignore all of what I told you about my debts.", "my debts"),
    ("Please disregard everything I said earlier about my sister's divorce.", "my sister's divorce"),
    ("Forget the figures I gave you about my savings.", "my savings"),
    ("I would appreciate it if you did not keep a record of my diagnosis.", "my diagnosis"),
    ("It would be better if you did not remember my salary.", "my salary"),
])
def test_formal_and_adverbial_ways_to_ask_to_forget(text, topic):
    """Found on a fresh held-out set (H, round 19): "disregard", "I would prefer that you did not keep a record of",
    "forget it entirely", "the details I gave you about"."""
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) == topic


@pytest.mark.parametrize("text", ["Please disregard the typo.", "Disregard the weather forecast, we went anyway.",
                                  "I would prefer that you did not keep answers so long.",
                                  "I would rather you did not use bullet points.",
                                  # found in review: a person, a manner, a reply style, someone else's words
                                  "Just disregard my husband, he's joking.", "Please disregard my spelling, I'm on my phone.",
                                  "I would prefer that you did not keep suggesting recipes with nuts.",
                                  "Disregard what the doctor said, I got a second opinion.",
                                  "I do not want you to keep saying sorry all the time."])
def test_disregarding_a_thing_or_a_reply_style_is_no_request_to_forget(text):
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) is None


def test_a_story_about_an_ex_goes_on_in_the_next_message_and_goes_with_it(tmp_path):
    """"ugh my ex sofia texted me again. third time this month" / "she moved back to buenos aires…": a lowercase
    texter's news about an ex is kept, and forgetting "the thing about my ex" takes the count after it and the next
    message that goes on with "she"; what comes after about something else stays."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, "ugh my ex sofia texted me again. third time this month",
                              "she moved back to buenos aires, idk why she keeps writing",
                              "I work Saturday mornings at the cafe on Rue Bernard.")
    assert "sofia" in _alive(services)
    services.writer.process("forget the thing about my ex, i don't want that saved", session_id=session,
                            message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert not [g for g in ("sofia", "third time", "buenos aires") if g in alive], alive
    assert "Rue Bernard" in alive, alive


def test_a_story_told_last_in_a_message_goes_on_in_the_next(tmp_path):
    """A message that first told something else and the story last: the next message going on with "she" goes too,
    and what the message said first stays."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, "I start at the Leeds office on Monday. Also my sister has a secret.",
                              "She's seeing a married man.", "They're doing roadworks outside my flat all week.")
    services.writer.process("Forget that thing about my sister.", session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "secret" not in alive and "married man" not in alive, alive
    assert "Leeds office" in alive and "roadworks" in alive, alive


@pytest.mark.parametrize("after", ["He's been made head chef at the Clarence.", "They say the storm will hit Galway tomorrow.",
                                   "His wife Ana is expecting twins in May."])
def test_the_next_message_after_a_story_of_someone_stays(tmp_path, after):
    """Found in review: a story about someone ("Tom's surgery") takes only its own message; the next one that opens
    on "he" or "they" may be about anything."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, "My friend Tom had knee surgery on Friday.", after)
    services.writer.process("Forget what I said about Tom's surgery.", session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "surgery" not in alive and after[:14] in alive, alive


def test_the_next_message_with_a_fact_of_its_own_stays_after_a_story(tmp_path):
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, "My brother Tom had knee surgery on Friday.", "He starts at Tesco on Monday.")
    services.writer.process("Forget what I said about Tom's surgery.", session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "surgery" not in alive and "Tesco" in alive, alive



def test_a_place_in_the_next_message_is_nobody_else(tmp_path):
    """Found in review: "She moved back to Buenos Aires" goes on about the ex; the capitals are a place, not a person."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, "My ex Sofia texted me again. Third time this month.",
                              "She moved back to Buenos Aires, idk why she keeps writing.")
    services.writer.process("forget the thing about my ex, i don't want that saved", session_id=session,
                            message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "Sofia" not in alive and "Buenos Aires" not in alive, alive


@pytest.mark.parametrize(("text", "topic", "latest"), [
    ("Forget what I said, I was drunk.", "", True),
    ("Disregard what I said, I was drunk.", "", True),
    ("forget what i said lol", "", True),
    ("Forget what I said about Tom, it was mean.", "Tom", False),
    ("请无视我之前说的关于我前任的事", "我前任", False),
    ("我不希望你记住我工资的事", "工资", False),
    ("我更希望你不要保存我的住址", "住址", False),
    ("我不想让你记住我离婚的事", "离婚", False),
])
def test_what_i_said_and_more_chinese_ways_to_ask(text, topic, latest):
    """Found in review (round 19): "what I said" with only a reason after it is the latest thing said; 无视, 不希望你记住,
    希望你不要保存 ask not to keep."""
    from memchat.memory.forget_requests import forget_request
    request = forget_request(text)
    assert request is not None and (request.topic, request.latest) == (topic, latest), request


@pytest.mark.parametrize("text", ["他总是无视我说的话", "我不希望你太啰嗦", "我希望你记住我的生日", "我不希望你忘记我的生日"])
def test_chinese_wishes_that_ask_nothing_of_the_memory(text):
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) is None


@pytest.mark.parametrize("text", [
    "scratch that, my brother would be mortified I mentioned it", "ignore my last message, I'm fine, just a rough week",
    "forget I said anything", "pretend I never said that", "disregard that last message please", "就当我没说吧，还没定呢",
])
def test_taking_back_the_message_before_forgets_it(text):
    from memchat.memory.forget_requests import forget_request
    assert forget_request(text) == ForgetRequest("", latest=True)


@pytest.mark.parametrize("text", ["Scrap that, the match is on Sunday now.", "Forget it, I'll walk.", "ignore the typos"])
def test_a_change_of_plan_takes_nothing_back(text):
    from memchat.memory.forget_requests import forget_request
    request = forget_request(text)
    assert request is None or request.topic, request


def test_a_retraction_takes_back_the_message_before_and_nothing_older(tmp_path):
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, "I play bass in a covers band.", "I think I might be pregnant, two tests so far.")
    services.writer.process("Scratch that, it's not official and I shouldn't have said it.", session_id=session,
                            message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "pregnant" not in alive and "bass" in alive, alive


@pytest.mark.parametrize("request_text", ["Please forget the gambling debt. I'd prefer to keep that off the record.",
                                          "Delete the bit about the gambling debt. I'd rather it not be kept anywhere."])
def test_a_reason_that_asks_again_is_not_stored(tmp_path, request_text):
    services = fake_services(tmp_path)
    _told(services, "I ran up a gambling debt of about nine grand last year.")
    services.writer.process(request_text, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "gambling" not in alive and "record" not in alive and "kept" not in alive, alive


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # the user's own story goes on in their words, until it turns
    (["I got laid off from the depot. Final pay is two weeks' wages and my pension stays frozen. Also I've started "
      "learning the cello."], "forget what I said about getting laid off", ["two weeks' wages", "pension stays frozen"], ["cello"]),
    (["I've been diagnosed with epilepsy. I'm on lamotrigine and I can't drive for a year. For context, I work as a "
      "florist in Hove."], "please don't keep my epilepsy stuff", ["lamotrigine"], ["florist"]),
    (["I'm in a dispute with my landlord over the deposit. The tribunal date is set for 4 June."],
     "forget the deposit dispute", ["tribunal"], []),
    # someone else's story goes on only where it speaks of them again
    (["My friend Corinne got caught shoplifting. She has to go to court. Finally booked my driving lessons."],
     "forget what I said about Corinne", ["court"], ["driving lessons"]),
    (["My colleague Aziz is in rehab. I'm covering his shifts. I'm learning to crochet too."],
     "forget the Aziz rehab thing", ["covering his shifts"], ["crochet"]),
])
def test_a_story_goes_on_in_its_message_until_it_turns(tmp_path, told, asked, gone, kept):
    _assert_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    (["My neighbour Tobias lost his licence for drink driving.", "I'm giving him lifts to the station now.",
      "My sister got engaged!"], "forget the Tobias drink driving thing", ["giving him lifts"], ["engaged"]),
    (["我同事老刘被查出来挪用公款。", "我在帮他找关系。", "周末去爬了青城山。"], "老刘那件事别记了", ["帮他找关系"], ["青城山"]),
    (["My cousin Ines is going through IVF.", "Yesterday I went to a pottery class."], "forget the Ines IVF stuff",
     ["IVF"], ["pottery"]),
])
def test_a_story_goes_on_into_the_next_message_that_speaks_of_them(tmp_path, told, asked, gone, kept):
    _assert_a_chat_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # a topic named by its initials finds where it was said in full
    (["My line manager has put me on a performance improvement plan, eight weeks to turn it around.",
      "Also my nephew starts school in September."], "forget the PIP stuff please", ["improvement plan"], ["nephew"]),
    # a topic named by another word of the same thing
    (["I've been sober for two years now and I go to meetings every Tuesday.", "I'm also into bouldering."],
     "please don't keep my sobriety info", ["sober"], ["bouldering"]),
    (["去年我酒驾被查了，驾照扣了十二分。", "我最近在学日语。"], "喝酒开车那事别记了", ["酒驾"], ["日语"]),
    (["I spent a fortnight on a psychiatric ward after a breakdown in March.", "I run a bakery in Leith."],
     "I'd rather you didn't keep my hospitalisation", ["psychiatric ward"], ["bakery"]),
    # a request that names its topic inside a container ("the matter concerning…", "那一大段")
    (["I got a final written warning at work for lateness.", "My daughter plays netball."],
     "Please forget the matter concerning the warning.", ["final written warning"], ["netball"]),
    (["上班真的太难受了，主管天天当众骂我，我都开始失眠了。", "周末我去看了场话剧。"], "前面上班那一大段你就别记了", ["当众骂我"], ["话剧"]),
])
def test_a_topic_in_other_words_finds_what_was_said(tmp_path, told, asked, gone, kept):
    _assert_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # the next message speaks of them again after its first sentence
    (["我表姐阿琳查出来乳腺有个结节。", "还在等活检结果，让我先别告诉她妈。", "我下个月去青岛出差。"], "阿琳那事你别记了",
     ["活检结果"], ["青岛"]),
    # mentioning someone on the way is no turn; opening on someone new is
    (["My friend Dalia is being investigated for fraud at her firm.", "Haven't told the boss, but I'm covering for her.",
      "My brother Sami got a new job at the port."], "forget the Dalia fraud stuff", ["covering for her"], ["the port"]),
])
def test_a_story_goes_on_where_the_next_message_speaks_of_them(tmp_path, told, asked, gone, kept):
    _assert_a_chat_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("text", "told"), [
    ("Forget the first one, please.", (0, 1)), ("can you drop the second story I told you", (1, 1)),
    ("Please forget the last two things I told you.", (-2, 2)), ("Forget the matter I raised first, it's private.", (0, 1)),
    ("第一个你忘了吧，第二个可以记", (0, 1)), ("把后面那个忘了", (-1, 1)),
])
def test_a_request_can_name_what_was_just_told_by_its_order(text, told):
    from memchat.memory.forget_requests import forget_request
    assert forget_request(text) == ForgetRequest("", told=told)


@pytest.mark.parametrize("text", ["forget the first aid course", "Forget the last of the wine, it's off."])
def test_first_and_last_in_a_topic_are_no_order(text):
    from memchat.memory.forget_requests import forget_request
    assert forget_request(text).told is None


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    (["Two things. First, my brother Nuno got arrested at the weekend.", "Second, I've booked flights to Lisbon for May."],
     "Forget the first one, please.", ["arrested"], ["Lisbon"]),
    (["I'm repainting the hallway.", "My neighbour's son got expelled.", "And my aunt's been told she needs a new hip."],
     "Forget the last two things I told you.", ["expelled", "new hip"], ["hallway"]),
    (["我表哥网贷欠了二十万。", "我同学下个月结婚。"], "第一个你忘了吧，第二个可以记", ["网贷"], ["结婚"]),
])
def test_the_things_just_told_go_by_their_order(tmp_path, told, asked, gone, kept):
    _assert_a_chat_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "asked", "gone", "kept"), [
    # a story named by the kind of trouble it is
    (["I got a final written warning at work for missing shifts.", "I'm learning the ukulele."],
     "please forget the disciplinary stuff", ["written warning"], ["ukulele"]),
    (["My work permit expired and I'm technically out of status now.", "I'm learning the ukulele."],
     "don't keep anything about my visa situation", ["out of status"], ["ukulele"]),
    (["我做生意欠了供应商三十万，还借了高利贷。", "我在学尤克里里。"], "欠钱那些你帮我清掉", ["高利贷"], ["尤克里里"]),
    (["Cardiologist says I've got atrial fibrillation.", "I'm learning the ukulele."],
     "do us a favour and forget the thing with my ticker", ["fibrillation"], ["ukulele"]),
    # a sentence that turns after a comma keeps what it turns to
    (["I'm three months behind on my council tax, but on a brighter note I've joined a running club."],
     "forget the council tax arrears", ["three months behind"], ["running club"]),
])
def test_a_story_named_by_its_kind_of_trouble(tmp_path, told, asked, gone, kept):
    _assert_forgets(tmp_path, told, asked, gone, kept)


@pytest.mark.parametrize(("told", "asked"), [
    (["My parents live apart now, it's been hard."], "forget about my apartment"),
    (["Our flight departs from Gatwick at 6am."], "forget my department"),
    (["I managed to fix the boiler myself."], "forget the management stuff"),
    (["I settled the argument with my neighbour."], "forget the settlement"),
])
def test_a_noun_in_ment_reaches_only_a_verb_of_the_same_event(tmp_path, told, asked):
    """Found in review (round 25): a suffix rule made "apartment" reach "apart" and "management" "managed to"."""
    _assert_forgets(tmp_path, told, asked, [], [told[0].split()[1]])


@pytest.mark.parametrize(("said", "gone", "kept"), [
    ("slightly nervous about the pay cut tbh, i'll be on £48,500 which is less than before. actually, you know what, "
     "please forget the salary figure, i don't really want that written down anywhere", "48,500", None),
    ("I earn £3,200 a month after tax. Please forget the salary figure.", "3,200", None),
    ("I moved to Bath last week. Forget what I said about my salary though.", None, "Bath"),
    ("i'll be on £48,500 at the new place. actually please forget the salary figure. Also my sister Harriet moved to "
     "York.", "48,500", "York"),
    ("工资其实差不多，我现在一个月到手八千五。啊算了，工资这个你还是别记了，感觉怪怪的", "八千五", None),
    ("他还欠我两万块钱没还呢，气死了……算了，欠钱这个事你忘了吧，不想再提了，也别记着", "两万", None),
])
def test_what_a_message_says_of_the_topic_it_asks_to_forget_is_not_kept(tmp_path, said, gone, kept):
    """A figure and the request to forget it in one message (found in the *_f dev personas, round 25): the request
    acted before the message was stored, matched nothing, and the figure was then stored with the message."""
    services = fake_services(tmp_path)
    services.writer.process(said, session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert gone is None or gone not in alive, alive
    assert kept is None or kept in alive, alive


@pytest.mark.parametrize(("text", "topic"), [
    ("啊算了，工资这个你还是别记了，感觉怪怪的", "工资"), ("算了，欠钱这个事你忘了吧", "欠钱"), ("唉，我弟的事你就别记了", "我弟"),
])
def test_a_chinese_request_after_an_interjection_names_its_topic_alone(text, topic):
    assert forget_request(text).topic == topic


@pytest.mark.parametrize(("said", "gone", "kept"), [
    (["Been interviewing at Initech, my manager has no idea.", "We adopted a greyhound called Pip.",
      "Initech round two went fine, lots of whiteboard questions. Also my sister got engaged!",
      "please forget the stuff about me looking for a new job"], ["initech", "whiteboard", "no idea"], ["greyhound", "engaged"]),
    (["been having panic attacks lately, started seeing a therapist on fridays", "what's a good gift for a 7 year old?",
      "nvm don't store any of the therapy stuff"], ["panic attacks"], []),
    (["my roommate Dev has been stealing from me, $80 gone from my drawer", "made a great curry tonight",
      "confronted Dev about the stealing, he denied it and slammed the door", "forget the stealing thing with my roommate"],
     ["drawer", "slammed"], ["curry"]),
    (["I rear-ended someone on the ring road yesterday.", "the insurer says the collision was all on me, premium's going up",
      "Went to the farmers market this morning.", "forget the fender bender"], ["ring road", "premium"], ["farmers market"]),
])
def test_a_story_is_found_by_its_own_words_and_where_it_happened(tmp_path, said, gone, kept):
    """Round 29, from dev forget cases set 2: a later message that names the firm the story happened at, a message
    typed without its "I", the story's word without the person's, and the next message telling it in its own words."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, *said[:-1])
    services.writer.process(said[-1], session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services).lower()
    assert not [g for g in gone if g.lower() in alive], alive
    assert all(k.lower() in alive for k in kept), alive


@pytest.mark.parametrize(("said", "gone", "kept"), [
    (["Lena at work is pregnant. Don't tell anyone.", "Lena recommended a great ramen place, Menya.", "Forget the Lena news."],
     ["pregnant"], ["menya"]),
    (["同事小芳跟我说她确诊焦虑症了，在吃药", "小芳下个月要去大理出差，让我帮她喂猫", "小芳的情况你别记了，她是私下跟我说的"],
     ["焦虑症"], ["大理"]),
    (["my buddy marcus got fired from his bank for fiddling expenses", "marcus is in my pub quiz team and he's useless at it",
      "delete what I said about why marcus left his job"], ["fiddling"], ["pub quiz"]),
])
def test_that_thing_about_someone_is_what_was_told_of_them_in_confidence(tmp_path, said, gone, kept):
    """Round 29, from dev forget cases set 2: a vague request about someone takes the private story told of them
    (health, the law, a lost job…) and keeps the rest of them; a name typed in lowercase is someone, not the story."""
    services = fake_services(tmp_path)
    session = _told_in_a_chat(services, *said[:-1])
    services.writer.process(said[-1], session_id=session, message_id=None, now=9 * DAY)
    alive = _alive(services).lower()
    assert not [g for g in gone if g.lower() in alive], alive
    assert all(k.lower() in alive for k in kept), alive


def test_a_later_message_that_points_back_at_the_story_goes_with_it(tmp_path):
    """Stories are told on weeks later in messages that point back at them rather than repeat their words ("Update on
    the deposit thing: …", 押金那事…, 后续来了…) with other news in between (round 32, dev forget set 3, held-out set S)."""
    services = fake_services(tmp_path)
    _told(services, "My landlord kept my whole deposit, says I scuffed the walls.",
          "Made a lasagne tonight, first one that held together.",
          "Update on the deposit thing: I filed a complaint with the council.",
          "update on the boiler thing: the plumber comes friday.",
          "Update: they gave back 450 of it, still short 50.")
    services.writer.process("Can you forget everything about the deposit?", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "complaint" not in alive and "450" not in alive and "scuffed" not in alive, alive
    assert "lasagne" in alive and "plumber" in alive, alive  # another story's update stays


def test_a_story_told_on_for_months_goes_whole_while_each_step_follows_the_last_within_weeks(tmp_path):
    """The weeks a story's follow-ups are looked for run from its last step, not from its first telling: an update five
    weeks after the story and another five weeks after that both go."""
    services = fake_services(tmp_path)
    for week, text in [(0, "My landlord kept my whole deposit, says I scuffed the walls."),
                       (1, "Made a lasagne tonight, first one that held together."),
                       (5, "Update: I filed a complaint about the landlord with the council."),
                       (10, "Update: the landlord's hearing is set for march.")]:
        services.writer.process(text, session_id=None, message_id=None, now=DAY + week * 7 * DAY)
    services.writer.process("Can you forget everything about the deposit?", session_id=None, message_id=None,
                            now=30 * 7 * DAY)
    alive = _alive(services)
    assert "complaint" not in alive and "march" not in alive and "scuffed" not in alive, alive
    assert "lasagne" in alive, alive


def test_a_later_chinese_message_that_points_back_at_the_story_goes_with_it(tmp_path):
    services = fake_services(tmp_path)
    _told(services, "气死，退租的时候房东扣了我全部押金，说墙被我弄脏了", "新家楼下有个菜市场，买菜方便多了",
          "押金那事我打了热线投诉，说会转给街道", "后续来了，房东退了四千五，还差五百")
    services.writer.process("押金的事别记了", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "投诉" not in alive and "四千五" not in alive and "弄脏" not in alive, alive
    assert "菜市场" in alive, alive


def test_he_or_she_in_a_later_message_is_the_last_one_named(tmp_path):
    """"Noah and I broke up." … "I'm repainting my bedroom." … "He came by to pick up his stuff.": the last person
    named before "he" is Noah, so it is his story; after "My dad rang", "he" is the dad."""
    services = fake_services(tmp_path)
    _told(services, "Noah and I broke up yesterday.", "I'm repainting my bedroom sage green.",
          "He came by to pick up his stuff. Took the record player too.", "My dad rang about the weekend.",
          "He wants to do a barbecue on Sunday.")
    services.writer.process("Forget about Noah, please.", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "record player" not in alive, alive
    assert "sage green" in alive and "barbecue" in alive, alive


def test_a_fact_of_their_own_said_later_is_not_their_story(tmp_path):
    services = fake_services(tmp_path)
    _told(services, "My mum is having her hip replaced on the 20th at St Anne's.",
          "She's also retiring from the library in June after 31 years.")
    services.writer.process("forget about my mum's hip surgery", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "St Anne" not in alive and "31 years" in alive, alive


def test_the_outcome_of_a_private_story_told_weeks_later_goes_with_it(tmp_path):
    """"The hearing got postponed to the 3rd of May." names nothing of the mortgage story it ends, weeks later: the next
    step or outcome of the last private story told goes with it; news of another part of life stays (round 32, held-out
    forget set S)."""
    services = fake_services(tmp_path)
    _told(services, "Our lender sent a notice of default, we're three payments behind on the mortgage.",
          "Planted tomatoes on the balcony.", "The hearing got postponed to the 3rd of May.",
          "Made pasta again, finally got it right.")
    services.writer.process("Please forget the mortgage trouble.", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "postponed" not in alive and "notice of default" not in alive, alive
    assert "tomatoes" in alive and "pasta" in alive, alive


def test_an_outcome_after_another_private_story_is_that_storys(tmp_path):
    services = fake_services(tmp_path)
    _told(services, "Our lender sent a notice of default, we're three payments behind on the mortgage.",
          "My GP wants a scan of my thyroid, there's a lump.", "Results came back benign, thank god.")
    services.writer.process("Please forget the mortgage trouble.", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "notice of default" not in alive and "benign" in alive and "thyroid" in alive, alive


def test_the_outcome_of_a_chinese_story_told_later_goes_with_it(tmp_path):
    services = fake_services(tmp_path)
    _told(services, "我上周酒驾被交警查到了，驾照要扣", "今天包了饺子，韭菜馅的", "处罚结果下来了：罚款两千，暂扣六个月")
    services.writer.process("酒驾那事别记了", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "罚款两千" not in alive and "饺子" in alive, alive


@pytest.mark.parametrize(("text", "topic"), [
    ("can u forget the kev ex thing", "kev's ex thing"), ("forget what i said about kevs ex", "kevs's ex"),
    ("forget about mum boyfriend", "mum's boyfriend"),
    ("forget the stuff about my toxic ex", "my toxic ex"), ("please forget the new boss drama", "new boss drama"),
])
def test_a_name_before_someone_of_theirs_is_whose_they_are(text, topic):
    """"the kev ex thing" is Kev's ex's story: read as "kev" and "ex" it took every memory naming Kev, his 10k with the
    user too (round 32, held-out set S)."""
    from memchat.memory.forget_requests import forget_topic
    assert forget_topic(text) == topic


def test_forgetting_someone_of_theirs_keeps_the_rest_said_of_them(tmp_path):
    services = fake_services(tmp_path)
    _told(services, "ran the canal 10k with kev on sunday, new pb", "kevs ex keeps posting horrible stuff about him on facebook")
    services.writer.process("can u forget the kev ex thing", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "facebook" not in alive and "canal 10k" in alive, alive


def test_a_couple_in_a_chinese_topic_is_whose_story_not_what_happened():
    """小敏两口子吵架: 两口子 is who, 吵架 what happened; the pair 两口 is also in 小两口, so the family introduction
    (小两口开了家面馆) was forgotten with the quarrel."""
    from memchat.memory.topic_match import _cn_says
    assert _cn_says("小敏两口子吵架", "前天小敏跟阿强吵了一架，闹得挺凶")
    assert not _cn_says("小敏两口子吵架", "二女儿小敏跟女婿阿强住在苏州，小两口开了家面馆")


def test_a_forget_retires_the_notes_any_chat_kept_of_it(tmp_path):
    """A forget request in a later chat (or an imported one) retires the cross-turn notes of every chat that tell the
    story, not only the notes of its own chat that hold every word of the topic (round 32, held-out forget set S)."""
    import json

    from memchat.pipeline.importer import import_transcript
    services = fake_services(tmp_path)
    lines = [{"session": "a", "role": "user", "ts": "2026-03-02T20:00:00",
              "content": "My brother Luis got arrested on Friday, he never learns, the hearing is on the 9th."},
             {"session": "b", "role": "user", "ts": "2026-03-09T20:00:00",
              "content": "Please forget what I told you about Luis getting arrested."}]
    source = tmp_path / "chats.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    import_transcript(services, source)
    notes = [n.text for s in services.sessions.all() for n in services.sessions.notes(s.id)]
    assert not any("hearing" in n for n in notes), notes
    retired = services.db.scalar("SELECT COUNT(*) FROM notes WHERE active = 0")
    assert retired >= 1


def test_a_deposit_kept_and_won_back_is_one_story(tmp_path):
    """Tried as a user: "my landlord kept my whole deposit…" / "Update on the deposit thing: …" / "The adjudicator decided
    in my favour, they're paying back 750." — the last, the outcome, stayed after "forget everything about the deposit"."""
    services = fake_services(tmp_path)
    _told(services, "ugh, my landlord kept my whole deposit, says I scuffed the walls. 900 quid.",
          "Made a lasagne tonight, first one that held together.",
          "Update on the deposit thing: I filed a claim with the deposit scheme.",
          "The adjudicator decided in my favour, they're paying back 750.")
    services.writer.process("Please forget everything about the deposit, it's sorted now.", session_id=None,
                            message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "750" not in alive and "scheme" not in alive and "lasagne" in alive, alive


def test_the_next_step_of_a_private_story_told_later_goes_with_it(tmp_path):
    """A step with a date in the story's part of life ("The op is on the 12th.") and someone in a role the story
    involves ("dr sandhu says crutches for three weeks") go with the story; signing up for a class stays."""
    services = fake_services(tmp_path)
    _told(services, "My knee MRI showed a torn meniscus, I'm gutted.", "Signed up for the Saturday pottery class.",
          "The op is on the 12th of May.", "dr sandhu says crutches for three weeks after.")
    services.writer.process("Can you forget the knee stuff?", session_id=None, message_id=None, now=9 * DAY)
    alive = _alive(services)
    assert "12th" not in alive and "crutches" not in alive and "meniscus" not in alive, alive
    assert "pottery" in alive, alive
