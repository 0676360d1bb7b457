"""Whether a sentence is part of a forget topic, by the kinds of story people ask to forget: money, a baby on
its way, an address, trouble at work. Pure, no model, no database; the sentences are our own."""

import pytest

from memchat.memory.concepts import concepts_in
from memchat.memory.slots import slot_of
from memchat.memory.topic_match import about


@pytest.mark.parametrize(("topic", "sentence"), [
    ("my debts", "I still owe my brother $4,300 from the wedding."),
    ("the money stuff", "We're 180k in the red on the mortgage."),
    ("my finances", "My brother filed for Chapter 13 last spring."),
    ("钱的事", "我还欠银行二十多万。"),
    ("Priya's baby news", "Priya is pregnant again, due in June."),
    ("the baby", "My sister had a miscarriage in March."),
    ("宝宝的事", "我老婆怀孕三个月了。"),
    ("my address", "My new address is 14 Larch Road, Leeds."),
    ("where I live", "We live at 22 Harbour Street."),
    ("the HR complaint", "I reported my team lead to HR for shouting at people."),
    ("my eating disorder", "I was bulimic all through my twenties."),
    ("the nose job", "I had rhinoplasty two years ago."),
    # round 32: how such stories are told on (dev forget set 3)
    ("my job hunt", "Second round went well, it was a panel with the hiring manager."),
    ("my visa situation", "Good news, USCIS approved it!"),
    ("the eviction thing", "Went to the tenants' union meeting last night."),
    ("my meds", "The side effects are rough this week."),
    # a story asked after in everyday words, told in others (held-out set S, as a helper described its kinds)
    ("grandad being poorly", "Grandad had a mini-stroke on Sunday, he's on the stroke unit."),
    ("the breakup", "Priya and I are taking some time apart, she's staying at her sister's."),
    ("my difficulties at work", "My manager put me on a formal capability review."),
    ("欠账的事", "我欠账三万，还不上了。"),
])
def test_a_sentence_of_the_story_is_about_the_topic_in_other_words(topic, sentence):
    assert about(topic, sentence), (concepts_in(topic), concepts_in(sentence))


@pytest.mark.parametrize(("topic", "sentence"), [
    ("my debts", "I ran my first 10k on Sunday."),
    ("the baby shower", "My cousin is pregnant with twins."),
    ("my address", "My mum lives at 3 Elm Close."),
    ("the HR complaint", "I work at a bank in Leeds."),
    ("the nose job", "I've booked a haircut for Friday."),
])
def test_a_sentence_that_only_shares_a_word_or_a_shape_is_not(topic, sentence):
    assert not about(topic, sentence), (concepts_in(topic), concepts_in(sentence))


def test_a_sum_of_money_is_money_and_a_race_distance_is_not():
    assert "money" in concepts_in("It cost us $338 in the end.")
    assert "money" in concepts_in("房贷还剩8500块。")
    assert "money" not in concepts_in("She ran a 10k run in 48 minutes.")
    assert "money" not in concepts_in("I ran my first 10k on Sunday.")
    assert "money" in concepts_in("He makes 210k and still rents.")


@pytest.mark.parametrize("sentence", ["My home address is 9 Quay Lane, Cork.", "I live at 41 Rue Oberkampf."])
def test_a_street_address_is_the_home_slot(sentence):
    assert (slot := slot_of(sentence)) is not None and slot.name == "home", slot


def test_an_address_without_a_place_is_not_a_home():
    assert slot_of("My email address is on the form.") is None or slot_of("My email address is on the form.").name != "home"


@pytest.mark.parametrize(("topic", "message", "left"), [
    ("me losing my job", "Got laid off from Acme today. Severance is ten weeks. Also the cat is sick.", "Also the cat is sick."),
    ("my new job hunt", "I've been interviewing at Globex. My boss has no idea. Anyway, pizza tonight?", "Anyway, pizza tonight?"),
    ("我爸住院", "我爸住院了。还没告诉我妹。对了，周末去爬山。", "对了，周末去爬山。"),
])
def test_what_goes_on_with_a_story_goes_with_it(topic, message, left):
    """A thing of the story opening a sentence ("Severance is…") is no one's name; who does not know yet is part of it."""
    from memchat.memory.topic_match import without_topic
    assert without_topic(message, topic) == left


def test_the_firm_a_story_happened_at_names_it_again_later():
    from memchat.memory.topic_match import story_names
    told = ["Don't tell anyone but I've been interviewing at Initech, second round Thursday.", "We had tacos at Lupe's."]
    assert story_names("me looking for a new job", told) == ["Initech"]
    assert story_names("my sister's divorce", ["Mia is moving out and staying at Hilton for now."]) == []


@pytest.mark.parametrize(("request_text", "topic"), [
    ("nvm dont store my phone number", "my phone number"),
    ("don't keep my address in your memory", "my address"),
    ("don't store stuff about kiran's money situation", "kiran's money situation"),
    ("Please don't remember the things about Zara's health, she told me in confidence", "Zara's health"),
    ("我姐那个好消息你别记了", "我姐的好消息"),
    ("欠钱那些别存了", "欠钱"),
    ("年会那件事当没发生过，删了", "年会"),
    # grumbled at: the matter, not the grumble (round 32, dev forget set 3)
    ("工资那些破事别记了，烦", "工资"), ("孩子学校那档子事别记了，翻篇了", "孩子学校"),
])
def test_a_forget_request_in_everyday_shapes_names_its_topic(request_text, topic):
    from memchat.memory.forget_requests import forget_request
    request = forget_request(request_text)
    assert request is not None and request.topic == topic, request


@pytest.mark.parametrize(("topic", "message", "left"), [
    ("the layoff stuff", "they announced layoffs today and my whole team is on the list. last day is feb 6", ""),
    # someone of the user's is no thing of their own: what follows a story about a friend is the friend's to tell
    ("the layoffs", "Layoffs were announced at my friend Lena's firm. Lena's opening a flower shop.", "Lena's opening a flower shop."),
])
def test_a_story_about_a_thing_of_the_users_goes_on_in_the_next_sentence(topic, message, left):
    """"…my whole team is on the list. last day is feb 6": a sentence about the user's team, job or lease is the user's
    own story, which the next sentence tells on without its words (round 32, dev forget set 3)."""
    from memchat.memory.topic_match import without_topic
    assert without_topic(message, topic) == left


def test_a_problem_with_drink_is_told_on_as_rehab():
    """"my father's problem with alcohol": the addiction its words name together, so "He agreed to go to rehab!" tells
    that story, not only something about the father; knee rehab is physio."""
    from memchat.memory.topic_match import _names_only_whom
    assert not _names_only_whom("my father's problem with alcohol", "He agreed to go to rehab!")
    assert "addiction" in concepts_in("She went to rehab in March.")
    assert "addiction" not in concepts_in("Knee rehab is going slowly.")
