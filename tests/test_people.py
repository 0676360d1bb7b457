"""memory.people: who a name is to the user, and the relation a sentence introduces."""

from __future__ import annotations

import pytest

from memchat.memory.people import introduction, introductions, opening_name, relation_in, with_relation

KNOWN = {"Isla": "daughter", "Kwame": "son", "Rosa": "mum", "Rhona": "partner", "Stuart": "boss"}


@pytest.mark.parametrize("content, name, relation", [
    ("The user's daughter Isla, 20, studies vet medicine.", "Isla", "daughter"),
    ("Dana is the user's colleague.", "Dana", "colleague"),
    ("The user's other half Dev is a paramedic.", "Dev", "other half"),
    ("Rhona (the user's partner) left the pan soaking.", "Rhona", "partner"),
    ("The user met Dana for coffee.", "Dana", None),
])
def test_relation_in_a_stored_memory(content, name, relation):
    assert relation_in(content, name) == relation


@pytest.mark.parametrize("said, read", [
    ("Isla's home for the summer, she's doing a placement in Nairn.",
     "My daughter Isla's home for the summer, she's doing a placement in Nairn."),
    ("Kwame got into Hillhead High.", "My son Kwame got into Hillhead High."),
    ("Rosa is moving to Cadiz next month.", "My mum Rosa is moving to Cadiz next month."),
])
def test_a_known_person_with_something_to_keep_is_named_with_the_relation(said, read):
    assert with_relation(said, KNOWN.get) == read


@pytest.mark.parametrize("said", [
    "Rhona says my accent is terrible.",          # reported speech
    "Stuart's good, leaves you alone to get on with it.",  # an opinion, nothing to keep
    "Rhona will be thrilled she doesn't have to cook.",
    "Bracken went absolutely mental on the beach.",        # not a known person
])
def test_chatter_about_a_known_person_is_left_alone(said):
    assert with_relation(said, KNOWN.get) == said


@pytest.mark.parametrize("sentence, found", [
    ("My husband Yerlan's birthday is 9 October.", [("husband", "Yerlan")]),
    ("Rhona (my partner) left it soaking overnight.", [("partner", "Rhona")]),
    ("Our twins, Leo and Ada, started primary school.", [("twins", "Leo and Ada")]),
    ("My lad Callum started secondary.", [("lad", "Callum")]),
    ("My boss wants everything in triplicate.", []),
    ("上周六和同事小刘去爬了青城山。", [("同事", "小刘")]),
    ("组长老陈人挺好的。", [("组长", "老陈")]),
    ("老板老是让我们加班。", []),
    ("我弟弟小时候很调皮。", []),
    # the relation said after the name (found on held-out set D)
    ("Had a long call with Ruairi yesterday, he's our son, lives in Plymouth.", [("son", "Ruairi")]),
    ("Met Tom and Kate at the pub, she's my sister.", [("sister", "Kate")]),
    ("Rang the bank about my card, she's my cousin.", []),
    ("Went to see Aoife, she's my daughter-in-law.", []),
    ("Dinner at Nando's with the team, she's my manager.", []),
    ("Had lunch with Tom and his wife, she's my boss now.", []),
])
def test_introductions(sentence, found):
    assert introductions(sentence) == found


def test_introduction_reads_as_a_sentence():
    assert introduction("husband", "Yerlan") == "The user's husband is Yerlan."
    assert introduction("twins", "Leo and Ada") == "The user's twins are Leo and Ada."
    assert introduction("同事", "小刘") == "用户的同事是小刘。"
    assert opening_name("Isla's home for the summer.") == "Isla"
    assert opening_name("Aye, fair enough.") is None


@pytest.mark.parametrize("said, found", [
    ("I have two kids. Bram is 9 and Lotte is 6.", [("kids", "Bram and Lotte")]),
    ("We have one daughter, Amara.", [("daughter", "Amara")]),
    ("we've got three boys, Finn, Oisin and Rory", [("boys", "Finn and Oisin and Rory")]),
    ("I have a sister. She lives in Oslo.", []),  # no name: nothing to introduce
    ("I have two brothers. The older one is a chef.", []),
    ("I have a sister in London and a brother in Paris.", []),  # places, not names
    ("I have two kids. Christmas is going to be expensive.", []),
])
def test_a_counted_family_names_its_members(said, found):
    from memchat.memory.people import rosters
    assert [(r.relation, r.names) for r in rosters(said)] == found


def test_who_is_who_from_what_the_store_says():
    from memchat.memory.people import named_relations
    people = named_relations(["The user's daughter Isla is 20.", "Rhona is my partner.", "My lad Callum passed his test.",
                              "I have two kids. Bram is 9 and Lotte is 6.", "儿子赵磊在武汉读大三。"])
    assert people["daughter"] == {"Isla"} and people["son"] == {"Callum", "赵磊"}
    assert people["child"] == {"Isla", "Callum", "Bram", "Lotte", "赵磊"}, "a name counts for the broader relation too"
    assert people["spouse"] == {"Rhona"}
    assert "family" not in people, "too broad to name anyone"


def test_a_name_known_for_a_relation_meets_a_question_about_it():
    from memchat.memory.scoring import keyword_overlap
    people = {"son": [frozenset({"callum"})], "child": [frozenset({"callum"})]}
    assert keyword_overlap("Where is my lad these days?", "Callum passed his driving test.", people=people) == 1.0
    assert keyword_overlap("Where is my lad these days?", "Callum passed his driving test.") == 0.0


def test_who_is_who_is_worked_out_again_after_a_write_not_after_a_recall(tmp_path):
    """Recall touches what it selected; that changes no one's name, so the store is not read again."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process("My lad Callum passed his test.", session_id=None, message_id=None, now=1000.0)
    scans = []
    rows = services.memories.db.rows
    services.memories.db.rows = lambda sql, params=(): (scans.append(sql) if "ORDER BY id DESC" in sql else None) or rows(
        sql, params)
    for _ in range(5):
        services.recaller.recall("Where is my lad?", token_limit=400, count_tokens=services.engine.count, touch=True)
    assert len(scans) == 1
    services.writer.process("My daughter Isla is 20.", session_id=None, message_id=None, now=2000.0)
    services.recaller.recall("Where is my lad?", token_limit=400, count_tokens=services.engine.count, touch=True)
    assert len(scans) == 2 and services.memories.people()["daughter"] == {"Isla"}



def test_openers_nationalities_and_time_words_are_no_names():
    from memchat.memory.people import named_relations
    assert named_relations(["Then my boss told me off.", "But my wife said no.", "My wife is French.",
                            "领导今天说要加班。", "儿子上个月回来了。"]) == {}


def test_chinese_surnames_that_look_like_time_words_are_names():
    from memchat.memory.people import named_relations
    people = named_relations(["新公司组长是周敏。", "女儿明明今年六岁。"])
    assert people["boss"] == {"周敏"} and people["daughter"] == {"明明"}
    assert "work" not in people, "an area of life names no one"


@pytest.mark.parametrize("said, relation, name", [
    ("My sister's name is Ana.", "sister", "Ana"),
    ("Mum's name is Huia.", "mother", "Huia"),
    ("My husband's called Yerlan.", "husband", "Yerlan"),
    ("Dad (Peter) is retired.", "father", "Peter"),
    ("My husband (Dave) is a chef.", "husband", "Dave"),
    ("Dave's my husband.", "husband", "Dave"),
    ("The user has a sister called Ana.", "sister", "Ana"),
    ("My parents are Huia and Rangi.", "parent", "Rangi"),
    ("Rhona and me have been together 22 years.", "spouse", "Rhona"),
    ("I've been with Sam since uni.", "spouse", "Sam"),
    ("My boyfriend's name is Sam.", "spouse", "Sam"),
    ("My grandson Alfie starts school.", "grandchild", "Alfie"),
    ("我媳妇儿叫王芳。", "wife", "王芳"),
    ("我的女儿名叫小雨。", "daughter", "小雨"),
    ("我妈叫王丽。", "mother", "王丽"),
    ("弟媳叫林悦，是他研究生同学。", "in-law", "林悦"),
])
def test_more_ways_of_saying_who_is_who(said, relation, name):
    from memchat.memory.people import named_relations
    assert name in named_relations([said]).get(relation, set())


@pytest.mark.parametrize("said", ["My mum is pretty tired.", "Dad is Irish.", "我妈还住在那边。", "我老公姓陈。",
                                  "Then I had been with Work for a year."])
def test_a_relation_beside_no_name_names_no_one(said):
    from memchat.memory.people import named_relations
    assert named_relations([said]) == {}


@pytest.mark.parametrize(("text", "relation", "names"), [
    ("我女儿叫陈思雨，我们都喊她小雨，二十八岁了。", "daughter", {"陈思雨", "小雨"}),
    ("我老公叫陈建国，在银行上班，我叫他老陈。", "husband", {"陈建国", "老陈"}),
    ("My daughter Siobhan, we all call her Shiv, is 20.", "daughter", {"Siobhan", "Shiv"}),
    ("My brother Thomas, who goes by Tom, lives in Leeds.", "brother", {"Thomas", "Tom"}),
])
def test_a_nickname_said_after_the_name_is_a_name_of_the_same_person(text, relation, names):
    """"小雨真的去深圳了" is news of the daughter when she was introduced as "陈思雨，我们都喊她小雨" (held-out set H)."""
    from memchat.memory.people import named_relations
    assert named_relations([text])[relation] == names


def test_a_name_for_something_else_is_no_nickname():
    from memchat.memory.people import named_relations
    assert named_relations(["My son Jack, we call him the little monster."])["son"] == {"Jack"}


@pytest.mark.parametrize("said, name", [
    ("me and ola split up. on sunday.", "Ola"),
    ("Their mother Lindiwe and I divorced in 2022.", "Lindiwe"),
    ("callum and i broke up on tuesday, it was mutual", "Callum"),
    ("I broke up with Jesse last week.", "Jesse"),
    ("Marco dumped me by text, classy.", "Marco"),
    ("My ex-wife Lindiwe has the kids this weekend.", "Lindiwe"),
    ("我和林一帆分手了", "林一帆"),
    ("前男友叫周浩，最近又来找我", "周浩"),
])
def test_someone_the_user_parted_from_is_the_ex_without_the_word(said, name):
    from memchat.memory.people import named_relations
    assert name in named_relations([said]).get("ex", set())


@pytest.mark.parametrize("said", ["me and him split up", "me and my gf split up", "I left Glasgow in May.",
                                  "我和男朋友分手了", "我和他分手了", "my parents split up when I was ten"])
def test_parting_from_no_one_named_names_no_ex(said):
    from memchat.memory.people import named_relations
    assert not named_relations([said]).get("ex")


def test_a_partner_parted_from_is_a_partner_no_more():
    from memchat.memory.people import named_relations
    people = named_relations(["my boyfriend Callum is a carpenter", "callum and i broke up on tuesday",
                              "my girlfriend Noor runs a bakery"])
    assert people["ex"] == {"Callum"} and people["spouse"] == {"Noor"}


def test_a_question_about_the_ex_finds_what_was_said_of_them_as_a_partner(tmp_path):
    """"gf ola … she's a nurse", later "me and ola split up": the ex's job is what was said of the girlfriend."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process("My girlfriend Ola is a nurse at the Queen Elizabeth.", session_id=None, message_id=None,
                            now=1000.0)
    services.writer.process("me and ola split up. on sunday.", session_id=None, message_id=None, now=90_000.0)
    assert any("split up" in m.content for m in services.memories.list_items(episodes=True)), "a tie ended is news"
    result = services.recaller.recall("What does my ex do for a living?", token_limit=400,
                                      count_tokens=services.engine.count, touch=False)
    assert any(c.selected and "nurse" in c.memory.content for c in result.candidates), [
        (c.memory.content, c.reason) for c in result.candidates]


@pytest.mark.parametrize("said, name", [
    ("The user has been seeing someone called Noor, she runs the bakery.", "Noor"),
    ("i've been seeing someone. her name is Noor, she runs the bakery", "Noor"),
    ("I started dating a guy named Tom last month.", "Tom"),
    ("ok so. there's someone. her name is Noor, she's a landscape architect", "Noor"),
    ("I've met someone. His name is Leo.", "Leo"),
    ("我和林一帆在一起了 哈哈", "林一帆"),
    ("林一帆求婚了！！！昨天晚上在金鸡湖边，我答应了 哈哈哈", "林一帆"),
])
def test_a_partner_first_met_as_someone_is_the_partner(said, name):
    from memchat.memory.people import named_relations
    assert named_relations([said]).get("spouse") == {name}


@pytest.mark.parametrize("said", [
    "I'm seeing someone called Dave about the boiler.",   # a tradesman, not a partner
    "There's someone at the door, his name is Bob.",
    "I met someone at work, her name is Sam.",
    "I have been seeing someone about my knee.",
    "我跟同事在一起了",                                     # with colleagues, no one named
    "我和小王在一起吃饭",                                    # together at a meal
])
def test_seeing_someone_about_something_and_being_together_somewhere_name_no_partner(said):
    from memchat.memory.people import named_relations
    assert "spouse" not in named_relations([said])


def test_an_adverb_after_a_chinese_name_is_not_part_of_it():
    from memchat.memory.people import named_relations
    assert named_relations(["我男朋友周浩老说我太拼了。"])["spouse"] == {"周浩"}


def test_what_the_partner_does_is_found_by_the_name_the_store_knows_them_by(tmp_path):
    """"I've been seeing someone. Her name is Noor, she runs the bakery…": "what does my girlfriend do?" is Noor's."""
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process("i've been seeing someone. her name is Noor, she runs the bakery at the bottom of the hill.",
                            session_id=None, message_id=None, now=1000.0)
    assert services.memories.people().get("spouse") == {"Noor"}
    result = services.recaller.recall("What does my girlfriend do for work?", token_limit=400,
                                      count_tokens=services.engine.count, touch=False)
    assert any("Noor" in c.memory.content and c.signals.keyword > 0 for c in result.candidates), [
        (c.memory.content, c.signals.keyword) for c in result.candidates]


def test_someone_there_for_the_user_is_a_partner_and_someone_at_the_door_is_not(tmp_path):
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process("ok so. there's someone. her name is Noor, she's a landscape architect, we met at a bbq.",
                            session_id=None, message_id=None, now=1000.0)
    services.writer.process("There's someone called Dave at the door.", session_id=None, message_id=None, now=2000.0)
    partners = [m.content for m in services.memories.list_items() if m.attribute == "partner"]
    assert len(partners) == 1 and "Noor" in partners[0], partners


def test_a_late_wife_named_in_passing_does_not_replace_the_partner_the_user_has_now(tmp_path):
    from helpers import fake_services
    services = fake_services(tmp_path)
    services.writer.process("Tom's my partner now.", session_id=None, message_id=None, now=1000.0)
    services.writer.process("My wife Ruth died in 2015.", session_id=None, message_id=None, now=2000.0)
    partners = [m.content for m in services.memories.list_items() if m.attribute == "partner"]
    assert len(partners) == 1 and "Tom" in partners[0], partners
